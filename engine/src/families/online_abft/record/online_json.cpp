// The online ABFT family's run record as JSON: the shared envelope's fields (format_version,
// tool_version, created_at, family, status, error, devices, spans, events) and the family section
// `online_abft` (scheme and its parameters, checks, input faults, the vote, the recompute, the
// reference). README "Record" in this folder lists the fields. The section's fields are listed once
// (sectionFields) for writing and reading.
#include "gigacheck/online_abft.hpp"

#include "core/record/field_io.hpp"
#include "families/online_abft/record/online_validate.hpp"

namespace gigacheck {

using recordjson::Json;
using recordjson::Node;
using recordjson::number;

namespace {

template <class Io, class F> void faultFields(Io& io, F& f)
{
    io("target", f.target);
    io("row", f.row);
    io("col", f.col);
    io.optional("delta", f.delta);
    io.optional("step", f.step);
}

// A check as the section summarises it (the envelope's verification, with the step named).
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

using Cells = std::vector<std::pair<std::int64_t, std::int64_t>>;

Json cellsJson(const Cells& cells)
{
    Json out = Json::array();
    for (const auto& [i, j] : cells)
        out.push_back({i, j});
    return out;
}

void readCells(const Node& n, Cells& cells)
{
    cells.clear();
    for (const Node& cell : n.elements()) {
        const std::vector<Node> rowCol = cell.elements();
        if (rowCol.size() != 2)
            throw InputError("record: field '" + cell.path() + "' must be [row, col]");
        cells.emplace_back(rowCol[0].as<std::int64_t>(), rowCol[1].as<std::int64_t>());
    }
}

template <class Io, class C> void configFields(Io& io, C& c)
{
    io.object("shape", [&] {
        io("m", c.shape.m);
        io("n", c.shape.n);
        io("q", c.shape.q);
    });
    io("precision", c.precision);
    io("distribution", c.distribution);
    io("seed", c.seed);
    io("backend", c.backend);
    io("scheme", c.scheme);
    // Written as run (0 = auto resolved), read back as asked.
    io.as("panel", c, [](const OnlineConfig& c) { return Json(c.panelWidth()); },
          [](const Node& n, OnlineConfig& c) { c.panel = n.as<std::int64_t>(); });
    io("check_every", c.checkEvery);
    io("checksums", c.checksums);
    io.optional("column_blocks", c.columnBlocks, 1);  // as asked (0 = auto); before column blocks: one
    io.objects("faults", c.faults, [&](auto& f) { faultFields(io, f); });
    io("random_errors", c.randomErrors);
    // Written since the family began, but not read until the record was validated (audit 8): a
    // reopened record then ran again with delta faults whatever it said.
    io.optional("fault_model", c.model, FaultModel::Delta);
    io.optional("bit", c.bit, -1);
    io.unlessDefault("bit2", c.bit2, -1);  // two-bit flips only: other records stay as they were
    io("gemm", c.gemm);
    io("reference", c.reference);
    io("threshold_lambda", c.thresholdLambda);
    io.optional("merge_steps", c.mergeSteps, StepMerge::Off);  // records before merged steps: one product per step
}

template <class Io, class R> void sectionFields(Io& io, R& r)
{
    io.object("config", [&] { configFields(io, r.config); });
    io("steps", r.steps);
    io("check_steps", r.checkSteps);
    io.optional("column_blocks", r.columnBlocks, 1);  // as run
    io.optional("merged_steps", r.mergedSteps, false);  // as run
    io.optional("panel_gemm", r.panelGemm, "");
    io.optional("panel_products", r.panelProducts, r.steps);
    // The checks are the envelope's verifications; the section keeps their summary, not read back.
    io.writeOnly("checks", [&] {
        Json checks = Json::array();
        for (const VerifyEvent& e : r.verifications)
            checks.push_back(checkJson(e));
        return checks;
    });
    io.objects("input_faults", r.inputFaults, [&](auto& f) {
        io("operand", f.operand);
        io("row", f.row);
        io("col", f.col);
        io("delta", f.delta);
        io("before_checksum", f.beforeChecksum);
        io("caught_at_step", f.caughtAtStep);
        io("cells_off", f.cellsOff);
        io("corrected", f.corrected);
        io.optional("below_roundoff", f.belowRoundoff, false);
    });
    // Written always; read since audit 8 (the step view's input faults).
    io.optionalObjects("applied_input_faults", r.appliedInputFaults, [&](auto& f) { faultFields(io, f); });
    io.object("recompute", [&] {
        io("done", r.recomputed);
        io("clean", r.recomputeClean);
        io("seconds", r.recomputeSeconds);
    });
    io.object("reference", [&] {
        io("mode", r.reference.mode);
        io("rows_checked", r.reference.rowsChecked);
        io("mismatches", r.reference.mismatches);
        io("max_abs_error", r.reference.maxAbsError);
        io("max_error_over_tolerance", r.reference.maxRelError);
        io("passed", r.reference.passed);
    });
    io.optionalObject("vote", r.vote, [&](auto& v) {
        io("cells_outvoted", v.cellsOutvoted);
        io("cells_without_majority", v.cellsWithoutMajority);
        // Records before disputes were settled by a recompute: none was.
        io.optional("cells_recomputed", v.cellsRecomputed, 0);
        io.optional("majority_overruled", v.majorityOverruled, 0);
        io.as("no_majority", v.noMajority, cellsJson, readCells);
    });
}

constexpr auto kSection = [](auto& io, auto& r) { sectionFields(io, r); };

}  // namespace

std::string onlineToJson(const OnlineRecord& r, int indent) { return recordjson::writeRecordWith(r, kSection, indent); }

OnlineRecord onlineRecordFromJson(const std::string& text)
{
    OnlineRecord r = recordjson::readRecordWith<OnlineRecord>(text, OnlineRecord::kFamily, kSection);
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
