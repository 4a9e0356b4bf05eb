// The record envelope every family shares, as JSON (envelope_json.hpp).
#include "core/record/envelope_json.hpp"

#include "core/op_table.hpp"
#include "core/record/field_io.hpp"
#include "core/record/json_limits.hpp"
#include "gigacheck/safe_write.hpp"

#include <stdexcept>

namespace gigacheck::recordjson {

namespace {

// Queue has no name table yet: its values listed here for reading.
constexpr std::array kQueues{Queue::H2D, Queue::Compute, Queue::D2H};

// ---- the pieces, each listed once for writing and reading (field_io.hpp) ---------------------

constexpr auto blockFields = [](auto& io, auto& b) {
    io("i", b.i);
    io("j", b.j);
    io("k", b.k);
};

constexpr auto ceilingsFields = [](auto& io, auto& c) {
    io("gflops_f32", c.gflopsF32);
    io("gflops_tf32", c.gflopsTf32);
    io.optional("gflops_bf16", c.gflopsBf16, 0.0);  // records before the 16-bit roofs
    io.optional("gflops_f16", c.gflopsF16, 0.0);
    io("gflops_f64", c.gflopsF64);
    io("device_bandwidth_gbs", c.deviceBandwidthGBs);
    io("h2d_gbs", c.h2dGBs);
    io("d2h_gbs", c.d2hGBs);
    io.optional("source", c.source, "");
};

constexpr auto deviceFields = [](auto& io, auto& d) {
    io("backend", d.backend);
    io("name", d.name);
    io("memory_bytes", d.memoryBytes);
    io.optional("compute_capability", d.computeCapability, "");
    io.optional("index", d.index, 0);
    io.optional("why_chosen", d.whyChosen, "");
    io.optionalObject("ceilings", true, [&] { ceilingsFields(io, d.ceilings); });
};

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

constexpr auto spanFields = [](auto& io, auto& s) {
    io("op_id", s.opId);
    io.oneOf("queue", s.queue, kQueues);
    io("stream", s.stream);
    io.as("kind", s.kind, [](OpKind k) { return Json(toString(k)); },
          [](const Node& n, OpKind& k) { k = readOpKind(n); });
    io.object("block", [&] { blockFields(io, s.block); });
    io("start", s.start);
    io("end", s.end);
    io("bytes", s.bytes);
    io("flops", s.flops);
    io.unlessDefault("device", s.device, 0);  // single-device runs stay as compact as before
};

constexpr auto injectionFields = [](auto& io, auto& i) {
    io.object("block", [&] { blockFields(io, i.block); });
    io("local_row", i.localRow);
    io("local_col", i.localCol);
    io("global_row", i.globalRow);
    io("global_col", i.globalCol);
    io("target", i.target);
    io("model", i.model);
    io("delta", i.delta);
    io("bit", i.bit);
    io("before", i.before);
    io("after", i.after);
    io("applied", i.applied);
    io.unlessDefault("bit2", i.bit2, -1);  // two-bit flips only: other records stay as they were
};

constexpr auto injectEventFields = [](auto& io, auto& e) {
    io("op_id", e.opId);
    io("time", e.time);
    io.object("injection", [&] { injectionFields(io, e.injection); });
};

constexpr auto verifyResultFields = [](auto& io, auto& v) {
    io("verdict", v.verdict);
    io("mismatch_rows", v.mismatchRows);
    io("mismatch_cols", v.mismatchCols);
    io("row_residual", v.rowResidual);
    io("col_residual", v.colResidual);
    io.objects("corrections", v.corrections, [&](auto& c) {
        io("row", c.row);
        io("col", c.col);
        io("before", c.before);
        io("after", c.after);
    });
    io("checksums_recomputed", v.checksumsRecomputed);
    io.optional("located_by_largest_residual", v.locatedByLargestResidual, false);  // absent before the rule
    io("max_clean_residual_ratio", v.maxCleanResidualRatio);
    io("min_threshold", v.minThreshold);
    io("max_threshold", v.maxThreshold);
};

constexpr auto verifyEventFields = [](auto& io, auto& e) {
    io("op_id", e.opId);
    io.object("block", [&] { blockFields(io, e.block); });
    io("row_offset", e.rowOffset);
    io("col_offset", e.colOffset);
    io("rows", e.rows);
    io("cols", e.cols);
    io("time", e.time);
    io.object("result", [&] { verifyResultFields(io, e.result); });
};

constexpr auto metricsFields = [](auto& io, auto& m) {
    io("total_seconds", m.totalSeconds);
    io("execute_seconds", m.executeSeconds);
    io.object("queue_busy_seconds", [&] {
        io("h2d", m.queueBusySeconds[0]);
        io("compute", m.queueBusySeconds[1]);
        io("d2h", m.queueBusySeconds[2]);
    });
    io("flops", m.flops);
    io("useful_flops", m.usefulFlops);
    io("bytes_host_link", m.bytesHostLink);
    io("bytes_device", m.bytesDevice);
    io("intensity_host_link", m.intensityHostLink);
    io("intensity_device", m.intensityDevice);
    io("gflops", m.gflops);
    io("peak_buffer_bytes", m.peakBufferBytes);
    io("host_bytes_required", m.hostBytesRequired);
};

template <class T, class Fields> Json writeWith(const T& value, Fields fields)
{
    FieldWriter io;
    fields(io, value);
    return io.take();
}

template <class T, class Fields> T readWith(const Node& n, Fields fields)
{
    T value;
    FieldReader io(n);
    fields(io, value);
    return value;
}

}  // namespace

Json numbers(const std::vector<double>& v) { return valueJson(v); }
Json write(const BlockIndex& b) { return writeWith(b, blockFields); }
Json write(const Ceilings& c) { return writeWith(c, ceilingsFields); }
Json write(const DeviceInfo& d) { return writeWith(d, deviceFields); }
Json write(const Span& s) { return writeWith(s, spanFields); }
Json write(const Injection& i) { return writeWith(i, injectionFields); }
Json write(const InjectEvent& e) { return writeWith(e, injectEventFields); }
Json write(const VerifyResult& v) { return writeWith(v, verifyResultFields); }
Json write(const VerifyEvent& e) { return writeWith(e, verifyEventFields); }
Json write(const Metrics& m) { return writeWith(m, metricsFields); }

BlockIndex readBlock(const Node& n) { return readWith<BlockIndex>(n, blockFields); }
Ceilings readCeilings(const Node& n) { return readWith<Ceilings>(n, ceilingsFields); }
DeviceInfo readDevice(const Node& n) { return readWith<DeviceInfo>(n, deviceFields); }
Span readSpan(const Node& n) { return readWith<Span>(n, spanFields); }
InjectEvent readInjectEvent(const Node& n) { return readWith<InjectEvent>(n, injectEventFields); }
VerifyEvent readVerifyEvent(const Node& n) { return readWith<VerifyEvent>(n, verifyEventFields); }
Metrics readMetrics(const Node& n) { return readWith<Metrics>(n, metricsFields); }

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
    if (r.status != "ok" && r.status != "failed" && r.status != "cancelled")  // every family's three
        throw InputError("record: field 'status' is '" + r.status + "', not ok, failed or cancelled");
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
