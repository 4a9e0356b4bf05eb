#include "families/strassen/run/leaf_rounding.hpp"

#include "core/parallel_for.hpp"
#include "families/strassen/ops.hpp"
#include "families/strassen/plan/leaf_tiles.hpp"

#include <cblas.h>

#include <algorithm>
#include <map>
#include <thread>

namespace gigacheck::strassen {

namespace {

// Symbolic contents of a leaf tile: A tiles (keys t), B tiles (kBKey + t) or leaf products
// (kPKey + p), each with an integer coefficient, on the schedule validator's tiles (LeafTiles).
constexpr int kBKey = 1 << 20, kPKey = 1 << 21;
using Poly = std::map<int, long>;

struct Leaf {
    Poly a, b;                                 // operands: combinations of A tiles / B tiles
    std::vector<std::pair<int, long>> cTiles;  // (C tile, coefficient) at the end of the run
};
struct Fringe {
    OperandRegion a, b;  // plain product of the peeled fringe on A's and B's own entries
    double weight = 0;   // sum of its targets' squared coefficients
};

class LeafTracker {
public:
    LeafTracker(const Schedule& schedule, const Shape& core, int levels)
        : grid_(schedule, core, levels), schedule_(schedule)
    {
        reset(kSlotA);
        reset(kSlotB);
    }

    // False when the op touches the core in a way the tiles cannot express.
    bool apply(const Operation& op)
    {
        if (op.kind == kRestore) {
            reset(op.operands[0].slot);
            return true;
        }
        if (op.kind == kAdd || op.kind == kCopy) {
            const OperandRegion& dst = op.kind == kAdd ? op.operands[0] : op.operands[1];
            const OperandRegion& src = op.kind == kAdd ? op.operands[1] : op.operands[0];
            const auto [tr, tc] = grid_.tileSizeOf(dst.slot);
            if (dst.rows % tr || dst.cols % tc)
                return grid_.beyondCore(op);
            for (std::int64_t r = 0; r < dst.rows / tr; ++r)
                for (std::int64_t c = 0; c < dst.cols / tc; ++c) {
                    Poly* d = grid_.tile(dst, r, c);
                    const Poly* s = grid_.tile(src, r, c);
                    if (!d || !s)
                        return grid_.beyondCore(op);
                    if (op.kind == kCopy)
                        *d = *s;
                    else
                        grid_.addInto(*d, Poly(*s), long(src.coefficient));
                }
            return true;
        }
        if (op.kind == kProduct) {
            const OperandRegion& ra = op.operands[0];
            const OperandRegion& rb = op.operands[1];
            const Poly* pa = grid_.isLeafProduct(ra, rb) ? grid_.tile(ra, 0, 0) : nullptr;
            const Poly* pb = pa ? grid_.tile(rb, 0, 0) : nullptr;
            if (!pa || !pb)
                return fringeProduct(op);
            for (const auto& [key, v] : *pa)
                if (key >= kBKey)
                    return false;
            for (const auto& [key, v] : *pb)
                if (key < kBKey || key >= kPKey)
                    return false;
            const int p = int(leaves_.size());
            leaves_.push_back({*pa, *pb, {}});
            for (std::size_t i = 2; i < op.operands.size(); ++i) {
                Poly* target = grid_.tile(op.operands[i], 0, 0);
                if (!target)
                    return false;
                if (op.operands[i].access == Access::Write)
                    *target = Poly{{kPKey + p, 1}};
                else
                    grid_.addInto(*target, Poly{{kPKey + p, 1}}, long(op.operands[i].coefficient));
            }
            return true;
        }
        if (op.kind == kScatter || op.kind == kZero) {
            const OperandRegion& src = op.operands[0];
            const auto [tr, tc] = grid_.tileSizeOf(src.slot);
            if (src.rows % tr || src.cols % tc)
                return false;
            for (std::int64_t r = 0; r < src.rows / tr; ++r)
                for (std::int64_t c = 0; c < src.cols / tc; ++c) {
                    Poly* m = grid_.tile(src, r, c);
                    if (!m)
                        return false;
                    if (op.kind == kZero) {
                        m->clear();
                        continue;
                    }
                    const Poly copy = *m;
                    for (std::size_t i = 1; i < op.operands.size(); ++i) {
                        Poly* target = grid_.tile(op.operands[i], r, c);
                        if (!target)
                            return false;
                        grid_.addInto(*target, copy, long(op.operands[i].coefficient));
                    }
                }
        }
        return true;  // loads, stores, faults, leaf checks: no arithmetic of C = A B
    }

