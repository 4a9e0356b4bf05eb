// Blocking under a memory cap (the Gigacheck report's section 5): block extents, buffer accounting, the search.
#include "gigacheck/blocked_gemm/plan.hpp"

#include "core/saturating_bytes.hpp"
#include "families/blocked_gemm/plan/buffer_layout.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

namespace gigacheck {

namespace {

std::int64_t extentOf(std::int64_t total, std::int64_t block, int index)
{
    const std::int64_t begin = std::int64_t(index) * block;
    return std::max<std::int64_t>(0, std::min(total, begin + block) - begin);
}

// The distinct ways of cutting `total` into equal blocks (the last one takes the remainder) with
// no empty block: pairs (splits, block). There are only O(sqrt(total)) of them.
struct Cut {
    int splits;
    std::int64_t block;
};
std::vector<Cut> distinctCuts(std::int64_t total)
{
    std::vector<Cut> cuts;
    std::int64_t s = 1;
    while (s <= total) {
        const std::int64_t block = (total + s - 1) / s;
        const std::int64_t splits = (total + block - 1) / block;  // no empty trailing block
        if (cuts.empty() || cuts.back().block != block)
            cuts.push_back({int(splits), block});
        s = std::max(s, splits) + 1;
        if (splits > std::numeric_limits<int>::max() / 4)
            break;
    }
    return cuts;
}

// Bytes copied over the host link for a plan (A and B blocks are reloaded for every product that
// uses them; S4 loads each A block once for two products).
double bytesMoved(StrategyKind strategy, const Shape& s, std::size_t elem, int splitM, int splitQ)
{
    const double aLoads = strategy == StrategyKind::S4 ? double((splitQ + 1) / 2) : double(splitQ);
    return elem * (aLoads * double(s.m) * double(s.n) + double(splitM) * double(s.n) * double(s.q) +
                   double(s.m) * double(s.q));
}

std::string formatCount(double count)
{
    std::ostringstream o;
    o.precision(3);
    o << count;
    return o.str();
}

// A cap so small that its blocking needs more products than a plan holds is refused (a run
// refuses more than kMaxScheduleProducts later, with the same advice).
InputError tooManyProducts(const Shape& shape, std::uint64_t capBytes, double products)
{
    return InputError("the memory cap of " + formatBytes(double(capBytes)) + " cuts " + shapeText(shape) +
                      " into at least " + formatCount(products) +
                      " block products, more than a plan can hold; raise the memory cap");
}

}  // namespace

namespace {

// Extent of block `index` of a cut given by its starts (empty: equal blocks of `block`).
std::int64_t extentAt(const std::vector<std::int64_t>& starts, std::int64_t total, std::int64_t block, int index)
{
    if (starts.empty())
        return extentOf(total, block, index);
    if (index < 0 || std::size_t(index) >= starts.size())
        return 0;
    const std::int64_t end = std::size_t(index) + 1 < starts.size() ? starts[std::size_t(index) + 1] : total;
    return end - starts[std::size_t(index)];
}

std::int64_t offsetAt(const std::vector<std::int64_t>& starts, std::int64_t block, int index)
{
    if (starts.empty() || index < 0)
        return std::int64_t(index) * block;
    return std::size_t(index) < starts.size() ? starts[std::size_t(index)] : starts.back();
}

int blockAt(const std::vector<std::int64_t>& starts, std::int64_t block, std::int64_t at)
{
    if (starts.empty())
        return block > 0 ? int(at / block) : 0;
    const auto after = std::upper_bound(starts.begin(), starts.end(), at);
    return after == starts.begin() ? 0 : int(after - starts.begin() - 1);
}

// Starts of a cut of `total` with ends of `end` and equal blocks of at most `block` between them
// (empty when that is no cut of ends thinner than the blocks).
std::vector<std::int64_t> taperedStarts(std::int64_t total, std::int64_t block, std::int64_t end)
{
    std::vector<std::int64_t> starts;
    if (end <= 0 || end >= block || total - 2 * end <= 0)
        return starts;
    const std::int64_t middle = total - 2 * end;
    const std::int64_t count = (middle + block - 1) / block;
    const std::int64_t each = (middle + count - 1) / count;
    starts.push_back(0);
    for (std::int64_t at = end; at < end + middle; at += each)
        starts.push_back(at);
    starts.push_back(end + middle);
    return starts;
}

}  // namespace

std::int64_t Plan::rowsOf(int i) const { return extentAt(rowStarts, shape.m, blockM, i); }
std::int64_t Plan::colsOf(int j) const { return extentAt(colStarts, shape.q, blockQ, j); }
std::int64_t Plan::depthOf(int k) const { return extentOf(shape.n, blockN, k); }
std::int64_t Plan::rowOffset(int i) const { return offsetAt(rowStarts, blockM, i); }
std::int64_t Plan::colOffset(int j) const { return offsetAt(colStarts, blockQ, j); }
std::int64_t Plan::depthOffset(int k) const { return std::int64_t(k) * blockN; }
int Plan::rowBlockOf(std::int64_t row) const { return blockAt(rowStarts, blockM, row); }
int Plan::colBlockOf(std::int64_t col) const { return blockAt(colStarts, blockQ, col); }

Plan withTaperedEnds(const Plan& plan, std::int64_t endRows, std::int64_t endCols)
{
    Plan tapered = plan;
    if (plan.strategy == StrategyKind::None || plan.tapered())
        return tapered;
    if (std::vector<std::int64_t> rows = taperedStarts(plan.shape.m, plan.blockM, endRows); !rows.empty()) {
        tapered.splitM = int(rows.size());
        tapered.rowStarts = std::move(rows);
    }
    if (std::vector<std::int64_t> cols = taperedStarts(plan.shape.q, plan.blockQ, endCols); !cols.empty()) {
        tapered.splitQ = int(cols.size());
        tapered.colStarts = std::move(cols);
    }
    return tapered;
}

std::size_t bytesForBlocks(StrategyKind strategy, Precision precision, bool abft,
                           std::int64_t blockM, std::int64_t blockN, std::int64_t blockQ, GemmVariant gemm)
{
    // Same accounting as bufferLayout (tests check they agree) in plain arithmetic: makePlan
    // calls this many times per plan and the GUI replans on every edit.
    // Saturating: blocks of huge shapes (2^31 - 1 a side) must read as "more than any cap", never
    // wrap around to a small number that seems to fit.
    const BufferCounts n = bufferCounts(strategy);
    const std::size_t elem = elementSize(precision);
    const std::int64_t extra = abft ? 1 : 0;
    auto pad = [](std::int64_t cols) {
        return std::size_t((cols + kLeadingDimensionPad - 1) / kLeadingDimensionPad * kLeadingDimensionPad);
    };
    const std::size_t a = mulSaturated(mulSaturated(std::size_t(blockM + extra), pad(blockN)), elem);
    const std::size_t b = mulSaturated(mulSaturated(std::size_t(blockN), pad(blockQ + extra + kBNormRoom * extra)), elem);
    const std::size_t c = mulSaturated(mulSaturated(std::size_t(blockM + extra), pad(blockQ + extra)), elem);
    const std::size_t aux = abft ? mulSaturated(4 * pad(std::max(blockM, blockQ) + 1), sizeof(double)) : 0;
    const std::size_t workspace = gemmWorkspaceParts(gemm, precision, abft, blockM, blockN, blockQ).bytes();
    return addSaturated(addSaturated(addSaturated(mulSaturated(std::size_t(n.a), a), mulSaturated(std::size_t(n.b), b)),
                                     mulSaturated(std::size_t(n.c), addSaturated(c, aux))),
                        mulSaturated(std::size_t(productStreamsOf(strategy)), workspace));
}

Plan makePlan(const Shape& shape, Precision precision, StrategyKind strategy,
              std::uint64_t capBytes, bool abft, GemmVariant gemm)
{
    if (shape.m <= 0 || shape.n <= 0 || shape.q <= 0)
        throw InputError("shape " + shapeText(shape) +
                         " is empty: m, n and q must all be at least 1");

    const std::size_t elem = elementSize(precision);
    auto fits = [&](std::int64_t bm, std::int64_t bn, std::int64_t bq) {
        return bytesForBlocks(strategy, precision, abft, bm, bn, bq, gemm) <= capBytes;
    };

    Plan plan;
    plan.shape = shape;
    plan.precision = precision;
    plan.strategy = strategy;
    plan.abft = abft;
    plan.capBytes = capBytes;

    // What a refusal adds where the GEMM's workspace is part of what the blocks need.
    const auto withWorkspace = [&](std::int64_t bm, std::int64_t bn, std::int64_t bq) {
        const std::size_t w = gemmWorkspaceParts(gemm, precision, abft, bm, bn, bq).bytes();
        if (w == 0)
            return std::string();
        const int streams = productStreamsOf(strategy);
        return " (" + (streams > 1 ? std::to_string(streams) + " x " : std::string()) + formatBytes(double(w)) +
               " of it the " + std::string(toString(gemm)) + " GEMM's workspace)";
    };
    if (strategy == StrategyKind::None) {
        const std::size_t need = bytesForBlocks(strategy, precision, abft, shape.m, shape.n, shape.q, gemm);
        if (need > capBytes)
            throw InputError("strategy none keeps the whole problem on the device: it needs " +
                             formatBytes(double(need)) + withWorkspace(shape.m, shape.n, shape.q) +
                             " but the memory cap allows " +
                             formatBytes(double(capBytes)) +
                             "; raise --mem or choose a blocking strategy (s1-s4)");
        plan.blockM = shape.m;
        plan.blockN = shape.n;
        plan.blockQ = shape.q;
    } else {
        const std::size_t smallest = bytesForBlocks(strategy, precision, abft, 1, 1, 1, gemm);
        if (smallest > capBytes)
            throw InputError("strategy " + std::string(toString(strategy)) + " needs at least " +
                             formatBytes(double(smallest)) + " even with 1x1x1 blocks" + withWorkspace(1, 1, 1) +
                             " but the memory cap allows " +
                             formatBytes(double(capBytes)));
        // Every element of A, B and C blocks costs at least elem bytes and bm*bn + bn*bq + bm*bq >=
        // 3 (bm*bn*bq)^(2/3), so no block product covers more than (cap / (3 elem))^1.5 of the
        // m*n*q volume: a lower bound on the products that refuses hopeless caps before the search
        // (which for 2^31-sided shapes would take minutes).
        const double maxVolume = std::pow(double(capBytes) / (3.0 * double(elem)), 1.5);
        const double fewestProducts = double(shape.m) * double(shape.n) * double(shape.q) / maxVolume;
        if (fewestProducts > double(std::numeric_limits<int>::max()))
            throw tooManyProducts(shape, capBytes, fewestProducts);
        // For every cut of m and n, the fewest splits of q that fit (bytes shrink as blocks do);
        // keep the plan with the fewest products, then the fewest bytes moved.
        const std::vector<Cut> cutsQ = distinctCuts(shape.q);  // ascending splits, descending blocks
        double bestProducts = std::numeric_limits<double>::infinity();
        double bestMoved = std::numeric_limits<double>::infinity();
        const std::vector<Cut> cutsN = distinctCuts(shape.n);
        for (const Cut& cm : distinctCuts(shape.m)) {
            if (double(cm.splits) > bestProducts)
                break;
            // Bytes shrink with blocks: when even the thinnest n and q blocks do not fit this cut of
            // m, no cut of n does (skipping keeps huge shapes with tiny caps from taking minutes).
            if (!fits(cm.block, cutsN.back().block, cutsQ.back().block))
                continue;
            for (const Cut& cn : cutsN) {
                if (double(cm.splits) * double(cn.splits) > bestProducts)
                    break;
                if (!fits(cm.block, cn.block, cutsQ.back().block))
                    continue;
                std::size_t lo = 0, hi = cutsQ.size() - 1;  // first cut of q that fits
                while (lo < hi) {
                    const std::size_t mid = (lo + hi) / 2;
                    if (fits(cm.block, cn.block, cutsQ[mid].block))
                        hi = mid;
                    else
                        lo = mid + 1;
                }
                const Cut& cq = cutsQ[lo];
                const double products = double(cm.splits) * double(cn.splits) * double(cq.splits);
                const double moved = bytesMoved(strategy, shape, elem, cm.splits, cq.splits);
                if (products < bestProducts || (products == bestProducts && moved < bestMoved)) {
                    bestProducts = products;
                    bestMoved = moved;
                    plan.splitM = cm.splits;
                    plan.splitN = cn.splits;
                    plan.splitQ = cq.splits;
                    plan.blockM = cm.block;
                    plan.blockN = cn.block;
                    plan.blockQ = cq.block;
                }
            }
        }
        if (plan.blockM == 0)
            throw InputError("no blocking of " + shapeText(shape) + " fits the memory cap of " +
                             formatBytes(double(capBytes)));
        // The split counts are ints: a cap so small that it needs more products is refused.
        if (bestProducts > double(std::numeric_limits<int>::max()))
            throw tooManyProducts(shape, capBytes, bestProducts);
    }

    plan.buffers = bufferLayout(strategy, precision, abft, plan.blockM, plan.blockN, plan.blockQ, gemm);
    plan.bytesNeeded = 0;
    for (const BufferSpec& b : plan.buffers)
        plan.bytesNeeded += b.bytes;

    std::ostringstream why;
    why << "Strategy " << toString(strategy) << " (" << describe(strategy) << ") under a cap of "
        << formatBytes(double(capBytes)) << ": C is cut into " << plan.splitM << " x " << plan.splitQ
        << " blocks of at most " << plan.blockM << " x " << plan.blockQ
        << " and the common dimension into " << plan.splitN << " step(s) of at most " << plan.blockN
        << ", " << plan.productCount() << " block product(s). " << plan.buffers.size()
        << " buffers use " << formatBytes(double(plan.bytesNeeded)) << " of the cap"
        << (abft ? " (blocks augmented with checksums, leading dimensions padded to 32 elements)."
                 : " (leading dimensions padded to 32 elements).")
        << workspaceSentence(plan.buffers);
    plan.explanation = why.str();
    return plan;
}

}  // namespace gigacheck
