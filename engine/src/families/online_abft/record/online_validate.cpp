// Range and consistency checks of a loaded online ABFT record (online_validate.hpp).
#include "families/online_abft/record/online_validate.hpp"

#include "core/record/record_checks.hpp"
#include "gigacheck/weighted_checksums.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace gigacheck::online_abft {

using recordcheck::at;
using recordcheck::finite;
using recordcheck::inRange;
using recordcheck::refuse;
using recordcheck::thresholdLambda;

namespace {

const std::string kSection = "online_abft";
const std::string kConfig = kSection + ".config";

int highestBit(Precision p) { return int(elementSize(p) * 8) - 1; }

// The rows and columns of the matrix a fault of this target lands in (as validateOnlineConfig).
struct Extent {
    std::int64_t rows = 0, cols = 0;
};
Extent extentOf(OnlineTarget target, const OnlineConfig& c, int columnBlocks)
{
    const Shape& s = c.shape;
    switch (target) {
    case OnlineTarget::Result: break;
    case OnlineTarget::ChecksumRow: return {c.checksums, s.q};
    case OnlineTarget::ChecksumCol: return {s.m, std::int64_t(c.checksums) * columnBlocks};
    case OnlineTarget::A: return {s.m, s.n};
    case OnlineTarget::B: return {s.n, s.q};
    }
    return {s.m, s.q};
}

void validateFault(const OnlineFault& f, const OnlineRecord& r, const std::string& field)
{
    const Extent e = extentOf(f.target, r.config, r.columnBlocks);
    inRange(f.row, 0, e.rows - 1, field + ".row");
    inRange(f.col, 0, e.cols - 1, field + ".col");
    if (f.delta)
        finite(*f.delta, field + ".delta");
    if (f.step) {
        const bool input = f.target == OnlineTarget::A || f.target == OnlineTarget::B;
        // TMR: the replica; an input fault as applied: -1 before the checksums.
        const std::int64_t last = r.config.scheme == Scheme::Tmr ? 2 : std::int64_t(r.steps) - 1;
        inRange(*f.step, input ? -1 : 0, last, field + ".step");
    }
}

void validateConfig(const OnlineRecord& r)
{
    const OnlineConfig& c = r.config;
    recordcheck::validateShape(c.shape, kConfig + ".shape");
    if (c.scheme == Scheme::Blocked)
        refuse(kConfig + ".scheme", "is 'blocked', which has records of family blocked_gemm");
    // Written resolved (panelWidth), so 1..n.
    inRange(c.panel, 1, c.shape.n, kConfig + ".panel");
    inRange(c.checkEvery, 0, recordcheck::kMaxExtent, kConfig + ".check_every");
    inRange(c.checksums, 1, kMaxChecksums, kConfig + ".checksums");
    inRange(c.columnBlocks, 0, kMaxRecordColumnBlocks, kConfig + ".column_blocks");
    inRange(c.randomErrors, 0, kMaxRecordRandomErrors, kConfig + ".random_errors");
    inRange(c.bit, -1, highestBit(c.precision), kConfig + ".bit");
    inRange(c.bit2, -1, highestBit(c.precision), kConfig + ".bit2");
    if (c.bit2 >= 0 && c.bit2 == c.bit)
        refuse(kConfig + ".bit2", "is the same bit as bit: two bits of one word are two different bits");
    thresholdLambda(c.thresholdLambda, kConfig + ".threshold_lambda");
    if (c.faults.size() > kMaxRecordFaults)
        refuse(kConfig + ".faults", "lists " + std::to_string(c.faults.size()) + " faults, more than " +
                                        std::to_string(kMaxRecordFaults));
}

// Steps as the run planned them: ceil(n / panel) (TMR: none), and the checks where checksAfter
// puts them.
void validateSteps(const OnlineRecord& r)
{
    const OnlineConfig& c = r.config;
    const std::int64_t planned = c.scheme == Scheme::Tmr ? 0 : (c.shape.n + c.panel - 1) / c.panel;
    if (r.steps != planned)
        refuse(kSection + ".steps", "is " + std::to_string(r.steps) + " but n = " + std::to_string(c.shape.n) +
                                        " in panels of " + std::to_string(c.panel) + " makes " +
                                        std::to_string(planned) + (c.scheme == Scheme::Tmr ? " (TMR has no steps)" : ""));
    if (planned > kMaxRecordSteps)
        refuse(kSection + ".steps", "is " + std::to_string(planned) + ", more than a run keeps (" +
                                        std::to_string(kMaxRecordSteps) + ")");
    std::vector<int> expected;
    for (int j = 0; j < r.steps; ++j)
        if (c.checksAfter(j))
            expected.push_back(j);
    for (std::size_t i = 0; i < r.checkSteps.size(); ++i)
        inRange(r.checkSteps[i], 0, std::int64_t(r.steps) - 1, kSection + "." + at("check_steps", i));
    if (r.checkSteps != expected)
        refuse(kSection + ".check_steps",
               "lists " + std::to_string(r.checkSteps.size()) + " step(s), not the " + std::to_string(expected.size()) +
                   " that check_every = " + std::to_string(c.checkEvery) + " over " + std::to_string(r.steps) +
                   " steps gives");
    inRange(r.columnBlocks, 1, std::min<std::int64_t>(kMaxRecordColumnBlocks, c.shape.q), kSection + ".column_blocks");
    inRange(r.panelProducts, 0, r.steps, kSection + ".panel_products");
}

void validateInputs(const OnlineRecord& r)
{
    const Shape& s = r.config.shape;
    for (std::size_t i = 0; i < r.config.faults.size(); ++i)
        validateFault(r.config.faults[i], r, kConfig + "." + at("faults", i));
    for (std::size_t i = 0; i < r.appliedInputFaults.size(); ++i) {
        const std::string field = kSection + "." + at("applied_input_faults", i);
        const OnlineFault& f = r.appliedInputFaults[i];
        if (f.target != OnlineTarget::A && f.target != OnlineTarget::B)
            refuse(field + ".target", "must be a or b");
        validateFault(f, r, field);
    }
    for (std::size_t i = 0; i < r.inputFaults.size(); ++i) {
        const std::string field = kSection + "." + at("input_faults", i);
        const InputFaultReport& f = r.inputFaults[i];
        if (f.operand != OnlineTarget::A && f.operand != OnlineTarget::B)
            refuse(field + ".operand", "must be a or b");
        const Extent e = extentOf(f.operand, r.config, r.columnBlocks);
        // -1, -1: a change the operand's sums could not locate (never corrected).
        const bool unlocated = f.row == -1 && f.col == -1 && !f.corrected;
        if (!unlocated) {
            inRange(f.row, 0, e.rows - 1, field + ".row");
            inRange(f.col, 0, e.cols - 1, field + ".col");
        } else if (f.cellsOff != 0) {
            refuse(field + ".cells_off", "must be 0 for a change that was not located");
        }
        if (f.belowRoundoff && !unlocated)
            refuse(field + ".below_roundoff", "only a change that was not located can be below round-off");
        finite(f.delta, field + ".delta");
        inRange(f.caughtAtStep, -1, std::int64_t(r.steps) - 1, field + ".caught_at_step");
        inRange(f.cellsOff, 0, std::max(s.m, s.q), field + ".cells_off");
    }
}

void validateOutcome(const OnlineRecord& r)
{
    const Shape& s = r.config.shape;
    const std::int64_t cells = s.m * s.q;  // each <= 2^31 - 1: no overflow
    finite(r.recomputeSeconds, kSection + ".recompute.seconds");
    inRange(r.reference.rowsChecked, 0, s.m, kSection + ".reference.rows_checked");
    inRange(r.reference.mismatches, 0, cells, kSection + ".reference.mismatches");
    if (!r.vote)
        return;
    const VoteReport& v = *r.vote;
    inRange(v.cellsOutvoted, 0, cells, kSection + ".vote.cells_outvoted");
    inRange(v.cellsWithoutMajority, 0, cells, kSection + ".vote.cells_without_majority");
    inRange(v.cellsRecomputed, 0, std::min<std::int64_t>(cells, kMaxDisputedCells), kSection + ".vote.cells_recomputed");
    inRange(v.majorityOverruled, 0, v.cellsRecomputed, kSection + ".vote.majority_overruled");
    if (v.noMajority.size() > kMaxNoMajorityCells)
        refuse(kSection + ".vote.no_majority", "lists more than " + std::to_string(kMaxNoMajorityCells) + " cells");
    for (std::size_t i = 0; i < v.noMajority.size(); ++i) {
        inRange(v.noMajority[i].first, 0, s.m - 1, kSection + ".vote." + at("no_majority", i) + "[0]");
        inRange(v.noMajority[i].second, 0, s.q - 1, kSection + ".vote." + at("no_majority", i) + "[1]");
    }
}

// The envelope's events, in C_f's coordinates: rows m.. are the K checksum rows, columns q.. the
// checksum columns (K per column block).
void validateEvents(const OnlineRecord& r)
{
    const OnlineConfig& c = r.config;
    const std::int64_t rowsF = c.shape.m + c.checksums;
    const std::int64_t colsF = c.shape.q + std::int64_t(c.checksums) * r.columnBlocks;
    const std::int64_t lastStep = c.scheme == Scheme::Tmr ? 2 : std::int64_t(r.steps) - 1;
    for (std::size_t e = 0; e < r.injections.size(); ++e) {
        const std::string field = "events." + at("injections", e);
        const Injection& inj = r.injections[e].injection;
        inRange(r.injections[e].opId, 0, recordcheck::kMaxExtent, field + ".op_id");
        finite(r.injections[e].time, field + ".time");
        inRange(inj.block.k, 0, lastStep, field + ".injection.block.k");
        inRange(inj.localRow, 0, rowsF - 1, field + ".injection.local_row");
        inRange(inj.localCol, 0, colsF - 1, field + ".injection.local_col");
        inRange(inj.globalRow, -1, c.shape.m - 1, field + ".injection.global_row");
        inRange(inj.globalCol, -1, c.shape.q - 1, field + ".injection.global_col");
        inRange(inj.bit, 0, 63, field + ".injection.bit");
    }
    for (std::size_t e = 0; e < r.verifications.size(); ++e) {
        const std::string field = "events." + at("verifications", e);
        const VerifyEvent& v = r.verifications[e];
        inRange(v.opId, 0, recordcheck::kMaxExtent, field + ".op_id");
        finite(v.time, field + ".time");
        inRange(v.block.k, 0, std::max<std::int64_t>(lastStep, 0), field + ".block.k");
        inRange(v.block.j, 0, r.columnBlocks - 1, field + ".block.j");
        inRange(v.rowOffset, 0, c.shape.m - 1, field + ".row_offset");
        inRange(v.colOffset, 0, c.shape.q - 1, field + ".col_offset");
        inRange(v.rows, 0, c.shape.m - v.rowOffset, field + ".rows");
        inRange(v.cols, 0, c.shape.q - v.colOffset, field + ".cols");
        const VerifyResult& res = v.result;
        const auto indices = [&](const std::vector<std::int64_t>& list, std::int64_t count, const char* name) {
            if (list.size() > std::size_t(count))
                refuse(field + ".result." + name, "lists more entries than C and its checksums have");
            for (std::size_t i = 0; i < list.size(); ++i)
                inRange(list[i], 0, count - 1, field + ".result." + at(name, i));
        };
        indices(res.mismatchRows, rowsF, "mismatch_rows");
        indices(res.mismatchCols, colsF, "mismatch_cols");
        if (res.rowResidual.size() > std::size_t(rowsF))
            refuse(field + ".result.row_residual", "lists more entries than C has rows");
        if (res.colResidual.size() > std::size_t(colsF))
            refuse(field + ".result.col_residual", "lists more entries than C has columns");
        if (double(res.corrections.size()) > double(rowsF) * double(colsF))
            refuse(field + ".result.corrections", "lists more entries than C has cells");
        for (std::size_t i = 0; i < res.corrections.size(); ++i) {
            inRange(res.corrections[i].row, 0, rowsF - 1, field + ".result." + at("corrections", i) + ".row");
            inRange(res.corrections[i].col, 0, colsF - 1, field + ".result." + at("corrections", i) + ".col");
        }
    }
    for (std::size_t s = 0; s < r.spans.size(); ++s) {
        const Span& span = r.spans[s];
        const std::string field = at("spans", s);
        inRange(span.opId, 0, recordcheck::kMaxExtent, field + ".op_id");
        finite(span.start, field + ".start");
        finite(span.end, field + ".end");
        if (span.end < span.start)
            refuse(field + ".end", "is before its start");
    }
}

}  // namespace

void validateRecord(const OnlineRecord& r)
{
    validateConfig(r);
    validateSteps(r);
    validateInputs(r);
    validateOutcome(r);
    validateEvents(r);
}

}  // namespace gigacheck::online_abft