    // Every leaf with its coefficients in the final C tiles.
    std::vector<Leaf> finish()
    {
        const auto& c = grid_.slot(kSlotC);
        for (std::size_t t = 0; t < c.tiles.size(); ++t)
            for (const auto& [key, v] : c.tiles[t])
                if (key >= kPKey)
                    leaves_[std::size_t(key - kPKey)].cTiles.emplace_back(int(t), v);
        return std::move(leaves_);
    }
    const std::vector<Fringe>& fringe() const { return fringe_; }

private:
    void reset(int slot)
    {
        if (slot != kSlotA && slot != kSlotB)
            return;
        auto& s = grid_.slot(slot);
        for (std::size_t t = 0; t < s.tiles.size(); ++t)
            s.tiles[t] = Poly{{slot == kSlotA ? int(t) : kBKey + int(t), 1}};
    }
    // The fringe's plain products read A and B before the core changes them.
    bool fringeProduct(const Operation& op)
    {
        if (!grid_.beyondCore(op) || op.operands[0].slot != kSlotA || op.operands[1].slot != kSlotB)
            return false;
        Fringe f{whole(op.operands[0]), whole(op.operands[1]), 0.0};
        for (std::size_t i = 2; i < op.operands.size(); ++i)
            f.weight += op.operands[i].coefficient * op.operands[i].coefficient;
        fringe_.push_back(f);
        return true;
    }
    OperandRegion whole(OperandRegion r) const
    {
        if (r.rows == 0) {
            const BufferSpec& b = schedule_.buffers[std::size_t(r.slot)];
            r.row = r.col = 0;
            r.rows = b.rows;
            r.cols = b.cols;
        }
        return r;
    }

    LeafTiles<Poly> grid_;
    const Schedule& schedule_;
    std::vector<Leaf> leaves_;
    std::vector<Fringe> fringe_;
};

std::vector<double> asDouble(const HostMatrix& m)
{
    std::vector<double> out(std::size_t(m.rows() * m.cols()));
    if (m.precision() == Precision::F64)
        std::copy_n(m.as<double>(), out.size(), out.data());
    else
        std::copy_n(m.as<float>(), out.size(), out.data());
    return out;
}

// The scales of one product S_A (rows x depth) times S_B (depth x cols), placed at rows rowAt(r),
// columns colAt(c) with the weights of its row sums, column sums and cells.
struct ProductScales {
    std::vector<double> rowTerm, colTerm, cell;  // cell: rows x cols, only when asked
};
// Per cell, sum_k S_A(r,k)^2 S_B(k,c)^2: one product of the squared operands (OpenBLAS).
std::vector<double> cellScales(const std::vector<double>& sa, const std::vector<double>& sb, std::int64_t rows,
                               std::int64_t depth, std::int64_t cols)
{
    std::vector<double> cell(std::size_t(rows * cols), 0.0);
    if (rows <= 0 || cols <= 0 || depth <= 0)
        return cell;
    std::vector<double> a2(sa.size()), b2(sb.size());
    std::transform(sa.begin(), sa.end(), a2.begin(), [](double v) { return v * v; });
    std::transform(sb.begin(), sb.end(), b2.begin(), [](double v) { return v * v; });
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, int(rows), int(cols), int(depth), 1.0, a2.data(), int(depth),
                b2.data(), int(cols), 0.0, cell.data(), int(cols));
    return cell;
}

ProductScales productScales(const std::vector<double>& sa, const std::vector<double>& sb, std::int64_t rows,
                            std::int64_t depth, std::int64_t cols, bool withCells)
{
    std::vector<double> nb2(std::size_t(depth), 0.0), sumB(std::size_t(depth), 0.0);
    std::vector<double> na2(std::size_t(depth), 0.0), sumA(std::size_t(depth), 0.0);
    for (std::int64_t k = 0; k < depth; ++k)
        for (std::int64_t c = 0; c < cols; ++c) {
            const double v = sb[std::size_t(k * cols + c)];
            nb2[std::size_t(k)] += v * v;
            sumB[std::size_t(k)] += v;
        }
    for (std::int64_t r = 0; r < rows; ++r)
        for (std::int64_t k = 0; k < depth; ++k) {
            const double v = sa[std::size_t(r * depth + k)];
            na2[std::size_t(k)] += v * v;
            sumA[std::size_t(k)] += v;
        }
    ProductScales s;
    s.rowTerm.assign(std::size_t(rows), 0.0);
    s.colTerm.assign(std::size_t(cols), 0.0);
    for (std::int64_t r = 0; r < rows; ++r)
        for (std::int64_t k = 0; k < depth; ++k) {
            const double v = sa[std::size_t(r * depth + k)];
            s.rowTerm[std::size_t(r)] += v * v * (nb2[std::size_t(k)] + sumB[std::size_t(k)] * sumB[std::size_t(k)]);
        }
    for (std::int64_t k = 0; k < depth; ++k) {
        const double w = na2[std::size_t(k)] + sumA[std::size_t(k)] * sumA[std::size_t(k)];
        for (std::int64_t c = 0; c < cols; ++c) {
            const double v = sb[std::size_t(k * cols + c)];
            s.colTerm[std::size_t(c)] += v * v * w;
        }
    }
    if (withCells)
        s.cell = cellScales(sa, sb, rows, depth, cols);
    return s;
}

}  // namespace

