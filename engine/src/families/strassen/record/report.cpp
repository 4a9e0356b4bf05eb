// The text report of a strassen run (CLI) and its record (JSON).
#include "gigacheck/strassen.hpp"

#include "core/record/envelope_json.hpp"
#include "core/timestamp.hpp"
#include "gigacheck/version.hpp"
#include "families/strassen/ops.hpp"

#include <nlohmann/json.hpp>

#include <iomanip>
#include <map>
#include <sstream>

namespace gigacheck {

namespace {

std::string shapeText(const Shape& s)
{
    return std::to_string(s.m) + "x" + std::to_string(s.n) + "x" + std::to_string(s.q);
}

// Seconds per (level, stage) of the compute spans: the seed's Table 3.2 for this run.
std::map<std::pair<int, int>, double> stageTimes(const StrassenResult& r)
{
    std::map<std::pair<int, int>, double> t;
    for (const Span& s : r.spans)
        if (s.queue == Queue::Compute)
            t[{s.block.i, s.block.j}] += s.end - s.start;
    return t;
}

}  // namespace

std::string formatStrassenReport(const StrassenResult& r)
{
    std::ostringstream o;
    const StrassenConfig& c = r.config;
    o << "STRASSEN " << shapeText(c.shape) << "  variant " << toString(c.variant) << "  levels " << r.levels
      << (r.levels != c.levels ? " (of " + std::to_string(c.levels) + " asked: a dimension is smaller than 2^L)" : "")
      << "  type " << (c.tf32 ? "tf32" : std::string(toString(c.precision)))
      << (c.multiTargetKernel ? "  leaves: multi-target kernel" : "") << "\n";
    o << "device     " << r.device.name << "\n";
    o << "core       " << shapeText(r.core);
    if (!(r.core == c.shape))
        o << "  (the rest peeled: plain GEMM updates of the fringe, no extra memory)";
    o << "\n";
    if (c.devices > 1 || c.distribute)
        o << "devices    " << c.devices << " (" << toString(c.decomposition)
          << " decomposition, one level, task t on device t mod G, each task one GEMM)"
          << (r.placement.empty() ? std::string() : ": " + r.placement) << "\n";
    o << "ops        " << r.products << " products (" << r.gemmCalls << " GEMM calls), " << r.additions
      << " in-place block sums";
    if (r.additionsBeside > 0 && r.device.backend == BackendKind::Cuda)
        o << " (" << r.additionsBeside << " of them beside the products, on side compute streams)";
    else if (r.additionsBeside > 0)
        o << " (" << r.additionsBeside << " of them free to run beside the products; the CPU runs them in line)";
    else if (r.additions > 0 && !c.sumsBeside)
        o << " (in line with the products: --sums inline)";
    o << "\n";
    o << "memory     A, B, C " << formatBytes(double(r.operandBytes)) << "; peak " << formatBytes(double(r.peakDeviceBytes))
      << "; extra " << r.extraBytes << " bytes\n";
    o << std::setprecision(4);
    o << "time       " << r.seconds * 1e3 << " ms (compute ops)";
    if (c.exactRestore)
        o << "; exact restore " << r.restoreSeconds * 1e3 << " ms";
    o << "\n";
    o << "recovery   A: " << r.recovery.changedA << " elements changed, max " << r.recovery.maxUlpsA << " ulps; B: "
      << r.recovery.changedB << " changed, max " << r.recovery.maxUlpsB << " ulps"
      << (c.exactRestore ? " (restored from the host copy)" : "") << "\n";
    if (c.checkLeaves)
        o << "leaves     " << r.leavesChecked << " leaf products checked, each right after it ran; largest residual "
          << r.leafWorstRatio << " x its round-off threshold" << (r.leafWorstRatio > 1 ? " (caught: see checks)" : "") << "\n";
    if (r.relErrorC >= 0)
        o << "error of C max |C - C_ref| = " << r.maxErrorC << " (" << r.relErrorC << " of max |C_ref|, FP64 reference)\n";
    const auto stages = stageTimes(r);
    if (!stages.empty()) {
        o << "stages     (level, stage: ms)";
        for (const auto& [key, sec] : stages)
            o << "  " << key.first << "." << key.second << ": " << sec * 1e3;
        o << "\n";
    }
    for (const StrassenFault& f : c.faults)
        o << "fault      injected at " << toString(f) << "\n";
    for (const StrassenCheck& k : r.checks) {
        o << "check " << k.where << "    " << k.verdict;
        if (k.row >= 0 || k.col >= 0)
            o << " at row " << k.row << ", col " << k.col;
        if (!k.detail.empty())
            o << ": " << k.detail;
        o << "\n";
    }
    if (!r.error.empty())
        o << "error      " << r.error << "\n";
    o << "verdict    " << (r.status == "ok" ? "VERIFIED" : r.status) << "\n";
    return o.str();
}

std::string strassenRecordJson(const StrassenResult& r)
{
    using json = recordjson::Json;
    const StrassenConfig& c = r.config;
    json faults = json::array();
    for (const StrassenFault& f : c.faults)
        faults.push_back(toString(f));
    json checks = json::array();
    for (const StrassenCheck& k : r.checks)
        checks.push_back({{"where", k.where}, {"verdict", k.verdict}, {"row", k.row}, {"col", k.col}, {"detail", k.detail}});
    const json section = {
        {"shape", {c.shape.m, c.shape.n, c.shape.q}},
        {"core", {r.core.m, r.core.n, r.core.q}},
        {"levels", r.levels},
        {"levels_requested", c.levels},
        {"variant", std::string(toString(c.variant))},
        {"type", c.tf32 ? std::string("tf32") : std::string(toString(c.precision))},
        {"devices", c.devices},
        {"decomposition", std::string(toString(c.decomposition))},
        {"exact_restore", c.exactRestore},
        {"leaf", c.multiTargetKernel ? "kernel" : "cublas"},
        {"seconds", r.seconds},
        {"restore_seconds", r.restoreSeconds},
        {"products", r.products},
        {"gemm_calls", r.gemmCalls},
        {"additions", r.additions},
        {"additions_beside", r.additionsBeside},
        {"sums", c.sumsBeside ? "beside" : "inline"},
        {"check_leaves", c.checkLeaves},
        {"leaves_checked", r.leavesChecked},
        {"leaf_worst_ratio", r.leafWorstRatio},
        {"operand_bytes", r.operandBytes},
        {"peak_device_bytes", r.peakDeviceBytes},
        {"extra_bytes", r.extraBytes},
        {"rel_error_c", r.relErrorC},
        {"max_error_c", r.maxErrorC},
        {"recovery",
         {{"max_ulps_a", r.recovery.maxUlpsA},
          {"max_ulps_b", r.recovery.maxUlpsB},
          {"changed_a", r.recovery.changedA},
          {"changed_b", r.recovery.changedB}}},
        {"faults", faults},
        {"checks", checks},
        {"verdict", r.status},
        {"placement", r.placement},
    };
    // The envelope every family shares (status, devices, spans: block = level, stage, node).
    RecordEnvelope envelope;
    envelope.toolVersion = kVersion;
    envelope.createdAt = nowIso8601();
    envelope.family = "strassen";
    envelope.status = r.status == "uncorrectable" ? "ok" : r.status;
    envelope.error = r.error;
    // Several devices: every schedule device (the timeline's lanes per device name them).
    envelope.devices = r.devices.empty() ? std::vector<DeviceInfo>{r.device} : r.devices;
    envelope.spans = r.spans;
    return recordjson::dumpRecord(recordjson::writeRecordDocument(envelope, section), 1);
}

}  // namespace gigacheck

