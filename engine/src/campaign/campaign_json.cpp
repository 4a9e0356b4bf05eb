// A campaign <-> JSON ("format": "gigacheck-campaign"). Each run keeps its configuration, so the lab
// (or `gigacheck run`) can re-run any single one; the summary is written for readers and recomputed
// from the runs on load. Reading bounds the nesting depth and the file size: a hostile file cannot
// exhaust the stack or the memory.
#include "gigacheck/campaign.hpp"
#include "campaign/operand_faults.hpp"
#include "gigacheck/fault_models.hpp"
#include "core/record/json_limits.hpp"
#include "core/record/streamed_dom.hpp"

#include "campaign/campaign_json_fields.hpp"
#include "campaign/family_campaign.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>

namespace gigacheck {

namespace {

using campaignjson::element;
using campaignjson::field;
using campaignjson::Json;
using campaignjson::number;
constexpr int kFormatVersion = 1;
constexpr int kMaxDepth = 16;
constexpr std::size_t kMaxFileBytes = jsonlimits::kMaxFileBytes;  // as a run record

Json write(const OutcomeCounts& c)
{
    Json out = Json::object();
    out["runs"] = c.total;
    for (Outcome o : kOutcomes) {
        const Interval ci = wilsonInterval(c[o], c.total);
        out[std::string(toString(o))] = {{"count", c[o]},
                                         {"fraction", c.total ? double(c[o]) / double(c.total) : 0.0},
                                         {"ci95", {ci.low, ci.high}}};
    }
    return out;
}

Json write(const std::vector<CampaignGroup>& groups)
{
    Json out = Json::array();
    for (const CampaignGroup& g : groups) {
        Json row = write(g.counts);
        row["key"] = g.key;
        out.push_back(row);
    }
    return out;
}

Json write(const CampaignConfig& c)
{
    Json strategies = Json::array();
    for (StrategyKind k : c.strategies)
        strategies.push_back(toString(k));
    Json out = {{"family", c.family},
            {"runs", c.runs},
            {"shape", {{"m", c.shape.m}, {"n", c.shape.n}, {"q", c.shape.q}}},
            {"type", toString(c.type)},
            {"strategies", strategies},
            {"mem_bytes", c.memCapBytes},  // 0: the default caps (campaignCapBytes)
            {"scheme", c.scheme},
            {"fault", campaignFaultText(c)},
            {"target", toString(c.target)},
            {"faults_per_run", c.faultsPerRun},
            {"backend", toString(c.backend)},
            {"device", c.device},
            {"seed", c.seed},
            {"dist", toString(c.distribution)},
            {"lambda", c.thresholdLambda}};
    // The families' own settings, only where they mean something (a blocked file reads as before).
    campaignFamilyOf(c).writeConfig(c, out);
    if (c.extent != FaultExtent::Cell)  // one cell per fault: the key is absent, as in older files
        out["model"] = faultExtentText(c.extent, c.extentLength);
    if (!c.placed.empty()) {  // --inject-at: absent when the places are drawn, as in older files
        Json placed = Json::array();
        for (const InjectSpec& at : c.placed)
            placed.push_back(toString(at));
        out["inject_at"] = placed;
    }
    return out;
}

// An operand fault's element (block (-1, -1, -1), position in A or B) is labelled with its
// operand, "a" or "b"; the cells of C a fault after the checksums then changes are "result".
std::string appliedTarget(const Injection& inj, const CampaignRun& run)
{
    if (run.operand && inj.block.i < 0)
        return std::string(1, run.operand);
    return std::string(toString(inj.target));
}

Json write(const Injection& inj, const CampaignRun& run)
{
    Json out = {{"block", {inj.block.i, inj.block.j, inj.block.k}},
            {"local_row", inj.localRow},
            {"local_col", inj.localCol},
            {"global_row", inj.globalRow},
            {"global_col", inj.globalCol},
            {"target", appliedTarget(inj, run)},
            {"model", toString(inj.model)},
            {"bit", inj.bit},
            {"delta", number(inj.delta)},
            {"before", number(inj.before)},
            {"after", number(inj.after)}};
    if (inj.bit2 >= 0)
        out["bit2"] = inj.bit2;
    return out;
}

Json write(const CampaignRun& run, const CampaignConfig& c)
{
    Json positions = Json::array();
    for (const FaultAt& at : run.positions)
        positions.push_back({at.row, at.col});
    Json applied = Json::array();
    for (const Injection& inj : run.applied)
        applied.push_back(write(inj, run));
    const FaultReport& f = run.faults;
    Json out = {{"run", run.index},
            {"seed", run.seed},
            {"strategy", toString(run.strategy)},
            {"type", toString(c.type)},
            {"target", targetKey(run)},
            {"bit", run.bit},
            {"positions", positions},
            {"outcome", toString(run.outcome)},
            {"status", run.status},
            {"error", run.error},
            {"faults",
             {{"injected", f.injected},
              {"detected", f.detected},
              {"corrected", f.corrected},
              {"corrected_by_recompute", f.correctedByRecompute},
              {"uncorrectable", f.uncorrectable},
              {"below_threshold", f.belowThreshold},
              {"missed", f.missed},
              {"false_positives", f.falsePositives},
              {"max_clean_residual_ratio", number(f.maxCleanResidualRatio)}}},
            {"reference_passed", run.referencePassed},
            {"max_error_over_tolerance", number(run.maxErrorOverTolerance)},
            {"seconds", run.seconds},
            {"applied", applied},
            {"reproduce", reproduceCommand(c, run)}};
    if (run.bit2 >= 0)  // two-bit flips only
        out["bit2"] = run.bit2;
    campaignFamilyOf(c).writeRun(run, out);
    return out;
}

// Which slice of the whole campaign (config.runs runs) a shard file holds; its runs' numbers.
Json write(const CampaignShard& shard, int runs)
{
    const RunRange range = shardRuns(runs, shard);
    return {{"index", shard.index},
            {"count", shard.count},
            {"campaign_runs", runs},
            {"first_run", range.begin},
            {"last_run", range.end - 1}};
}

CampaignConfig readConfig(const nlohmann::json& j)
{
    const std::string at = "config.";
    CampaignConfig c;
    // Files before the families are blocked campaigns.
    if (j.is_object() && j.contains("family"))
        c.family = campaignFamilyFromString(field<std::string>(j, "family", at));
    c.runs = field<int>(j, "runs", at);
    const auto& shape = j.at("shape");
    c.shape = {field<std::int64_t>(shape, "m", at + "shape."), field<std::int64_t>(shape, "n", at + "shape."),
               field<std::int64_t>(shape, "q", at + "shape.")};
    if (c.shape.m < 1 || c.shape.n < 1 || c.shape.q < 1)
        throw InputError("campaign: the shape must have positive dimensions");
    c.type = campaignTypeFromString(field<std::string>(j, "type", at));
    c.strategies.clear();
    for (const auto& k : j.at("strategies"))
        c.strategies.push_back(strategyFromString(k.get<std::string>()));
    if (c.strategies.empty())
        throw InputError("campaign: no strategy in config.strategies");
    c.memCapBytes = field<std::uint64_t>(j, "mem_bytes", at);
    c.scheme = field<std::string>(j, "scheme", at);
    parseCampaignFault(field<std::string>(j, "fault", at), c);
    c.target = campaignTargetFromString(field<std::string>(j, "target", at));
    c.faultsPerRun = field<int>(j, "faults_per_run", at);
    c.backend = backendFromString(field<std::string>(j, "backend", at));
    c.device = field<int>(j, "device", at);
    c.seed = field<std::uint64_t>(j, "seed", at);
    c.distribution = distributionFromString(field<std::string>(j, "dist", at));
    c.thresholdLambda = field<double>(j, "lambda", at);
    if (j.contains("model"))
        parseFaultExtent(field<std::string>(j, "model", at), c.extent, c.extentLength);
    if (j.contains("inject_at")) {
        const auto& list = j.at("inject_at");
        if (!list.is_array())
            throw InputError("campaign: field '" + at + "inject_at' is not a list of places");
        std::vector<std::string> placed;
        for (const auto& place : list) {
            if (!place.is_string())
                throw InputError("campaign: field '" + at + "inject_at' holds something other than a place's text");
            placed.push_back(place.get<std::string>());
        }
        const CampaignTarget target = c.target;
        const int count = c.faultsPerRun;
        placeCampaignFaults(c, placed, true);
        if (c.target != target || c.faultsPerRun != count)
            throw InputError("campaign: config.inject_at does not agree with config.target / faults_per_run");
    }
    campaignFamilyOf(c.family).readConfig(j, c, at);
    campaignFamilyOf(c.family).checkReadConfig(c);  // its own fields and its schemes
    return c;
}

CampaignShard readShard(const nlohmann::json& j, const CampaignConfig& c)
{
    const std::string at = "shard.";
    const CampaignShard shard{field<int>(j, "index", at), field<int>(j, "count", at)};
    if (field<int>(j, "campaign_runs", at) != c.runs)
        throw InputError("campaign: shard.campaign_runs differs from config.runs");
    validateCampaignShard(shard, c.runs);
    const RunRange range = shardRuns(c.runs, shard);
    if (field<int>(j, "first_run", at) != range.begin || field<int>(j, "last_run", at) != range.end - 1)
        throw InputError("campaign: shard.first_run / last_run are not shard " + std::to_string(shard.index) + "/" +
                         std::to_string(shard.count) + "'s runs");
    return shard;
}

CampaignRun readRun(const nlohmann::json& j, std::size_t n, const CampaignFamily& family)
{
    const std::string at = "runs[" + std::to_string(n) + "].";
    CampaignRun run;
    run.index = field<int>(j, "run", at);
    run.seed = field<std::uint64_t>(j, "seed", at);
    run.strategy = strategyFromString(field<std::string>(j, "strategy", at));
    // The family's own name of the target, checked against its targets by its reader (a family
    // that names it otherwise reads it in its readRun).
    const std::string target = field<std::string>(j, "target", at);
    if (target != "none")
        run.familyTarget = target;
    campaignFamilyOf(family).readRun(j, run, at);
    campaignFamilyOf(family).checkReadRun(run, at);
    run.bit = field<int>(j, "bit", at);
    if (j.contains("bit2"))
        run.bit2 = field<int>(j, "bit2", at);
    for (const auto& p : j.at("positions")) {
        if (!p.is_array() || p.size() != 2)
            throw InputError("campaign: field '" + at + "positions' holds something other than [row, col]");
        run.positions.push_back(FaultAt{element<std::int64_t>(p, 0, at + "positions"),
                                        element<std::int64_t>(p, 1, at + "positions"), std::nullopt, std::nullopt});
    }
    run.outcome = outcomeFromString(field<std::string>(j, "outcome", at));
    run.status = field<std::string>(j, "status", at);
    run.error = field<std::string>(j, "error", at);
    const auto& f = j.at("faults");
    const std::string ff = at + "faults.";
    run.faults.injected = field<int>(f, "injected", ff);
    run.faults.detected = field<int>(f, "detected", ff);
    run.faults.corrected = field<int>(f, "corrected", ff);
    run.faults.correctedByRecompute = field<int>(f, "corrected_by_recompute", ff);
    run.faults.uncorrectable = field<int>(f, "uncorrectable", ff);
    run.faults.belowThreshold = field<int>(f, "below_threshold", ff);
    run.faults.missed = field<int>(f, "missed", ff);
    run.faults.falsePositives = field<int>(f, "false_positives", ff);
    if (f.contains("max_clean_residual_ratio"))  // campaigns before the margin was kept lack it
        run.faults.maxCleanResidualRatio = field<double>(f, "max_clean_residual_ratio", ff);
    run.referencePassed = field<bool>(j, "reference_passed", at);
    run.maxErrorOverTolerance = field<double>(j, "max_error_over_tolerance", at);
    run.seconds = field<double>(j, "seconds", at);
    for (const auto& a : j.at("applied")) {
        Injection inj;
        const auto& b = a.at("block");
        const std::string block = at + "applied.block";
        inj.block = {element<int>(b, 0, block), element<int>(b, 1, block), element<int>(b, 2, block)};
        inj.localRow = field<std::int64_t>(a, "local_row", at + "applied.");
        inj.localCol = field<std::int64_t>(a, "local_col", at + "applied.");
        inj.globalRow = field<std::int64_t>(a, "global_row", at + "applied.");
        inj.globalCol = field<std::int64_t>(a, "global_col", at + "applied.");
        // "a" / "b": an operand element (older files said "result"); FaultTarget names C's cells only.
        const std::string appliedTarget = field<std::string>(a, "target", at + "applied.");
        const bool operandElement = appliedTarget == "a" || appliedTarget == "b";
        if (operandElement && (run.operand != appliedTarget[0] || inj.block.i >= 0))
            throw InputError("campaign: field '" + at + "applied.target' is '" + appliedTarget +
                             "' but the run's target is '" + target + "'");
        inj.target = operandElement ? FaultTarget::Result : faultTargetFromString(appliedTarget);
        inj.model = field<std::string>(a, "model", at + "applied.") == "bitflip" ? FaultModel::BitFlip : FaultModel::Delta;
        inj.bit = field<int>(a, "bit", at + "applied.");
        if (a.contains("bit2"))
            inj.bit2 = field<int>(a, "bit2", at + "applied.");
        inj.delta = field<double>(a, "delta", at + "applied.");
        inj.before = field<double>(a, "before", at + "applied.");
        inj.after = field<double>(a, "after", at + "applied.");
        inj.applied = true;
        run.applied.push_back(inj);
    }
    return run;
}

}  // namespace

std::string campaignToJson(const CampaignResult& r)
{
    Json runs = Json::array();
    for (const CampaignRun& run : r.runs)
        runs.push_back(write(run, r.config));
    Json doc = {{"format", "gigacheck-campaign"},
                {"format_version", kFormatVersion},
                {"tool_version", r.toolVersion},
                {"created_at", r.createdAt},
                {"status", r.interrupted ? "interrupted" : "complete"},
                {"config", write(r.config)}};
    if (r.shard)  // only shards say so: a whole or merged campaign reads as before
        doc["shard"] = write(*r.shard, r.config.runs);
    doc["device"] = {{"backend", toString(r.device.backend)},
                     {"name", r.device.name},
                     {"index", r.device.index},
                     {"why_chosen", r.device.whyChosen}};
    doc["summary"] = {{"all", write(r.summary.all)},
                      {"by_bit", write(r.summary.byBit)},
                      {"by_target", write(r.summary.byTarget)},
                      {"by_strategy", write(r.summary.byStrategy)},
                      {"max_clean_residual_ratio", number(r.summary.maxCleanResidualRatio)},
                      {"max_clean_residual_run", r.summary.maxCleanResidualRun}};
    if (!r.summary.byLevel.empty())  // Strassen campaigns (recomputed from the runs on load, as the others)
        doc["summary"]["by_level"] = write(r.summary.byLevel);
    doc["runs"] = std::move(runs);
    return doc.dump(1) + "\n";
}

std::string campaignConfigJson(const CampaignConfig& config) { return write(config).dump(); }

namespace {

// The runs read one at a time as the file is parsed (core/record/streamed_dom.hpp): a campaign of
// 10^6 runs is almost all runs, and their DOM took 6 GB (and the callback parser minutes) for a
// 1 GiB file. The first refusal is kept for the place where the runs are judged.
struct StreamedRuns {
    bool present = false;
    std::vector<CampaignRun> runs;
    std::string error;
};

// The document without its runs when they could be streamed (the config, which says how a run
// reads, came first, as gigacheck writes it), else whole; nesting bounded as the parser meets it.
nlohmann::json parseCampaign(const std::string& text, StreamedRuns& streamed)
{
    using Streamed = jsonlimits::StreamedDom<nlohmann::json>;
    const auto choose = [&streamed](const std::vector<std::string>& keys,
                                    const nlohmann::json& root) -> Streamed::OnElement {
        if (streamed.present || keys != std::vector<std::string>{"runs"})
            return {};
        const auto config = root.find("config");
        if (config == root.end() || !config->is_object())
            return {};  // read from the DOM, as before
        CampaignFamily family = CampaignConfig{}.family;
        try {
            if (config->contains("family"))
                family = campaignFamilyFromString(config->at("family").get<std::string>());
        } catch (const std::exception&) {
            return {};  // readConfig says what is wrong with it
        }
        streamed.present = true;
        return [&streamed, family](const nlohmann::json& run, std::size_t n) {
            if (!streamed.error.empty())
                return;  // after the first refusal the rest is only parsed
            try {
                streamed.runs.push_back(readRun(run, n, family));
            } catch (const InputError& e) {
                streamed.error = e.what();
            } catch (const nlohmann::json::exception& e) {
                streamed.error = std::string("campaign: a field is missing or has the wrong type (") + e.what() + ")";
            }
        };
    };
    nlohmann::json doc;
    // Depth counted as nlohmann's parser callback did (the top level is 0), so the limit is as before.
    Streamed::parse(text, doc, choose, kMaxDepth + 1,
                    {[](int) {
                         return "campaign: nested deeper than " + std::to_string(kMaxDepth) +
                                " levels (not a campaign file)";
                     },
                     [](const char* why) { return std::string("campaign: not valid JSON (") + why + ")"; }});
    return doc;
}

}  // namespace

CampaignResult campaignFromJson(const std::string& text)
{
    StreamedRuns streamed;
    const nlohmann::json doc = parseCampaign(text, streamed);
    CampaignResult r;
    try {  // any JSON exception left below is a malformed file (found by fuzz_campaign)
        if (!doc.is_object() || !doc.contains("format") || doc.at("format") != "gigacheck-campaign")
            throw InputError("not a gigacheck campaign file (no \"format\": \"gigacheck-campaign\"; a run record "
                             "opens with File > Open)");
        if (!doc.contains("format_version"))
            throw InputError("campaign: missing field 'format_version'");
        const auto& version = doc.at("format_version");
        if (!version.is_number_integer() || version.get<std::int64_t>() < 1)
            throw InputError("campaign: format_version must be a positive integer");
        if (version.get<std::int64_t>() > kFormatVersion)
            throw InputError("campaign format " + std::to_string(version.get<std::int64_t>()) +
                             " is newer than this gigacheck supports (" + std::to_string(kFormatVersion) +
                             "); update gigacheck");
        r.toolVersion = field<std::string>(doc, "tool_version", "");
        r.createdAt = field<std::string>(doc, "created_at", "");
        r.interrupted = field<std::string>(doc, "status", "") == "interrupted";
        r.config = readConfig(doc.at("config"));
        if (doc.contains("shard"))
            r.shard = readShard(doc.at("shard"), r.config);
        const auto& d = doc.at("device");
        r.device.backend = backendFromString(field<std::string>(d, "backend", "device."));
        r.device.name = field<std::string>(d, "name", "device.");
        r.device.index = field<int>(d, "index", "device.");
        r.device.whyChosen = field<std::string>(d, "why_chosen", "device.");
        if (streamed.present) {
            if (!streamed.error.empty())
                throw InputError(streamed.error);
            r.runs = std::move(streamed.runs);
        } else {
            const auto& runs = doc.at("runs");
            if (!runs.is_array())
                throw InputError("campaign: field 'runs' is not an array");
            for (std::size_t n = 0; n < runs.size(); ++n)
                r.runs.push_back(readRun(runs[n], n, r.config.family));
        }
        const int elementBits = r.config.type == CampaignType::F64 ? 64 : 32;
        for (std::size_t n = 0; n < r.runs.size(); ++n) {
            // Its report, CSV and replay flip this bit again (found by fuzz_campaign: bit 81 escaped
            // the reader and threw from the CSV writer).
            const int bit = r.runs[n].bit;
            if (r.config.inject && r.config.model == FaultModel::BitFlip && (bit < 0 || bit >= elementBits))
                throw InputError("campaign: runs[" + std::to_string(n) + "].bit " + std::to_string(bit) +
                                 " is outside a " + std::string(toString(r.config.type)) + " element (bits 0-" +
                                 std::to_string(elementBits - 1) + ")");
            if (r.runs[n].afterChecksums)  // its replay rebuilds the fault from the inputs
                checkOperandAfterChecksums(r.config.shape, &r.runs[n]);
        }
    } catch (const nlohmann::json::exception& e) {
        throw InputError(std::string("campaign: a field is missing or has the wrong type (") + e.what() + ")");
    }
    r.summary = summarize(r.runs, r.config.family);
    return r;
}

CampaignResult loadCampaign(const std::string& path)
{
    const std::string text = jsonlimits::readFile(path, "campaign", {kMaxFileBytes, kMaxDepth});
    try {
        return campaignFromJson(text);
    } catch (const InputError& e) {
        throw InputError(path + ": " + e.what());
    }
}

}  // namespace gigacheck