std::optional<LeafRoundingScales> leafRoundingScales(const Schedule& schedule, const HostMatrix& a, const HostMatrix& b,
                                                     const Shape& core, int levels, bool withCells)
{
    const std::int64_t m = a.rows(), n = a.cols(), q = b.cols();
    if (levels < 0 || core.m <= 0 || core.n <= 0 || core.q <= 0 || schedule.buffers.size() <= std::size_t(kSlotC))
        return std::nullopt;
    LeafTracker tracker(schedule, core, levels);
    for (const Operation& op : schedule.ops)
        if (!tracker.apply(op))
            return std::nullopt;
    const std::vector<Leaf> leaves = tracker.finish();
    const int side = 1 << levels;
    const std::int64_t tm = core.m >> levels, tn = core.n >> levels, tq = core.q >> levels;
    const std::vector<double> da = asDouble(a), db = asDouble(b);

    LeafRoundingScales out;
    out.rowQ.assign(std::size_t(m), 0.0);
    out.colQ.assign(std::size_t(q), 0.0);
    if (withCells)
        out.cellQ.assign(std::size_t(m * q), 0.0);
    auto place = [&](const ProductScales& s, std::int64_t row0, std::int64_t rows, std::int64_t col0, std::int64_t cols,
                     double rowWeight, double colWeight, double cellWeight) {
        for (std::int64_t r = 0; r < rows; ++r)
            out.rowQ[std::size_t(row0 + r)] += rowWeight * s.rowTerm[std::size_t(r)];
        for (std::int64_t c = 0; c < cols; ++c)
            out.colQ[std::size_t(col0 + c)] += colWeight * s.colTerm[std::size_t(c)];
        if (withCells && cellWeight != 0)
            for (std::int64_t r = 0; r < rows; ++r)
                for (std::int64_t c = 0; c < cols; ++c)
                    out.cellQ[std::size_t((row0 + r) * q + col0 + c)] += cellWeight * s.cell[std::size_t(r * cols + c)];
    };

    // Leaves in batches: each one's operand sums and line terms on a thread of its own, then, in
    // leaf order, its cells (a product of squares on OpenBLAS's threads) and the placement, so the
    // sums are the same bits whatever the thread count.
    std::vector<const Leaf*> todo;
    for (const Leaf& leaf : leaves)
        if (!leaf.cTiles.empty())
            todo.push_back(&leaf);
    struct Work {
        std::vector<double> sa, sb;
        ProductScales s;
    };
    const std::size_t batch = std::clamp<std::size_t>(std::thread::hardware_concurrency(), 1, 8);
    std::vector<Work> work(std::min(batch, std::max<std::size_t>(todo.size(), 1)));
    for (std::size_t first = 0; first < todo.size(); first += batch) {
        const std::size_t count = std::min(batch, todo.size() - first);
        parallelFor(std::int64_t(count), tm * tn + tn * tq, [&](std::int64_t w0, std::int64_t w1) {
            for (std::int64_t w = w0; w < w1; ++w) {
                const Leaf& leaf = *todo[first + std::size_t(w)];
                Work& job = work[std::size_t(w)];
                job.sa.assign(std::size_t(tm * tn), 0.0);
                job.sb.assign(std::size_t(tn * tq), 0.0);
                for (const auto& [t, coef] : leaf.a) {
                    const std::int64_t i0 = (t / side) * tm, k0 = (t % side) * tn;
                    for (std::int64_t r = 0; r < tm; ++r)
                        for (std::int64_t k = 0; k < tn; ++k)
                            job.sa[std::size_t(r * tn + k)] += double(coef) * da[std::size_t((i0 + r) * n + k0 + k)];
                }
                for (const auto& [key, coef] : leaf.b) {
                    const int t = key - kBKey;
                    const std::int64_t k0 = (t / side) * tn, j0 = (t % side) * tq;
                    for (std::int64_t k = 0; k < tn; ++k)
                        for (std::int64_t c = 0; c < tq; ++c)
                            job.sb[std::size_t(k * tq + c)] += double(coef) * db[std::size_t((k0 + k) * q + j0 + c)];
                }
                job.s = productScales(job.sa, job.sb, tm, tn, tq, false);
            }
        });
        for (std::size_t w = 0; w < count; ++w) {
            const Leaf& leaf = *todo[first + w];
            Work& job = work[w];
            // A row check sums the leaf's row over every C tile of that tile row, with its coefficients.
            std::vector<double> rowWeight(std::size_t(side), 0.0), colWeight(std::size_t(side), 0.0);
            for (const auto& [t, coef] : leaf.cTiles) {
                rowWeight[std::size_t(t / side)] += double(coef);
                colWeight[std::size_t(t % side)] += double(coef);
            }
            for (int i = 0; i < side; ++i)
                place(job.s, i * tm, tm, 0, 0, rowWeight[std::size_t(i)] * rowWeight[std::size_t(i)], 0, 0);
            for (int j = 0; j < side; ++j)
                place(job.s, 0, 0, j * tq, tq, 0, colWeight[std::size_t(j)] * colWeight[std::size_t(j)], 0);
            if (withCells) {
                job.s.cell = cellScales(job.sa, job.sb, tm, tn, tq);
                for (const auto& [t, coef] : leaf.cTiles)
                    place(job.s, (t / side) * tm, tm, (t % side) * tq, tq, 0, 0, double(coef) * double(coef));
            }
        }
    }
    for (const Fringe& f : tracker.fringe()) {
        std::vector<double> fa(std::size_t(f.a.rows * f.a.cols)), fb(std::size_t(f.b.rows * f.b.cols));
        for (std::int64_t r = 0; r < f.a.rows; ++r)
            for (std::int64_t k = 0; k < f.a.cols; ++k)
                fa[std::size_t(r * f.a.cols + k)] = da[std::size_t((f.a.row + r) * n + f.a.col + k)];
        for (std::int64_t k = 0; k < f.b.rows; ++k)
            for (std::int64_t c = 0; c < f.b.cols; ++c)
                fb[std::size_t(k * f.b.cols + c)] = db[std::size_t((f.b.row + k) * q + f.b.col + c)];
        const ProductScales s = productScales(fa, fb, f.a.rows, f.a.cols, f.b.cols, withCells);
        place(s, f.a.row, f.a.rows, f.b.col, f.b.cols, f.weight, f.weight, f.weight);
    }
    return out;
}

}  // namespace gigacheck::strassen
