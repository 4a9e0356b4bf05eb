#include "recomputespans.hpp"

#include <algorithm>

namespace gigacheck::ui {

int recomputeFirstOp(const std::vector<Span>& spans, bool recomputed)
{
    if (!recomputed || spans.empty())
        return -1;
    const auto first = std::min_element(spans.begin(), spans.end(), [](const Span& a, const Span& b) { return a.opId < b.opId; });
    std::vector<int> loads;
    for (const Span& s : spans)
        if (s.kind == first->kind && s.queue == first->queue && s.stream == first->stream && s.device == first->device)
            loads.push_back(s.opId);
    if (loads.size() < 2 || loads.size() % 2 != 0)
        return -1;  // not two passes of the same loads: show the spans as one run
    std::sort(loads.begin(), loads.end());
    return loads[loads.size() / 2];
}

}  // namespace gigacheck::ui
