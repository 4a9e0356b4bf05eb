// The record envelope every family shares, as JSON (envelope_json.hpp).
#include "core/record/envelope_json.hpp"

#include "core/op_table.hpp"
#include "core/record/json_limits.hpp"
#include "gigacheck/safe_write.hpp"

#include <stdexcept>

namespace gigacheck::recordjson {

namespace {

// Queue has no name table yet: its values listed here for reading.
constexpr std::array kQueues{Queue::H2D, Queue::Compute, Queue::D2H};

}  // namespace

// ---- writing -------------------------------------------------------------------------------

Json numbers(const std::vector<double>& v)
{
    Json out = Json::array();
    for (double x : v)
        out.push_back(number(x));
    return out;
}

Json write(const BlockIndex& b) { return {{"i", b.i}, {"j", b.j}, {"k", b.k}}; }

Json write(const Ceilings& c)
{
    return {{"gflops_f32", number(c.gflopsF32)},
            {"gflops_tf32", number(c.gflopsTf32)},
            {"gflops_bf16", number(c.gflopsBf16)},
            {"gflops_f16", number(c.gflopsF16)},
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
    Json out = {{"block", write(i.block)},
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
    if (i.bit2 >= 0)  // two-bit flips only: other records stay as they were
        out["bit2"] = i.bit2;
    return out;
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

// ---- reading -------------------------------------------------------------------------------

BlockIndex readBlock(const Node& n) { return {n.get<int>("i"), n.get<int>("j"), n.get<int>("k")}; }

Ceilings readCeilings(const Node& n)
{
    Ceilings c;
    c.gflopsF32 = n.get<double>("gflops_f32");
    c.gflopsTf32 = n.get<double>("gflops_tf32");
    c.gflopsBf16 = n.getOr<double>("gflops_bf16", 0.0);  // records before the 16-bit roofs
    c.gflopsF16 = n.getOr<double>("gflops_f16", 0.0);
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
    inj.bit2 = i.getOr<int>("bit2", -1);
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

// ---- the document --------------------------------------------------------------------------

Json writeRecordDocument(const RecordEnvelope& e, Json section)
{
    // Always written in the current format, whatever format the record was read from.
    Json devices = Json::array();
    for (const DeviceInfo& d : e.devices)
        devices.push_back(write(d));
    return {{"format_version", RecordEnvelope::kFormatVersion},
            {"tool_version", e.toolVersion},
            {"created_at", e.createdAt},
            {"family", e.family},
            {"status", e.status},
            {"error", e.error},
            {"devices", devices},
            {"metrics", write(e.metrics)},
            {"events", {{"injections", writeAll(e.injections)}, {"verifications", writeAll(e.verifications)}}},
            {"spans", writeAll(e.spans)},
            {e.family, std::move(section)}};
}

std::string dumpRecord(const Json& document, int indent) { return document.dump(indent) + "\n"; }

namespace {

// parent's list under key: as pre-read with the document (record_document.cpp), moved out (a
// large record's spans are not held twice), or from the DOM.
template <class T, class Read>
std::vector<T> listOf(Preparsed<T>* pre, const Node& parent, const char* key, Read read)
{
    if (pre && pre->present) {
        if (!pre->error.empty())
            throw InputError(pre->error);
        if (pre->taken)
            throw std::logic_error("record: the envelope of one document read twice");
        pre->taken = true;
        return std::move(pre->items);
    }
    std::vector<T> out;
    for (const Node& n : parent.elements(key))
        out.push_back(read(n));
    return out;
}

}  // namespace

void readEnvelope(const Node& root, RecordEnvelope& r)
{
    r.formatVersion = root.get<int>("format_version");
    r.toolVersion = root.getOr<std::string>("tool_version", "");
    r.createdAt = root.getOr<std::string>("created_at", "");
    r.status = root.get<std::string>("status");
    r.error = root.getOr<std::string>("error", "");
    r.family = root.get<std::string>("family");
    const std::vector<Node> devices = root.elements("devices");
    if (devices.empty())
        throw InputError("record: field 'devices' must list at least one device");
    r.devices.clear();
    for (const Node& d : devices)
        r.devices.push_back(readDevice(d));
    r.metrics = readMetrics(root.child("metrics"));
    const Node events = root.child("events");
    PreparsedLists* pre = root.preparsed();
    r.injections = listOf(pre ? &pre->injections : nullptr, events, "injections", readInjectEvent);
    r.verifications = listOf(pre ? &pre->verifications : nullptr, events, "verifications", readVerifyEvent);
    r.spans = listOf(pre ? &pre->spans : nullptr, root, "spans", readSpan);
}

Node familySection(const Node& root, std::string_view family)
{
    const std::string recorded = root.get<std::string>("family");
    if (recorded != family)
        throw InputError("record: field 'family' names family '" + recorded + "', not '" + std::string(family) + "'");
    return root.child(recorded.c_str());
}

void saveRecordText(const std::string& text, const std::string& path)
{
    // Whole or not at all, and never over a device, a FIFO or a link (gigacheck/safe_write.hpp).
    writeFileAtomically(path, text, "run record");
}

std::string loadRecordText(const std::string& path)
{
    // A regular file within the size limit, checked before it is opened (a FIFO would block).
    return jsonlimits::readFile(path, "run record");
}

}  // namespace gigacheck::recordjson
