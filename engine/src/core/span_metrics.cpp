#include "core/span_metrics.hpp"

#include <algorithm>

namespace gigacheck {

Metrics metricsOfSpans(const std::vector<Span>& spans)
{
    Metrics m;
    if (spans.empty())
        return m;
    for (const Span& s : spans) {
        m.queueBusySeconds[int(s.queue)] += s.end - s.start;
        m.flops += s.flops;
        if (s.queue == Queue::Compute)
            m.bytesDevice += s.bytes;
        else
            m.bytesHostLink += s.bytes;
    }
    m.executeSeconds = spanExtentSeconds(spans);
    if (m.executeSeconds > 0)
        m.gflops = m.flops / m.executeSeconds / 1e9;
    return m;
}

double spanExtentSeconds(const std::vector<Span>& spans)
{
    if (spans.empty())
        return 0;
    double first = spans.front().start, last = spans.front().end;
    for (const Span& s : spans) {
        first = std::min(first, s.start);
        last = std::max(last, s.end);
    }
    return last - first;
}

}  // namespace gigacheck
