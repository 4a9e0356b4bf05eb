// gigacheck show: the report of a saved run record (records made on a GPU server read anywhere).
#include "commands.hpp"

#include "command_line.hpp"

#include "gigacheck/online_abft.hpp"
#include "gigacheck/record.hpp"

#include <iostream>

namespace cli {

int showCommand(const QStringList& args)
{
    QCommandLineParser parser;
    parser.addPositionalArgument(QStringLiteral("FILE"), QStringLiteral("A run record written by gigacheck run --json."));
    if (!parseCommandLine(parser, QStringLiteral("show"), QStringLiteral("Prints the report of a saved run record."),
                          args))
        return kExitVerified;
    const QStringList files = parser.positionalArguments();
    if (files.size() != 1)
        throw gigacheck::InputError("show takes exactly one FILE (see gigacheck show --help)");
    if (const auto online = gigacheck::loadOnlineRecord(text(files.first()))) {  // the online ABFT family's
        std::cout << gigacheck::formatOnlineReport(*online);
        return kExitVerified;
    }
    std::cout << gigacheck::formatReport(gigacheck::loadRecord(text(files.first())));
    return kExitVerified;
}

}  // namespace cli
