// The schedule played on the cost model: one server per (device, queue), ops in issue order, each
// starting when its server is free and its deps are done. Fill (the first loads before any product)
// and drain (the last store after the last product) come out of the dependencies by themselves.
#include "gigacheck/cost_model.hpp"

#include <algorithm>
#include <map>
#include <utility>

namespace gigacheck {

Prediction predictSchedule(const Schedule& schedule, const CostModel& model, const std::string& gemmKind,
                           std::size_t elementBytes)
{
    Prediction prediction;
    prediction.spans.reserve(schedule.ops.size());
    std::map<std::pair<int, Queue>, double> serverFree;
    std::vector<double> ends(schedule.ops.size(), 0.0);
    for (const Operation& op : schedule.ops) {
        double ready = 0;
        for (int dep : op.deps)
            ready = std::max(ready, ends[std::size_t(dep)]);
        double& free = serverFree[{op.device, op.queue}];
        Span span = spanOf(op);
        span.start = std::max(ready, free);
        span.end = span.start + predictedOpSeconds(model, op, gemmKind, elementBytes);
        free = span.end;
        ends[std::size_t(op.id)] = span.end;
        prediction.totalSeconds = std::max(prediction.totalSeconds, span.end);
        prediction.spans.push_back(span);
    }
    return prediction;
}

}  // namespace gigacheck
