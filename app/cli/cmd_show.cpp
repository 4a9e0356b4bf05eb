// gigacheck show: the report of a saved run record (records made on a GPU server read anywhere).
#include "commands.hpp"

#include "command_line.hpp"

#include "gigacheck/campaign.hpp"
#include "gigacheck/family.hpp"

#include <iostream>

namespace cli {

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
    // The record's family reads it (any format it ever wrote) and reports it.
    std::cout << gigacheck::reportOf(*gigacheck::loadAnyRecord(path));
    return kExitVerified;
}

}  // namespace cli
