// The cost model's prediction against the measured run: totals, fill and drain, busy time per op kind.
#include "gigacheck/blocked_gemm/record.hpp"

#include "families/blocked_gemm/record/time_breakdown.hpp"

#include <algorithm>
#include <map>

namespace gigacheck {

FillDrain fillDrainOf(const std::vector<Span>& spans)
{
    const blocked_gemm::TimeBreakdown b = blocked_gemm::breakdownOf(spans);
    return FillDrain{b.fillSeconds, b.drainSeconds};
}

PredictionComparison comparePrediction(const RunRecord& r)
{
    PredictionComparison c;
    if (r.predictedSpans.empty())
        return c;
    c.predictedTotal = r.predictedSeconds;
    c.predictedEnds = fillDrainOf(r.predictedSpans);
    c.measuredEnds = fillDrainOf(r.spans);
    // The schedule's own span: the host repair pass after it (Recompute spans) is not predicted.
    double first = 0, last = 0;
    bool any = false;
    for (const Span& s : r.spans) {
        if (s.kind == OpKind::Recompute)
            continue;
        first = any ? std::min(first, s.start) : s.start;
        last = any ? std::max(last, s.end) : s.end;
        any = true;
    }
    c.measuredTotal = last - first;
    // Only the ops that ran are compared per kind (a cancelled run has fewer spans).
    std::map<int, const Span*> measured;
    for (const Span& s : r.spans)
        if (s.kind != OpKind::Recompute)
            measured[s.opId] = &s;
    std::map<OpKind, PredictionError> kinds;
    for (const Span& p : r.predictedSpans) {
        const auto m = measured.find(p.opId);
        if (m == measured.end())
            continue;
        PredictionError& e = kinds[p.kind];
        e.kind = std::string(toString(p.kind));
        ++e.ops;
        e.predictedSeconds += p.end - p.start;
        e.measuredSeconds += m->second->end - m->second->start;
    }
    for (const auto& [kind, error] : kinds)
        c.perKind.push_back(error);
    return c;
}

}  // namespace gigacheck
