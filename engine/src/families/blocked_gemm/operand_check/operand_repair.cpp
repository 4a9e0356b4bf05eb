// After a run whose operand copies failed their entry check (gigacheck/blocked_gemm/operand_checks.hpp): the
// host blocks behind them are checked against the entry sums on both axes, like an ABFT block,
// and a corrupted element is restored from the sum of its line; the C blocks fed by those
// operand blocks are then recomputed by the repair pass (run/repair.cpp).
#include "gigacheck/blocked_gemm/operand_checks.hpp"

#include "gigacheck/abft.hpp"

#include <algorithm>
#include <cmath>
#include <set>

namespace gigacheck {

namespace {

// One host operand block against its entry sums: mismatching rows and columns (local indices).
struct HostBlockCheck {
    std::vector<std::int64_t> rows, cols;
    bool clean() const { return rows.empty() && cols.empty(); }
};

struct BlockGeometry {
    std::int64_t rowOffset = 0, colOffset = 0, rows = 0, cols = 0;
    const LineSums* rowSums = nullptr;     // per matrix row, over this block's columns
    const LineSums* columnSums = nullptr;  // per matrix column, over this block's rows
};

BlockGeometry geometry(const EntryChecksums& e, char operand, int blockRow, int blockCol)
{
    const Plan& p = e.plan;
    BlockGeometry g;
    if (operand == 'a') {  // A (i, k)
        g = {p.rowOffset(blockRow), p.depthOffset(blockCol), p.rowsOf(blockRow), p.depthOf(blockCol),
             &e.aRows[std::size_t(blockCol)], &e.aColumns[std::size_t(blockRow)]};
    } else {  // B (k, j)
        g = {p.depthOffset(blockRow), p.colOffset(blockCol), p.depthOf(blockRow), p.colsOf(blockCol),
             &e.bRows[std::size_t(blockCol)], &e.bColumns[std::size_t(blockRow)]};
    }
    return g;
}

// The sum in double of `count` elements `stride` apart from `first`, in order, element `skip` left out.
template <class T> double sumExcept(const T* first, std::int64_t count, std::int64_t stride, std::int64_t skip)
{
    double s = 0;
    for (std::int64_t at = 0; at < count; ++at)
        if (at != skip)
            s += double(first[at * stride]);
    return s;
}

template <class T>
double rowSum(const T* m, std::int64_t ld, const BlockGeometry& g, std::int64_t r, std::int64_t skip = -1)
{
    return sumExcept(m + (g.rowOffset + r) * ld + g.colOffset, g.cols, 1, skip);
}

template <class T>
double columnSum(const T* m, std::int64_t ld, const BlockGeometry& g, std::int64_t c, std::int64_t skip = -1)
{
    return sumExcept(m + g.rowOffset * ld + g.colOffset + c, g.rows, ld, skip);
}

// lambda > 0: the lines whose sum is off by more than the round-off threshold (is the block
// wrong?). lambda = 0: the lines whose sum changed at all -- on the host the sums are taken again
// by the same code in the same order as at entry, bit for bit, so any difference is a changed
// element; that locates a change even where one of its lines is below the threshold.
template <class T>
HostBlockCheck checkHostBlock(const T* m, std::int64_t ld, const BlockGeometry& g, double u, double lambda)
{
    HostBlockCheck out;
    const auto mismatch = [&](double sum, const LineSums& entry, std::size_t at, std::int64_t count) {
        if (lambda == 0)
            return !(sum == entry.sum[at]);
        return !(std::fabs(sum - entry.sum[at]) <= operandSumThreshold(entry.squares[at], count, u, lambda));
    };
    for (std::int64_t r = 0; r < g.rows; ++r)  // lineSum: the entry's order, bit for bit
        if (mismatch(lineSum(m + (g.rowOffset + r) * ld + g.colOffset, g.cols), *g.rowSums, std::size_t(g.rowOffset + r),
                     g.cols))
            out.rows.push_back(r);
    for (std::int64_t c = 0; c < g.cols; ++c)
        if (mismatch(columnSum(m, ld, g, c), *g.columnSums, std::size_t(g.colOffset + c), g.rows))
            out.cols.push_back(c);
    return out;
}

// Restores the block's wrong elements when they lie on one row or one column (each then alone
// on its other line, whose entry sum gives it back exactly); returns the count, -1 when it
// cannot (several rows and several columns, or a mismatch on one axis only).
template <class T>
std::int64_t restoreHostBlock(T* m, std::int64_t ld, const BlockGeometry& g, const HostBlockCheck& check)
{
    if (check.rows.empty() || check.cols.empty())
        return check.clean() ? 0 : -1;
    std::int64_t restored = 0;
    if (check.rows.size() == 1) {
        const std::int64_t r = check.rows[0];
        for (std::int64_t c : check.cols) {
            m[(g.rowOffset + r) * ld + g.colOffset + c] =
                T(g.columnSums->sum[std::size_t(g.colOffset + c)] - columnSum(m, ld, g, c, r));
            ++restored;
        }
        return restored;
    }
    if (check.cols.size() == 1) {
        const std::int64_t c = check.cols[0];
        for (std::int64_t r : check.rows) {
            m[(g.rowOffset + r) * ld + g.colOffset + c] =
                T(g.rowSums->sum[std::size_t(g.rowOffset + r)] - rowSum(m, ld, g, r, c));
            ++restored;
        }
        return restored;
    }
    return -1;
}

template <class T>
void repairHostBlock(const EntryChecksums& e, HostMatrix& matrix, char operand, int blockRow, int blockCol,
                     OperandCheckReport& report, double lambda)
{
    const BlockGeometry g = geometry(e, operand, blockRow, blockCol);
    T* m = matrix.as<T>();
    const double u = unitRoundoff(e.plan.precision);
    const HostBlockCheck changed = checkHostBlock(m, matrix.cols(), g, u, 0.0);
    if (changed.clean())
        return;  // only the copy was wrong (in transit, in device memory): the host copy is right
    const std::int64_t restored = restoreHostBlock(m, matrix.cols(), g, changed);
    // Still off by more than round-off (not restorable, or restored wrong): lost. A change seen
    // on one axis only that stays below the threshold is round-off-sized and left as it is.
    if (!checkHostBlock(m, matrix.cols(), g, u, lambda).clean()) {
        ++report.hostBlocksUnrestorable;
        return;
    }
    report.hostElementsRestored += std::max<std::int64_t>(restored, 0);
}

}  // namespace

std::vector<std::pair<int, int>> repairOperands(const EntryChecksums& entry, HostMatrix& a, HostMatrix& b,
                                                OperandCheckReport& report, double lambda)
{
    std::set<std::pair<int, int>> aBlocks, bBlocks;
    for (const OperandMismatch& m : report.mismatches)
        (m.operand == 'a' ? aBlocks : bBlocks).insert({m.blockRow, m.blockCol});
    for (const auto& [i, k] : aBlocks) {
        if (a.precision() == Precision::F64)
            repairHostBlock<double>(entry, a, 'a', i, k, report, lambda);
        else
            repairHostBlock<float>(entry, a, 'a', i, k, report, lambda);
    }
    for (const auto& [k, j] : bBlocks) {
        if (b.precision() == Precision::F64)
            repairHostBlock<double>(entry, b, 'b', k, j, report, lambda);
        else
            repairHostBlock<float>(entry, b, 'b', k, j, report, lambda);
    }
    // Every C block that an operand block's strip feeds: the copy may have served several block
    // products (strategy none keeps A(i, k) for all j; S4 shares it over a pair), and a host
    // element wrong since entry fed all of them.
    std::set<std::pair<int, int>> blocks;
    for (const auto& [i, k] : aBlocks)
        for (int j = 0; j < entry.plan.splitQ; ++j)
            blocks.insert({i, j});
    for (const auto& [k, j] : bBlocks)
        for (int i = 0; i < entry.plan.splitM; ++i)
            blocks.insert({i, j});
    return {blocks.begin(), blocks.end()};
}

}  // namespace gigacheck
