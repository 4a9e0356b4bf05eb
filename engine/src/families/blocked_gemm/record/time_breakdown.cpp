#include "families/blocked_gemm/record/time_breakdown.hpp"

#include "core/interval_union.hpp"

#include <algorithm>
#include <utility>

namespace gigacheck::blocked_gemm {

TimeBreakdown breakdownOf(const std::vector<Span>& spans)
{
    TimeBreakdown b;
    double first = 0, last = 0, firstProduct = 0, lastProduct = 0;
    bool any = false, anyProduct = false;
    std::vector<std::pair<double, double>> products, compute;
    for (const Span& s : spans) {
        if (s.kind == OpKind::Recompute)
            continue;
        first = any ? std::min(first, s.start) : s.start;
        last = any ? std::max(last, s.end) : s.end;
        any = true;
        if (s.kind == OpKind::Product) {
            firstProduct = anyProduct ? std::min(firstProduct, s.start) : s.start;
            lastProduct = anyProduct ? std::max(lastProduct, s.end) : s.end;
            anyProduct = true;
            products.emplace_back(s.start, s.end);
        }
        if (s.queue == Queue::Compute)
            compute.emplace_back(s.start, s.end);
    }
    b.spanSeconds = any ? last - first : 0;
    if (!anyProduct)
        return b;
    b.fillSeconds = firstProduct - first;
    b.drainSeconds = last - lastProduct;
    // Compute work inside the window of the products (an ABFT pass of the last block that runs
    // after the last product belongs to the drain).
    for (auto& [s, e] : compute) {
        s = std::clamp(s, firstProduct, lastProduct);
        e = std::clamp(e, firstProduct, lastProduct);
    }
    const double computeBusy = unionSeconds(compute);
    b.productBusySeconds = unionSeconds(products);
    b.abftAloneSeconds = computeBusy - b.productBusySeconds;
    b.stallSeconds = (lastProduct - firstProduct) - computeBusy;
    return b;
}

}  // namespace gigacheck::blocked_gemm
