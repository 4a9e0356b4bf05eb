// The envelope's metrics that the spans alone tell: execute time (first start to last end), busy
// time per queue, flops, bytes over the host link (copy queues) and on the device (compute
// queue), GFLOP/s. For families whose record adds nothing to them (the kernel gallery).
#pragma once

#include "gigacheck/record_envelope.hpp"

#include <vector>

namespace gigacheck {

Metrics metricsOfSpans(const std::vector<Span>& spans);

// From the first start to the last end of the spans: a run's execute (wall) time; 0 without spans.
double spanExtentSeconds(const std::vector<Span>& spans);

}  // namespace gigacheck
