// RunRecord <-> versioned JSON. Every field is written; reading names the field that is missing
// or malformed, and refuses records from a newer format than this build understands.
//
// Format 2 is an envelope shared by every family (status, devices, metrics, spans, events) with
// one section for the family's own part, named after it ("blocked_gemm": config, plan, fault
// report, reference check). Format 1 (before families) had the GEMM parts at the top level and
// a single device; it is still read (readVersion1).
#include "gigacheck/record.hpp"

#include "core/op_table.hpp"
#include "core/record/json_fields.hpp"
#include "core/record/json_limits.hpp"
#include "core/record/record_validate.hpp"
#include "core/record/repair_json.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>

namespace gigacheck {

using recordjson::Json;
using recordjson::Node;
using recordjson::number;
using recordjson::readRepairs;
using recordjson::writeRepairs;

namespace {

// Queue and OpKind have no name table yet: their values listed here for reading.
constexpr std::array kQueues{Queue::H2D, Queue::Compute, Queue::D2H};

constexpr EnumName<BufferRole> kBufferRoles[] = {
    {BufferRole::A, "A"}, {BufferRole::B, "B"}, {BufferRole::C, "C"}, {BufferRole::Aux, "aux"}};

}  // namespace

// Only the record names buffer roles.
template <> const EnumTable<BufferRole>& enumTable<BufferRole>()
{
    static const EnumTable<BufferRole> table{"buffer role", kBufferRoles};
    return table;
}

namespace {

Json numbers(const std::vector<double>& v)
{
    Json out = Json::array();
    for (double x : v)
        out.push_back(number(x));
    return out;
}

// ---- writing -------------------------------------------------------------------------------

Json write(const Shape& s) { return {{"m", s.m}, {"n", s.n}, {"q", s.q}}; }
Json write(const BlockIndex& b) { return {{"i", b.i}, {"j", b.j}, {"k", b.k}}; }

Json write(const FaultSpec& f)
{
    Json at = Json::array();
    for (const FaultAt& a : f.at) {
        at.push_back({{"row", a.row},
                      {"col", a.col},
                      {"delta", a.delta ? number(*a.delta) : Json()},
                      {"step", a.step ? Json(*a.step) : Json()}});
    }
    return {{"count", f.count},
            {"collinear", toString(f.collinear)},
            {"at", at},
            {"model", toString(f.model)},
            {"bit", f.bit},
            {"target", toString(f.target)},
            {"scope", toString(f.scope)},
            {"seed", f.seed}};
}

Json write(const RunConfig& c)
{
    return {{"shape", write(c.shape)},
            {"precision", toString(c.precision)},
            {"distribution", toString(c.distribution)},
            {"seed", c.seed},
            {"backend", toString(c.backend)},
            {"device", c.device},
            {"strategy", toString(c.strategy)},
            {"mem_cap_bytes", c.memCapBytes},
            {"abft", c.abft},
            {"gemm", toString(c.gemm)},
            {"tile", c.tile},
            {"faults", write(c.faults)},
            {"reference", toString(c.reference)},
            {"threshold_lambda", number(c.thresholdLambda)}};
}

Json write(const Ceilings& c)
{
    return {{"gflops_f32", number(c.gflopsF32)},
            {"gflops_tf32", number(c.gflopsTf32)},
            {"gflops_f64", number(c.gflopsF64)},
            {"device_bandwidth_gbs", number(c.deviceBandwidthGBs)},
            {"h2d_gbs", number(c.h2dGBs)},
            {"d2h_gbs", number(c.d2hGBs)},
            {"source", c.source}};
}

Json write(const DeviceInfo& d)
{
    return {{"backend", toString(d.backend)},
            {"name", d.name},
            {"memory_bytes", d.memoryBytes},
            {"compute_capability", d.computeCapability},
            {"index", d.index},
            {"why_chosen", d.whyChosen},
            {"ceilings", write(d.ceilings)}};
}

Json write(const Plan& p)
{
    Json buffers = Json::array();
    for (const BufferSpec& b : p.buffers) {
        buffers.push_back({{"name", b.name},
                           {"role", nameOf(b.role)},
                           {"rows", b.rows},
                           {"cols", b.cols},
                           {"ld", b.ld},
                           {"bytes", b.bytes}});
    }
    return {{"shape", write(p.shape)},
            {"precision", toString(p.precision)},
            {"strategy", toString(p.strategy)},
            {"abft", p.abft},
            {"cap_bytes", p.capBytes},
            {"split_m", p.splitM},
            {"split_n", p.splitN},
            {"split_q", p.splitQ},
            {"block_m", p.blockM},
            {"block_n", p.blockN},
            {"block_q", p.blockQ},
            {"buffers", buffers},
            {"bytes_needed", p.bytesNeeded},
            {"explanation", p.explanation}};
}

Json write(const Span& s)
{
    Json out = {{"op_id", s.opId},
                {"queue", toString(s.queue)},
                {"stream", s.stream},
                {"kind", toString(s.kind)},
                {"block", write(s.block)},
                {"start", number(s.start)},
                {"end", number(s.end)},
                {"bytes", number(s.bytes)},
                {"flops", number(s.flops)}};
    if (s.device != 0)  // single-device runs stay as compact as before
        out["device"] = s.device;
    return out;
}

Json write(const Injection& i)
{
    return {{"block", write(i.block)},
            {"local_row", i.localRow},
            {"local_col", i.localCol},
            {"global_row", i.globalRow},
            {"global_col", i.globalCol},
            {"target", toString(i.target)},
            {"model", toString(i.model)},
            {"delta", number(i.delta)},
            {"bit", i.bit},
            {"before", number(i.before)},
            {"after", number(i.after)},
            {"applied", i.applied}};
}

Json write(const InjectEvent& e)
{
    return {{"op_id", e.opId}, {"time", number(e.time)}, {"injection", write(e.injection)}};
}

Json write(const VerifyResult& v)
{
    Json corrections = Json::array();
    for (const Correction& c : v.corrections)
        corrections.push_back({{"row", c.row}, {"col", c.col}, {"before", number(c.before)}, {"after", number(c.after)}});
    return {{"verdict", toString(v.verdict)},
            {"mismatch_rows", v.mismatchRows},
            {"mismatch_cols", v.mismatchCols},
            {"row_residual", numbers(v.rowResidual)},
            {"col_residual", numbers(v.colResidual)},
            {"corrections", corrections},
            {"checksums_recomputed", v.checksumsRecomputed},
            {"located_by_largest_residual", v.locatedByLargestResidual},
            {"max_clean_residual_ratio", number(v.maxCleanResidualRatio)},
            {"min_threshold", number(v.minThreshold)},
            {"max_threshold", number(v.maxThreshold)}};
}

Json write(const VerifyEvent& e)
{
    return {{"op_id", e.opId},
            {"block", write(e.block)},
            {"row_offset", e.rowOffset},
            {"col_offset", e.colOffset},
            {"rows", e.rows},
            {"cols", e.cols},
            {"time", number(e.time)},
            {"result", write(e.result)}};
}

Json write(const Metrics& m)
{
    return {{"total_seconds", number(m.totalSeconds)},
            {"execute_seconds", number(m.executeSeconds)},
            {"queue_busy_seconds",
             {{"h2d", number(m.queueBusySeconds[0])},
              {"compute", number(m.queueBusySeconds[1])},
              {"d2h", number(m.queueBusySeconds[2])}}},
            {"flops", number(m.flops)},
            {"useful_flops", number(m.usefulFlops)},
            {"bytes_host_link", number(m.bytesHostLink)},
            {"bytes_device", number(m.bytesDevice)},
            {"intensity_host_link", number(m.intensityHostLink)},
            {"intensity_device", number(m.intensityDevice)},
            {"gflops", number(m.gflops)},
            {"peak_buffer_bytes", m.peakBufferBytes},
            {"host_bytes_required", m.hostBytesRequired}};
}

Json write(const FaultReport& f)
{
    return {{"injected", f.injected},
            {"detected", f.detected},
            {"corrected", f.corrected},
            {"corrected_by_recompute", f.correctedByRecompute},
            {"uncorrectable", f.uncorrectable},
            {"below_threshold", f.belowThreshold},
            {"missed", f.missed},
            {"false_positives", f.falsePositives},
            {"blocks_clean", f.blocksClean},
            {"blocks_corrected", f.blocksCorrected},
            {"blocks_uncorrectable", f.blocksUncorrectable},
            {"max_threshold", number(f.maxThreshold)},
            {"max_clean_residual_ratio", number(f.maxCleanResidualRatio)}};
}

Json write(const ReferenceCheck& r)
{
    return {{"mode", toString(r.mode)},
            {"rows_checked", r.rowsChecked},
            {"mismatches", r.mismatches},
            {"max_abs_error", number(r.maxAbsError)},
            {"max_rel_error", number(r.maxRelError)},
            {"passed", r.passed}};
}

template <class T> Json writeAll(const std::vector<T>& items)
{
    Json out = Json::array();
    for (const T& item : items)
        out.push_back(write(item));
    return out;
}

// ---- reading -------------------------------------------------------------------------------

Shape readShape(const Node& n)
{
    return {n.get<std::int64_t>("m"), n.get<std::int64_t>("n"), n.get<std::int64_t>("q")};
}

BlockIndex readBlock(const Node& n) { return {n.get<int>("i"), n.get<int>("j"), n.get<int>("k")}; }

FaultSpec readFaultSpec(const Node& n)
{
    FaultSpec f;
    f.count = n.get<int>("count");
    f.collinear = n.enumeration<Collinearity>("collinear");
    for (const Node& a : n.elements("at")) {
        FaultAt at;
        at.row = a.get<std::int64_t>("row");
        at.col = a.get<std::int64_t>("col");
        if (a.has("delta") && !a.child("delta").json().is_null())
            at.delta = a.get<double>("delta");
        if (a.has("step") && !a.child("step").json().is_null())
            at.step = a.get<int>("step");
        f.at.push_back(at);
    }
    f.model = n.enumeration<FaultModel>("model");
    f.bit = n.get<int>("bit");
    f.target = n.enumeration<FaultTarget>("target");
    f.scope = n.enumeration<FaultScope>("scope");
    f.seed = n.get<std::uint64_t>("seed");
    return f;
}

RunConfig readConfig(const Node& n)
{
    RunConfig c;
    c.shape = readShape(n.child("shape"));
    c.precision = n.enumeration<Precision>("precision");
    c.distribution = n.enumeration<Distribution>("distribution");
    c.seed = n.get<std::uint64_t>("seed");
    c.backend = n.enumeration<BackendKind>("backend");
    c.device = n.getOr<int>("device", -1);  // records before device selection: the first device
    c.strategy = n.enumeration<StrategyKind>("strategy");
    c.memCapBytes = n.get<std::uint64_t>("mem_cap_bytes");
    c.abft = n.get<bool>("abft");
    c.gemm = n.enumeration<GemmVariant>("gemm");
    c.tile = n.get<int>("tile");
    c.faults = readFaultSpec(n.child("faults"));
    c.reference = n.enumeration<ReferenceMode>("reference");
    c.thresholdLambda = n.get<double>("threshold_lambda");
    return c;
}

Ceilings readCeilings(const Node& n)
{
    Ceilings c;
    c.gflopsF32 = n.get<double>("gflops_f32");
    c.gflopsTf32 = n.get<double>("gflops_tf32");
    c.gflopsF64 = n.get<double>("gflops_f64");
    c.deviceBandwidthGBs = n.get<double>("device_bandwidth_gbs");
    c.h2dGBs = n.get<double>("h2d_gbs");
    c.d2hGBs = n.get<double>("d2h_gbs");
    c.source = n.getOr<std::string>("source", "");
    return c;
}

DeviceInfo readDevice(const Node& n)
{
    DeviceInfo d;
    d.backend = n.enumeration<BackendKind>("backend");
    d.name = n.get<std::string>("name");
    d.memoryBytes = n.get<std::uint64_t>("memory_bytes");
    d.computeCapability = n.getOr<std::string>("compute_capability", "");
    d.index = n.getOr<int>("index", 0);
    d.whyChosen = n.getOr<std::string>("why_chosen", "");
    d.ceilings = n.has("ceilings") ? readCeilings(n.child("ceilings")) : Ceilings{};
    return d;
}

Plan readPlan(const Node& n)
{
    Plan p;
    p.shape = readShape(n.child("shape"));
    p.precision = n.enumeration<Precision>("precision");
    p.strategy = n.enumeration<StrategyKind>("strategy");
    p.abft = n.get<bool>("abft");
    p.capBytes = n.get<std::uint64_t>("cap_bytes");
    p.splitM = n.get<int>("split_m");
    p.splitN = n.get<int>("split_n");
    p.splitQ = n.get<int>("split_q");
    p.blockM = n.get<std::int64_t>("block_m");
    p.blockN = n.get<std::int64_t>("block_n");
    p.blockQ = n.get<std::int64_t>("block_q");
    for (const Node& b : n.elements("buffers")) {
        BufferSpec s;
        s.name = b.get<std::string>("name");
        s.role = b.enumeration<BufferRole>("role");
        s.rows = b.get<std::int64_t>("rows");
        s.cols = b.get<std::int64_t>("cols");
        s.ld = b.get<std::int64_t>("ld");
        s.bytes = b.get<std::size_t>("bytes");
        p.buffers.push_back(s);
    }
    p.bytesNeeded = n.get<std::size_t>("bytes_needed");
    p.explanation = n.getOr<std::string>("explanation", "");
    return p;
}

// Kinds are named by their families (core/op_table.hpp), not by a fixed list.
OpKind readOpKind(const Node& n)
{
    const std::string name = n.as<std::string>();
    try {
        return opKindFromString(name);
    } catch (const InputError&) {
        std::string known;
        for (const FamilyOps* family : allFamilies())
            for (const OpKindName& k : family->kinds)
                known += (known.empty() ? "" : ", ") + std::string(k.name);
        throw InputError("record: field '" + n.path() + "' has unknown value '" + name + "' (expected one of " +
                         known + ")");
    }
}

Span readSpan(const Node& n)
{
    Span s;
    s.opId = n.get<int>("op_id");
    s.queue = n.enumeration("queue", kQueues);
    s.stream = n.get<int>("stream");
    s.kind = readOpKind(n.child("kind"));
    s.device = n.getOr<int>("device", 0);
    s.block = readBlock(n.child("block"));
    s.start = n.get<double>("start");
    s.end = n.get<double>("end");
    s.bytes = n.get<double>("bytes");
    s.flops = n.get<double>("flops");
    return s;
}

InjectEvent readInjectEvent(const Node& n)
{
    InjectEvent e;
    e.opId = n.get<int>("op_id");
    e.time = n.get<double>("time");
    const Node i = n.child("injection");
    Injection& inj = e.injection;
    inj.block = readBlock(i.child("block"));
    inj.localRow = i.get<std::int64_t>("local_row");
    inj.localCol = i.get<std::int64_t>("local_col");
    inj.globalRow = i.get<std::int64_t>("global_row");
    inj.globalCol = i.get<std::int64_t>("global_col");
    inj.target = i.enumeration<FaultTarget>("target");
    inj.model = i.enumeration<FaultModel>("model");
    inj.delta = i.get<double>("delta");
    inj.bit = i.get<int>("bit");
    inj.before = i.get<double>("before");
    inj.after = i.get<double>("after");
    inj.applied = i.get<bool>("applied");
    return e;
}

VerifyEvent readVerifyEvent(const Node& n)
{
    VerifyEvent e;
    e.opId = n.get<int>("op_id");
    e.block = readBlock(n.child("block"));
    e.rowOffset = n.get<std::int64_t>("row_offset");
    e.colOffset = n.get<std::int64_t>("col_offset");
    e.rows = n.get<std::int64_t>("rows");
    e.cols = n.get<std::int64_t>("cols");
    e.time = n.get<double>("time");
    const Node r = n.child("result");
    VerifyResult& v = e.result;
    v.verdict = r.enumeration<Verdict>("verdict");
    v.mismatchRows = r.list<std::int64_t>("mismatch_rows");
    v.mismatchCols = r.list<std::int64_t>("mismatch_cols");
    v.rowResidual = r.list<double>("row_residual");
    v.colResidual = r.list<double>("col_residual");
    for (const Node& c : r.elements("corrections"))
        v.corrections.push_back(
            {c.get<std::int64_t>("row"), c.get<std::int64_t>("col"), c.get<double>("before"), c.get<double>("after")});
    v.checksumsRecomputed = r.get<bool>("checksums_recomputed");
    v.locatedByLargestResidual = r.getOr<bool>("located_by_largest_residual", false);  // absent before the rule
    v.maxCleanResidualRatio = r.get<double>("max_clean_residual_ratio");
    v.minThreshold = r.get<double>("min_threshold");
    v.maxThreshold = r.get<double>("max_threshold");
    return e;
}

Metrics readMetrics(const Node& n)
{
    Metrics m;
    m.totalSeconds = n.get<double>("total_seconds");
    m.executeSeconds = n.get<double>("execute_seconds");
    const Node busy = n.child("queue_busy_seconds");
    m.queueBusySeconds[0] = busy.get<double>("h2d");
    m.queueBusySeconds[1] = busy.get<double>("compute");
    m.queueBusySeconds[2] = busy.get<double>("d2h");
    m.flops = n.get<double>("flops");
    m.usefulFlops = n.get<double>("useful_flops");
    m.bytesHostLink = n.get<double>("bytes_host_link");
    m.bytesDevice = n.get<double>("bytes_device");
    m.intensityHostLink = n.get<double>("intensity_host_link");
    m.intensityDevice = n.get<double>("intensity_device");
    m.gflops = n.get<double>("gflops");
    m.peakBufferBytes = n.get<std::size_t>("peak_buffer_bytes");
    m.hostBytesRequired = n.get<std::size_t>("host_bytes_required");
    return m;
}

FaultReport readFaultReport(const Node& n)
{
    FaultReport f;
    f.injected = n.get<int>("injected");
    f.detected = n.get<int>("detected");
    f.corrected = n.get<int>("corrected");
    f.correctedByRecompute = n.getOr<int>("corrected_by_recompute", 0);  // absent before the repair pass
    f.uncorrectable = n.get<int>("uncorrectable");
    f.belowThreshold = n.get<int>("below_threshold");
    f.missed = n.getOr<int>("missed", 0);  // absent in records written before it was counted
    f.falsePositives = n.get<int>("false_positives");
    f.blocksClean = n.get<int>("blocks_clean");
    f.blocksCorrected = n.get<int>("blocks_corrected");
    f.blocksUncorrectable = n.get<int>("blocks_uncorrectable");
    f.maxThreshold = n.get<double>("max_threshold");
    f.maxCleanResidualRatio = n.get<double>("max_clean_residual_ratio");
    return f;
}

ReferenceCheck readReference(const Node& n)
{
    ReferenceCheck r;
    r.mode = n.enumeration<ReferenceMode>("mode");
    r.rowsChecked = n.get<std::int64_t>("rows_checked");
    r.mismatches = n.get<std::int64_t>("mismatches");
    r.maxAbsError = n.get<double>("max_abs_error");
    r.maxRelError = n.get<double>("max_rel_error");
    r.passed = n.get<bool>("passed");
    return r;
}

// ---- the blocked GEMM family's section ----------------------------------------------------

Json writeBlockedGemmSection(const RunRecord& r)
{
    return {{"config", write(r.config)},
            {"plan", write(r.plan)},
            {"faults", write(r.faults)},
            {"reference", write(r.reference)},
            {"repairs", writeRepairs(r.repairs)}};
}

void readBlockedGemmSection(const Node& n, RunRecord& r)
{
    r.config = readConfig(n.child("config"));
    r.plan = readPlan(n.child("plan"));
    r.faults = readFaultReport(n.child("faults"));
    r.reference = readReference(n.child("reference"));
    r.repairs = readRepairs(n);  // absent in records from before the repair pass: none
}

// The family sections this build reads and writes, by family name.
struct FamilySection {
    std::string_view family;
    Json (*write)(const RunRecord&);
    void (*read)(const Node&, RunRecord&);
};
constexpr std::array kFamilySections{
    FamilySection{"blocked_gemm", writeBlockedGemmSection, readBlockedGemmSection},
};

const FamilySection& familySection(const std::string& family)
{
    for (const FamilySection& s : kFamilySections)
        if (s.family == family)
            return s;
    throw InputError("record: field 'family' names family '" + family + "', which this gigacheck does not know");
}

// Format 1: the GEMM parts at the top level, one device, events beside the spans.
RunRecord readVersion1(const Node& root)
{
    RunRecord r;
    r.formatVersion = 1;
    r.toolVersion = root.getOr<std::string>("tool_version", "");
    r.createdAt = root.getOr<std::string>("created_at", "");
    r.status = root.get<std::string>("status");
    r.error = root.getOr<std::string>("error", "");
    r.config = readConfig(root.child("config"));
    r.device = readDevice(root.child("device"));
    r.plan = readPlan(root.child("plan"));
    r.metrics = readMetrics(root.child("metrics"));
    r.faults = readFaultReport(root.child("faults"));
    r.reference = readReference(root.child("reference"));
    for (const Node& n : root.elements("injections"))
        r.injections.push_back(readInjectEvent(n));
    for (const Node& n : root.elements("verifications"))
        r.verifications.push_back(readVerifyEvent(n));
    for (const Node& n : root.elements("spans"))
        r.spans.push_back(readSpan(n));
    r.repairs = readRepairs(root);
    return r;
}

RunRecord readVersion2(const Node& root)
{
    RunRecord r;
    r.formatVersion = 2;
    r.toolVersion = root.getOr<std::string>("tool_version", "");
    r.createdAt = root.getOr<std::string>("created_at", "");
    r.status = root.get<std::string>("status");
    r.error = root.getOr<std::string>("error", "");
    r.family = root.get<std::string>("family");
    const FamilySection& section = familySection(r.family);
    const std::vector<Node> devices = root.elements("devices");
    if (devices.empty())
        throw InputError("record: field 'devices' must list at least one device");
    r.device = readDevice(devices.front());
    r.metrics = readMetrics(root.child("metrics"));
    const Node events = root.child("events");
    for (const Node& n : events.elements("injections"))
        r.injections.push_back(readInjectEvent(n));
    for (const Node& n : events.elements("verifications"))
        r.verifications.push_back(readVerifyEvent(n));
    for (const Node& n : root.elements("spans"))
        r.spans.push_back(readSpan(n));
    section.read(root.child(section.family.data()), r);
    return r;
}

}  // namespace

std::string toJson(const RunRecord& r, int indent)
{
    // Always written in the current format, whatever format the record was read from.
    const FamilySection& section = familySection(r.family);
    Json doc = {{"format_version", RunRecord::kFormatVersion},
                {"tool_version", r.toolVersion},
                {"created_at", r.createdAt},
                {"family", r.family},
                {"status", r.status},
                {"error", r.error},
                {"devices", Json::array({write(r.device)})},
                {"metrics", write(r.metrics)},
                {"events", {{"injections", writeAll(r.injections)}, {"verifications", writeAll(r.verifications)}}},
                {"spans", writeAll(r.spans)},
                {std::string(section.family), section.write(r)}};
    return doc.dump(indent) + "\n";
}

RunRecord recordFromJson(const std::string& text)
{
    // Depth and size bounded before the parser runs: a hostile file must not exhaust the stack.
    const Json doc = jsonlimits::parse<Json>(text, "record");
    const Node root(doc, "");
    // The version first: a newer record may have any shape, so say why before anything else fails.
    const int version = root.get<int>("format_version");
    if (version > RunRecord::kFormatVersion)
        throw InputError("record format " + std::to_string(version) + " is newer than this gigacheck supports (" +
                         std::to_string(RunRecord::kFormatVersion) + "); update gigacheck");
    if (version < 1)
        throw InputError("record: field 'format_version' must be at least 1 (got " + std::to_string(version) + ")");
    RunRecord r = version == 1 ? readVersion1(root) : readVersion2(root);
    recordcheck::validate(r);  // nothing uses or draws what the record claims before this
    return r;
}

void saveRecord(const RunRecord& r, const std::string& path)
{
    // Written beside the target and renamed over it: a write that fails half way (disk full,
    // quota) leaves the record that was there intact rather than a truncated one.
    const std::string text = toJson(r);
    const std::string partial = path + ".partial";
    {
        std::ofstream out(partial, std::ios::binary | std::ios::trunc);
        if (!out)
            throw InputError("cannot write run record '" + path + "': cannot open the file for writing");
        out << text;
        out.flush();
        if (!out) {
            out.close();
            std::error_code ignored;
            std::filesystem::remove(partial, ignored);
            throw InputError("cannot write run record '" + path + "': write failed (disk full?)");
        }
    }
    std::error_code ec;
    std::filesystem::rename(partial, path, ec);
    if (ec) {
        std::error_code ignored;
        std::filesystem::remove(partial, ignored);
        throw InputError("cannot write run record '" + path + "': " + ec.message());
    }
}

RunRecord loadRecord(const std::string& path)
{
    // A directory opens as a stream on Linux and then reads as empty: say what it is.
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec))
        throw InputError("cannot read run record '" + path + "': it is a directory, not a file");
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw InputError("cannot read run record '" + path + "': no such file or not readable");
    jsonlimits::checkFileSize(path, path);
    std::ostringstream text;
    text << in.rdbuf();
    if (in.bad())
        throw InputError("cannot read run record '" + path + "': read failed");
    try {
        return recordFromJson(text.str());
    } catch (const InputError& e) {
        throw InputError(path + ": " + e.what());
    }
}

}  // namespace gigacheck
