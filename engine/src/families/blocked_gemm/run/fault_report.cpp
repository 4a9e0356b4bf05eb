// The fault report: every applied injection is followed to the verification of its block
// product, and verdicts are checked against what was actually injected.
#include "gigacheck/record.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

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
        const VerifyEvent* best = nullptr;
        for (const VerifyEvent* v : it->second)
            if (v->opId > e.opId && (!best || v->opId < best->opId))
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
        const bool detected = contains(res.mismatchRows, inj.localRow) || contains(res.mismatchCols, inj.localCol);
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
        const bool cellRestored = std::any_of(res.corrections.begin(), res.corrections.end(), [&](const Correction& c) {
            return c.row == inj.localRow && c.col == inj.localCol;
        });
        if (res.verdict != Verdict::Uncorrectable && (cellRestored || (onChecksum(inj, *v) && res.checksumsRecomputed)))
            ++f.corrected;
        else if (repair && repair->outcome == RepairOutcome::CorrectedByRecompute)
            ++f.correctedByRecompute;
        else if (res.verdict == Verdict::Uncorrectable)
            ++f.uncorrectable;
    }

    // False positives: alarms in block products with no injection, and corrections of cells
    // that were not injected.
    for (const VerifyEvent& v : r.verifications) {
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
    // An uncorrectable verdict is made good only by a repair of its block that ended right.
    if (std::any_of(repairs.begin(), repairs.end(),
                    [](const RepairEvent& e) { return e.outcome == RepairOutcome::Uncorrectable; }))
        return false;
    return std::none_of(verifications.begin(), verifications.end(), [this](const VerifyEvent& v) {
        return v.result.verdict == Verdict::Uncorrectable && !repairOf(*this, v.block);
    });
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
