// Plans over several devices: which device computes which C block, and a plan that gives every
// device work when the cap alone would not cut C into enough blocks.
#include "gigacheck/blocked_gemm/plan.hpp"

#include "families/blocked_gemm/plan/buffer_layout.hpp"

#include <algorithm>
#include <sstream>

namespace gigacheck {

namespace {

int unitOf(const Plan& plan, int i, int j)
{
    if (plan.strategy == StrategyKind::S4)
        return i * ((plan.splitQ + 1) / 2) + j / 2;
    return i * plan.splitQ + j;
}

// The busiest device's load: its multiply-adds (what bounds the run when the devices are alike)
// and the most block products any device runs (each one a load of its A and B blocks).
struct Load {
    double volume = 0;
    int products = 0;
};
Load busiestDevice(const Plan& plan, int devices)
{
    std::vector<double> volume(std::size_t(devices), 0.0);
    std::vector<int> products(std::size_t(devices), 0);
    for (int i = 0; i < plan.splitM; ++i)
        for (int j = 0; j < plan.splitQ; ++j) {
            const std::size_t d = std::size_t(deviceOfBlock(plan, devices, i, j));
            volume[d] += double(plan.rowsOf(i)) * double(plan.colsOf(j)) * double(plan.shape.n);
            products[d] += plan.splitN;
        }
    return {*std::max_element(volume.begin(), volume.end()), *std::max_element(products.begin(), products.end())};
}

// The plan of one strip of ceil(m / devices) rows of C, its row blocks repeated down all of C.
Plan stripPlan(const Shape& shape, Precision precision, StrategyKind strategy, std::uint64_t capBytes, bool abft,
               int devices, GemmVariant gemm)
{
    const Shape strip{(shape.m + devices - 1) / devices, shape.n, shape.q};
    Plan plan = makePlan(strip, precision, strategy, capBytes, abft, gemm);
    plan.shape = shape;
    plan.splitM = int((shape.m + plan.blockM - 1) / plan.blockM);  // no empty trailing block
    return plan;
}

}  // namespace

int blockUnitCount(const Plan& plan)
{
    return plan.strategy == StrategyKind::S4 ? plan.splitM * ((plan.splitQ + 1) / 2) : plan.splitM * plan.splitQ;
}

int deviceOfBlock(const Plan& plan, int devices, int i, int j)
{
    if (devices <= 1)
        return 0;
    const int units = blockUnitCount(plan);
    const int base = units / devices, longer = units % devices;  // the first `longer` ranges have base + 1
    const int u = unitOf(plan, i, j);
    if (u < longer * (base + 1))
        return u / (base + 1);
    return longer + (u - longer * (base + 1)) / base;
}

Plan makePlan(const Shape& shape, Precision precision, StrategyKind strategy, std::uint64_t capBytes, bool abft,
              int devices, GemmVariant gemm)
{
    Plan plan = makePlan(shape, precision, strategy, capBytes, abft, gemm);
    if (devices <= 1 || shape.m < 2)
        return plan;
    Plan strips = stripPlan(shape, precision, strategy, capBytes, abft, devices, gemm);
    const Load kept = busiestDevice(plan, devices), split = busiestDevice(strips, devices);
    if (split.volume < 0.95 * kept.volume && split.products <= kept.products) {
        std::ostringstream why;
        why << "Strategy " << toString(strategy) << " (" << describe(strategy) << ") under a cap of "
            << formatBytes(double(capBytes)) << " per device: C is cut into " << strips.splitM << " x "
            << strips.splitQ << " blocks of at most " << strips.blockM << " x " << strips.blockQ
            << " (its rows first into " << devices << " strips, one per device)"
            << " and the common dimension into " << strips.splitN << " step(s) of at most " << strips.blockN
            << ", " << strips.productCount() << " block product(s). " << strips.buffers.size()
            << " buffers use " << formatBytes(double(strips.bytesNeeded)) << " of each device's cap."
            << workspaceSentence(strips.buffers);
        strips.explanation = why.str();
        plan = std::move(strips);
    }
    std::ostringstream spread;
    const int units = blockUnitCount(plan);
    spread << " Spread over " << devices << " devices: contiguous ranges of " << units / devices
           << (units % devices ? " or " + std::to_string(units / devices + 1) : std::string()) << " C block"
           << (plan.strategy == StrategyKind::S4 ? " pair(s)" : "(s)") << " each, every device with its own buffers.";
    plan.explanation += spread.str();
    return plan;
}

}  // namespace gigacheck
