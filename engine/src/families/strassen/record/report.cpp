// The text report of a strassen run (CLI) and its record (JSON).
#include "gigacheck/strassen.hpp"

#include "core/record/envelope_json.hpp"
#include "core/timestamp.hpp"
#include "gigacheck/version.hpp"
#include "families/strassen/ops.hpp"
#include "families/strassen/run/verify.hpp"

#include <nlohmann/json.hpp>

#include <array>
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
      << "  type " << (c.tf32 ? "tf32" : std::string(toString(c.precision)));
    // What ran: the CPU has OpenBLAS leaves only, and emulates TF32 (operands rounded to TF32).
    const bool cpu = r.device.backend == BackendKind::Cpu;
    if (c.tf32 && cpu)
        o << " (emulated: operands rounded to TF32, FP32 products)";
    if (c.multiTargetKernel)
        o << (cpu ? "  leaves: OpenBLAS, one call per target (--leaf kernel is CUDA's)" : "  leaves: multi-target kernel");
    o << "\n";
    o << "device     " << r.device.name << "\n";
    o << "core       " << shapeText(r.core);
    if (!(r.core == c.shape))
        o << "  (the rest peeled: plain GEMM updates of the fringe, no extra memory)";
    o << "\n";
    if (c.devices > 1 || c.distribute)
        o << "devices    " << c.devices << " (" << toString(c.decomposition)
          << " decomposition, one level, task t on device t mod G, each task "
          << (r.levels > 1 ? std::to_string(r.levels - 1) + " level(s) of " + std::string(toString(c.variant)) + " on its device"
                           : std::string("one GEMM"))
          << ")"
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
    if (r.relErrorC >= 0) {
        o << "error of C max |C - C_ref| = " << r.maxErrorC << " (" << r.relErrorC << " of max |C_ref|, FP64 reference";
        if (r.nonFiniteC > 0)
            o << "; " << r.nonFiniteC << " cells NaN / Inf";
        if (r.referenceWorstRatio >= 0)
            o << "; " << r.referenceMismatches << " cells beyond its tolerance, worst " << r.referenceWorstRatio
              << " x tolerance";
        o << ")\n";
    }
    if (r.cWorstCleanRatio >= 0)
        o << "C checks   largest clean residual " << r.cWorstCleanRatio
          << " x its round-off threshold (row and column checksums of C against A (B e) and (e^T A) B)\n";
    if (r.cDetectionFloor >= 0) {
        o << "C sees     any one cell off by more than " << r.cDetectionFloor;
        if (r.cMaxAbs > 0)
            o << " (" << r.cDetectionFloor / r.cMaxAbs << " x max |C|)";
        o << "; a smaller error is left to the FP64 reference's per-cell tolerance"
          << (r.relErrorC >= 0 ? "" : " (not run)") << "\n";
        if (strassen::checksTooWeak(r.cDetectionFloor, r.cMaxAbs))
            o << "           (past 1 % of max |C|: with --reference auto the reference runs at any size)\n";
    }
    if (r.referenceFloor >= 0) {
        o << "reference  sees any one cell off by more than " << r.referenceFloor;
        if (r.cMaxAbs > 0)
            o << " (" << r.referenceFloor / r.cMaxAbs << " x max |C|)";
        o << ": the largest of its per-cell tolerances\n";
    }
    const auto stages = stageTimes(r);
    if (!stages.empty()) {
        o << "stages     (level, stage: ms)";
        for (const auto& [key, sec] : stages)
            o << "  " << key.first << "." << key.second << ": " << sec * 1e3;
        o << "\n";
    }
    for (const StrassenFault& f : c.faults) {
        o << "fault      injected at " << toString(f);
        if (!f.deltaGiven && c.faultModel.model == FaultModel::BitFlip) {
            o << ", bit " << resolvedBit(c.faultModel.bit, c.precision);
            if (c.faultModel.bit2 >= 0)
                o << " and bit " << c.faultModel.bit2;
            o << " flipped";
        }
        o << "\n";
    }
    for (const StrassenCheck& k : r.checks) {
        o << "check " << k.where << "    " << k.verdict;
        // Only what is known: a leaf or a column recompute names a column, an operand row a row.
        if (k.row >= 0 && k.col >= 0)
            o << " at row " << k.row << ", col " << k.col;
        else if (k.row >= 0)
            o << " at row " << k.row;
        else if (k.col >= 0)
            o << " at col " << k.col;
        if (!k.detail.empty())
            o << ": " << k.detail;
        o << "\n";
    }
    if (!r.error.empty())
        o << "error      " << r.error << "\n";
    int repairs = 0;
    for (const StrassenCheck& k : r.checks)
        repairs += k.verdict == "corrected" || k.verdict == "recomputed";
    const std::string by = r.verifiedBy == "checksums"   ? "C's checksums"
                           : r.verifiedBy == "reference" ? "the FP64 reference"
                                                         : "C's checksums and the FP64 reference";
    if (r.status == "ok")
        o << "verdict    VERIFIED by " << by
          << (repairs > 0 ? " (C right after " + std::to_string(repairs) + " repair(s), see checks)" : std::string()) << "\n";
    else if (r.status == "not_verified")
        o << "verdict    NOT VERIFIED: " << strassenNotVerifiedReason(r) << "; C may be wrong\n";
    else if (r.status == "uncorrectable")
        o << "verdict    UNCORRECTABLE: C is wrong (seen by " << by << ")\n";
    else
        o << "verdict    " << r.status << "\n";
    return o.str();
}

