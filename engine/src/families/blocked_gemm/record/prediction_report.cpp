// The cost model's prediction against the measured run: totals, fill and drain, busy time per op kind.
#include "gigacheck/record.hpp"

#include <algorithm>
#include <map>

namespace gigacheck {

FillDrain fillDrainOf(const std::vector<Span>& spans)
{
    FillDrain f;
    double first = 0, last = 0, firstProduct = 0, lastProduct = 0;
    bool any = false, anyProduct = false;
    for (const Span& s : spans) {
        if (s.kind == OpKind::Recompute)
            continue;  // the repair pass after the run is not the schedule's
        first = any ? std::min(first, s.start) : s.start;
        last = any ? std::max(last, s.end) : s.end;
        any = true;
        if (s.kind == OpKind::Product) {
            firstProduct = anyProduct ? std::min(firstProduct, s.start) : s.start;
            lastProduct = anyProduct ? std::max(lastProduct, s.end) : s.end;
            anyProduct = true;
        }
    }
    if (anyProduct) {
        f.fillSeconds = firstProduct - first;
        f.drainSeconds = last - lastProduct;
    }
    return f;
}

PredictionComparison comparePrediction(const RunRecord& r)
{
    PredictionComparison c;
    if (r.predictedSpans.empty())
        return c;
    c.predictedTotal = r.predictedSeconds;
    c.predictedEnds = fillDrainOf(r.predictedSpans);
    c.measuredEnds = fillDrainOf(r.spans);
    if (!r.spans.empty()) {
        double first = r.spans.front().start, last = r.spans.front().end;
        for (const Span& s : r.spans) {
            first = std::min(first, s.start);
            last = std::max(last, s.end);
        }
        c.measuredTotal = last - first;
    }
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