namespace gigacheck {

std::optional<StrassenResult> strassenResultFromJson(const std::string& text)
{
    using json = recordjson::Json;
    if (recordFamilyOf(text) != "strassen")
        return std::nullopt;
    const recordjson::RecordDocument doc = recordjson::readRecordDocument(text);
    RecordEnvelope envelope;
    recordjson::readEnvelope(doc.root(), envelope);
    const json& j = doc.json;
    try {
        StrassenResult r;
        const json& s = j.at("strassen");
        StrassenConfig& c = r.config;
        c.shape = {s.at("shape").at(0).get<std::int64_t>(), s.at("shape").at(1).get<std::int64_t>(),
                   s.at("shape").at(2).get<std::int64_t>()};
        r.core = {s.at("core").at(0).get<std::int64_t>(), s.at("core").at(1).get<std::int64_t>(),
                  s.at("core").at(2).get<std::int64_t>()};
        r.levels = s.at("levels").get<int>();
        c.levels = s.value("levels_requested", r.levels);
        c.variant = strassenVariantFromString(s.at("variant").get<std::string>());
        const std::string type = s.at("type").get<std::string>();
        c.tf32 = type == "tf32";
        c.precision = c.tf32 ? Precision::F32 : precisionFromString(type);
        c.devices = s.value("devices", 1);
        c.decomposition = strassenDecompositionFromString(s.value("decomposition", std::string("winograd")));
        c.exactRestore = s.value("exact_restore", false);
        c.multiTargetKernel = s.value("leaf", std::string("cublas")) == "kernel";
        for (const json& f : s.value("faults", json::array()))
            c.faults.push_back(parseStrassenFault(f.get<std::string>()));
        r.status = s.value("verdict", envelope.status);
        r.error = envelope.error;
        r.device = envelope.devices.front();
        if (envelope.devices.size() > 1)
            r.devices = envelope.devices;
        r.placement = s.value("placement", std::string());
        r.spans = envelope.spans;
        r.seconds = s.value("seconds", 0.0);
        r.restoreSeconds = s.value("restore_seconds", 0.0);
        r.products = s.value("products", 0);
        r.gemmCalls = s.value("gemm_calls", 0);
        r.additions = s.value("additions", 0);
        r.additionsBeside = s.value("additions_beside", 0);
        c.checkLeaves = s.value("check_leaves", false);
        r.leavesChecked = s.value("leaves_checked", 0);
        r.leafWorstRatio = s.value("leaf_worst_ratio", 0.0);
        // Records before 2026-11-26 ran every sum in line.
        c.sumsBeside = s.value("sums", std::string("inline")) == "beside";
        r.operandBytes = s.value("operand_bytes", std::size_t(0));
        r.peakDeviceBytes = s.value("peak_device_bytes", std::size_t(0));
        r.extraBytes = s.value("extra_bytes", std::size_t(0));
        r.relErrorC = s.value("rel_error_c", -1.0);
        r.maxErrorC = s.value("max_error_c", -1.0);
        const json rec = s.value("recovery", json::object());
        r.recovery.level = r.levels;
        r.recovery.maxUlpsA = rec.value("max_ulps_a", 0.0);
        r.recovery.maxUlpsB = rec.value("max_ulps_b", 0.0);
        r.recovery.changedA = rec.value("changed_a", std::int64_t(0));
        r.recovery.changedB = rec.value("changed_b", std::int64_t(0));
        for (const json& k : s.value("checks", json::array()))
            r.checks.push_back({k.value("where", std::string()), k.value("verdict", std::string()), k.value("row", std::int64_t(-1)),
                                k.value("col", std::int64_t(-1)), k.value("detail", std::string())});
        return r;
    } catch (const json::exception& e) {
        throw InputError(std::string("strassen record does not parse: ") + e.what());
    }
}

}  // namespace gigacheck