std::string strassenNotVerifiedReason(const StrassenResult& r)
{
    std::string why = "no check ran: C's checksums off (--no-abft)";
    if (!r.config.reference)
        return why + " and the FP64 reference off (--reference none)";
    return why + " and the FP64 reference left out past 2^34 multiply-adds (--reference auto; --reference full runs it)";
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
    json section = {
        {"shape", {c.shape.m, c.shape.n, c.shape.q}},
        {"core", {r.core.m, r.core.n, r.core.q}},
        {"levels", r.levels},
        {"levels_requested", c.levels},
        {"variant", std::string(toString(c.variant))},
        {"type", c.tf32 ? std::string("tf32") : std::string(toString(c.precision))},
        {"devices", c.devices},
        // Whether the global decomposition ran (one device too: --devices 1 --decomposition 2d);
        // its name only then ("decomposition" of a plain run said "winograd" before 2026-11-29).
        {"distribute", c.devices > 1 || c.distribute},
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
        {"non_finite_c", r.nonFiniteC},
        {"reference_mismatches", r.referenceMismatches},
        {"reference_worst_ratio", std::min(r.referenceWorstRatio, 1e300)},
        {"c_worst_clean_ratio", r.cWorstCleanRatio},
        {"c_detection_floor", r.cDetectionFloor},
        {"c_max_abs", r.cMaxAbs},
        {"reference_detection_floor", r.referenceFloor},
        {"verified_by", r.verifiedBy},
        {"recovery",
         {{"max_ulps_a", r.recovery.maxUlpsA},
          {"max_ulps_b", r.recovery.maxUlpsB},
          {"changed_a", r.recovery.changedA},
          {"changed_b", r.recovery.changedB}}},
        {"faults", faults},
        {"fault", toString(c.faultModel)},  // what the faults without a delta did (--fault)
        {"checks", checks},
        {"verdict", r.status},
        {"placement", r.placement},
    };
    if (c.devices > 1 || c.distribute)
        section["decomposition"] = std::string(toString(c.decomposition));
    // The envelope every family shares (status, devices, spans: block = level, stage, node).
    RecordEnvelope envelope;
    envelope.toolVersion = kVersion;
    envelope.createdAt = nowIso8601();
    envelope.family = "strassen";
    envelope.status = r.status == "uncorrectable" || r.status == "not_verified" ? "ok" : r.status;
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
    // Every integer goes through Node: a float such as 1e30 in an int field is refused, not cast.
    using recordjson::Node;
    const Node s = doc.root().child("strassen");
    try {
        StrassenResult r;
        StrassenConfig& c = r.config;
        const auto triple = [&](const char* key) {
            const std::vector<Node> v = s.elements(key);
            if (v.size() != 3)
                throw InputError("record: field '" + s.child(key).path() + "' must hold 3 integers");
            return std::array<std::int64_t, 3>{v[0].as<std::int64_t>(), v[1].as<std::int64_t>(), v[2].as<std::int64_t>()};
        };
        const auto shape = triple("shape");
        c.shape = {shape[0], shape[1], shape[2]};
        const auto core = triple("core");
        r.core = {core[0], core[1], core[2]};
        r.levels = s.get<int>("levels");
        c.levels = s.getOr<int>("levels_requested", r.levels);
        c.variant = strassenVariantFromString(s.get<std::string>("variant"));
        const std::string type = s.get<std::string>("type");
        c.tf32 = type == "tf32";
        c.precision = c.tf32 ? Precision::F32 : precisionFromString(type);
        c.devices = s.getOr<int>("devices", 1);
        c.decomposition = strassenDecompositionFromString(s.getOr<std::string>("decomposition", "winograd"));
        // Records before 2026-11-29 have no "distribute": a decomposition ran when devices > 1.
        c.distribute = s.getOr<bool>("distribute", c.devices > 1);
        c.exactRestore = s.getOr<bool>("exact_restore", false);
        c.multiTargetKernel = s.getOr<std::string>("leaf", "cublas") == "kernel";
        if (s.has("faults"))
            for (const Node& f : s.elements("faults"))
                c.faults.push_back(parseStrassenFault(f.as<std::string>()));
        c.faultModel = parseFaultModelSpec(s.getOr<std::string>("fault", "delta"));  // records before bit flips: deltas
        r.status = s.getOr<std::string>("verdict", envelope.status);
        r.error = envelope.error;
        r.device = envelope.devices.front();
        if (envelope.devices.size() > 1)
            r.devices = envelope.devices;
        r.placement = s.getOr<std::string>("placement", "");
        r.spans = envelope.spans;
        r.seconds = s.getOr<double>("seconds", 0.0);
        r.restoreSeconds = s.getOr<double>("restore_seconds", 0.0);
        r.products = s.getOr<int>("products", 0);
        r.gemmCalls = s.getOr<int>("gemm_calls", 0);
        r.additions = s.getOr<int>("additions", 0);
        r.additionsBeside = s.getOr<int>("additions_beside", 0);
        c.checkLeaves = s.getOr<bool>("check_leaves", false);
        r.leavesChecked = s.getOr<int>("leaves_checked", 0);
        r.leafWorstRatio = s.getOr<double>("leaf_worst_ratio", 0.0);
        // Records before 2026-11-26 ran every sum in line.
        c.sumsBeside = s.getOr<std::string>("sums", "inline") == "beside";
        r.operandBytes = s.getOr<std::size_t>("operand_bytes", 0);
        r.peakDeviceBytes = s.getOr<std::size_t>("peak_device_bytes", 0);
        r.extraBytes = s.getOr<std::size_t>("extra_bytes", 0);
        r.relErrorC = s.getOr<double>("rel_error_c", -1.0);
        r.maxErrorC = s.getOr<double>("max_error_c", -1.0);
        r.nonFiniteC = s.getOr<std::int64_t>("non_finite_c", 0);
        r.referenceMismatches = s.getOr<std::int64_t>("reference_mismatches", 0);
        r.referenceWorstRatio = s.getOr<double>("reference_worst_ratio", -1.0);
        r.cWorstCleanRatio = s.getOr<double>("c_worst_clean_ratio", -1.0);
        r.cDetectionFloor = s.getOr<double>("c_detection_floor", -1.0);
        r.cMaxAbs = s.getOr<double>("c_max_abs", -1.0);
        r.referenceFloor = s.getOr<double>("reference_detection_floor", -1.0);
        r.verifiedBy = s.getOr<std::string>("verified_by", "checksums");
        r.recovery.level = r.levels;
        if (s.has("recovery")) {
            const Node rec = s.child("recovery");
            r.recovery.maxUlpsA = rec.getOr<double>("max_ulps_a", 0.0);
            r.recovery.maxUlpsB = rec.getOr<double>("max_ulps_b", 0.0);
            r.recovery.changedA = rec.getOr<std::int64_t>("changed_a", 0);
            r.recovery.changedB = rec.getOr<std::int64_t>("changed_b", 0);
        }
        if (s.has("checks"))
            for (const Node& k : s.elements("checks"))
                r.checks.push_back({k.getOr<std::string>("where", ""), k.getOr<std::string>("verdict", ""),
                                    k.getOr<std::int64_t>("row", -1), k.getOr<std::int64_t>("col", -1),
                                    k.getOr<std::string>("detail", "")});
        return r;
    } catch (const json::exception& e) {
        throw InputError(std::string("strassen record does not parse: ") + e.what());
    }
}

StrassenResult loadStrassenRecord(const std::string& path)
{
    try {
        std::optional<StrassenResult> r = strassenResultFromJson(recordjson::loadRecordText(path));
        if (!r)
            throw InputError("not a strassen record");
        return *r;
    } catch (const InputError& e) {
        const std::string what = e.what();
        throw InputError(what.rfind(path, 0) == 0 ? what : path + ": " + what);
    }
}

}  // namespace gigacheck
