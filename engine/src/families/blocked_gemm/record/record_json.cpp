// RunRecord <-> versioned JSON: the envelope by core (core/record/envelope_json.hpp), the
// "blocked_gemm" section (config, plan, fault report, reference check, repairs, imported inputs,
// operand checks, prediction) here, each part's fields listed once (core/record/field_io.hpp) for
// writing and reading. Reading names the field that is missing or malformed, and refuses records
// from a newer format than this build understands. Format 1 (before families) had the GEMM parts
// at the top level and a single device; it is still read (readVersion1).
#include "gigacheck/blocked_gemm/record.hpp"
#include "gigacheck/fault_models.hpp"

#include "core/record/field_io.hpp"
#include "families/blocked_gemm/ops.hpp"
#include "families/blocked_gemm/record/record_validate.hpp"

namespace gigacheck {

using namespace recordjson;

namespace {

constexpr EnumName<BufferRole> kBufferRoles[] = {{BufferRole::A, "A"},
                                                  {BufferRole::B, "B"},
                                                  {BufferRole::C, "C"},
                                                  {BufferRole::Aux, "aux"},
                                                  {BufferRole::Other, "other"},
                                                  {BufferRole::Workspace, "workspace"}};

constexpr std::array kRepairOutcomes{RepairOutcome::Confirmed, RepairOutcome::CorrectedByRecompute,
                                     RepairOutcome::Uncorrectable};

}  // namespace

// Only the record names buffer roles.
template <> const EnumTable<BufferRole>& enumTable<BufferRole>()
{
    static const EnumTable<BufferRole> table{"buffer role", kBufferRoles};
    return table;
}

namespace {

// ---- the parts of the section, each listed once ---------------------------------------------

template <class Io, class S> void shapeFields(Io& io, S& s)
{
    io("m", s.m);
    io("n", s.n);
    io("q", s.q);
}

template <class Io, class F> void faultSpecFields(Io& io, F& f)
{
    io("count", f.count);
    io("collinear", f.collinear);
    io.objects("at", f.at, [&](auto& a) {
        io("row", a.row);
        io("col", a.col);
        io.nullable("delta", a.delta);
        io.nullable("step", a.step);
    });
    io("model", f.model);
    io("bit", f.bit);
    io("target", f.target);
    io("scope", f.scope);
    io("seed", f.seed);
    // The fault models beside one cell (gigacheck/fault_models.hpp), written only when used.
    if (io.includes("extent", f.extent != FaultExtent::Cell))
        io.as("extent", f, [](const FaultSpec& f) { return Json(faultExtentText(f.extent, f.extentLength)); },
              [](const Node& n, FaultSpec& f) { parseFaultExtent(n.as<std::string>(), f.extent, f.extentLength); });
    io.unlessDefault("bit2", f.bit2, -1);
}

template <class Io, class C> void configFields(Io& io, C& c)
{
    io.object("shape", [&] { shapeFields(io, c.shape); });
    io("precision", c.precision);
    io("distribution", c.distribution);
    io("seed", c.seed);
    io("backend", c.backend);
    io.optional("device", c.device, -1);  // records before device selection: the first device
    io("strategy", c.strategy);
    io("mem_cap_bytes", c.memCapBytes);
    io("abft", c.abft);
    io("gemm", c.gemm);
    io("tile", c.tile);
    io.object("faults", [&] { faultSpecFields(io, c.faults); });
    io("reference", c.reference);
    io("threshold_lambda", c.thresholdLambda);
    io.optional("plan_by_cost_model", c.planByCostModel, false);  // records before the planner: false
    io.optional("h2d_staging", c.h2dStaging, H2dStaging::Direct);  // before host packing: direct copies
    io.unlessDefault("devices", c.devices, 1);  // records of one device stay as they were
    if constexpr (!Io::kWrites)
        if (c.devices < 1 || c.devices > kMaxRunDevices)
            throw InputError("record: config.devices must be 1 to " + std::to_string(kMaxRunDevices) + " (got " +
                             std::to_string(c.devices) + ")");
}

template <class Io, class P> void planFields(Io& io, P& p)
{
    io.object("shape", [&] { shapeFields(io, p.shape); });
    io("precision", p.precision);
    io("strategy", p.strategy);
    io("abft", p.abft);
    io("cap_bytes", p.capBytes);
    io("split_m", p.splitM);
    io("split_n", p.splitN);
    io("split_q", p.splitQ);
    io("block_m", p.blockM);
    io("block_n", p.blockN);
    io("block_q", p.blockQ);
    io.objects("buffers", p.buffers, [&](auto& b) {
        io("name", b.name);
        io("role", b.role);
        io("rows", b.rows);
        io("cols", b.cols);
        io("ld", b.ld);
        io("bytes", b.bytes);
    });
    io("bytes_needed", p.bytesNeeded);
    io.optional("explanation", p.explanation, "");
    // Unequal blocks only (older readers ignore the keys and see equal blocks of block_m / block_q).
    io.unlessDefault("row_starts", p.rowStarts, std::vector<std::int64_t>{});
    io.unlessDefault("col_starts", p.colStarts, std::vector<std::int64_t>{});
}

template <class Io, class F> void faultReportFields(Io& io, F& f)
{
    io("injected", f.injected);
    io("detected", f.detected);
    io("corrected", f.corrected);
    io.optional("corrected_by_recompute", f.correctedByRecompute, 0);  // absent before the repair pass
    io("uncorrectable", f.uncorrectable);
    io("below_threshold", f.belowThreshold);
    io.optional("missed", f.missed, 0);  // absent in records written before it was counted
    io("false_positives", f.falsePositives);
    io("blocks_clean", f.blocksClean);
    io("blocks_corrected", f.blocksCorrected);
    io("blocks_uncorrectable", f.blocksUncorrectable);
    io("max_threshold", f.maxThreshold);
    io("max_clean_residual_ratio", f.maxCleanResidualRatio);
}

template <class Io, class R> void referenceFields(Io& io, R& r)
{
    io("mode", r.mode);
    io("rows_checked", r.rowsChecked);
    io("mismatches", r.mismatches);
    io("max_abs_error", r.maxAbsError);
    io("max_rel_error", r.maxRelError);
    io("passed", r.passed);
}

// The repair pass's events ("repairs"; absent in records from before the repair pass: none).
template <class Io, class V> void repairsField(Io& io, V& repairs)
{
    io.optionalObjects("repairs", repairs, [&](auto& e) {
        io.object("block", [&] {
            io("i", e.blockI);
            io("j", e.blockJ);
        });
        io("row_offset", e.rowOffset);
        io("col_offset", e.colOffset);
        io("rows", e.rows);
        io("cols", e.cols);
        io.oneOf("outcome", e.outcome, kRepairOutcomes);
        io("mismatch_rows", e.mismatchRows);
        io("mismatch_cols", e.mismatchCols);
        io("recomputed_rows", e.recomputedRows);
        io("recomputed_cols", e.recomputedCols);
        io("whole_block", e.wholeBlock);
        io("cells_recomputed", e.cellsRecomputed);
        io("flops", e.flops);
        io("seconds", e.seconds);
        io.unlessDefault("operand_copy", e.operandCopy, false);  // written only when set
    });
}

// The end-to-end operand checks: written when the backend ran them.
template <class Io, class O> void operandChecksFields(Io& io, O& o)
{
    io("copies_checked", o.copiesChecked);
    io("max_clean_ratio", o.maxCleanRatio);
    io.objects("mismatches", o.mismatches, [&](auto& m) {
        io.as("operand", m.operand, [](char c) { return Json(std::string(1, c)); },
              [](const Node& n, char& c) {
                  const std::string operand = n.as<std::string>();
                  if (operand != "a" && operand != "b")
                      throw InputError("record: operand_checks: operand '" + operand + "' is neither a nor b");
                  c = operand[0];
              });
        io("block_row", m.blockRow);
        io("block_col", m.blockCol);
        io.object("product", [&] {
            io("i", m.product.i);
            io("j", m.product.j);
            io("k", m.product.k);
        });
        io("lines", m.lines);
        io("max_residual_ratio", m.maxResidualRatio);
    });
    io("host_elements_restored", o.hostElementsRestored);
    io("host_blocks_unrestorable", o.hostBlocksUnrestorable);
    io("entry_seconds", o.entrySeconds);
}

// Imported operands (records of generated inputs, and every record before imports, have none).
template <class Io, class V> void inputsField(Io& io, V& inputs)
{
    io.objectsUnlessEmpty("inputs", inputs, [&](auto& m) {
        io("operand", m.operand);
        io("file", m.file);
        io("rows", m.rows);
        io("cols", m.cols);
        io("dtype", m.dtype);
        io.optionalAs("order", m.fortranOrder, false, [](bool fortran) { return Json(fortran ? "F" : "C"); },
                      [](const Node& n, bool& fortran) {
                          const std::string order = n.as<std::string>();
                          if (order != "C" && order != "F")
                              throw InputError("record: inputs: order '" + order + "' is neither C nor F");
                          fortran = order == "F";
                      });
        if constexpr (!Io::kWrites) {
            if (m.operand != "A" && m.operand != "B")
                throw InputError("record: inputs: operand '" + m.operand + "' is neither A nor B");
            if (m.rows <= 0 || m.cols <= 0)
                throw InputError("record: inputs: " + m.operand + " has an empty shape");
        }
    });
}

template <class Io, class R> void blockedGemmSection(Io& io, R& r)
{
    io.object("config", [&] { configFields(io, r.config); });
    io.object("plan", [&] { planFields(io, r.plan); });
    io.object("faults", [&] { faultReportFields(io, r.faults); });
    io.object("reference", [&] { referenceFields(io, r.reference); });
    repairsField(io, r.repairs);
    inputsField(io, r.inputs);
    io.optionalObject("operand_checks", r.operandChecks.ran, [&] { operandChecksFields(io, r.operandChecks); });
    // Optional: records from before the cost model have no "prediction".
    io.optionalObject("prediction", !r.predictedSpans.empty(), [&] {
        io("total_seconds", r.predictedSeconds);
        io.optional("source", r.predictionSource, "");
        io.as("spans", r.predictedSpans, [](const std::vector<Span>& spans) { return writeAll(spans); },
              [](const Node& n, std::vector<Span>& spans) {
                  for (const Node& s : n.elements())
                      spans.push_back(readSpan(s));
              });
    });
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
    FieldReader io(root);
    io.object("config", [&] { configFields(io, r.config); });
    r.devices = {readDevice(root.child("device"))};
    io.object("plan", [&] { planFields(io, r.plan); });
    r.metrics = readMetrics(root.child("metrics"));
    io.object("faults", [&] { faultReportFields(io, r.faults); });
    io.object("reference", [&] { referenceFields(io, r.reference); });
    for (const Node& n : root.elements("injections"))
        r.injections.push_back(readInjectEvent(n));
    for (const Node& n : root.elements("verifications"))
        r.verifications.push_back(readVerifyEvent(n));
    for (const Node& n : root.elements("spans"))
        r.spans.push_back(readSpan(n));
    repairsField(io, r.repairs);
    return r;
}

constexpr auto kSection = [](auto& io, auto& r) { blockedGemmSection(io, r); };

}  // namespace

std::string toJson(const RunRecord& r, int indent)
{
    if (r.family != blocked_gemm::kFamilyName)
        throw InputError("record: a blocked GEMM record names family '" + r.family + "'");
    return writeRecordWith(r, kSection, indent);
}

RunRecord recordFromJson(const std::string& text)
{
    const RecordDocument doc = readRecordDocument(text);
    RunRecord r;
    if (doc.formatVersion == 1) {
        r = readVersion1(doc.root());
    } else {
        readEnvelope(doc.root(), r);
        FieldReader section(familySection(doc.root(), blocked_gemm::kFamilyName));
        blockedGemmSection(section, r);
    }
    recordcheck::validate(r);  // nothing uses or draws what the record claims before this
    return r;
}

void saveRecord(const RunRecord& r, const std::string& path) { saveRecordText(toJson(r), path); }

RunRecord loadRecord(const std::string& path)
{
    const std::string text = loadRecordText(path);
    try {
        return recordFromJson(text);
    } catch (const InputError& e) {
        throw InputError(path + ": " + e.what());
    }
}

}  // namespace gigacheck
