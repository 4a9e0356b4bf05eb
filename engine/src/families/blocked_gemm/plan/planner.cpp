// The planner: the blocking and strategy with the smallest predicted time under the cap. Each
// candidate is first bounded from below in closed form (cheap), then the candidates are simulated
// in order of their bound until no remaining bound can beat the best prediction.
#include "gigacheck/blocked_gemm/cost_model.hpp"
#include "gigacheck/blocked_gemm/record.hpp"

#include "families/blocked_gemm/plan/buffer_layout.hpp"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <limits>
#include <set>
#include <sstream>

namespace gigacheck {

namespace {

// Simulating a candidate builds its schedule (~7 ops a product): past this many products the
// planner keeps to the bound, and at most this many candidates are simulated.
constexpr std::int64_t kMaxSimulatedProducts = 1 << 14;

std::int64_t ceilDiv(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

// The distinct equal-block cuts of `total` of at most maxSplits blocks: (splits, block) pairs.
std::vector<std::pair<int, std::int64_t>> cutsOf(std::int64_t total, int maxSplits)
{
    // As makePlan's search: s jumps past every split count that gives the same block (O(sqrt)).
    std::vector<std::pair<int, std::int64_t>> cuts;
    std::int64_t s = 1;
    while (s <= std::min<std::int64_t>(total, maxSplits)) {
        const std::int64_t block = ceilDiv(total, s);
        const std::int64_t splits = ceilDiv(total, block);
        if (cuts.empty() || cuts.back().second != block)
            cuts.emplace_back(int(splits), block);
        s = std::max(s, splits) + 1;
    }
    return cuts;
}

// The (at most two) distinct extents of a cut and how many blocks have each.
struct Extents {
    std::int64_t full = 0, last = 0;
    int fullCount = 0;  // the last block counts once, as `last` (equal to full when it divides)
};
Extents extentsOf(std::int64_t total, int splits)
{
    const std::int64_t block = ceilDiv(total, splits);
    return {block, total - std::int64_t(splits - 1) * block, splits - 1};
}

std::string splitsText(int m, int n, int q)
{
    return std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(q);
}

// "3x2x3", with the tapered ends where there are some: "5x2x5 (ends 2752 x 2752)".
std::string candidateText(const PlanCandidate& c)
{
    std::string text = splitsText(c.splitM, c.splitN, c.splitQ);
    if (c.tapered())
        text += " (ends " + (c.endRows ? std::to_string(c.endRows) : std::string("equal")) + " x " +
                (c.endCols ? std::to_string(c.endCols) : std::string("equal")) + ")";
    return text;
}

std::int64_t roundUpTo64(double x) { return std::max<std::int64_t>(64, (std::int64_t(std::ceil(x)) + 63) / 64 * 64); }

std::string seconds(double s)
{
    std::ostringstream o;
    o << std::setprecision(3);
    if (s >= 1)
        o << s << " s";
    else
        o << s * 1e3 << " ms";
    return o.str();
}

struct Context {
    const Shape& shape;
    Precision precision;
    bool abft;
    const CostModel& model;
    const std::string& kind;
    std::size_t elem;
};

double copySeconds(const Context& c, Queue direction, std::int64_t rows, std::int64_t cols)
{
    const double bytes = double(rows) * double(cols) * double(c.elem);
    return c.model.opLatencySeconds + bytes / (predictedCopyGBs(c.model, direction, double(cols * std::int64_t(c.elem))) * 1e9);
}

double productSeconds(const Context& c, std::int64_t rows, std::int64_t cols, std::int64_t depth)
{
    const std::int64_t extra = c.abft ? 1 : 0;
    const double flops = 2.0 * double(rows + extra) * double(cols + extra) * double(depth);
    return c.model.opLatencySeconds + flops / (predictedGemmGflops(c.model, c.kind, rows + extra, cols + extra, depth) * 1e9);
}

// No schedule of these splits can finish sooner: the products run one after another on the
// compute queue after the first product's loads and before the last block's store; the loads
// (A once per product, once per pair with S4; B once per product) share the H2D queue.
double lowerBound(const Context& c, StrategyKind strategy, int sm, int sn, int sq)
{
    const Extents em = extentsOf(c.shape.m, sm), en = extentsOf(c.shape.n, sn), eq = extentsOf(c.shape.q, sq);
    auto each = [](const Extents& e, auto&& f) {
        if (e.fullCount > 0)
            f(e.full, double(e.fullCount));
        f(e.last, 1.0);
    };
    double compute = 0, h2d = 0, d2h = 0;
    each(em, [&](std::int64_t r, double nr) {
        each(eq, [&](std::int64_t q, double nq) {
            each(en, [&](std::int64_t d, double nd) { compute += nr * nq * nd * productSeconds(c, r, q, d); });
            d2h += nr * nq * copySeconds(c, Queue::D2H, r, q);
        });
    });
    const double aLoads = strategy == StrategyKind::S4 ? double((sq + 1) / 2) : double(sq);
    each(em, [&](std::int64_t r, double nr) {
        each(en, [&](std::int64_t d, double nd) { h2d += nr * nd * aLoads * copySeconds(c, Queue::H2D, r, d); });
    });
    each(en, [&](std::int64_t d, double nd) {
        each(eq, [&](std::int64_t q, double nq) { h2d += nd * nq * double(sm) * copySeconds(c, Queue::H2D, d, q); });
    });
    const double fill = copySeconds(c, Queue::H2D, em.full, en.full) + copySeconds(c, Queue::H2D, en.full, eq.full);
    const double drain = copySeconds(c, Queue::D2H, em.last, eq.last);
    return std::max({fill + compute + drain, h2d, d2h});
}

// The same bound for any plan, block by block (the tapered candidates: few blocks, unequal ones).
double lowerBound(const Context& c, const Plan& plan)
{
    double compute = 0, h2d = 0, d2h = 0;
    for (int i = 0; i < plan.splitM; ++i)
        for (int j = 0; j < plan.splitQ; ++j) {
            const bool loadsA = plan.strategy != StrategyKind::S4 || j % 2 == 0;  // S4: one A load per pair
            for (int k = 0; k < plan.splitN; ++k) {
                compute += productSeconds(c, plan.rowsOf(i), plan.colsOf(j), plan.depthOf(k));
                h2d += (loadsA ? copySeconds(c, Queue::H2D, plan.rowsOf(i), plan.depthOf(k)) : 0.0) +
                       copySeconds(c, Queue::H2D, plan.depthOf(k), plan.colsOf(j));
            }
            d2h += copySeconds(c, Queue::D2H, plan.rowsOf(i), plan.colsOf(j));
        }
    const double fill = copySeconds(c, Queue::H2D, plan.rowsOf(0), plan.depthOf(0)) +
                        copySeconds(c, Queue::H2D, plan.depthOf(0), plan.colsOf(0));
    const double drain = copySeconds(c, Queue::D2H, plan.rowsOf(plan.splitM - 1), plan.colsOf(plan.splitQ - 1));
    return std::max({fill + compute + drain, h2d, d2h});
}

std::string planSentence(const Plan& plan)
{
    std::ostringstream o;
    o << "C is cut into " << plan.splitM << " x " << plan.splitQ << " blocks of at most " << plan.blockM << " x "
      << plan.blockQ << " and the common dimension into " << plan.splitN << " step(s) of at most " << plan.blockN
      << ", " << plan.productCount() << " block product(s); " << plan.buffers.size() << " buffers use "
      << formatBytes(double(plan.bytesNeeded)) << " of the cap of " << formatBytes(double(plan.capBytes)) << "."
      << workspaceSentence(plan.buffers);
    return o.str();
}

// Busy time of each queue kind in a prediction (what the explanation names as the bottleneck).
struct Busy {
    double h2d = 0, compute = 0, d2h = 0;
};
Busy busyOf(const Prediction& p)
{
    Busy b;
    for (const Span& s : p.spans)
        (s.queue == Queue::H2D ? b.h2d : s.queue == Queue::D2H ? b.d2h : b.compute) += s.end - s.start;
    return b;
}

}  // namespace

Plan planWithSplits(const Shape& shape, Precision precision, StrategyKind strategy, std::uint64_t capBytes,
                    bool abft, int splitM, int splitN, int splitQ, GemmVariant gemm)
{
    if (shape.m <= 0 || shape.n <= 0 || shape.q <= 0 || splitM < 1 || splitN < 1 || splitQ < 1)
        throw InputError("planWithSplits: an empty shape or a split below 1");
    Plan plan;
    plan.shape = shape;
    plan.precision = precision;
    plan.strategy = strategy;
    plan.abft = abft;
    plan.capBytes = capBytes;
    plan.blockM = ceilDiv(shape.m, std::min<std::int64_t>(splitM, shape.m));
    plan.blockN = ceilDiv(shape.n, std::min<std::int64_t>(splitN, shape.n));
    plan.blockQ = ceilDiv(shape.q, std::min<std::int64_t>(splitQ, shape.q));
    plan.splitM = int(ceilDiv(shape.m, plan.blockM));  // no empty trailing block
    plan.splitN = int(ceilDiv(shape.n, plan.blockN));
    plan.splitQ = int(ceilDiv(shape.q, plan.blockQ));
    if (strategy == StrategyKind::None && plan.productCount() != 1)
        throw InputError("strategy none keeps the whole problem on the device: it cannot be split");
    plan.buffers = bufferLayout(strategy, precision, abft, plan.blockM, plan.blockN, plan.blockQ, gemm);
    plan.bytesNeeded = 0;
    for (const BufferSpec& b : plan.buffers)
        plan.bytesNeeded += b.bytes;
    if (plan.bytesNeeded > capBytes)
        throw InputError("blocks of " + std::to_string(plan.blockM) + " x " + std::to_string(plan.blockN) + " x " +
                         std::to_string(plan.blockQ) + " need " + formatBytes(double(plan.bytesNeeded)) +
                         " but the memory cap allows " + formatBytes(double(capBytes)));
    plan.explanation = "Strategy " + std::string(toString(strategy)) + " (" + std::string(describe(strategy)) +
                       "): " + planSentence(plan);
    return plan;
}

PlannerChoice planWithCostModel(const Shape& shape, Precision precision, const std::vector<StrategyKind>& strategies,
                                std::uint64_t capBytes, bool abft, const CostModel& model, const std::string& gemmKind,
                                const GemmRateProbe& probe, EndTaper taper, GemmVariant gemm)
{
    // A candidate's plan: its splits, or its equal-block base with the tapered ends.
    const auto planOf = [&](const PlanCandidate& c) {
        if (!c.tapered())
            return planWithSplits(shape, precision, c.strategy, capBytes, abft, c.splitM, c.splitN, c.splitQ, gemm);
        return withTaperedEnds(planWithSplits(shape, precision, c.strategy, capBytes, abft, c.baseSplitM, c.splitN, c.baseSplitQ, gemm),
                               c.endRows, c.endCols);
    };
    const Context context{shape, precision, abft, model, gemmKind, elementSize(precision)};
    std::vector<PlanCandidate> candidates;
    std::string refusals;
    std::size_t fewestIndex = 0;  // the current strategy's makePlan candidate, added first
    auto add = [&](StrategyKind s, int sm, int sn, int sq, bool fewest) {
        if (!fewest && fewestIndex < candidates.size()) {
            const PlanCandidate& f = candidates[fewestIndex];
            if (f.strategy == s && f.splitM == sm && f.splitN == sn && f.splitQ == sq)
                return;  // the search found makePlan's plan again
        }
        if (fewest)
            fewestIndex = candidates.size();
        PlanCandidate c;
        c.strategy = s;
        c.splitM = sm;
        c.splitN = sn;
        c.splitQ = sq;
        c.fewestProducts = fewest;
        c.lowerBoundSeconds = lowerBound(context, s, sm, sn, sq);
        candidates.push_back(c);
    };

    for (StrategyKind strategy : strategies) {
        Plan fewest;
        try {
            fewest = makePlan(shape, precision, strategy, capBytes, abft, gemm);
        } catch (const InputError& e) {
            refusals += std::string(refusals.empty() ? "" : " ") + std::string(toString(strategy)) + ": " + std::string(e.what()) + ".";
            continue;
        }
        add(strategy, fewest.splitM, fewest.splitN, fewest.splitQ, true);
        if (strategy == StrategyKind::None)
            continue;
        const auto cutsQ = cutsOf(shape.q, std::numeric_limits<int>::max() / 4);
        for (const auto& [sm, bm] : cutsOf(shape.m, kPlannerMaxSplits)) {
            for (const auto& [sn, bn] : cutsOf(shape.n, kPlannerMaxSplits)) {
                // The fewest splits of q that fit (bytes shrink with blocks): fewer loads of A.
                std::size_t lo = 0, hi = cutsQ.size();
                while (lo < hi) {
                    const std::size_t mid = (lo + hi) / 2;
                    if (bytesForBlocks(strategy, precision, abft, bm, bn, cutsQ[mid].second, gemm) <= capBytes)
                        hi = mid;
                    else
                        lo = mid + 1;
                }
                if (lo == cutsQ.size())
                    continue;
                const int sq = cutsQ[lo].first;
                if (std::int64_t(sm) * sn * sq <= kMaxScheduleProducts)
                    add(strategy, sm, sn, sq, false);
            }
        }
    }
    if (candidates.empty())
        throw InputError("no strategy fits the memory cap of " + formatBytes(double(capBytes)) + ": " + refusals);

    std::sort(candidates.begin(), candidates.end(),
              [](const PlanCandidate& a, const PlanCandidate& b) { return a.lowerBoundSeconds < b.lowerBoundSeconds; });
    PlannerChoice choice;
    double best = std::numeric_limits<double>::infinity();
    Prediction bestPrediction;
    int simulated = 0;
    for (PlanCandidate& c : candidates) {
        const bool mustSee = c.fewestProducts;  // the baseline of each strategy is always simulated
        if (!mustSee && (c.lowerBoundSeconds >= best || simulated >= kPlannerMaxSimulations))
            continue;
        if (std::int64_t(c.splitM) * c.splitN * c.splitQ > kMaxSimulatedProducts)
            continue;
        Plan plan = planWithSplits(shape, precision, c.strategy, capBytes, abft, c.splitM, c.splitN, c.splitQ, gemm);
        const GemmSchedule schedule = buildSchedule(plan, false);
        Prediction prediction = predictSchedule(schedule, model, gemmKind, context.elem);
        c.predictedSeconds = prediction.totalSeconds;
        ++simulated;
        if (prediction.totalSeconds < best) {
            best = prediction.totalSeconds;
            choice.plan = std::move(plan);
            bestPrediction = std::move(prediction);
        }
    }
    // Tapered ends on the best equal-block predictions (fill and drain shrink; more products).
    if (taper != EndTaper::Off && choice.plan.blockM != 0) {
        double bestTapered = std::numeric_limits<double>::infinity();
        std::vector<const PlanCandidate*> bases;
        for (const PlanCandidate& c : candidates)
            if (c.predictedSeconds >= 0 && c.strategy != StrategyKind::None)
                bases.push_back(&c);
        std::sort(bases.begin(), bases.end(),
                  [](const PlanCandidate* a, const PlanCandidate* b) { return a->predictedSeconds < b->predictedSeconds; });
        bases.resize(std::min<std::size_t>(bases.size(), kPlannerTaperedBases));
        std::vector<PlanCandidate> tapered;
        for (const PlanCandidate* base : bases) {
            const Plan equal = planOf(*base);
            for (const double fraction : {0.5, 0.25}) {
                for (const int ends : {1, 2, 3}) {  // rows, columns, both
                    const std::int64_t endRows = (ends & 1) && equal.splitM >= 2 ? roundUpTo64(double(equal.blockM) * fraction) : 0;
                    const std::int64_t endCols = (ends & 2) && equal.splitQ >= 2 ? roundUpTo64(double(equal.blockQ) * fraction) : 0;
                    Plan plan = withTaperedEnds(equal, endRows, endCols);
                    if (!plan.tapered() || std::int64_t(plan.productCount()) > kMaxSimulatedProducts)
                        continue;
                    PlanCandidate c = *base;
                    c.fewestProducts = false;
                    c.baseSplitM = base->splitM;
                    c.baseSplitQ = base->splitQ;
                    c.endRows = plan.rowStarts.empty() ? 0 : endRows;
                    c.endCols = plan.colStarts.empty() ? 0 : endCols;
                    c.splitM = plan.splitM;
                    c.splitQ = plan.splitQ;
                    c.lowerBoundSeconds = lowerBound(context, plan);
                    const bool seen = std::any_of(tapered.begin(), tapered.end(), [&](const PlanCandidate& t) {
                        return t.strategy == c.strategy && t.baseSplitM == c.baseSplitM && t.splitN == c.splitN &&
                               t.baseSplitQ == c.baseSplitQ && t.endRows == c.endRows && t.endCols == c.endCols;
                    });
                    if (seen)
                        continue;
                    Prediction prediction = predictSchedule(buildSchedule(plan, false), model, gemmKind, context.elem);
                    c.predictedSeconds = prediction.totalSeconds;
                    ++simulated;
                    const bool forcedBest = taper == EndTaper::Forced && prediction.totalSeconds < bestTapered;
                    bestTapered = std::min(bestTapered, prediction.totalSeconds);
                    if (prediction.totalSeconds < best || forcedBest) {
                        best = prediction.totalSeconds;
                        choice.plan = std::move(plan);
                        bestPrediction = std::move(prediction);
                    }
                    tapered.push_back(c);
                }
            }
        }
        candidates.insert(candidates.end(), tapered.begin(), tapered.end());
    }
    if (choice.plan.blockM == 0) {
        // Every candidate too large to simulate: the one with the smallest bound.
        const PlanCandidate& c = candidates.front();
        choice.plan = planWithSplits(shape, precision, c.strategy, capBytes, abft, c.splitM, c.splitN, c.splitQ, gemm);
        best = c.lowerBoundSeconds;
    }
    choice.model = model;
    std::string probed;
    if (probe && choice.plan.blockM != 0) {
        // The best predictions again, with their block shapes' rates measured on the device.
        std::vector<PlanCandidate*> top;
        // Forced tapering re-ranks the tapered candidates only.
        const bool taperedOnly = taper == EndTaper::Forced && choice.plan.tapered();
        for (PlanCandidate& c : candidates)
            if (c.predictedSeconds >= 0 && (!taperedOnly || c.tapered()))
                top.push_back(&c);
        std::sort(top.begin(), top.end(), [](const PlanCandidate* a, const PlanCandidate* b) { return a->predictedSeconds < b->predictedSeconds; });
        top.resize(std::min<std::size_t>(top.size(), kPlannerProbedCandidates));
        // Each probed candidate's plan and schedule, built once: measured, then predicted again.
        std::vector<std::pair<Plan, GemmSchedule>> probedPlans;
        std::set<GemmShape> measured;
        std::ostringstream rates;
        for (const PlanCandidate* c : top) {
            Plan plan = planOf(*c);
            GemmSchedule schedule = buildSchedule(plan, false);
            for (const Operation& op : schedule.ops) {
                if (op.kind != OpKind::Product)
                    continue;
                const GemmShape g = productRateShape(op);
                if (!measured.insert(g).second)
                    continue;
                const double gflops = probe(gemmKind, g.m, g.n, g.k);
                if (gflops > 0) {
                    choice.model.gemmRates.push_back({gemmKind, g.m, g.n, g.k, gflops});
                    rates << (rates.tellp() > 0 ? ", " : "") << g.m << "x" << g.n << "x" << g.k << " " << std::fixed
                          << std::setprecision(0) << gflops;
                }
            }
            probedPlans.emplace_back(std::move(plan), std::move(schedule));
        }
        if (rates.tellp() > 0) {
            best = std::numeric_limits<double>::infinity();
            for (std::size_t i = 0; i < top.size(); ++i) {
                Prediction prediction = predictSchedule(probedPlans[i].second, choice.model, gemmKind, context.elem);
                top[i]->predictedSeconds = prediction.totalSeconds;
                if (prediction.totalSeconds < best) {
                    best = prediction.totalSeconds;
                    choice.plan = std::move(probedPlans[i].first);
                    bestPrediction = std::move(prediction);
                }
            }
            probed = "The " + std::to_string(top.size()) + " best predictions predicted again with their block shapes' " +
                     "GEMM rates measured on the device (GFLOP/s: " + rates.str() + "). ";
        }
    }
    choice.predictedSeconds = best;
    choice.simulated = simulated;
    std::stable_sort(candidates.begin(), candidates.end(), [](const PlanCandidate& a, const PlanCandidate& b) {
        const bool as = a.predictedSeconds >= 0, bs = b.predictedSeconds >= 0;
        if (as != bs)
            return as;
        return as ? a.predictedSeconds < b.predictedSeconds : a.lowerBoundSeconds < b.lowerBoundSeconds;
    });
    choice.candidates = candidates;

    // The plan text: the candidates, their predictions, why this one.
    std::ostringstream why;
    const Plan& p = choice.plan;
    why << "Planner (cost model; " << model.source << "): " << candidates.size() << " blocking(s) of ";
    for (std::size_t i = 0; i < strategies.size(); ++i)
        why << (i ? ", " : "") << toString(strategies[i]);
    why << " bounded from below, " << simulated << " simulated (queues and dependencies, fill and drain included). "
        << probed;
    why << "Best predicted per strategy:";
    for (StrategyKind s : strategies) {
        const PlanCandidate* bestOf = nullptr;
        const PlanCandidate* fewestOf = nullptr;
        for (const PlanCandidate& c : candidates) {
            if (c.strategy != s)
                continue;
            if (c.predictedSeconds >= 0 && !bestOf)
                bestOf = &c;
            if (c.fewestProducts)
                fewestOf = &c;
        }
        if (!bestOf)
            continue;
        why << " " << toString(s) << " " << candidateText(*bestOf) << " splits " << seconds(bestOf->predictedSeconds);
        if (fewestOf && fewestOf != bestOf && fewestOf->predictedSeconds >= 0)
            why << " (fewest products " << splitsText(fewestOf->splitM, fewestOf->splitN, fewestOf->splitQ) << ": "
                << seconds(fewestOf->predictedSeconds) << ")";
        why << ";";
    }
    if (!refusals.empty())
        why << " Not possible: " << refusals;
    const Busy busy = busyOf(bestPrediction);
    const FillDrain ends = fillDrainOf(bestPrediction.spans);
    why << " Chosen: strategy " << toString(p.strategy) << " (" << describe(p.strategy) << "), "
        << splitsText(p.splitM, p.splitN, p.splitQ) << " splits" << (p.tapered() ? " with tapered ends" : "")
        << ", predicted " << seconds(best) << ", the smallest prediction";
    if (!bestPrediction.spans.empty()) {
        const char* bound = busy.compute >= std::max(busy.h2d, busy.d2h) ? "compute" : busy.h2d >= busy.d2h ? "H2D" : "D2H";
        why << " (busy: compute " << seconds(busy.compute) << ", H2D " << seconds(busy.h2d) << ", D2H "
            << seconds(busy.d2h) << "; bound by " << bound << ", the rest is fill, drain and waits; fill "
            << seconds(ends.fillSeconds) << " before the first product, drain " << seconds(ends.drainSeconds)
            << " after the last)";
    }
    why << ". " << planSentence(p);
    double bestEqual = std::numeric_limits<double>::infinity(), bestTapered = bestEqual;
    for (const PlanCandidate& c : candidates)
        if (c.predictedSeconds >= 0)
            (c.tapered() ? bestTapered : bestEqual) = std::min(c.tapered() ? bestTapered : bestEqual, c.predictedSeconds);
    if (p.tapered() && taper == EndTaper::Forced)
        why << " Tapered ends forced (the first and last block rows " << p.rowsOf(0) << ", columns " << p.colsOf(0)
            << "): predicted " << seconds(best) << " against " << seconds(bestEqual) << " with equal blocks.";
    else if (p.tapered())
        why << " The first and last block " << (p.rowStarts.empty() ? "" : "rows (" + std::to_string(p.rowsOf(0)) + ")")
            << (!p.rowStarts.empty() && !p.colStarts.empty() ? " and " : "")
            << (p.colStarts.empty() ? "" : "columns (" + std::to_string(p.colsOf(0)) + ")")
            << " are thinner than the others, so that the first loads and the last store, which overlap no product, "
               "are shorter: predicted "
            << seconds(best) << " against " << seconds(bestEqual) << " with equal blocks.";
    else if (std::isfinite(bestTapered))
        why << " Thinner first and last blocks (shorter first loads and last store, more products) were predicted "
               "no faster (best "
            << seconds(bestTapered) << ").";
    else
        why << " Blocks are equal but the last, which takes the remainder.";
    choice.plan.explanation = why.str();
    return choice;
}

}  // namespace gigacheck
