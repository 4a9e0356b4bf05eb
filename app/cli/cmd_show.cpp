// gigacheck show: the report of a saved run record (records made on a GPU server read anywhere).
#include "commands.hpp"

#include "command_line.hpp"

#include "gigacheck/online_abft.hpp"
#include "gigacheck/record.hpp"
#include "gigacheck/record_envelope.hpp"
#include "gigacheck/reduced_matmul.hpp"
#include "gigacheck/strassen.hpp"
#include "gigacheck/transpose.hpp"

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
    // Each family's records have their own report: dispatch on the record's family. A family adds
    // its line here.
    const std::string path = text(files.first());
    const std::string family = gigacheck::recordFamilyOfFile(path);
    if (family == "blocked_gemm") {
        std::cout << gigacheck::formatReport(gigacheck::loadRecord(path));
    } else if (family == "strassen") {
        std::cout << gigacheck::formatStrassenReport(gigacheck::loadStrassenRecord(path));
    } else if (family == gigacheck::OnlineRecord::kFamily) {
        std::cout << gigacheck::formatOnlineReport(gigacheck::loadOnlineRecord(path));
    } else if (family == "transpose") {
        std::cout << gigacheck::transpose::report(gigacheck::transpose::loadRecord(path));
    } else if (family == "reduced_matmul") {
        std::cout << gigacheck::reduced_matmul::report(gigacheck::reduced_matmul::loadRecord(path));
    } else {
        throw gigacheck::InputError(path + ": this gigacheck has no report for records of family '" + family + "'");
    }
    return kExitVerified;
}

}  // namespace cli
