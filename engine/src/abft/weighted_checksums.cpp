// Weighted checksums: weights, encoding, round-off bound, and the verification that locates and
// corrects up to K errors per check by solving K x c systems (gigacheck/weighted_checksums.hpp).
#include "gigacheck/weighted_checksums.hpp"

#include "abft/neumaier.hpp"
#include "core/parallel_for.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace gigacheck {

double checksumWeight(int t, std::int64_t j)
{
    if (t == 0)
        return 1.0;
    constexpr double kInvPhi = 0.6180339887498948482;
    constexpr double kTwoPi = 6.283185307179586477;
    const double x = double(j + 1) * kInvPhi;
    const double alpha = kTwoPi * (x - std::floor(x));
    return std::cos(double(t) * alpha);
}

void WeightedBound::reset(std::int64_t augmentedRows, std::int64_t augmentedCols)
{
    rowScale.assign(std::size_t(augmentedRows), 0.0);
    colScale.assign(std::size_t(augmentedCols), 0.0);
    depth = 0;
}

template <class T>
void accumulateWeightedBound(WeightedBound& acc, const T* a, std::int64_t lda, const T* b, std::int64_t ldb,
                             std::int64_t depth)
{
    const std::int64_t rows = std::int64_t(acc.rowScale.size()), cols = std::int64_t(acc.colScale.size());
    std::vector<double> bRow(std::size_t(depth), 0.0), aCol(std::size_t(depth), 0.0);
    for (std::int64_t k = 0; k < depth; ++k)
        for (std::int64_t j = 0; j < cols; ++j)
            bRow[std::size_t(k)] += double(b[k * ldb + j]) * double(b[k * ldb + j]);
    for (std::int64_t i = 0; i < rows; ++i) {
        double s = 0;
        for (std::int64_t k = 0; k < depth; ++k) {
            const double v = double(a[i * lda + k]);
            s += v * v * bRow[std::size_t(k)];
            aCol[std::size_t(k)] += v * v;
        }
        acc.rowScale[std::size_t(i)] += s;
    }
    for (std::int64_t k = 0; k < depth; ++k)
        for (std::int64_t j = 0; j < cols; ++j) {
            const double v = double(b[k * ldb + j]);
            acc.colScale[std::size_t(j)] += aCol[std::size_t(k)] * v * v;
        }
    acc.depth += depth;
}

Thresholds weightedThresholds(const WeightedBound& acc, std::int64_t rows, std::int64_t cols, int k, double u,
                              double lambda)
{
    Thresholds t;
    const double rowFactor = lambda * u * double(acc.depth + cols + k + 1);
    const double colFactor = lambda * u * double(acc.depth + rows + k + 1);
    for (double s : acc.rowScale)
        t.row.push_back(rowFactor * std::sqrt(s));
    for (double s : acc.colScale)
        t.col.push_back(colFactor * std::sqrt(s));
    return t;
}

template <class T> void weightedRowChecksums(T* b, std::int64_t depth, std::int64_t cols, std::int64_t ld, int k)
{
    std::vector<double> w(static_cast<std::size_t>(cols));
    for (int t = 0; t < k; ++t) {
        for (std::int64_t j = 0; j < cols; ++j)
            w[std::size_t(j)] = checksumWeight(t, j);
        for (std::int64_t r = 0; r < depth; ++r) {
            double s = 0;
            for (std::int64_t j = 0; j < cols; ++j)
                s += w[std::size_t(j)] * double(b[r * ld + j]);
            b[r * ld + cols + t] = T(s);
        }
    }
}

template <class T> void weightedColumnChecksums(T* a, std::int64_t rows, std::int64_t depth, std::int64_t ld, int k)
{
    for (int t = 0; t < k; ++t) {
        std::vector<double> sums(std::size_t(depth), 0.0);
        for (std::int64_t i = 0; i < rows; ++i) {
            const double w = checksumWeight(t, i);
            for (std::int64_t c = 0; c < depth; ++c)
                sums[std::size_t(c)] += w * double(a[i * ld + c]);
        }
        for (std::int64_t c = 0; c < depth; ++c)
            a[(rows + t) * ld + c] = T(sums[std::size_t(c)]);
    }
}

