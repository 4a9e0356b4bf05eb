// The online ABFT family's run record as JSON: the shared envelope's fields (format_version,
// tool_version, created_at, family, status, error, devices, spans, events) and the family section
// `online_abft` (scheme and its parameters, checks, input faults, the vote, the recompute, the
// reference). README "Record" in this folder lists the fields.
#include "gigacheck/online_abft.hpp"

#include "core/record/json_fields.hpp"
#include "core/record/json_limits.hpp"

#include <fstream>
#include <sstream>

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
                {"time", number(e.time)},
                {"verdict", toString(r.verdict)},
                {"mismatch_rows", r.mismatchRows},
                {"mismatch_cols", r.mismatchCols},
                {"corrections", corrections},
                {"checksums_recomputed", r.checksumsRecomputed},
                {"max_threshold", number(r.maxThreshold)},
                {"max_clean_residual_ratio", number(r.maxCleanResidualRatio)}};
}

VerifyEvent checkFrom(const Node& n)
{
    VerifyEvent e;
    e.opId = n.get<int>("op");
    e.block.k = n.get<int>("step");
    e.time = n.get<double>("time");
    VerifyResult& r = e.result;
    r.verdict = valueOfName<Verdict>(n.get<std::string>("verdict"));
    for (const auto& x : n.child("mismatch_rows").json())
        r.mismatchRows.push_back(x.get<std::int64_t>());
    for (const auto& x : n.child("mismatch_cols").json())
        r.mismatchCols.push_back(x.get<std::int64_t>());
    const Node corrections = n.child("corrections");
    for (std::size_t i = 0; i < corrections.json().size(); ++i) {
        const Node c(corrections.json()[i], corrections.path() + "[" + std::to_string(i) + "]");
        r.corrections.push_back({c.get<std::int64_t>("row"), c.get<std::int64_t>("col"), c.get<double>("before"),
                                 c.get<double>("after")});
    }
    r.checksumsRecomputed = n.get<bool>("checksums_recomputed");
    r.maxThreshold = n.get<double>("max_threshold");
    r.maxCleanResidualRatio = n.get<double>("max_clean_residual_ratio");
    return e;
}

}  // namespace

std::string onlineToJson(const OnlineRecord& r, int indent)
{
    const OnlineConfig& c = r.config;
    Json spans = Json::array();
    for (const Span& s : r.spans)
        spans.push_back({{"op", s.opId},
                         {"queue", toString(s.queue)},
                         {"kind", toString(s.kind)},
                         {"step", s.block.k},
                         {"start", number(s.start)},
                         {"end", number(s.end)},
                         {"bytes", number(s.bytes)},
                         {"flops", number(s.flops)}});
    Json injections = Json::array();
    for (const InjectEvent& e : r.injections)
        injections.push_back({{"op", e.opId},
                              {"step", e.injection.block.k},
                              {"target", toString(e.injection.target)},
                              {"row", e.injection.localRow},
                              {"col", e.injection.localCol},
                              {"before", number(e.injection.before)},
                              {"after", number(e.injection.after)}});
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
          {"faults", faults},
          {"random_errors", c.randomErrors},
          {"fault_model", toString(c.model)},
          {"bit", c.bit},
          {"gemm", toString(c.gemm)},
          {"reference", toString(c.reference)},
          {"threshold_lambda", number(c.thresholdLambda)}}},
        {"steps", r.steps},
        {"check_steps", r.checkSteps},
        {"checks", checks},
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
        {"execute_seconds", number(r.metrics.executeSeconds)},
        {"total_seconds", number(r.metrics.totalSeconds)},
        {"peak_buffer_bytes", r.metrics.peakBufferBytes},
    };
    if (r.vote) {
        Json cells = Json::array();
        for (const auto& [i, j] : r.vote->noMajority)
            cells.push_back({i, j});
        section["vote"] = {{"cells_outvoted", r.vote->cellsOutvoted},
                           {"cells_without_majority", r.vote->cellsWithoutMajority},
                           {"no_majority", cells}};
    }
    Json doc{{"format_version", 2},
             {"tool_version", r.toolVersion},
             {"created_at", r.createdAt},
             {"family", OnlineRecord::kFamily},
             {"status", r.status},
             {"error", r.error},
             {"devices", Json::array({{{"backend", toString(r.devices.front().backend)}, {"name", r.devices.front().name}}})},
             {"spans", spans},
             {"events", {{"injections", injections}}},
             {"online_abft", section}};
    return doc.dump(indent);
}

