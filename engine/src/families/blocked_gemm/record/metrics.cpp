// Seed 000 section 6 metrics, from the spans (each carries the flops and bytes counted from its
// operation's shape when the schedule was built).
#include "gigacheck/blocked_gemm/record.hpp"

#include <algorithm>

namespace gigacheck {

Metrics computeMetrics(const RunRecord& r)
{
    Metrics m;
    // What spans cannot tell: kept from the record (runGemm measures them).
    m.totalSeconds = r.metrics.totalSeconds;
    m.peakBufferBytes = r.metrics.peakBufferBytes;

    const Shape& s = r.plan.shape;
    const double elem = double(elementSize(r.plan.precision));
    m.usefulFlops = 2.0 * double(s.m) * double(s.n) * double(s.q);
    m.hostBytesRequired = std::size_t((double(s.m) * double(s.n) + double(s.n) * double(s.q) +
                                       double(s.m) * double(s.q)) * elem);

    double first = 0, last = 0;
    bool any = false;
    for (const Span& span : r.spans) {
        m.queueBusySeconds[int(span.queue)] += span.end - span.start;
        m.flops += span.flops;
        if (span.kind == OpKind::CopyH2D || span.kind == OpKind::CopyD2H)
            m.bytesHostLink += span.bytes;
        else
            m.bytesDevice += span.bytes;
        first = any ? std::min(first, span.start) : span.start;
        last = any ? std::max(last, span.end) : span.end;
        any = true;
    }
    m.executeSeconds = any ? last - first : 0;
    m.intensityHostLink = m.bytesHostLink > 0 ? m.flops / m.bytesHostLink : 0;
    m.intensityDevice = m.bytesDevice > 0 ? m.flops / m.bytesDevice : 0;
    m.gflops = m.executeSeconds > 0 ? m.flops / m.executeSeconds / 1e9 : 0;
    return m;
}

}  // namespace gigacheck