WeightedMismatches weightedMismatches(const double* rowRes, std::int64_t rowLines, const double* colRes,
                                      std::int64_t colLines, int k, const Thresholds& t)
{
    WeightedMismatches m;
    const auto classify = [&](const double* res, std::int64_t lines, const std::vector<double>& threshold,
                              std::vector<std::int64_t>& bad) {
        for (std::int64_t x = 0; x < lines; ++x) {
            bool mismatch = false;
            double worst = 0;
            for (int s = 0; s < k; ++s) {
                const double v = res[std::size_t(x * k + s)];
                if (!(std::fabs(v) <= threshold[std::size_t(x)]))  // NaN / Inf mismatch
                    mismatch = true;
                worst = std::max(worst, std::fabs(v));
            }
            if (mismatch)
                bad.push_back(x);
            else if (threshold[std::size_t(x)] > 0)
                m.maxCleanResidualRatio = std::max(m.maxCleanResidualRatio, worst / threshold[std::size_t(x)]);
        }
    };
    classify(rowRes, rowLines, t.row, m.badRows);
    classify(colRes, colLines, t.col, m.badCols);
    return m;
}

namespace {

// Neumaier's compensated sum (as in verify.cpp): the checker adds almost no round-off of its own.
struct CompensatedSum {
    double sum = 0, compensation = 0;
    void add(double v)
    {
        const double t = sum + v;
        compensation += std::fabs(sum) >= std::fabs(v) ? (sum - t) + v : (v - t) + sum;
        sum = t;
    }
    double value() const { return sum + compensation; }
};

// Residuals of every check of a weighted block: row i, sum t at rowRes[i * k + t].
struct Residuals {
    std::vector<double> row, col;
    std::vector<std::int64_t> badRows, badCols;  // augmented indices, ascending
};

// The control sums of the K weighted checks of rows [i0, i1) over the columns [0, cols):
// out[(i - i0) * k + s] = sum_j wCol[s * cols + j] c(i, j), each summed in index order. Rows go
// kRowLanes at a time, their K sums side by side, so that the sums' dependency chains overlap.
template <class T>
void weightedRowSums(const T* c, std::int64_t i0, std::int64_t i1, std::int64_t cols, std::int64_t ld, int k,
                     const std::vector<double>& wCol, double* out)
{
    constexpr int kRowLanes = 4;
    for (std::int64_t i = i0; i < i1; i += kRowLanes) {
        const int lanes = int(std::min<std::int64_t>(kRowLanes, i1 - i));
        double sum[kRowLanes * kMaxChecksums] = {}, comp[kRowLanes * kMaxChecksums] = {};
        for (int s = 0; s < k; ++s) {
            const double* w = wCol.data() + s * cols;
            if (lanes == kRowLanes) {
                const T* r0 = c + i * ld;
                const T* r1 = r0 + ld;
                const T* r2 = r1 + ld;
                const T* r3 = r2 + ld;
                double s0 = 0, s1 = 0, s2 = 0, s3 = 0, c0 = 0, c1 = 0, c2 = 0, c3 = 0;
                for (std::int64_t j = 0; j < cols; ++j) {
                    const double wj = w[j];
                    neumaierAdd(s0, c0, wj * double(r0[j]));
                    neumaierAdd(s1, c1, wj * double(r1[j]));
                    neumaierAdd(s2, c2, wj * double(r2[j]));
                    neumaierAdd(s3, c3, wj * double(r3[j]));
                }
                sum[0 * kMaxChecksums + s] = s0, comp[0 * kMaxChecksums + s] = c0;
                sum[1 * kMaxChecksums + s] = s1, comp[1 * kMaxChecksums + s] = c1;
                sum[2 * kMaxChecksums + s] = s2, comp[2 * kMaxChecksums + s] = c2;
                sum[3 * kMaxChecksums + s] = s3, comp[3 * kMaxChecksums + s] = c3;
            } else {
                for (int r = 0; r < lanes; ++r) {
                    const T* row = c + (i + r) * ld;
                    double sm = 0, cp = 0;
                    for (std::int64_t j = 0; j < cols; ++j)
                        neumaierAdd(sm, cp, w[j] * double(row[j]));
                    sum[r * kMaxChecksums + s] = sm, comp[r * kMaxChecksums + s] = cp;
                }
            }
        }
        for (int r = 0; r < lanes; ++r)
            for (int s = 0; s < k; ++s)
                out[(i + r - i0) * k + s] = sum[r * kMaxChecksums + s] + comp[r * kMaxChecksums + s];
    }
}

// The control sums of the K weighted checks of columns [j0, j1) over the rows [0, rows):
// out[(j - j0) * k + s] = sum_i wRow[s * rows + i] c(i, j), each summed in index order i = 0, 1, ...
// (the same bits as a column walked top to bottom), read row by row: the strip of columns stays
// contiguous in memory instead of one cache line per element.
template <class T>
void weightedColumnSums(const T* c, std::int64_t rows, std::int64_t j0, std::int64_t j1, std::int64_t ld, int k,
                        const std::vector<double>& wRow, double* out)
{
    const std::int64_t width = j1 - j0;
    std::vector<double> sum(std::size_t(k * width), 0.0), comp(std::size_t(k * width), 0.0);
    for (std::int64_t i = 0; i < rows; ++i) {
        const T* row = c + i * ld + j0;
        for (int s = 0; s < k; ++s) {
            const double w = wRow[std::size_t(s * rows + i)];
            double* __restrict sm = sum.data() + s * width;
            double* __restrict cp = comp.data() + s * width;
            for (std::int64_t j = 0; j < width; ++j) {
                neumaierAdd(sm[j], cp[j], w * double(row[j]));
            }
        }
    }
    for (std::int64_t j = 0; j < width; ++j)
        for (int s = 0; s < k; ++s)
            out[j * k + s] = sum[std::size_t(s * width + j)] + comp[std::size_t(s * width + j)];
}

// Control sums of every check of a weighted block (rows + k rows, cols + k columns), in parallel
// over lines; each line's sum has one fixed order, so the bits do not depend on the split.
template <class T>
void weightedControlSums(const T* c, std::int64_t rows, std::int64_t cols, std::int64_t ld, int k,
                         const std::vector<double>& wRow, const std::vector<double>& wCol, std::vector<double>& rowSums,
                         std::vector<double>& colSums)
{
    rowSums.assign(std::size_t((rows + k) * k), 0.0);
    colSums.assign(std::size_t((cols + k) * k), 0.0);
    parallelFor(rows + k, cols * k, [&](std::int64_t i0, std::int64_t i1) {
        weightedRowSums(c, i0, i1, cols, ld, k, wCol, rowSums.data() + i0 * k);
    });
    parallelFor(cols + k, rows * k, [&](std::int64_t j0, std::int64_t j1) {
        weightedColumnSums(c, rows, j0, j1, ld, k, wRow, colSums.data() + j0 * k);
    });
}

template <class T>
Residuals residuals(const T* c, std::int64_t rows, std::int64_t cols, std::int64_t ld, int k, const Thresholds& t,
                    const std::vector<double>& wRow, const std::vector<double>& wCol, VerifyResult* stats)
{
    Residuals r;
    weightedControlSums(c, rows, cols, ld, k, wRow, wCol, r.row, r.col);
    for (std::int64_t i = 0; i < rows + k; ++i)
        for (int s = 0; s < k; ++s)
            r.row[std::size_t(i * k + s)] -= double(c[i * ld + cols + s]);
    for (std::int64_t j = 0; j < cols + k; ++j)
        for (int s = 0; s < k; ++s)
            r.col[std::size_t(j * k + s)] -= double(c[(rows + s) * ld + j]);
    WeightedMismatches m = weightedMismatches(r.row.data(), rows + k, r.col.data(), cols + k, k, t);
    r.badRows = std::move(m.badRows);
    r.badCols = std::move(m.badCols);
    if (stats)
        stats->maxCleanResidualRatio = std::max(stats->maxCleanResidualRatio, m.maxCleanResidualRatio);
    return r;
}

// The residuals again after corrections of result cells: only the rows and columns holding a
// corrected cell changed, so only they are summed again (each in its own order, the bits a full
// pass would give); the others keep theirs.
template <class T>
void refreshResiduals(Residuals& r, const T* c, std::int64_t rows, std::int64_t cols, std::int64_t ld, int k,
                      const Thresholds& t, const std::vector<double>& wRow, const std::vector<double>& wCol,
                      const std::vector<Correction>& applied)
{
    std::vector<std::int64_t> touchedRows, touchedCols;
    for (const Correction& x : applied)
        touchedRows.push_back(x.row), touchedCols.push_back(x.col);
    for (auto* v : {&touchedRows, &touchedCols}) {
        std::sort(v->begin(), v->end());
        v->erase(std::unique(v->begin(), v->end()), v->end());
    }
    double sums[kMaxChecksums];
    for (std::int64_t i : touchedRows) {
        weightedRowSums(c, i, i + 1, cols, ld, k, wCol, sums);
        for (int s = 0; s < k; ++s)
            r.row[std::size_t(i * k + s)] = sums[s] - double(c[i * ld + cols + s]);
    }
    for (std::int64_t j : touchedCols) {
        weightedColumnSums(c, rows, j, j + 1, ld, k, wRow, sums);
        for (int s = 0; s < k; ++s)
            r.col[std::size_t(j * k + s)] = sums[s] - double(c[(rows + s) * ld + j]);
    }
    WeightedMismatches m = weightedMismatches(r.row.data(), rows + k, r.col.data(), cols + k, k, t);
    r.badRows = std::move(m.badRows);
    r.badCols = std::move(m.badCols);
}

// Least squares of the k x n system M x = y (n <= k) through the normal equations with partial
// pivoting; false when singular.
bool solveSmall(const std::vector<double>& m, int k, int n, const std::vector<double>& y, std::vector<double>& x)
{
    std::vector<double> g(std::size_t(n * (n + 1)), 0.0);  // [M^T M | M^T y]
    for (int a = 0; a < n; ++a) {
        for (int b = 0; b < n; ++b) {
            double s = 0;
            for (int t = 0; t < k; ++t)
                s += m[std::size_t(t * n + a)] * m[std::size_t(t * n + b)];
            g[std::size_t(a * (n + 1) + b)] = s;
        }
        double s = 0;
        for (int t = 0; t < k; ++t)
            s += m[std::size_t(t * n + a)] * y[std::size_t(t)];
        g[std::size_t(a * (n + 1) + n)] = s;
    }
    for (int col = 0; col < n; ++col) {
        int pivot = col;
        for (int r = col + 1; r < n; ++r)
            if (std::fabs(g[std::size_t(r * (n + 1) + col)]) > std::fabs(g[std::size_t(pivot * (n + 1) + col)]))
                pivot = r;
        if (!(std::fabs(g[std::size_t(pivot * (n + 1) + col)]) > 1e-12))
            return false;
        for (int c = 0; c <= n; ++c)
            std::swap(g[std::size_t(col * (n + 1) + c)], g[std::size_t(pivot * (n + 1) + c)]);
        for (int r = 0; r < n; ++r) {
            if (r == col)
                continue;
            const double f = g[std::size_t(r * (n + 1) + col)] / g[std::size_t(col * (n + 1) + col)];
            for (int c = col; c <= n; ++c)
                g[std::size_t(r * (n + 1) + c)] -= f * g[std::size_t(col * (n + 1) + c)];
        }
    }
    x.assign(std::size_t(n), 0.0);
    for (int a = 0; a < n; ++a)
        x[std::size_t(a)] = g[std::size_t(a * (n + 1) + n)] / g[std::size_t(a * (n + 1) + a)];
    return true;
}

template <class T>
void rebuildChecksums(T* c, std::int64_t rows, std::int64_t cols, std::int64_t ld, int k, const std::vector<double>& wRow,
                      const std::vector<double>& wCol)
{
    // The checksum columns of the result rows first, then the checksum rows over every column
    // (the corner from the new checksum columns).
    parallelFor(rows, cols * k, [&](std::int64_t i0, std::int64_t i1) {
        std::vector<double> sums(std::size_t((i1 - i0) * k));
        weightedRowSums(c, i0, i1, cols, ld, k, wCol, sums.data());
        for (std::int64_t i = i0; i < i1; ++i)
            for (int t = 0; t < k; ++t)
                c[i * ld + cols + t] = T(sums[std::size_t((i - i0) * k + t)]);
    });
    std::vector<double> colSums(std::size_t((cols + k) * k));
    parallelFor(cols + k, rows * k, [&](std::int64_t j0, std::int64_t j1) {
        weightedColumnSums(c, rows, j0, j1, ld, k, wRow, colSums.data() + j0 * k);
    });
    for (int s = 0; s < k; ++s)
        for (std::int64_t j = 0; j < cols + k; ++j)
            c[(rows + s) * ld + j] = T(colSums[std::size_t(j * k + s)]);
}

}  // namespace

