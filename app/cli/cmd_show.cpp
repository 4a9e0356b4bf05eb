// gigacheck show: the report of a saved run record (records made on a GPU server read anywhere).
#include "commands.hpp"

#include "command_line.hpp"

#include "gigacheck/record.hpp"
#include "gigacheck/strassen.hpp"

#include <fstream>
#include <sstream>

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
    // A strassen record (family "strassen") has its own report; everything else is a run record.
    std::ifstream in(text(files.first()));
    std::stringstream content;
    content << in.rdbuf();
    if (const auto strassen = gigacheck::strassenResultFromJson(content.str())) {
        std::cout << gigacheck::formatStrassenReport(*strassen);
        return kExitVerified;
    }
    std::cout << gigacheck::formatReport(gigacheck::loadRecord(text(files.first())));
    return kExitVerified;
}

}  // namespace cli
