#include "families/strassen/bench/multi_device_model.hpp"

#include "families/strassen/ops.hpp"

#include <algorithm>
#include <cmath>
#include <map>

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
    struct Load {
        double compute = 0, in = 0, out = 0;
        double firstIn = 0, lastOut = 0;  // a remote device's head (its first task's two operand blocks) and tail
        int copiesIn = 0;
    };
    std::map<int, Load> perGpu;
    std::vector<Load> perDevice(std::size_t(std::max(1, schedule.devices)));
    const auto gpu = [&](int device) { return gpuOf.at(std::size_t(device)); };
    for (const Operation& op : schedule.ops) {
        Load& d = perDevice[std::size_t(op.device)];
        const auto elements = [&](const OperandRegion& r) { return double(r.rows) * double(r.cols); };
        if (op.kind == kProduct) {
            const int calls = int(op.operands.size()) - 2;  // one GEMM per target
            // Tasks are products of one size (N/2); the fringe of a peeled shape is left out.
            if (op.block.i == 1)
                d.compute += std::max(1, calls) * rates.gemmSeconds;
        } else if (op.kind == kAdd) {
            d.compute += 3 * elements(op.operands[0]) * es / (rates.deviceGBs * 1e9);
        } else if (op.kind == kScatter) {
            d.compute += double(1 + 2 * (op.operands.size() - 1)) * elements(op.operands[0]) * es / (rates.deviceGBs * 1e9);
        } else if (op.kind == kCopy) {
            const int from = gpu(schedule.buffers[std::size_t(op.operands[0].slot)].device);
            const int to = gpu(schedule.buffers[std::size_t(op.operands[1].slot)].device);
            const double t = elements(op.operands[0]) * es / ((from == to ? rates.localCopyGBs : rates.linkGBs) * 1e9);
            if (op.queue == Queue::H2D) {
                d.in += t;
                if (d.copiesIn++ < 2)
                    d.firstIn += t;
            } else {
                d.out += t;
                d.lastOut = t;
            }
        }
    }
    // Logical devices of one GPU share its SMs: their compute adds up; a GPU's copies in and out
    // run on its copy engines.
    double longest = 0;
    for (int device = 0; device < int(perDevice.size()); ++device) {
        Load& g = perGpu[gpu(device)];
        g.compute += perDevice[std::size_t(device)].compute;
        g.in += perDevice[std::size_t(device)].in;
        g.out += perDevice[std::size_t(device)].out;
    }
    for (const auto& [ordinal, g] : perGpu)
        longest = std::max({longest, g.compute, g.in, g.out});
    for (int device = 1; device < int(perDevice.size()); ++device) {
        const Load& d = perDevice[std::size_t(device)];
        const Load& g = perGpu[gpu(device)];
        longest = std::max(longest, d.firstIn + g.compute + d.lastOut);
    }
    return longest;
}

}  // namespace gigacheck::strassen