template <class T>
VerifyResult verifyWeighted(T* c, std::int64_t rows, std::int64_t cols, std::int64_t ld, int k, const Thresholds& t)
{
    if (k < 1 || k > kMaxChecksums)
        throw InputError("verifyWeighted: " + std::to_string(k) + " checksums, expected 1.." +
                         std::to_string(kMaxChecksums));
    if (t.row.size() != std::size_t(rows + k) || t.col.size() != std::size_t(cols + k))
        throw InputError("verifyWeighted: thresholds do not match the weighted block");
    std::vector<double> wRow(std::size_t(k * rows)), wCol(std::size_t(k * cols));
    for (int s = 0; s < k; ++s) {
        for (std::int64_t i = 0; i < rows; ++i)
            wRow[std::size_t(s * rows + i)] = checksumWeight(s, i);
        for (std::int64_t j = 0; j < cols; ++j)
            wCol[std::size_t(s * cols + j)] = checksumWeight(s, j);
    }

    VerifyResult r;
    r.minThreshold = std::numeric_limits<double>::infinity();
    for (double v : t.row)
        r.minThreshold = std::min(r.minThreshold, v), r.maxThreshold = std::max(r.maxThreshold, v);
    for (double v : t.col)
        r.minThreshold = std::min(r.minThreshold, v), r.maxThreshold = std::max(r.maxThreshold, v);

    const Residuals first = residuals(c, rows, cols, ld, k, t, wRow, wCol, &r);
    r.mismatchRows = first.badRows;
    r.mismatchCols = first.badCols;
    for (std::int64_t i : first.badRows)
        r.rowResidual.push_back(std::fabs(first.row[std::size_t(i * k)]));
    for (std::int64_t j : first.badCols)
        r.colResidual.push_back(std::fabs(first.col[std::size_t(j * k)]));
    if (first.badRows.empty() && first.badCols.empty())
        return r;

    std::vector<std::int64_t> resultRows, resultCols;
    bool checksumRows = false, checksumCols = false;
    for (std::int64_t i : first.badRows)
        (i < rows ? resultRows.push_back(i) : void(checksumRows = true));
    for (std::int64_t j : first.badCols)
        (j < cols ? resultCols.push_back(j) : void(checksumCols = true));

    // Cells the corrections touch, to restore C when the verdict ends uncorrectable.
    std::vector<Correction> applied;
    const auto setCell = [&](std::int64_t i, std::int64_t j, double value) {
        applied.push_back({i, j, double(c[i * ld + j]), value});
        c[i * ld + j] = T(value);
    };
    const auto uncorrectable = [&] {
        for (auto it = applied.rbegin(); it != applied.rend(); ++it)
            c[it->row * ld + it->col] = T(it->before);
        r.corrections.clear();
        r.verdict = Verdict::Uncorrectable;
        return r;
    };

    if (!resultRows.empty() && !resultCols.empty()) {
        // Locate: the errors lie in resultRows x resultCols; solve along the axis with at most k
        // candidates.
        const bool byRows = std::int64_t(resultCols.size()) <= k;
        if (!byRows && std::int64_t(resultRows.size()) > k)
            return uncorrectable();
        const auto& lines = byRows ? resultRows : resultCols;
        const auto& candidates = byRows ? resultCols : resultRows;
        const int n = int(candidates.size());
        std::vector<double> m(std::size_t(k * n));
        for (int s = 0; s < k; ++s)
            for (int x = 0; x < n; ++x)
                m[std::size_t(s * n + x)] = byRows ? wCol[std::size_t(s * cols + candidates[std::size_t(x)])]
                                                   : wRow[std::size_t(s * rows + candidates[std::size_t(x)])];
        std::vector<std::pair<std::int64_t, std::int64_t>> cells;
        std::vector<double> deltas;
        for (std::int64_t line : lines) {
            std::vector<double> y(static_cast<std::size_t>(k)), x;
            for (int s = 0; s < k; ++s)
                y[std::size_t(s)] = byRows ? first.row[std::size_t(line * k + s)] : first.col[std::size_t(line * k + s)];
            if (!std::all_of(y.begin(), y.end(), [](double v) { return std::isfinite(v); }) || !solveSmall(m, k, n, y, x))
                return uncorrectable();
            for (int a = 0; a < n; ++a) {
                const std::int64_t other = candidates[std::size_t(a)];
                const double bound = byRows ? t.col[std::size_t(other)] : t.row[std::size_t(other)];
                if (std::fabs(x[std::size_t(a)]) > bound) {
                    // The residual is control - stored = the error itself.
                    cells.emplace_back(byRows ? line : other, byRows ? other : line);
                    deltas.push_back(x[std::size_t(a)]);
                }
            }
        }
        if (cells.empty())
            return uncorrectable();
        for (std::size_t e = 0; e < cells.size(); ++e) {
            // Plain copies: a lambda may not capture structured bindings before clang 16.
            const std::int64_t i = cells[e].first, j = cells[e].second;
            const auto sharesColumn = std::count_if(cells.begin(), cells.end(), [&](auto p) { return p.second == j; });
            const auto sharesRow = std::count_if(cells.begin(), cells.end(), [&](auto p) { return p.first == i; });
            double value = double(c[i * ld + j]) - deltas[e];
            // Alone in its column (or row): rebuild it from the plain checksum with the control
            // sum taken without it, so that a huge or infinite error cancels exactly.
            if (sharesColumn == 1) {
                CompensatedSum s;
                for (std::int64_t x = 0; x < rows; ++x)
                    if (x != i)
                        s.add(double(c[x * ld + j]));
                value = double(c[rows * ld + j]) - s.value();
            } else if (sharesRow == 1) {
                CompensatedSum s;
                for (std::int64_t x = 0; x < cols; ++x)
                    if (x != j)
                        s.add(double(c[i * ld + x]));
                value = double(c[i * ld + cols]) - s.value();
            }
            setCell(i, j, value);
        }
    } else if (!(resultRows.empty() && resultCols.empty())) {
        // Result lines mismatch on one axis only: harmless only when the other axis shows that a
        // checksum line was hit (then the rebuild below makes them agree); otherwise unlocatable.
        if (!(resultCols.empty() ? checksumCols : checksumRows))
            return uncorrectable();
    }

    // Check again; what is left must sit in checksum lines only, which are then rebuilt.
    Residuals again = first;
    refreshResiduals(again, c, rows, cols, ld, k, t, wRow, wCol, applied);
    const bool resultLeft = std::any_of(again.badRows.begin(), again.badRows.end(), [&](auto i) { return i < rows; }) ||
                            std::any_of(again.badCols.begin(), again.badCols.end(), [&](auto j) { return j < cols; });
    // A result line that still mismatches after the corrections: unless nothing was corrected and
    // the mismatch is the one-axis trace of a hit checksum line, the errors were not all found.
    if (resultLeft && !applied.empty())
        return uncorrectable();
    if (!again.badRows.empty() || !again.badCols.empty()) {
        rebuildChecksums(c, rows, cols, ld, k, wRow, wCol);
        r.checksumsRecomputed = true;
    }
    r.corrections = applied;
    r.verdict = Verdict::Corrected;
    return r;
}

template void accumulateWeightedBound<float>(WeightedBound&, const float*, std::int64_t, const float*, std::int64_t,
                                             std::int64_t);
template void accumulateWeightedBound<double>(WeightedBound&, const double*, std::int64_t, const double*, std::int64_t,
                                              std::int64_t);
template void weightedRowChecksums<float>(float*, std::int64_t, std::int64_t, std::int64_t, int);
template void weightedRowChecksums<double>(double*, std::int64_t, std::int64_t, std::int64_t, int);
template void weightedColumnChecksums<float>(float*, std::int64_t, std::int64_t, std::int64_t, int);
template void weightedColumnChecksums<double>(double*, std::int64_t, std::int64_t, std::int64_t, int);
template VerifyResult verifyWeighted<float>(float*, std::int64_t, std::int64_t, std::int64_t, int, const Thresholds&);
template VerifyResult verifyWeighted<double>(double*, std::int64_t, std::int64_t, std::int64_t, int, const Thresholds&);

}  // namespace gigacheck
