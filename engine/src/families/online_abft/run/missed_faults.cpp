#include "families/online_abft/run/missed_faults.hpp"

#include "gigacheck/online_abft/catchers.hpp"

#include <algorithm>
#include <cmath>
#include <set>
#include <utility>

namespace gigacheck::online_abft {

namespace {

// TMR: a struck cell that the vote did not dispute (all three replicas agreed on it). The vote
// lists its first kMaxDisputedCells disputes: past them nothing can be said of a cell.
int missedByTheVote(const OnlineRecord& r)
{
    if (!r.vote || r.vote->disputes() > std::int64_t(r.vote->disputed.size() + r.vote->noMajority.size()))
        return 0;
    std::set<std::pair<std::int64_t, std::int64_t>> disputed(r.vote->disputed.begin(), r.vote->disputed.end());
    disputed.insert(r.vote->noMajority.begin(), r.vote->noMajority.end());
    std::set<std::pair<std::int64_t, std::int64_t>> missed;
    for (const InjectEvent& e : r.injections) {
        const Injection& inj = e.injection;
        const bool changed = !(inj.after == inj.before);  // NaN included
        if (inj.applied && changed && !disputed.count({inj.globalRow, inj.globalCol}))
            missed.insert({inj.globalRow, inj.globalCol});
    }
    return int(missed.size());
}

// The checks: a fault in C (not its checksums) beyond the largest threshold of any check that no
// check at or after its step saw. Without any check nothing is claimed here.
int missedByTheChecks(const OnlineRecord& r)
{
    double threshold = -1;
    for (const VerifyEvent& v : r.verifications)
        threshold = std::max(threshold, v.result.maxThreshold);
    if (threshold < 0)
        return 0;
    OnlineCatchers catchers(r);
    int missed = 0;
    for (const InjectEvent& e : r.injections) {
        const Injection& inj = e.injection;
        if (!inj.applied || inj.target != FaultTarget::Result)
            continue;
        const double change = std::abs(inj.after - inj.before);
        if (std::isfinite(change) && change <= threshold)
            continue;  // round-off-sized: the checks promise nothing below their threshold
        if (!catchers.find(inj.block.k, inj.localRow, inj.localCol))
            ++missed;
    }
    return missed;
}

}  // namespace

int missedFaults(const OnlineRecord& r)
{
    if (r.status != "ok" || r.reference.mode == ReferenceMode::Full || (r.recomputed && r.recomputeClean))
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
