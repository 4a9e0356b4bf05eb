// The strassen record as JSON: core's envelope (status, devices, spans: block = level, stage,
// node), the result's own, then the family's section "strassen". The section's
// fields are listed once (sectionFields) for writing and reading; most are optional because the
// record grew with the family and every older record still opens.
#include "gigacheck/strassen.hpp"

#include "core/record/field_io.hpp"
#include "core/record/record_checks.hpp"
#include "core/timestamp.hpp"
#include "gigacheck/safe_write.hpp"
#include "gigacheck/version.hpp"

#include <algorithm>
#include <array>

namespace gigacheck {

namespace {

using recordjson::Json;
using recordjson::Node;

Json shapeJson(const Shape& s) { return Json::array({s.m, s.n, s.q}); }

void readShape(const Node& n, Shape& s)
{
    const std::vector<Node> v = n.elements();
    if (v.size() != 3)
        throw InputError("record: field '" + n.path() + "' must hold 3 integers");
    s = {v[0].as<std::int64_t>(), v[1].as<std::int64_t>(), v[2].as<std::int64_t>()};
}

// A flag stored as one of two words ("beside" / "inline"); any other word is refused.
template <class Io, class B>
void flagWord(Io& io, const char* key, B& flag, bool fallback, const char* yes, const char* no)
{
    io.optionalAs(key, flag, fallback, [=](bool f) { return Json(f ? yes : no); }, [=](const Node& n, bool& f) {
        const std::string word = n.as<std::string>();
        if (word != yes && word != no)
            throw InputError("record: field 'strassen." + std::string(key) + "' must be " + yes + " or " + no + ", not '" +
                             word + "'");
        f = word == yes;
    });
}

template <class Io, class R> void sectionFields(Io& io, R& r)
{
    auto& c = r.config;
    io.as("shape", c.shape, shapeJson, readShape);
    io.as("core", r.core, shapeJson, readShape);
    io("levels", r.levels);
    io.optional("levels_requested", c.levels, r.levels);
    io("variant", c.variant);
    // FP32 storage with TF32 leaves is the type "tf32".
    io.as("type", c, [](const auto& c) { return Json(c.tf32 ? std::string("tf32") : std::string(toString(c.precision))); },
          [](const Node& n, auto& c) {
              const std::string type = n.as<std::string>();
              c.tf32 = type == "tf32";
              c.precision = c.tf32 ? Precision::F32 : precisionFromString(type);
          });
    // The inputs and the checks, so that the run can be made again (`gigacheck rerun`, the lab);
    // records before 2026-12-04 lack them: the defaults of `gigacheck strassen` (seed 1, uniform,
    // the reference auto, the checksums on).
    io.optional("seed", c.seed, std::uint64_t(1));
    io.optionalAs("dist", c.distribution, Distribution::Uniform, [](Distribution d) { return Json(std::string(toString(d))); },
                  [](const Node& n, Distribution& d) { d = distributionFromString(n.as<std::string>()); });
    std::string reference = !c.reference ? "none" : c.referenceAlways ? "full" : "auto";
    io.optional("reference", reference, "auto");
    if constexpr (!Io::kWrites) {
        if (reference != "auto" && reference != "full" && reference != "none")
            throw InputError("record: field 'strassen.reference' must be auto, full or none, not '" + reference + "'");
        c.reference = reference != "none";
        c.referenceAlways = reference == "full";
    }
    io.optional("abft", c.verify, true);
    io.optional("devices", c.devices, 1);
    // Whether the global decomposition ran (one device too: --devices 1 --decomposition 2d).
    // Records before 2026-11-29 have no "distribute": a decomposition ran when devices > 1.
    io.optionalAs("distribute", c.distribute, c.devices > 1, [&](bool d) { return Json(c.devices > 1 || d); },
                  [](const Node& n, bool& d) { d = n.as<bool>(); });
    io.optional("exact_restore", c.exactRestore, false);
    // The leaves: "cublas", "kernel" (the multi-target kernel) or "cutlass" (the CUTLASS TF32 kernel,
    // with how many leaf GEMMs it ran and how many fell back to cuBLAS TF32, and why).
    std::string leaf = c.multiTargetKernel ? "kernel" : c.cutlassLeaves ? "cutlass" : "cublas";
    io.optional("leaf", leaf, "cublas");
    if constexpr (!Io::kWrites) {
        if (leaf != "cublas" && leaf != "kernel" && leaf != "cutlass")
            throw InputError("record: field 'strassen.leaf' must be cublas, kernel or cutlass, not '" + leaf + "'");
        c.multiTargetKernel = leaf == "kernel";
        c.cutlassLeaves = leaf == "cutlass";
    }
    if (!Io::kWrites || c.cutlassLeaves) {
        io.optional("leaf_gemms_cutlass", r.cutlassLeafGemms, 0);
        io.optional("leaf_gemms_fallback", r.fallbackLeafGemms, 0);
        io.optional("leaf_fallback_reason", r.leafFallbackReason, "");
    }
    io.optional("seconds", r.seconds, 0.0);
    io.optional("restore_seconds", r.restoreSeconds, 0.0);
    io.optional("products", r.products, 0);
    io.optional("gemm_calls", r.gemmCalls, 0);
    io.optional("additions", r.additions, 0);
    io.optional("additions_beside", r.additionsBeside, 0);
    flagWord(io, "sums", c.sumsBeside, false, "beside", "inline");  // records before 2026-11-26: in line
    io.optional("check_leaves", c.checkLeaves, false);
    io.optional("leaves_checked", r.leavesChecked, 0);
    io.optional("leaf_worst_ratio", r.leafWorstRatio, 0.0);
    io.optional("operand_bytes", r.operandBytes, 0);
    io.optional("peak_device_bytes", r.peakDeviceBytes, 0);
    io.optional("extra_bytes", r.extraBytes, 0);
    io.optional("rel_error_c", r.relErrorC, -1.0);
    io.optional("max_error_c", r.maxErrorC, -1.0);
    io.optional("non_finite_c", r.nonFiniteC, 0);
    io.optional("reference_mismatches", r.referenceMismatches, 0);
    // An infinite ratio (a non-finite cell) is written as 1e300, a number every reader takes.
    io.optionalAs("reference_worst_ratio", r.referenceWorstRatio, -1.0,
                  [](double v) { return recordjson::number(std::min(v, 1e300)); },
                  [](const Node& n, double& v) { v = n.as<double>(); });
    io.optional("c_worst_clean_ratio", r.cWorstCleanRatio, -1.0);
    io.optional("c_detection_floor", r.cDetectionFloor, -1.0);
    io.optional("c_max_abs", r.cMaxAbs, -1.0);
    io.optional("reference_detection_floor", r.referenceFloor, -1.0);
    io.optional("verified_by", r.verifiedBy, "checksums");
    io.optionalObject("recovery", true, [&] {
        io.optional("max_ulps_a", r.recovery.maxUlpsA, 0.0);
        io.optional("max_ulps_b", r.recovery.maxUlpsB, 0.0);
        io.optional("changed_a", r.recovery.changedA, 0);
        io.optional("changed_b", r.recovery.changedB, 0);
    });
    io.optionalAs(
        "faults", c.faults, std::vector<StrassenFault>{},
        [](const std::vector<StrassenFault>& faults) {
            Json out = Json::array();
            for (const StrassenFault& f : faults)
                out.push_back(toString(f));
            return out;
        },
        [](const Node& n, std::vector<StrassenFault>& faults) {
            for (const Node& f : n.elements())
                faults.push_back(parseStrassenFault(f.as<std::string>()));
        });
    // What the faults without a delta did (--fault); records before bit flips: deltas.
    io.optionalAs("fault", c.faultModel, parseFaultModelSpec("delta"),
                  [](const FaultModelSpec& m) { return Json(toString(m)); },
                  [](const Node& n, FaultModelSpec& m) { m = parseFaultModelSpec(n.as<std::string>()); });
    io.optionalObjects("checks", r.checks, [&](auto& k) {
        io.optional("where", k.where, "");
        io.optional("verdict", k.verdict, "");
        io.optional("row", k.row, -1);
        io.optional("col", k.col, -1);
        io.optional("detail", k.detail, "");
    });
    // One word (strassenOutcome): the verdict of a run that ended, else its status. The reader has
    // the envelope's status already; a record without "verdict" keeps it.
    std::string outcome = strassenOutcome(r);
    io.optional("verdict", outcome, outcome);
    if constexpr (!Io::kWrites) {
        // Any other word is refused: a record must never read as verified by default.
        if (outcome != "ok" && outcome != "uncorrectable" && outcome != "not_verified" && outcome != "failed" &&
            outcome != "cancelled")
            throw InputError("record: field 'strassen.verdict' must be ok, uncorrectable, not_verified, failed or "
                             "cancelled, not '" + outcome + "'");
        r.verdict = outcome == "uncorrectable"  ? StrassenVerdict::Uncorrectable
                    : outcome == "not_verified" ? StrassenVerdict::NotVerified
                                                : StrassenVerdict::Verified;
        if (outcome == "failed" || outcome == "cancelled")
            r.status = outcome;
    }
    io.optional("placement", r.placement, "");
    // Named only where the decomposition ran.
    if (!Io::kWrites || c.devices > 1 || c.distribute)
        io.optional("decomposition", c.decomposition, StrassenDecomposition::Winograd);
}

// A record someone sent may claim anything: its shapes and levels are ones a run could have had,
// its fault events name one of its faults, a cell of C or of a workspace block, and bits of a word
// (families/strassen/injection_event.hpp).
void validateRecord(const StrassenResult& r)
{
    using namespace recordcheck;
    validateShape(r.config.shape, "strassen.shape");
    validateShape(r.core, "strassen.core");
    if (r.core.m > r.config.shape.m || r.core.n > r.config.shape.n || r.core.q > r.config.shape.q)
        refuse("strassen.core", "is larger than the shape");
    inRange(r.levels, 0, kMaxStrassenLevels, "strassen.levels");
    inRange(r.config.levels, 0, kMaxStrassenLevels, "strassen.levels_requested");
    inRange(r.config.devices, 1, 1024, "strassen.devices");
    for (std::size_t e = 0; e < r.injections.size(); ++e) {
        const InjectEvent& event = r.injections[e];
        const Injection& inj = event.injection;
        const std::string field = "events." + at("injections", e);
        inRange(event.opId, 0, kMaxExtent, field + ".op_id");
        finite(event.time, field + ".time");
        inRange(inj.block.k, 0, std::int64_t(r.config.faults.size()) - 1, field + ".injection.block");
        inRange(inj.localRow, 0, kMaxExtent, field + ".injection.local_row");
        inRange(inj.localCol, 0, kMaxExtent, field + ".injection.local_col");
        inRange(inj.globalRow, -1, r.config.shape.m - 1, field + ".injection.global_row");
        inRange(inj.globalCol, -1, r.config.shape.q - 1, field + ".injection.global_col");
        inRange(inj.bit, 0, 63, field + ".injection.bit");
        inRange(inj.bit2, -1, 63, field + ".injection.bit2");
    }
    if (!r.verifications.empty())
        refuse("events.verifications", "lists checks, but a strassen run files its checks under strassen.checks");
}

}  // namespace

std::string strassenRecordJson(const StrassenResult& r)
{
    recordjson::FieldWriter section;
    sectionFields(section, r);
    RecordEnvelope envelope = r;  // the shared part as the run left it
    envelope.toolVersion = kVersion;
    envelope.createdAt = nowIso8601();
    envelope.family = "strassen";
    return recordjson::dumpRecord(recordjson::writeRecordDocument(envelope, section.take()), 1);
}

std::optional<StrassenResult> strassenResultFromJson(const std::string& text)
{
    if (recordFamilyOf(text) != "strassen")
        return std::nullopt;
    const recordjson::RecordDocument doc = recordjson::readRecordDocument(text);
    StrassenResult r;
    recordjson::readEnvelope(doc.root(), r);
    recordjson::FieldReader section(doc.root().child("strassen"));
    sectionFields(section, r);
    validateRecord(r);
    r.recovery.level = r.levels;
    return r;
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

void saveStrassenRecord(const StrassenResult& result, const std::string& path)
{
    writeFileAtomically(path, strassenRecordJson(result) + "\n", "run record");
}

}  // namespace gigacheck
