// The online ABFT family's run record as JSON: the shared envelope's fields (format_version,
// tool_version, created_at, family, status, error, devices, spans, events) and the family section
// `online_abft` (scheme and its parameters, checks, input faults, the vote, the recompute, the
// reference). README "Record" in this folder lists the fields.
#include "gigacheck/online_abft.hpp"

#include "core/record/envelope_json.hpp"
#include "core/record/json_fields.hpp"
#include "families/online_abft/record/online_validate.hpp"


namespace gigacheck {

using recordjson::Json;
using recordjson::Node;
using recordjson::number;

namespace {

Json faultJson(const OnlineFault& f)
{
    Json j{{"target", toString(f.target)}, {"row", f.row}, {"col", f.col}};
    if (f.delta)
        j["delta"] = number(*f.delta);
    if (f.step)
        j["step"] = *f.step;
    return j;
}

OnlineFault faultFrom(const Node& n)
{
    OnlineFault f;
    f.target = onlineTargetFromString(n.get<std::string>("target"));
    f.row = n.get<std::int64_t>("row");
    f.col = n.get<std::int64_t>("col");
    if (n.has("delta"))
        f.delta = n.get<double>("delta");
    if (n.has("step"))
        f.step = n.get<int>("step");
    return f;
}

Json checkJson(const VerifyEvent& e)
{
    const VerifyResult& r = e.result;
    Json corrections = Json::array();
    for (const Correction& c : r.corrections)
        corrections.push_back({{"row", c.row}, {"col", c.col}, {"before", number(c.before)}, {"after", number(c.after)}});
    return Json{{"op", e.opId},
                {"step", e.block.k},
                {"column_block", e.block.j},
                {"time", number(e.time)},
                {"verdict", toString(r.verdict)},
                {"mismatch_rows", r.mismatchRows},
                {"mismatch_cols", r.mismatchCols},
                {"corrections", corrections},
                {"checksums_recomputed", r.checksumsRecomputed},
                {"max_threshold", number(r.maxThreshold)},
                {"max_clean_residual_ratio", number(r.maxCleanResidualRatio)}};
}

}  // namespace

std::string onlineToJson(const OnlineRecord& r, int indent)
{
    const OnlineConfig& c = r.config;
    Json checks = Json::array();
    for (const VerifyEvent& e : r.verifications)
        checks.push_back(checkJson(e));
    Json faults = Json::array();
    for (const OnlineFault& f : c.faults)
        faults.push_back(faultJson(f));
    Json applied = Json::array();
    for (const OnlineFault& f : r.appliedInputFaults)
        applied.push_back(faultJson(f));
    Json inputFaults = Json::array();
    for (const InputFaultReport& f : r.inputFaults)
        inputFaults.push_back({{"operand", toString(f.operand)},
                               {"row", f.row},
                               {"col", f.col},
                               {"delta", number(f.delta)},
                               {"before_checksum", f.beforeChecksum},
                               {"caught_at_step", f.caughtAtStep},
                               {"cells_off", f.cellsOff},
                               {"corrected", f.corrected}});
    Json section{
        {"config",
         {{"shape", {{"m", c.shape.m}, {"n", c.shape.n}, {"q", c.shape.q}}},
          {"precision", toString(c.precision)},
          {"distribution", toString(c.distribution)},
          {"seed", c.seed},
          {"backend", toString(c.backend)},
          {"scheme", toString(c.scheme)},
          {"panel", c.panelWidth()},
          {"check_every", c.checkEvery},
          {"checksums", c.checksums},
          {"column_blocks", c.columnBlocks},  // as asked: 0 = auto
          {"faults", faults},
          {"random_errors", c.randomErrors},
          {"fault_model", toString(c.model)},
          {"bit", c.bit},
          {"gemm", toString(c.gemm)},
          {"reference", toString(c.reference)},
          {"threshold_lambda", number(c.thresholdLambda)},
          {"merge_steps", toString(c.mergeSteps)}}},
        {"steps", r.steps},
        {"check_steps", r.checkSteps},
        {"column_blocks", r.columnBlocks},  // as run
        {"merged_steps", r.mergedSteps},    // as run
        {"panel_gemm", r.panelGemm},
        {"panel_products", r.panelProducts},
        {"checks", checks},  // the envelope's events.verifications, with the step named
        {"input_faults", inputFaults},
        {"applied_input_faults", applied},
        {"recompute", {{"done", r.recomputed}, {"clean", r.recomputeClean}, {"seconds", number(r.recomputeSeconds)}}},
        {"reference",
         {{"mode", toString(r.reference.mode)},
          {"rows_checked", r.reference.rowsChecked},
          {"mismatches", r.reference.mismatches},
          {"max_abs_error", number(r.reference.maxAbsError)},
          {"max_error_over_tolerance", number(r.reference.maxRelError)},
          {"passed", r.reference.passed}}},
    };
    if (r.vote) {
        Json cells = Json::array();
        for (const auto& [i, j] : r.vote->noMajority)
            cells.push_back({i, j});
        section["vote"] = {{"cells_outvoted", r.vote->cellsOutvoted},
                           {"cells_without_majority", r.vote->cellsWithoutMajority},
                           {"cells_recomputed", r.vote->cellsRecomputed},
                           {"majority_overruled", r.vote->majorityOverruled},
                           {"no_majority", cells}};
    }
    return recordjson::dumpRecord(recordjson::writeRecordDocument(r, section), indent);
}

OnlineRecord onlineRecordFromJson(const std::string& text)
{
    const recordjson::RecordDocument document = recordjson::readRecordDocument(text);  // bounded
    const Node root = document.root();
    OnlineRecord r;
    r.formatVersion = document.formatVersion;
    recordjson::readEnvelope(root, r);
    const Node sec = recordjson::familySection(root, OnlineRecord::kFamily);
    const Node cfg = sec.child("config");
    OnlineConfig& c = r.config;
    c.shape = {cfg.child("shape").get<std::int64_t>("m"), cfg.child("shape").get<std::int64_t>("n"),
               cfg.child("shape").get<std::int64_t>("q")};
    c.precision = precisionFromString(cfg.get<std::string>("precision"));
    c.distribution = distributionFromString(cfg.get<std::string>("distribution"));
    c.seed = cfg.get<std::uint64_t>("seed");
    c.backend = backendFromString(cfg.get<std::string>("backend"));
    c.scheme = schemeFromString(cfg.get<std::string>("scheme"));
    c.panel = cfg.get<std::int64_t>("panel");
    c.checkEvery = cfg.get<int>("check_every");
    c.checksums = cfg.get<int>("checksums");
    c.columnBlocks = cfg.getOr<int>("column_blocks", 1);  // records before column blocks: one block
    const Node faults = cfg.child("faults");
    for (std::size_t i = 0; i < faults.json().size(); ++i)
        c.faults.push_back(faultFrom(Node(faults.json()[i], faults.path() + "[" + std::to_string(i) + "]")));
    c.randomErrors = cfg.get<int>("random_errors");
    // Written since the family began, but not read until the record was validated (audit 8): a
    // reopened record then ran again with delta faults whatever it said.
    if (cfg.has("fault_model"))
        c.model = cfg.enumeration<FaultModel>("fault_model");
    c.bit = cfg.getOr<int>("bit", -1);
    c.gemm = gemmFromString(cfg.get<std::string>("gemm"));
    c.reference = referenceModeFromString(cfg.get<std::string>("reference"));
    c.thresholdLambda = cfg.get<double>("threshold_lambda");
    // Records before merged steps: one product per step.
    c.mergeSteps = stepMergeFromString(cfg.getOr<std::string>("merge_steps", "off"));
    r.steps = sec.get<int>("steps");
    r.checkSteps = sec.list<int>("check_steps");
    r.columnBlocks = sec.getOr<int>("column_blocks", 1);
    r.mergedSteps = sec.getOr<bool>("merged_steps", false);
    r.panelGemm = sec.getOr<std::string>("panel_gemm", "");
    r.panelProducts = sec.getOr<int>("panel_products", r.steps);
    // The checks are the envelope's verifications (read above); the section keeps their summary.
    const Node inputs = sec.child("input_faults");
    for (std::size_t i = 0; i < inputs.json().size(); ++i) {
        const Node f(inputs.json()[i], inputs.path() + "[" + std::to_string(i) + "]");
        r.inputFaults.push_back({onlineTargetFromString(f.get<std::string>("operand")), f.get<std::int64_t>("row"),
                                 f.get<std::int64_t>("col"), f.get<double>("delta"), f.get<bool>("before_checksum"),
                                 f.get<int>("caught_at_step"), f.get<std::int64_t>("cells_off"), f.get<bool>("corrected")});
    }
    if (sec.has("applied_input_faults")) {  // written always; read since audit 8 (the step view's input faults)
        const Node applied = sec.child("applied_input_faults");
        for (const Node& f : applied.elements())
            r.appliedInputFaults.push_back(faultFrom(f));
    }
    const Node recompute = sec.child("recompute");
    r.recomputed = recompute.get<bool>("done");
    r.recomputeClean = recompute.get<bool>("clean");
    r.recomputeSeconds = recompute.get<double>("seconds");
    const Node ref = sec.child("reference");
    r.reference.mode = referenceModeFromString(ref.get<std::string>("mode"));
    r.reference.rowsChecked = ref.get<std::int64_t>("rows_checked");
    r.reference.mismatches = ref.get<std::int64_t>("mismatches");
    r.reference.maxAbsError = ref.get<double>("max_abs_error");
    r.reference.maxRelError = ref.get<double>("max_error_over_tolerance");
    r.reference.passed = ref.get<bool>("passed");

    if (sec.has("vote")) {
        const Node v = sec.child("vote");
        VoteReport vote;
        vote.cellsOutvoted = v.get<std::int64_t>("cells_outvoted");
        vote.cellsWithoutMajority = v.get<std::int64_t>("cells_without_majority");
        // Records before disputes were settled by a recompute: none was.
        vote.cellsRecomputed = v.getOr<std::int64_t>("cells_recomputed", 0);
        vote.majorityOverruled = v.getOr<std::int64_t>("majority_overruled", 0);
        for (const Node& cell : v.elements("no_majority")) {
            const std::vector<Node> rowCol = cell.elements();
            if (rowCol.size() != 2)
                throw InputError("record: field '" + cell.path() + "' must be [row, col]");
            vote.noMajority.emplace_back(rowCol[0].as<std::int64_t>(), rowCol[1].as<std::int64_t>());
        }
        r.vote = vote;
    }
    online_abft::validateRecord(r);  // nothing uses or draws what the record claims before this
    return r;
}

OnlineRecord loadOnlineRecord(const std::string& path)
{
    try {
        return onlineRecordFromJson(recordjson::loadRecordText(path));
    } catch (const InputError& e) {
        const std::string what = e.what();
        throw InputError(what.rfind(path, 0) == 0 ? what : path + ": " + what);
    }
}

void saveOnlineRecord(const OnlineRecord& record, const std::string& path)
{
    recordjson::saveRecordText(onlineToJson(record), path);
}

}  // namespace gigacheck
