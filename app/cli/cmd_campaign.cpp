// gigacheck campaign: N fault injections in one process on one backend, each run classified against
// the full reference (masked, corrected, corrected by recompute, DUE, SDC, false alarm); the outcome
// table with 95 % Wilson intervals on stdout, progress on stderr, JSON / CSV on request.
#include "commands.hpp"
#include "output_files.hpp"

#include "command_line.hpp"
#include "interrupt.hpp"

#include "gigacheck/command_options.hpp"
#include "gigacheck/campaign.hpp"
#include "gigacheck/fault_models.hpp"
#include "gigacheck/safe_write.hpp"

#include <charconv>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>

namespace cli {
using namespace gigacheck;

namespace {

// "s2", "none,s1,s4" or "all".
std::vector<StrategyKind> parseStrategies(const std::string& text)
{
    if (text == "all")
        return {StrategyKind::None, StrategyKind::S1, StrategyKind::S2, StrategyKind::S3, StrategyKind::S4};
    std::vector<StrategyKind> out;
    std::size_t start = 0;
    while (true) {
        const std::size_t comma = text.find(',', start);
        out.push_back(strategyFromString(text.substr(start, comma == std::string::npos ? comma : comma - start)));
        if (comma == std::string::npos)
            return out;
        start = comma + 1;
    }
}

// "blocked|online|strassen": the registry's campaign families.
std::string familyValueName()
{
    std::string names;
    for (std::string_view name : campaignFamilyNames())
        names.append(names.empty() ? "" : "|").append(name);
    return names;
}

void addCampaignOptions(QCommandLineParser& parser)
{
    // The options whose meaning depends on the family say what each family takes, from the registry.
    const CampaignOptionHelp scheme = campaignSchemeHelp(), target = campaignTargetHelp();
    parser.addOptions({
        option("runs", "Number of runs, each with its own inputs and faults (required).", "N"),
        option("shape", "Problem size: A is M x N, B is N x Q. Default 256x256x256.", "MxNxQ"),
        option("type", campaignTypeHelp().c_str(), "f32|f64|tf32|tf32x3|bf16|f16"),
        option("strategy", "Buffering strategy; a comma list or all cycles through them run by run. Default s1.",
               "none|s1|s2|s3|s4|all"),
        option("mem", "Memory cap of every run. Default: a quarter of A + B + C (several blocks).", "SIZE"),
        option("family", campaignFamilyHelp().c_str(), familyValueName().c_str()),
        option("scheme", scheme.text.c_str(), scheme.values.c_str()),
    });
    // The options of one family's campaigns (--check-every, --panel, --levels), declared by it.
    for (const OptionSpec& o : campaignFamilyOptions())
        parser.addOption(option(o.name.c_str(), o.help.c_str(), o.valueName));
    parser.addOptions({
        option("fault", campaignFaultHelp().c_str(), "bitflip:any|bitflip:B|bitflip2|bitflip:B+B2|delta|none"),
        option("extent", campaignModelHelp().c_str(), "cell|row[:L]|col[:L]|tile[:S]"),
        option("model", "The same as --extent (its earlier name in campaigns).", "cell|row[:L]|col[:L]|tile[:S]"),
        option("target", target.text.c_str(), target.values.c_str()),
        option("faults-per-run", "Faults per run (distinct cells). Default 1.", "K"),
        option("inject-at",
               "A place every run strikes, in the grammar of run and strassen (TARGET c, a, b, checksum-row, "
               "checksum-col; Strassen c:Q, a:Q, b:Q, product:K); the runs vary their inputs and, with "
               "--fault bitflip:any, the bit. Sets --target and --faults-per-run. Repeatable.",
               "[TARGET:]R,C[:DELTA][@WHEN]"),
        option("backend", "auto, cpu or cuda; one backend serves every run. Default auto.", "auto|cpu|cuda"),
        option("device", "CUDA device number, as `gigacheck devices` lists them.", "N"),
        option("seed", "Campaign seed: every run's inputs, strategy, target, bit and position derive from it. "
                       "Default 1.",
               "S"),
        option("dist", "Input values: uniform, normal or wide. Default uniform.", "uniform|normal|wide"),
        option("shard", "Run only the K-th of N disjoint slices of the campaign (K from 1; every run keeps its "
                        "seed), for one node of a job array; gigacheck campaign merge joins the shard files.",
               "K/N"),
        option("json", "Write the campaign (config, every run with its configuration, summary) to FILE.", "FILE"),
        option("csv", "Write one row per run to FILE and the summary to FILE's name with -summary.", "FILE"),
    });
}

// --family and --scheme together, through the registry's campaign families (chooseCampaignFamily):
// --scheme online|offline|tmr alone means the online family; each family's defaults (scheme, fault,
// target) where the user gave none. The options of one family are refused in another's campaign
// (one line, exit 2).
void familyFrom(const QCommandLineParser& parser, CampaignConfig& c)
{
    const auto set = [&](std::string_view name) { return parser.isSet(QString::fromUtf8(name.data(), qsizetype(name.size()))); };
    const auto value = [&](const char* name, auto parse) {
        return optionValue(parser, QString::fromLatin1(name), parse);
    };
    std::optional<CampaignFamily> family;
    if (set("family"))
        family = value("family", [](const std::string& s) { return campaignFamilyFromString(s); });
    std::optional<std::string> scheme;
    if (set("scheme"))
        scheme = text(parser.value(QStringLiteral("scheme")));
    chooseCampaignFamily(c, family, scheme, set);
    for (const OptionSpec& o : campaignFamilyOptions())
        if (set(o.name))
            value(o.name.c_str(), [&](const std::string& v) { readCampaignFamilyOption(o.name, v, c); return 0; });
}

struct CampaignOptions {
    CampaignConfig config;
    std::optional<CampaignShard> shard;
    std::string jsonPath, csvPath;
};

// "K/N": two whole numbers and nothing else (the range is checked against --runs after).
CampaignShard parseShard(const std::string& s)
{
    const std::size_t slash = s.find('/');
    if (slash == std::string::npos)
        throw InputError("expected K/N, the K-th of N shards (e.g. 3/8; K from 1)");
    return {parseInteger<int>(s.substr(0, slash), 1, 10'000'000, "a shard number K (1 to N)"),
            parseInteger<int>(s.substr(slash + 1), 1, 10'000'000, "a shard count N")};
}

std::string nonEmptyPath(const QCommandLineParser& parser, const char* name)
{
    const std::string path = text(parser.value(QString::fromLatin1(name)));
    if (path.empty())
        throw InputError(std::string("--") + name + " needs a file name (got an empty one)");
    return path;
}

CampaignOptions campaignOptionsFrom(const QCommandLineParser& parser)
{
    if (!parser.positionalArguments().isEmpty())
        throw InputError("unexpected argument '" + text(parser.positionalArguments().first()) +
                         "' (see gigacheck campaign --help)");
    if (!parser.isSet(QStringLiteral("runs")))
        throw InputError("missing --runs N (e.g. --runs 1000)");
    CampaignOptions o;
    CampaignConfig& c = o.config;
    const auto set = [&](const char* name) { return parser.isSet(QString::fromLatin1(name)); };
    const auto value = [&](const char* name, auto parse) {
        return optionValue(parser, QString::fromLatin1(name), parse);
    };
    c.runs = value("runs", [](const std::string& s) { return parseInteger<int>(s, 1, 10'000'000, "a run count"); });
    if (set("shape"))
        c.shape = value("shape", parseShape);
    if (set("type"))
        c.type = value("type", [](const std::string& s) { return campaignTypeFromString(s); });
    if (set("strategy"))
        c.strategies = value("strategy", parseStrategies);
    if (set("mem"))
        c.memCapBytes = value("mem", [](const std::string& s) { return parseSize(s); });
    familyFrom(parser, c);
    if (set("fault"))
        value("fault", [&](const std::string& s) { return parseCampaignFault(s, c), 0; });
    if (set("target"))
        c.target = value("target", [](const std::string& s) { return campaignTargetFromString(s); });
    // --extent, as `run` names it; --model, the campaign's earlier name, still read.
    if (set("extent") && set("model") && parser.value(QStringLiteral("extent")) != parser.value(QStringLiteral("model")))
        throw InputError("--extent and --model name the same thing (--model is its earlier name): give one");
    for (const char* name : {"extent", "model"})
        if (set(name))
            value(name, [&](const std::string& s) { return parseFaultExtent(s, c.extent, c.extentLength), 0; });
    if (set("faults-per-run"))
        c.faultsPerRun =
            value("faults-per-run", [](const std::string& s) { return parseInteger<int>(s, 1, 1 << 16, "a count"); });
    if (set("inject-at")) {
        std::vector<std::string> places;
        for (const QString& v : parser.values(QStringLiteral("inject-at")))
            places.push_back(text(v));
        if (set("faults-per-run") && c.faultsPerRun != int(places.size()))
            throw InputError("--faults-per-run " + std::to_string(c.faultsPerRun) + " and " +
                             std::to_string(places.size()) + " --inject-at place(s): a run strikes each place once");
        placeCampaignFaults(c, places, set("target"));
    }
    if (set("backend"))
        c.backend = value("backend", [](const std::string& s) { return backendFromString(s); });
    if (set("device"))
        c.device = value("device", parseDeviceNumber);
    if (set("seed"))
        c.seed = value("seed", [](const std::string& s) {
            return parseInteger<std::uint64_t>(s, 0, std::numeric_limits<std::uint64_t>::max(), "a seed");
        });
    if (set("dist"))
        c.distribution = value("dist", [](const std::string& s) { return distributionFromString(s); });
    if (set("shard")) {
        o.shard = value("shard", parseShard);
        try {
            validateCampaignShard(*o.shard, c.runs);
        } catch (const InputError& e) {  // "shard K/N: ..." as the option the user typed
            throw InputError(std::string("--") + e.what());
        }
    }
    if (set("json"))
        o.jsonPath = nonEmptyPath(parser, "json");
    if (set("csv"))
        o.csvPath = nonEmptyPath(parser, "csv");
    return o;
}

// "runs.csv" -> "runs-summary.csv"
std::string summaryPath(const std::string& csvPath)
{
    const std::filesystem::path p(csvPath);
    return (p.parent_path() / (p.stem().string() + "-summary" + p.extension().string())).string();
}

// One line on stderr every tenth of the campaign or every 5 s, whichever comes first.
class Progress {
public:
    void operator()(const CampaignRun& run, int done, int total)
    {
        counts_.add(run.outcome);
        const auto now = std::chrono::steady_clock::now();
        const double elapsed = std::chrono::duration<double>(now - start_).count();
        const bool tenth = total >= 10 ? done % (total / 10) == 0 : true;
        if (!tenth && done != total && now - last_ < std::chrono::seconds(5))
            return;
        last_ = now;
        const double eta = done ? elapsed / done * (total - done) : 0;
        std::fprintf(stderr, "campaign: %d/%d runs, %.1f s, ETA %.0f s (masked %lld, corrected %lld, recompute %lld, "
                             "DUE %lld, SDC %lld, false alarms %lld)\n",
                     done, total, elapsed, eta, (long long)counts_[Outcome::Masked],
                     (long long)counts_[Outcome::Corrected], (long long)counts_[Outcome::CorrectedByRecompute],
                     (long long)counts_[Outcome::DetectedUncorrectable], (long long)counts_[Outcome::SilentCorruption],
                     (long long)counts_[Outcome::FalseAlarm]);
    }

private:
    OutcomeCounts counts_;
    std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now(), last_ = start_;
};

// The description at the top of `gigacheck campaign --help`; its families from the registry.
QString campaignDescription()
{
    return QStringLiteral("Runs N fault injections in one process (one backend, reused) and "
                          "classifies each run\nagainst the full reference: masked, corrected, "
                          "corrected by recompute, detected\nuncorrectable (DUE), silent data "
                          "corruption (SDC) or false alarm; prints the\noutcome table with 95 % "
                          "Wilson intervals and tables by bit, target and strategy (Strassen: level).\n"
                          "Families: ") +
               QString::fromStdString(campaignFamilyList()) +
               QStringLiteral(".\nEvery run's configuration is in the JSON / CSV (column "
                          "reproduce: the gigacheck run\nor gigacheck strassen command of that run "
                          "alone).\nSpread over machines: --shard K/N on each "
                          "(K = 1..N), then\ngigacheck campaign merge SHARD.json... --json FILE "
                          "(gigacheck campaign merge --help).\nExit status: 0 the campaign ran (whatever "
                          "it found), 2 bad input, a failure or an\ninterruption (the runs done so "
                          "far are still written).");
}

}  // namespace

int campaignCommand(const QStringList& args)
{
    if (!args.isEmpty() && args.first() == QLatin1String("merge"))
        return campaignMergeCommand(args.mid(1));
    QCommandLineParser parser;
    addCampaignOptions(parser);
    if (!parseCommandLine(parser, QStringLiteral("campaign"),
                          campaignDescription(),
                          args))
        return kExitVerified;
    const CampaignOptions options = campaignOptionsFrom(parser);
    requireDevice(options.config.device, options.config.backend);
    // --json and --csv (with its summary beside it) must name three files: none overwrites another.
    refuseSharedFiles({}, {{"--json", options.jsonPath},
                           {"--csv", options.csvPath},
                           {"--csv's summary", options.csvPath.empty() ? std::string() : summaryPath(options.csvPath)}});
    const CancellableSection cancellable;
    if (!options.jsonPath.empty())
        checkWritable(options.jsonPath, "campaign record");
    if (!options.csvPath.empty()) {
        checkWritable(options.csvPath, "campaign table");
        checkWritable(summaryPath(options.csvPath), "campaign summary");
    }

    Progress progress;
    CampaignHooks hooks;
    hooks.cancel = &cancelRequested();
    hooks.onRun = [&](const CampaignRun& run, int done, int total) { progress(run, done, total); };
    // InputError -> exit 2 in main
    const CampaignResult result =
        options.shard ? runCampaign(options.config, *options.shard, hooks) : runCampaign(options.config, hooks);
    cancellable.holdSignals();  // a signal from here waits: the files are written whole

    if (!options.jsonPath.empty())
        writeTextFile(options.jsonPath, campaignToJson(result), "campaign record");
    if (!options.csvPath.empty()) {
        writeTextFile(options.csvPath, campaignRunsCsv(result), "campaign table");
        writeTextFile(summaryPath(options.csvPath), campaignSummaryCsv(result), "campaign summary");
    }
    std::cout << formatCampaignReport(result);
    cancellable.release(result.interrupted);
    if (result.interrupted) {
        const RunRange planned = options.shard ? shardRuns(options.config.runs, *options.shard)
                                               : RunRange{0, options.config.runs};
        std::cerr << "gigacheck: error: campaign " << interruptWords() << " after " << result.runs.size() << " of "
                  << planned.end - planned.begin << " runs"
                  << (options.jsonPath.empty() && options.csvPath.empty() ? "" : "; the runs done are written")
                  << "\n";
        return kExitFailure;
    }
    return kExitVerified;
}

}  // namespace cli
