// The fault report: every applied injection is followed to the verification of its block
// product, and verdicts are checked against what was actually injected.
#include "families/blocked_gemm/run/missed_faults.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <set>
#include <tuple>
#include <utility>

namespace gigacheck {

namespace {

bool contains(const std::vector<std::int64_t>& v, std::int64_t x)
{
    return std::find(v.begin(), v.end(), x) != v.end();
}

// Verifications by block product, so each injection finds the one that judged it quickly.
class VerifyIndex {
public:
    explicit VerifyIndex(const RunRecord& r)
    {
        for (const VerifyEvent& v : r.verifications)
            byBlock_[key(v.block)].push_back(&v);
    }
    // The first verification of the injection's block product after it was applied.
    const VerifyEvent* of(const InjectEvent& e) const
    {
        const auto it = byBlock_.find(key(e.injection.block));
        if (it == byBlock_.end())
            return nullptr;
        // The checker's own faults in a verification (a lying check, a hit correction write) are
        // judged by that verification itself.
        const bool inVerify = e.injection.target == FaultTarget::Check || e.injection.target == FaultTarget::Correction;
        const VerifyEvent* best = nullptr;
        for (const VerifyEvent* v : it->second)
            if ((v->opId > e.opId || (inVerify && v->opId == e.opId)) && (!best || v->opId < best->opId))
                best = v;
        return best;
    }

private:
    static std::tuple<int, int, int> key(const BlockIndex& b) { return {b.i, b.j, b.k}; }
    std::map<std::tuple<int, int, int>, std::vector<const VerifyEvent*>> byBlock_;
};

// The repair pass's event of a C block, if it looked at it.
const RepairEvent* repairOf(const RunRecord& r, const BlockIndex& b)
{
    for (const RepairEvent& e : r.repairs)
        if (e.blockI == b.i && e.blockJ == b.j)
            return &e;
    return nullptr;
}

bool onChecksum(const Injection& inj, const VerifyEvent& v)
{
    return inj.localRow == v.rows || inj.localCol == v.cols;
}

}  // namespace

FaultReport computeFaultReport(const RunRecord& r)
{
    FaultReport f;
    for (const VerifyEvent& v : r.verifications) {
        switch (v.result.verdict) {
        case Verdict::Clean: ++f.blocksClean; break;
        case Verdict::Corrected: ++f.blocksCorrected; break;
        case Verdict::Uncorrectable: ++f.blocksUncorrectable; break;
        }
        f.maxThreshold = std::max(f.maxThreshold, v.result.maxThreshold);
        f.maxCleanResidualRatio = std::max(f.maxCleanResidualRatio, v.result.maxCleanResidualRatio);
    }

    const VerifyIndex index(r);
    std::map<const VerifyEvent*, std::vector<const Injection*>> judged;  // injections per verification
    for (const InjectEvent& e : r.injections) {
        const Injection& inj = e.injection;
        if (!inj.applied)
            continue;
        ++f.injected;
        const VerifyEvent* v = index.of(e);
        if (v)
            judged[v].push_back(&inj);
        if (!v)
            continue;  // ABFT off: nothing checks it
        const VerifyResult& res = v->result;
        // An encoding fault (c_A / r_B) shows in C's checksum row (A) / column (B), not at its indices.
        const bool encodingA = inj.target == FaultTarget::EncodingA, encodingB = inj.target == FaultTarget::EncodingB;
        const bool detected = encodingA   ? contains(res.mismatchRows, v->rows) || !res.mismatchCols.empty()
                              : encodingB ? contains(res.mismatchCols, v->cols) || !res.mismatchRows.empty()
                                          : contains(res.mismatchRows, inj.localRow) || contains(res.mismatchCols, inj.localCol);
        if (!detected) {
            // A change no larger than the threshold is round-off-sized: harmless and not detectable.
            // Anything larger slipped through: counted, never hidden.
            if (std::abs(inj.after - inj.before) <= res.maxThreshold)
                ++f.belowThreshold;
            else
                ++f.missed;
            continue;
        }
        ++f.detected;
        const RepairEvent* repair = repairOf(r, inj.block);
        if (repair && repair->outcome == RepairOutcome::Uncorrectable) {
            ++f.uncorrectable;  // the block is still wrong, whatever its verification did
            continue;
        }
        if (inj.target == FaultTarget::Correction) {
            // The corrected value was written wrong: made right only by the repair pass, which
            // recomputes every corrected cell from A and B.
            if (repair && repair->cellsRecomputed > 0)
                ++f.correctedByRecompute;
            else
                ++f.uncorrectable;
            continue;
        }
        const bool cellRestored = std::any_of(res.corrections.begin(), res.corrections.end(), [&](const Correction& c) {
            return c.row == inj.localRow && c.col == inj.localCol;
        });
        const bool onChecksums = onChecksum(inj, *v) || encodingA || encodingB;
        if (res.verdict != Verdict::Uncorrectable && (cellRestored || (onChecksums && res.checksumsRecomputed)))
            ++f.corrected;
        else if (repair && repair->outcome == RepairOutcome::CorrectedByRecompute)
            ++f.correctedByRecompute;
        else if (res.verdict == Verdict::Uncorrectable)
            ++f.uncorrectable;
    }

    // False positives: alarms in block products with no injection, and corrections of cells
    // that were not injected.
    // A hit encoding of A (i, k) / B (k, j) feeds every product that shares the buffer (S4 shares A
    // between two): their alarms are that fault's.
    std::set<std::pair<int, int>> encodedA, encodedB;
    for (const InjectEvent& e : r.injections) {
        if (!e.injection.applied)
            continue;
        if (e.injection.target == FaultTarget::EncodingA)
            encodedA.insert({e.injection.block.i, e.injection.block.k});
        if (e.injection.target == FaultTarget::EncodingB)
            encodedB.insert({e.injection.block.k, e.injection.block.j});
    }
    for (const VerifyEvent& v : r.verifications) {
        if (encodedA.count({v.block.i, v.block.k}) || encodedB.count({v.block.k, v.block.j}))
            continue;
        // A block multiplied from an operand copy that failed its entry check: its alarms are that
        // fault's (the repair recomputed the block), not false.
        const RepairEvent* repair = repairOf(r, v.block);
        if (repair && repair->operandCopy)
            continue;
        const auto it = judged.find(&v);
        if (it == judged.end()) {
            if (v.result.verdict != Verdict::Clean)
                f.falsePositives += std::max<int>(1, int(v.result.corrections.size()));
            continue;
        }
        // A lying check or a hit encoding: whatever the verification corrected follows from it.
        if (std::any_of(it->second.begin(), it->second.end(), [](const Injection* inj) {
                return inj->target == FaultTarget::Check || inj->target == FaultTarget::EncodingA ||
                       inj->target == FaultTarget::EncodingB;
            }))
            continue;
        for (const Correction& c : v.result.corrections) {
            const bool injectedCell = std::any_of(it->second.begin(), it->second.end(), [&](const Injection* inj) {
                return inj->localRow == c.row && inj->localCol == c.col;
            });
            if (!injectedCell)
                ++f.falsePositives;
        }
    }
    return f;
}

bool RunRecord::verifiedCorrect() const
{
    if (status != "ok" || !reference.passed)
        return false;
    // An operand found wrong since it entered that could not be restored: C is the product of
    // inputs nobody gave, whatever a reference over them says.
    if (operandChecks.hostBlocksUnrestorable > 0)
        return false;
    if (reference.mode == ReferenceMode::Full)
        return true;  // every cell compared with the reference, within its tolerance
    if (!config.abft)
        return false;  // a sampled reference alone cannot see a fault outside its rows
    // Faults that changed cells beyond their block's threshold on lines no check flagged (faults
    // that cancel in every row and column sum): C is known wrong, whatever the checks said.
    if (!missedFaultsWords(*this).empty())
        return false;
    // An uncorrectable verdict is made good only by a repair of its block that ended right.
    if (std::any_of(repairs.begin(), repairs.end(),
                    [](const RepairEvent& e) { return e.outcome == RepairOutcome::Uncorrectable; }))
        return false;
    return std::none_of(verifications.begin(), verifications.end(), [this](const VerifyEvent& v) {
        return v.result.verdict == Verdict::Uncorrectable && !repairOf(*this, v.block);
    });
}

namespace {

// A verification's mismatch lists of this many lines may have been cut (the CUDA verification lists
// at most 64 of each): a line missing from them may still have mismatched.
constexpr std::size_t kListsMayBeCut = 64;

// Neither the row nor the column of a cell of the block mismatched, and the lists are whole: no
// check saw the cell, and no correction touched it (a correction sits on a mismatched line). Also
// in an uncorrectable verdict: its candidates are the flagged lines' crossings.
bool noCheckSawCell(const VerifyResult& v, std::int64_t row, std::int64_t col)
{
    if (v.mismatchRows.size() >= kListsMayBeCut || v.mismatchCols.size() >= kListsMayBeCut)
        return false;
    return !contains(v.mismatchRows, row) && !contains(v.mismatchCols, col);
}

// The repair pass computed the cell again from A and B (its block whole, or its row or column).
bool recomputedByRepair(const RepairEvent* repair, std::int64_t row, std::int64_t col)
{
    return repair && (repair->wholeBlock || contains(repair->recomputedRows, row) ||
                      contains(repair->recomputedCols, col));
}

// The cells of C the run struck where nothing was seen: faults into C's cells (not its checksums,
// the encodings or the checker, which change no cell of C) on a row and column their block
// product's verification did not flag -- in a clean verification, or beside faults it corrected or
// could not (faults on a rectangle's corners beside one it could see) -- and that the repair pass
// did not compute again, summed per cell over the block's k steps (faults that cancel on one cell
// leave it right), beyond the largest threshold of their verifications. A cell any of whose faults
// lies on a flagged line is left to the checks' own verdict.
int unseenWrongCells(const RunRecord& r)
{
    struct Cell {
        double change = 0, threshold = 0;
        bool unseen = true;
    };
    const VerifyIndex index(r);
    std::map<std::tuple<int, int, std::int64_t, std::int64_t>, Cell> cells;
    for (const InjectEvent& e : r.injections) {
        const Injection& inj = e.injection;
        if (!inj.applied || inj.target != FaultTarget::Result || inj.globalRow < 0 || inj.globalCol < 0)
            continue;
        const VerifyEvent* v = index.of(e);
        if (!v)
            continue;  // ABFT off: the reference's to judge
        Cell& cell = cells[{inj.block.i, inj.block.j, inj.localRow, inj.localCol}];
        cell.change += inj.after - inj.before;
        cell.threshold = std::max(cell.threshold, v->result.maxThreshold);
        cell.unseen = cell.unseen && noCheckSawCell(v->result, inj.localRow, inj.localCol) &&
                      !recomputedByRepair(repairOf(r, inj.block), inj.localRow, inj.localCol);
    }
    int wrong = 0;
    for (const auto& [key, cell] : cells)
        wrong += cell.unseen && !(std::abs(cell.change) <= cell.threshold);  // NaN / Inf included
    return wrong;
}

}  // namespace

std::string missedFaultsWords(const RunRecord& r)
{
    // The verdict is already wrong (uncorrectable, the reference disagrees) or the full reference
    // judged every cell: nothing to add.
    if (r.status != "ok" || r.faults.missed == 0 || r.reference.mode == ReferenceMode::Full || !r.reference.passed ||
        r.faults.uncorrectable > 0)
        return {};
    const int wrong = unseenWrongCells(r);
    if (wrong == 0)
        return {};
    return std::to_string(wrong) + " cell(s) of C struck by injected faults beyond their block's threshold, on rows and "
           "columns no check flagged (the faults cancel in every row and column sum); --reference full finds the cells";
}

bool RunRecord::notVerified() const
{
    return status == "ok" && reference.passed && !config.abft && reference.mode != ReferenceMode::Full;
}

std::string RunRecord::verifiedBy() const
{
    const bool full = reference.mode == ReferenceMode::Full, sampled = reference.mode == ReferenceMode::Sample;
    if (config.abft)
        return full ? "ABFT and the full reference" : sampled ? "ABFT and a sampled reference" : "ABFT";
    return full ? "the full reference" : "nothing";
}

}  // namespace gigacheck