OnlineRecord onlineRecordFromJson(const std::string& text)
{
    const Json doc = jsonlimits::parse<Json>(text, "record");  // bounded: size and nesting first
    const Node root(doc, "");
    if (root.get<std::string>("family") != OnlineRecord::kFamily)
        throw InputError("record: family '" + root.get<std::string>("family") + "' is not online_abft");
    OnlineRecord r;
    r.toolVersion = root.get<std::string>("tool_version");
    r.createdAt = root.get<std::string>("created_at");
    r.status = root.get<std::string>("status");
    r.error = root.get<std::string>("error");
    const Node devices = root.child("devices");
    if (!devices.json().empty()) {
        const Node d(devices.json()[0], "devices[0]");
        r.devices.front().backend = backendFromString(d.get<std::string>("backend"));
        r.devices.front().name = d.get<std::string>("name");
    }
    const Node spans = root.child("spans");
    for (std::size_t i = 0; i < spans.json().size(); ++i) {
        const Node s(spans.json()[i], "spans[" + std::to_string(i) + "]");
        Span span;
        span.opId = s.get<int>("op");
        span.kind = opKindFromString(s.get<std::string>("kind"));
        span.queue = s.get<std::string>("queue") == "h2d" ? Queue::H2D : s.get<std::string>("queue") == "d2h" ? Queue::D2H
                                                                                                          : Queue::Compute;
        span.block.k = s.get<int>("step");
        span.start = s.get<double>("start");
        span.end = s.get<double>("end");
        span.bytes = s.get<double>("bytes");
        span.flops = s.get<double>("flops");
        r.spans.push_back(span);
    }
    const Node sec = root.child("online_abft");
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
    const Node faults = cfg.child("faults");
    for (std::size_t i = 0; i < faults.json().size(); ++i)
        c.faults.push_back(faultFrom(Node(faults.json()[i], faults.path() + "[" + std::to_string(i) + "]")));
    c.randomErrors = cfg.get<int>("random_errors");
    c.gemm = gemmFromString(cfg.get<std::string>("gemm"));
    c.reference = referenceModeFromString(cfg.get<std::string>("reference"));
    c.thresholdLambda = cfg.get<double>("threshold_lambda");
    r.steps = sec.get<int>("steps");
    for (const auto& x : sec.child("check_steps").json())
        r.checkSteps.push_back(x.get<int>());
    const Node checks = sec.child("checks");
    for (std::size_t i = 0; i < checks.json().size(); ++i)
        r.verifications.push_back(checkFrom(Node(checks.json()[i], checks.path() + "[" + std::to_string(i) + "]")));
    const Node inputs = sec.child("input_faults");
    for (std::size_t i = 0; i < inputs.json().size(); ++i) {
        const Node f(inputs.json()[i], inputs.path() + "[" + std::to_string(i) + "]");
        r.inputFaults.push_back({onlineTargetFromString(f.get<std::string>("operand")), f.get<std::int64_t>("row"),
                                 f.get<std::int64_t>("col"), f.get<double>("delta"), f.get<bool>("before_checksum"),
                                 f.get<int>("caught_at_step"), f.get<std::int64_t>("cells_off"), f.get<bool>("corrected")});
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
    r.metrics.executeSeconds = sec.get<double>("execute_seconds");
    r.metrics.totalSeconds = sec.get<double>("total_seconds");
    if (sec.has("vote")) {
        const Node v = sec.child("vote");
        VoteReport vote;
        vote.cellsOutvoted = v.get<std::int64_t>("cells_outvoted");
        vote.cellsWithoutMajority = v.get<std::int64_t>("cells_without_majority");
        for (const auto& cell : v.child("no_majority").json())
            vote.noMajority.emplace_back(cell.at(0).get<std::int64_t>(), cell.at(1).get<std::int64_t>());
        r.vote = vote;
    }
    return r;
}

std::optional<OnlineRecord> loadOnlineRecord(const std::string& path)
{
    std::ifstream in(path);
    if (!in)
        throw InputError("cannot read run record '" + path + "'");
    std::ostringstream text;
    Json doc;
    try {
        jsonlimits::checkFileSize(path, path);
        text << in.rdbuf();
        doc = jsonlimits::parse<Json>(text.str(), path);  // bounded: a hostile file cannot crash it
    } catch (const InputError&) {
        return std::nullopt;  // too large, too deep or not JSON: the blocked reader says why
    }
    if (!doc.is_object() || !doc.contains("family") || doc["family"] != OnlineRecord::kFamily)
        return std::nullopt;
    try {
        return onlineRecordFromJson(text.str());
    } catch (const std::exception& e) {
        throw InputError(path + ": " + e.what());
    }
}

}  // namespace gigacheck
