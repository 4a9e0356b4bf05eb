// gigacheck campaign merge: the shard files of one campaign (gigacheck campaign ... --shard K/N,
// one per node of a job array) joined into the campaign the whole run gives: its report on stdout,
// the merged file with --json. Anything that would make it differ from the whole run is refused.
#include "commands.hpp"
#include "output_files.hpp"

#include "command_line.hpp"

#include "gigacheck/safe_write.hpp"
#include "gigacheck/campaign.hpp"

#include <iostream>

namespace cli {
using namespace gigacheck;

int campaignMergeCommand(const QStringList& args)
{
    QCommandLineParser parser;
    parser.addOptions({
        option("json", "Write the merged campaign (as one campaign run whole would write it) to FILE.", "FILE"),
    });
    parser.addPositionalArgument(QStringLiteral("FILES"), QStringLiteral("The shard files, every K of 1..N once."),
                                 QStringLiteral("SHARD.json..."));
    if (!parseCommandLine(parser, QStringLiteral("campaign merge"),
                          QStringLiteral("Joins the shard files of one campaign (gigacheck campaign ... --shard K/N "
                                         "--json FILE,\nK = 1..N) into the campaign a run without --shard gives: "
                                         "the same runs, outcome\ntable, intervals and tables by bit, target and "
                                         "strategy. Refuses files of\ndifferent campaigns, a shard given twice or "
                                         "missing, interrupted shards and\nwhole campaigns.\nExit status: 0 merged, "
                                         "2 refused (one line says why) or bad input."),
                          args))
        return kExitVerified;
    std::vector<std::string> paths;
    for (const QString& path : parser.positionalArguments())
        paths.push_back(text(path));
    if (paths.empty())
        throw InputError("campaign merge needs the shard files (gigacheck campaign merge shard-*.json --json FILE)");
    const std::string jsonPath = parser.isSet(QStringLiteral("json"))
                                     ? requireOutputPath(text(parser.value(QStringLiteral("json"))), "json",
                                                         "merged campaign")
                                     : std::string();
    // The merged campaign never replaces one of its shards (the shard would be lost, and a second
    // merge would refuse the whole campaign in its place).
    std::vector<NamedFile> shardFiles;
    for (const std::string& path : paths)
        shardFiles.push_back({"a shard", path});
    refuseSharedFiles(shardFiles, {{"--json", jsonPath}});

    std::vector<CampaignResult> shards;
    shards.reserve(paths.size());
    for (const std::string& path : paths)
        shards.push_back(loadCampaign(path));  // InputError names the file -> exit 2 in main
    const CampaignResult merged = mergeCampaignShards(shards, paths);
    if (!jsonPath.empty())
        writeTextFile(jsonPath, campaignToJson(merged), "merged campaign");
    std::cout << formatCampaignReport(merged);
    return kExitVerified;
}

}  // namespace cli
