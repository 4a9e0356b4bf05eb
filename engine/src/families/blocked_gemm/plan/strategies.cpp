// The strategies of seed 000 section 5 (figures 11-14) as schedules, issued depth-first (2.3).
#include "gigacheck/schedule.hpp"

#include "families/blocked_gemm/plan/schedule_builder.hpp"

#include <string>

namespace gigacheck {

namespace {

// Block products in the order C blocks are finished: row-major over C, k innermost.
std::vector<BlockIndex> productOrder(const Plan& plan)
{
    std::vector<BlockIndex> order;
    order.reserve(std::size_t(plan.productCount()));
    for (int i = 0; i < plan.splitM; ++i)
        for (int j = 0; j < plan.splitQ; ++j)
            for (int k = 0; k < plan.splitN; ++k)
                order.push_back({i, j, k});
    return order;
}

// None and S1 (figure 11): load A and B, checksums, product, verify; store C after the last k.
// One buffer each, so every load waits for the previous product and every new C block for the
// previous store.
GemmSchedule buildSingleBuffered(const Plan& plan, bool withInjection)
{
    ScheduleBuilder b(plan, withInjection, 1);
    for (const BlockIndex& p : productOrder(plan)) {
        b.loadA(p.i, p.k, b.slotA(0), 0);
        b.loadB(p.k, p.j, b.slotB(0), 0);
        b.checksumA(p, b.slotA(0), 0);
        b.checksumB(p, b.slotB(0), 0);
        b.product(p, b.slotA(0), b.slotB(0), b.slotC(0), 0, 0);
    }
    return b.take();
}

// S2 (figure 12) and S3 (figure 13): A/A' and B/B' alternate, so the next product's blocks load
// (issued first, on the other stream) while this product computes. S3 also alternates C/C' per C
// block so that the next block computes while the previous one is stored.
GemmSchedule buildDoubleBuffered(const Plan& plan, bool withInjection, bool doubleC)
{
    const int storeStream = doubleC ? 2 : -1;
    ScheduleBuilder b(plan, withInjection, doubleC ? 3 : 2);
    const std::vector<BlockIndex> order = productOrder(plan);
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
    return b.take();
}

// S4 (figure 14): C(i, j) and C(i, j+1) are computed by two concurrent products on streams 0 and
// 1 from one A block and the B blocks in B and B'. Stores go on stream 2.
GemmSchedule buildConcurrent(const Plan& plan, bool withInjection)
{
    ScheduleBuilder b(plan, withInjection, 3);
    for (int i = 0; i < plan.splitM; ++i) {
        for (int j0 = 0; j0 < plan.splitQ; j0 += 2) {
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
    return b.take();
}

}  // namespace

GemmSchedule buildSchedule(const Plan& plan) { return buildSchedule(plan, true); }

GemmSchedule buildSchedule(const Plan& plan, bool withInjection)
{
    const double products = double(plan.splitM) * double(plan.splitN) * double(plan.splitQ);
    if (products > double(kMaxScheduleProducts))
        throw InputError("the plan has " + std::to_string(std::int64_t(products)) + " block products (" +
                         std::to_string(plan.splitM) + " x " + std::to_string(plan.splitQ) + " blocks of C, " +
                         std::to_string(plan.splitN) + " steps), more than the " +
                         std::to_string(kMaxScheduleProducts) +
                         " a run can schedule; raise the memory cap so that blocks are larger");
    switch (plan.strategy) {
    case StrategyKind::None:
    case StrategyKind::S1: return buildSingleBuffered(plan, withInjection);
    case StrategyKind::S2: return buildDoubleBuffered(plan, withInjection, false);
    case StrategyKind::S3: return buildDoubleBuffered(plan, withInjection, true);
    case StrategyKind::S4: return buildConcurrent(plan, withInjection);
    }
    return buildSingleBuffered(plan, withInjection);
}

}  // namespace gigacheck
