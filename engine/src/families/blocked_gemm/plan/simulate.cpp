// The schedule played on the cost model: one server per (device, queue), ops in issue order, each
// starting when its server is free and its deps are done. Fill (the first loads before any product)
// and drain (the last store after the last product) come out of the dependencies by themselves.
// Copies beside products: a first play with the copies' rates alone finds them, a second gives
// them the rates measured beside a GEMM (the host link loses much of its rate then).
#include "gigacheck/blocked_gemm/cost_model.hpp"

#include <algorithm>
#include <map>
#include <utility>
#include <vector>

namespace gigacheck {

namespace {

bool isCopy(const Operation& op) { return op.kind == OpKind::CopyH2D || op.kind == OpKind::CopyD2H; }

// A block load the CUDA backend packs on the host first (gigacheck/blocked_gemm/h2d_staging.hpp).
bool isPackedCopy(const CostModel& model, const Operation& op, std::size_t elementBytes, double hostPitchBytes)
{
    return op.kind == OpKind::CopyH2D &&
           packsOnHost(model.h2dStaging, op.host.rows, op.host.cols * std::int64_t(elementBytes), std::int64_t(hostPitchBytes));
}

// The host matrices' row pitch in bytes, per operand: the widest column extent its copies reach
// (the blocks tile the whole matrix).
std::map<Operand, double> hostPitches(const Schedule& schedule, std::size_t elementBytes)
{
    std::map<Operand, double> widest;
    for (const Operation& op : schedule.ops)
        if (isCopy(op))
            widest[op.host.matrix] = std::max(widest[op.host.matrix], double(op.host.col + op.host.cols) * double(elementBytes));
    return widest;
}

// The host packing of one device (cuda/host_staging.hpp): one server taking the packed loads in
// issue order, each into the next of kStagingSlots slots once that slot's previous copy is done.
struct PackLane {
    double free = 0;
    std::vector<double> slotFree = std::vector<double>(std::size_t(kStagingSlots), 0.0);
    int next = 0;
};

Prediction play(const Schedule& schedule, const CostModel& model, const std::string& gemmKind, std::size_t elementBytes,
                const std::vector<char>& loaded)
{
    std::map<Operand, double> pitch = hostPitches(schedule, elementBytes);
    const double packGBs = model.hostPackGBs > 0 ? model.hostPackGBs : kAssumedHostPackGBs;
    Prediction prediction;
    prediction.spans.reserve(schedule.ops.size());
    std::map<std::pair<int, Queue>, double> serverFree;
    std::map<int, PackLane> packs;
    std::vector<double> ends(schedule.ops.size(), 0.0);
    for (const Operation& op : schedule.ops) {
        double ready = 0;
        for (int dep : op.deps)
            ready = std::max(ready, ends[std::size_t(dep)]);
        double& free = serverFree[{op.device, op.queue}];
        Span span = spanOf(op);
        span.start = std::max(ready, free);
        const double hostPitch = isCopy(op) ? pitch[op.host.matrix] : 0;
        const bool packed = isPackedCopy(model, op, elementBytes, hostPitch);
        // A packed load's copy waits for its packing (inside its span, as the executor times it).
        double packedAt = 0;
        int slot = 0;
        if (packed) {
            PackLane& lane = packs[op.device];
            slot = lane.next;
            lane.next = (lane.next + 1) % kStagingSlots;
            const double packStart = std::max(lane.free, lane.slotFree[std::size_t(slot)]);
            packedAt = lane.free = packStart + op.bytes / (packGBs * 1e9);
        }
        span.end = std::max(span.start, packedAt) +
                   predictedOpSeconds(model, op, gemmKind, elementBytes, loaded[std::size_t(op.id)] != 0,
                                      hostPitch, packed);
        if (packed)
            packs[op.device].slotFree[std::size_t(slot)] = span.end;
        free = span.end;
        ends[std::size_t(op.id)] = span.end;
        prediction.totalSeconds = std::max(prediction.totalSeconds, span.end);
        prediction.spans.push_back(span);
    }
    return prediction;
}

// Per op: whether a copy is priced at the rate measured beside a GEMM. Either it spent at least
// half its span beside a product of its device, or it is a direct (not packed) H2D load that is
// the first on its queue after a product of its device ended: on an H200 the first narrow-row load
// after an SGEMM ran at 30.6 GB/s, the one after it at 43.3, both 50-54 after an idle GPU or a
// spin kernel (probes/copy_after_idle_probe.cu): what s1's and s4's loads, each waiting for the
// product that frees its buffer, meet in every step.
std::vector<char> copiesPricedLoaded(const Schedule& schedule, const Prediction& first, const CostModel& model,
                                     std::size_t elementBytes)
{
    std::map<int, std::vector<std::pair<double, double>>> products;  // per device, sorted by start
    for (std::size_t i = 0; i < schedule.ops.size(); ++i)
        if (schedule.ops[i].kind == OpKind::Product)
            products[schedule.ops[i].device].push_back({first.spans[i].start, first.spans[i].end});
    for (auto& [device, spans] : products)
        std::sort(spans.begin(), spans.end());
    const std::map<Operand, double> pitch = hostPitches(schedule, elementBytes);
    std::map<std::pair<int, Queue>, double> queueFree;  // the end of the queue's previous op, in issue order
    std::vector<char> loaded(schedule.ops.size(), 0);
    for (std::size_t i = 0; i < schedule.ops.size(); ++i) {
        const Operation& op = schedule.ops[i];
        const auto it = products.find(op.device);
        double& previousEnd = queueFree[{op.device, op.queue}];
        const double before = previousEnd;
        previousEnd = first.spans[i].end;
        if (!isCopy(op) || it == products.end())
            continue;
        const double start = first.spans[i].start, end = first.spans[i].end;
        double beside = 0;
        // The products of one device run one at a time: the first one ending after `start` on.
        auto p = std::lower_bound(it->second.begin(), it->second.end(), std::make_pair(start, start),
                                  [](const auto& a, const auto& b) { return a.second < b.first; });
        if (p != it->second.begin())
            --p;
        for (; p != it->second.end() && p->first < end; ++p)
            beside += std::max(0.0, std::min(end, p->second) - std::max(start, p->first));
        bool afterProduct = false;
        const auto hostPitch = pitch.find(op.host.matrix);
        if (op.kind == OpKind::CopyH2D &&
            !isPackedCopy(model, op, elementBytes, hostPitch == pitch.end() ? 0 : hostPitch->second)) {
            // One at a time, the products' ends are sorted too: the first ending after the queue's
            // previous op, if it ended by this copy's start.
            const auto next = std::upper_bound(it->second.begin(), it->second.end(), before,
                                               [](double t, const auto& product) { return t < product.second; });
            afterProduct = next != it->second.end() && next->second <= start * (1 + 1e-12) + 1e-15;
        }
        loaded[i] = end > start && (beside >= 0.5 * (end - start) || afterProduct);
    }
    return loaded;
}

bool hasLoadedRates(const CostModel& model)
{
    return std::any_of(model.copyRates.begin(), model.copyRates.end(),
                       [](const CopyRatePoint& p) { return p.h2dLoadedGBs > 0 || p.d2hLoadedGBs > 0; });
}

}  // namespace

Prediction predictSchedule(const Schedule& schedule, const CostModel& model, const std::string& gemmKind,
                           std::size_t elementBytes)
{
    const std::vector<char> alone(schedule.ops.size(), 0);
    Prediction first = play(schedule, model, gemmKind, elementBytes, alone);
    if (!hasLoadedRates(model))
        return first;
    return play(schedule, model, gemmKind, elementBytes, copiesPricedLoaded(schedule, first, model, elementBytes));
}

}  // namespace gigacheck
