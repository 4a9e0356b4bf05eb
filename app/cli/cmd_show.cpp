// gigacheck show: the report of a saved run record (records made on a GPU server read anywhere).
#include "commands.hpp"

#include "command_line.hpp"

#include "gigacheck/campaign.hpp"
#include "gigacheck/online_abft.hpp"
#include "gigacheck/record.hpp"
#include "gigacheck/record_envelope.hpp"
#include "gigacheck/reduced_matmul.hpp"
#include "gigacheck/strassen.hpp"
#include "gigacheck/transpose.hpp"

#include <iostream>

namespace cli {

namespace {

// Each family's records have their own report: dispatch on the record's family. A family adds
// its line here.
void printRecordReport(const std::string& path)
{
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
}

}  // namespace

int showCommand(const QStringList& args)
{
    QCommandLineParser parser;
    parser.addPositionalArgument(QStringLiteral("FILE"), QStringLiteral("A run record written by gigacheck run --json (or a campaign of gigacheck campaign --json)."));
    if (!parseCommandLine(parser, QStringLiteral("show"), QStringLiteral("Prints the report of a saved run record."),
                          args))
        return kExitVerified;
    const QStringList files = parser.positionalArguments();
    if (files.size() != 1)
        throw gigacheck::InputError("show takes exactly one FILE (see gigacheck show --help)");
    const std::string path = text(files.first());
    // A campaign has format_version 1 like the first run records and would fail as one ("missing
    // field 'config.precision'"): asked first (its "format" is read, not the whole file), it is said
    // what it is, its report printed, and where its chart is.
    if (gigacheck::isCampaignFile(path)) {
        const std::string report = gigacheck::formatCampaignReport(gigacheck::loadCampaign(path));  // or refused
        std::cout << path << " is a fault-injection campaign (gigacheck campaign --json), not a run record; "
                  << "the lab charts it (gigacheck-lab: File > Open campaign...). Its report:\n\n"
                  << report;
        return kExitVerified;
    }
    printRecordReport(path);
    return kExitVerified;
}

}  // namespace cli
