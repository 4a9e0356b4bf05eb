#include "families/strassen/bench/multi_device_model.hpp"

#include "families/strassen/ops.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

namespace gigacheck::strassen {

double issueModelSeconds(int devices, int tasks, int sums, double taskSeconds, double blockBytes, double deviceGBs,
                         double linkGBs)
{
    const int g = std::max(1, devices);
    const double rounds = std::ceil(double(tasks) / g);
    const double sumTime = sums * 3 * blockBytes / (deviceGBs * 1e9) / g;
    const double comm = g == 1 ? 0 : (rounds * 3 + 3.0 * sums / g) * blockBytes / (linkGBs * 1e9);
    return rounds * taskSeconds + sumTime + comm;
}

double scheduleModelSeconds(const Schedule& schedule, double es, const std::vector<int>& gpuOf, const ScheduleRates& rates)
{
    const auto gpu = [&](int device) { return gpuOf.at(std::size_t(device)); };
    const auto elements = [](const OperandRegion& r) { return double(r.rows) * double(r.cols); };
    // gemmSeconds is one task's GEMM (N/2 of the core); other products cost their share of its
    // flops (a local Strassen's leaves, a peeled fringe).
    const BufferSpec& a = schedule.buffers[std::size_t(kSlotA)];
    const BufferSpec& c = schedule.buffers[std::size_t(kSlotC)];
    const double taskFlops = 2.0 * double(c.rows / 2) * double(a.cols / 2) * double(c.cols / 2);
    const auto cost = [&](const Operation& op) {
        if (op.kind == kProduct)
            return taskFlops > 0 ? op.flops / taskFlops * rates.gemmSeconds : 0.0;
        if (op.kind == kZero)
            return elements(op.operands[0]) * es / (rates.deviceGBs * 1e9);
        if (op.kind == kAdd)
            return 3 * elements(op.operands[0]) * es / (rates.deviceGBs * 1e9);
        if (op.kind == kScatter)
            return double(1 + 2 * (op.operands.size() - 1)) * elements(op.operands[0]) * es / (rates.deviceGBs * 1e9);
        if (op.kind == kCopy) {
            const int from = gpu(schedule.buffers[std::size_t(op.operands[0].slot)].device);
            const int to = gpu(schedule.buffers[std::size_t(op.operands[1].slot)].device);
            return elements(op.operands[0]) * es / ((from == to ? rates.localCopyGBs : rates.linkGBs) * 1e9);
        }
        return 0.0;  // host loads and stores: outside the measured time
    };
    // Each op starts when its dependencies have ended and the op before it on its stream has; a
    // product also waits for the GPU's previous product (a GEMM of N/2 fills the GPU, so logical
    // devices sharing one take turns).
    std::vector<double> ends(schedule.ops.size(), 0);
    std::map<std::tuple<int, int, int, int>, double> streamFree;
    std::map<int, double> gemmFree;
    double last = 0;
    for (const Operation& op : schedule.ops) {
        const bool host = op.kind == kLoad || op.kind == kStore || op.kind == kRestore;
        double start = 0;
        for (int d : op.deps)
            start = std::max(start, ends[std::size_t(d)]);
        double& lane = streamFree[{op.device, gpu(op.device), int(op.queue), op.stream}];
        start = std::max(start, lane);
        if (op.kind == kProduct)
            start = std::max(start, gemmFree[gpu(op.device)]);
        const double end = start + (host ? 0.0 : cost(op));
        ends[std::size_t(op.id)] = end;
        lane = end;
        if (op.kind == kProduct)
            gemmFree[gpu(op.device)] = end;
        if (!host)
            last = std::max(last, end);
    }
    return last;
}

}  // namespace gigacheck::strassen
