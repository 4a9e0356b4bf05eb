// The strategies of the Gigacheck report's section 5 (figures 11-14) as schedules, issued depth-first (2.3).
#include "gigacheck/schedule.hpp"

#include "families/blocked_gemm/plan/schedule_builder.hpp"

#include <string>

namespace gigacheck {

namespace {

// The C blocks (i, j) that `device` computes, row-major; all of them on one device.
std::vector<std::pair<int, int>> blocksOf(const Plan& plan, int devices, int device)
{
    std::vector<std::pair<int, int>> blocks;
    for (int i = 0; i < plan.splitM; ++i)
        for (int j = 0; j < plan.splitQ; ++j)
            if (deviceOfBlock(plan, devices, i, j) == device)
                blocks.emplace_back(i, j);
    return blocks;
}

// Block products in the order C blocks are finished: row-major over C, k innermost.
std::vector<BlockIndex> productOrder(const Plan& plan, int devices, int device)
{
    std::vector<BlockIndex> order;
    for (const auto& [i, j] : blocksOf(plan, devices, device))
        for (int k = 0; k < plan.splitN; ++k)
            order.push_back({i, j, k});
    return order;
}

// None and S1 (figure 11): load A and B, checksums, product, verify; store C after the last k.
// One buffer each, so every load waits for the previous product and every new C block for the
// previous store.
void buildSingleBuffered(ScheduleBuilder& b, const Plan& plan, int devices, int device)
{
    for (const BlockIndex& p : productOrder(plan, devices, device)) {
        b.loadA(p.i, p.k, b.slotA(0), 0);
        b.loadB(p.k, p.j, b.slotB(0), 0);
        b.checksumA(p, b.slotA(0), 0);
        b.checksumB(p, b.slotB(0), 0);
        b.product(p, b.slotA(0), b.slotB(0), b.slotC(0), 0, 0);
    }
}

// S2 (figure 12) and S3 (figure 13): A/A' and B/B' alternate, so the next product's blocks load
// (issued first, on the other stream) while this product computes. S3 also alternates C/C' per C
// block so that the next block computes while the previous one is stored.
void buildDoubleBuffered(ScheduleBuilder& b, const Plan& plan, int devices, int device, bool doubleC)
{
    const int storeStream = doubleC ? 2 : -1;
    const std::vector<BlockIndex> order = productOrder(plan, devices, device);
    if (order.empty())
        return;
    auto load = [&](std::size_t n) {
        const int half = int(n % 2);
        b.loadA(order[n].i, order[n].k, b.slotA(half), half);
        b.loadB(order[n].k, order[n].j, b.slotB(half), half);
    };
    load(0);
    int cBlock = 0;  // C blocks started so far, selects C or C'
    for (std::size_t n = 0; n < order.size(); ++n) {
        if (n + 1 < order.size())
            load(n + 1);
        const BlockIndex& p = order[n];
        const int half = int(n % 2);
        if (p.k == 0 && n > 0)
            ++cBlock;
        const int c = doubleC ? b.slotC(cBlock % 2) : b.slotC(0);
        b.checksumA(p, b.slotA(half), half);
        b.checksumB(p, b.slotB(half), half);
        b.product(p, b.slotA(half), b.slotB(half), c, half, storeStream < 0 ? half : storeStream);
    }
}

// S4 (figure 14): C(i, j) and C(i, j+1) are computed by two concurrent products on streams 0 and
// 1 from one A block and the B blocks in B and B'. Stores go on stream 2. A pair is one unit of
// the spread over devices (deviceOfBlock), so both blocks are on one device.
void buildConcurrent(ScheduleBuilder& b, const Plan& plan, int devices, int device)
{
    for (const auto& [i, j0] : blocksOf(plan, devices, device)) {
        if (j0 % 2 != 0)
            continue;  // the second block of a pair
        const int j1 = j0 + 1;
        const bool pair = j1 < plan.splitQ;
        for (int k = 0; k < plan.splitN; ++k) {
            const BlockIndex p0{i, j0, k}, p1{i, j1, k};
            b.loadB(k, j0, b.slotB(0), 0);
            b.loadA(i, k, b.slotA(0), 0);
            if (pair)
                b.loadB(k, j1, b.slotB(1), 1);
            b.checksumA(p0, b.slotA(0), 0);
            b.checksumB(p0, b.slotB(0), 0);
            if (pair)
                b.checksumB(p1, b.slotB(1), 1);
            b.product(p0, b.slotA(0), b.slotB(0), b.slotC(0), 0, 2);
            if (pair)
                b.product(p1, b.slotA(0), b.slotB(1), b.slotC(1), 1, 2);
        }
    }
}

int streamsOf(StrategyKind strategy)
{
    switch (strategy) {
    case StrategyKind::None:
    case StrategyKind::S1: return 1;
    case StrategyKind::S2: return 2;
    case StrategyKind::S3:
    case StrategyKind::S4: return 3;
    }
    return 1;
}

}  // namespace

GemmSchedule buildSchedule(const Plan& plan) { return buildSchedule(plan, true); }

GemmSchedule buildSchedule(const Plan& plan, bool withInjection) { return buildSchedule(plan, withInjection, 1); }

GemmSchedule buildSchedule(const Plan& plan, bool withInjection, int devices)
{
    if (devices < 1)
        throw InputError("a schedule needs at least one device (got " + std::to_string(devices) + ")");
    const double products = double(plan.splitM) * double(plan.splitN) * double(plan.splitQ);
    if (products > double(kMaxScheduleProducts))
        throw InputError("the plan has " + std::to_string(std::int64_t(products)) + " block products (" +
                         std::to_string(plan.splitM) + " x " + std::to_string(plan.splitQ) + " blocks of C, " +
                         std::to_string(plan.splitN) + " steps), more than the " +
                         std::to_string(kMaxScheduleProducts) +
                         " a run can schedule; raise the memory cap so that blocks are larger");
    ScheduleBuilder b(plan, withInjection, streamsOf(plan.strategy), devices);
    for (int d = 0; d < devices; ++d) {
        b.setDevice(d);
        switch (plan.strategy) {
        case StrategyKind::None:
        case StrategyKind::S1: buildSingleBuffered(b, plan, devices, d); break;
        case StrategyKind::S2: buildDoubleBuffered(b, plan, devices, d, false); break;
        case StrategyKind::S3: buildDoubleBuffered(b, plan, devices, d, true); break;
        case StrategyKind::S4: buildConcurrent(b, plan, devices, d); break;
        }
    }
    return b.take();
}

}  // namespace gigacheck
