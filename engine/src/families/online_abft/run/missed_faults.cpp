#include "families/online_abft/run/missed_faults.hpp"

#include "gigacheck/online_abft/catchers.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <tuple>
#include <utility>

namespace gigacheck::online_abft {

namespace {

// TMR: a struck cell that the vote did not dispute (all three replicas agreed on it), its faults
// summed per replica. The vote lists its first kMaxDisputedCells disputes (those without a majority
// among them): past them nothing can be said of a cell.
int missedByTheVote(const OnlineRecord& r)
{
    if (!r.vote || r.vote->disputes() > std::int64_t(r.vote->disputed.size()))
        return 0;
    std::set<std::pair<std::int64_t, std::int64_t>> disputed(r.vote->disputed.begin(), r.vote->disputed.end());
    disputed.insert(r.vote->noMajority.begin(), r.vote->noMajority.end());
    std::map<std::tuple<int, std::int64_t, std::int64_t>, double> struck;  // replica, row, col: the change
    for (const InjectEvent& e : r.injections) {
        const Injection& inj = e.injection;
        if (inj.applied && inj.target == FaultTarget::Result && !disputed.count({inj.globalRow, inj.globalCol}))
            struck[{inj.block.k, inj.globalRow, inj.globalCol}] += inj.after - inj.before;
    }
    std::set<std::pair<std::int64_t, std::int64_t>> missed;
    for (const auto& [key, change] : struck)
        if (!(change == 0))  // NaN included
            missed.insert({std::get<1>(key), std::get<2>(key)});
    return int(missed.size());
}

// The checks: cells of C (not its checksums) that faults changed beyond the largest threshold of
// any check, summed per cell (two faults that cancel on one cell leave it right), where no check
// at or after the fault's step saw the cell's row or column. Without any check, or where the
// lookups ran out, nothing is claimed.
int missedByTheChecks(const OnlineRecord& r)
{
    double threshold = -1;
    for (const VerifyEvent& v : r.verifications)
        threshold = std::max(threshold, v.result.maxThreshold);
    if (threshold < 0)
        return 0;
    OnlineCatchers catchers(r);
    std::map<std::pair<std::int64_t, std::int64_t>, double> unseen;
    for (const InjectEvent& e : r.injections) {
        const Injection& inj = e.injection;
        if (!inj.applied || inj.target != FaultTarget::Result)
            continue;
        if (!catchers.find(inj.block.k, inj.localRow, inj.localCol))
            unseen[{inj.globalRow, inj.globalCol}] += inj.after - inj.before;
    }
    if (catchers.exhausted())
        return 0;
    int missed = 0;
    for (const auto& [cell, change] : unseen)
        missed += !(std::abs(change) <= threshold);  // round-off-sized changes promise nothing; NaN counts
    return missed;
}

}  // namespace

int missedFaults(const OnlineRecord& r)
{
    // A reference of every cell (full, or sampled over every row) judged C; a recomputed C is the
    // second pass's, which injects nothing.
    const bool everyCell = r.reference.mode == ReferenceMode::Full ||
                           (r.reference.mode == ReferenceMode::Sample && r.reference.rowsChecked >= r.config.shape.m);
    if (r.status != "ok" || everyCell || r.recomputed || !r.reference.passed)
        return 0;
    return r.config.scheme == Scheme::Tmr ? missedByTheVote(r) : missedByTheChecks(r);
}

std::string missedFaultsWords(const OnlineRecord& r)
{
    const int missed = missedFaults(r);
    if (missed == 0)
        return {};
    if (r.config.scheme == Scheme::Tmr)
        return std::to_string(missed) + " cell(s) of C were struck alike in all three replicas, so the vote agreed "
               "on a wrong value; --reference full finds them";
    return std::to_string(missed) + " injected fault(s) changed C beyond the checks' threshold and no check saw them "
           "(they cancel in every row and column sum); --reference full finds the cells";
}

}  // namespace gigacheck::online_abft
