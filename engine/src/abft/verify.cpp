// Detection, location and correction of errors in one augmented C block (the Gigacheck report's sections
// 2.1.4, 2.1.5 and figure 8).
//
// Control checksums are the sums of the computed rows / columns of C, checksum row and column
// included, so that the corner element checks the checksums themselves:
//   row check i (i <= rows):    sum_{j<cols} C(i, j)  vs  stored C(i, cols)
//   column check j (j <= cols): sum_{i<rows} C(i, j)  vs  stored C(rows, j)
// A check mismatches when |control - stored| exceeds its threshold (or is not a number).
#include "gigacheck/abft.hpp"

#include "abft/neumaier.hpp"
#include "core/parallel_for.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace gigacheck {

namespace {
constexpr EnumName<Verdict> kVerdicts[] = {
    {Verdict::Clean, "clean"}, {Verdict::Corrected, "corrected"}, {Verdict::Uncorrectable, "uncorrectable"}};
}  // namespace

template <> const EnumTable<Verdict>& enumTable<Verdict>()
{
    static const EnumTable<Verdict> table{"verdict", kVerdicts};
    return table;
}

std::string_view toString(Verdict v) { return nameOf(v); }

namespace {

// Neumaier's compensated sum: the control sums then carry almost no round-off of their own,
// whatever the precision of C (double for FP64 sums as well).
struct CompensatedSum {
    double sum = 0, compensation = 0;
    void add(double v)
    {
        const double t = sum + v;
        if (std::fabs(sum) >= std::fabs(v))
            compensation += (sum - t) + v;
        else
            compensation += (v - t) + sum;
        sum = t;
    }
    double value() const { return sum + compensation; }
};

template <class T>
double rowSum(BlockView<T> c, std::int64_t i, std::int64_t skipCol)
{
    CompensatedSum s;
    for (std::int64_t j = 0; j < c.cols; ++j)
        if (j != skipCol)
            s.add(double(c(i, j)));
    return s.value();
}

template <class T>
double colSum(BlockView<T> c, std::int64_t j, std::int64_t skipRow)
{
    CompensatedSum s;
    for (std::int64_t i = 0; i < c.rows; ++i)
        if (i != skipRow)
            s.add(double(c(i, j)));
    return s.value();
}

// Tolerance of one check for the one-axis rule: its threshold with the TF32 sum part taken from
// the stored checksum (the CUDA decide kernel no longer has the control sums; same rule there).
double locateTolerance(double threshold, double sumFactor, double stored)
{
    return threshold + sumFactor * std::fabs(stored);
}

struct OtherAxisPick {
    std::int64_t index = -1;
    double ratio = 0, secondRatio = 0;
};

// The clean check with the largest residual / threshold (a mismatching one has ratio 0 here).
OtherAxisPick largestRatio(const std::vector<double>& ratios)
{
    OtherAxisPick p;
    for (std::size_t i = 0; i < ratios.size(); ++i) {
        if (ratios[i] > p.ratio) {
            p.secondRatio = p.ratio;
            p.ratio = ratios[i];
            p.index = std::int64_t(i);
        } else if (ratios[i] > p.secondRatio) {
            p.secondRatio = ratios[i];
        }
    }
    return p;
}

bool locatesWith(const OtherAxisPick& pick, double residual, double tolerance, double otherTolerance)
{
    return locatesOnOtherAxis(residual, tolerance, pick.ratio, pick.secondRatio, otherTolerance);
}

// Rebuilds the checksum row, the checksum column and the corner from the (corrected) result.
template <class T>
void recomputeChecksums(BlockView<T> c)
{
    std::vector<CompensatedSum> cols(std::size_t(c.cols));
    CompensatedSum corner;
    for (std::int64_t i = 0; i < c.rows; ++i) {
        CompensatedSum row;
        for (std::int64_t j = 0; j < c.cols; ++j) {
            const double v = double(c(i, j));
            row.add(v);
            cols[std::size_t(j)].add(v);
            corner.add(v);
        }
        c(i, c.cols) = T(row.value());
    }
    for (std::int64_t j = 0; j < c.cols; ++j)
        c(c.rows, j) = T(cols[std::size_t(j)].value());
    c(c.rows, c.cols) = T(corner.value());
}

}  // namespace

template <class T>
VerifyResult verifyAndCorrect(BlockView<T> c, const Thresholds& t)
{
    if (t.row.size() != std::size_t(c.rows + 1) || t.col.size() != std::size_t(c.cols + 1))
        throw InputError("verifyAndCorrect: thresholds are for a " + std::to_string(t.row.size()) + " x " +
                         std::to_string(t.col.size()) + " augmented block, C block is " +
                         std::to_string(c.rows + 1) + " x " + std::to_string(c.cols + 1));

    // Control sums: every row (the checksum row too) and every column (the checksum column too)
    // summed in index order, in parallel over lines; the columns read row by row in strips, so the
    // bits are those of one row-major pass whatever the split.
    std::vector<double> rowControl(std::size_t(c.rows + 1));
    std::vector<double> colControl(std::size_t(c.cols + 1));
    parallelFor(c.rows + 1, c.cols, [&](std::int64_t i0, std::int64_t i1) {
        std::int64_t i = i0;
        for (; i + 4 <= i1; i += 4) {  // four rows side by side: their dependency chains overlap
            const T* r0 = &c(i, 0);
            const T* r1 = r0 + c.ld;
            const T* r2 = r1 + c.ld;
            const T* r3 = r2 + c.ld;
            double s0 = 0, s1 = 0, s2 = 0, s3 = 0, c0 = 0, c1 = 0, c2 = 0, c3 = 0;
            for (std::int64_t j = 0; j < c.cols; ++j) {
                neumaierAdd(s0, c0, double(r0[j]));
                neumaierAdd(s1, c1, double(r1[j]));
                neumaierAdd(s2, c2, double(r2[j]));
                neumaierAdd(s3, c3, double(r3[j]));
            }
            rowControl[std::size_t(i)] = s0 + c0, rowControl[std::size_t(i + 1)] = s1 + c1;
            rowControl[std::size_t(i + 2)] = s2 + c2, rowControl[std::size_t(i + 3)] = s3 + c3;
        }
        for (; i < i1; ++i) {
            CompensatedSum row;
            for (std::int64_t j = 0; j < c.cols; ++j)
                row.add(double(c(i, j)));
            rowControl[std::size_t(i)] = row.value();
        }
    });
    parallelFor(c.cols + 1, c.rows, [&](std::int64_t j0, std::int64_t j1) {
        const std::int64_t width = j1 - j0;
        std::vector<double> sum(std::size_t(width), 0.0), comp(std::size_t(width), 0.0);
        double* __restrict sm = sum.data();
        double* __restrict cp = comp.data();
        for (std::int64_t i = 0; i < c.rows; ++i) {
            const T* row = &c(i, j0);
            for (std::int64_t j = 0; j < width; ++j)
                neumaierAdd(sm[j], cp[j], double(row[j]));
        }
        for (std::int64_t j = 0; j < width; ++j)
            colControl[std::size_t(j0 + j)] = sm[j] + cp[j];
    });

    VerifyResult r;
    r.minThreshold = std::numeric_limits<double>::infinity();
    r.maxThreshold = 0;
    // Every check's residual / threshold ratio, kept for locating a one-axis mismatch.
    std::vector<double> rowRatio(std::size_t(c.rows + 1), 0.0), colRatio(std::size_t(c.cols + 1), 0.0);
    const auto check = [&](double control, double stored, double threshold, std::int64_t index,
                           std::vector<std::int64_t>& mismatches, std::vector<double>& residuals,
                           std::vector<double>& ratios) {
        const double residual = std::fabs(control - stored);
        // TF32: the part that follows the checked sum; the smaller of both sides so that a fault
        // (even inf) cannot raise its own threshold (fmin ignores a NaN side).
        if (t.sumFactor > 0)
            threshold += t.sumFactor * std::fmin(std::fabs(control), std::fabs(stored));
        r.minThreshold = std::min(r.minThreshold, threshold);
        r.maxThreshold = std::max(r.maxThreshold, threshold);
        if (!(residual <= threshold)) {  // written so that NaN / Inf count as mismatches
            mismatches.push_back(index);
            residuals.push_back(residual);
        } else if (threshold > 0) {
            ratios[std::size_t(index)] = residual / threshold;
            r.maxCleanResidualRatio = std::max(r.maxCleanResidualRatio, residual / threshold);
        }
    };
    for (std::int64_t i = 0; i <= c.rows; ++i)
        check(rowControl[std::size_t(i)], double(c(i, c.cols)), t.row[std::size_t(i)], i, r.mismatchRows,
              r.rowResidual, rowRatio);
    for (std::int64_t j = 0; j <= c.cols; ++j)
        check(colControl[std::size_t(j)], double(c(c.rows, j)), t.col[std::size_t(j)], j, r.mismatchCols,
              r.colResidual, colRatio);

    if (r.mismatchRows.empty() && r.mismatchCols.empty())
        return r;  // Clean
    if (r.mismatchRows.size() > 1 && r.mismatchCols.size() > 1) {
        r.verdict = Verdict::Uncorrectable;  // non-collinear: candidates are R x K, C untouched
        return r;
    }

    // The located rows R and columns K (the mismatch lists, or one axis completed by the rule below).
    std::vector<std::int64_t> R = r.mismatchRows, K = r.mismatchCols;
    if (R.empty() != K.empty()) {
        // One axis only. A single mismatch whose error sits near the threshold can fire on one
        // axis and not the other: the other axis's largest residual locates it when that is
        // unambiguous and consistent (abft README, "One axis").
        const bool rowsOnly = K.empty();
        const auto& mismatched = rowsOnly ? R : K;
        const std::int64_t m = mismatched[0];
        const double tolerance =
            rowsOnly ? locateTolerance(t.row[std::size_t(m)], t.sumFactor, double(c(m, c.cols)))
                     : locateTolerance(t.col[std::size_t(m)], t.sumFactor, double(c(c.rows, m)));
        const double residual = rowsOnly ? r.rowResidual[0] : r.colResidual[0];
        const auto& ratios = rowsOnly ? colRatio : rowRatio;
        const OtherAxisPick pick = largestRatio(ratios);
        if (mismatched.size() == 1 && pick.index >= 0) {
            const std::int64_t o = pick.index;
            const double otherTolerance =
                rowsOnly ? locateTolerance(t.col[std::size_t(o)], t.sumFactor, double(c(c.rows, o)))
                         : locateTolerance(t.row[std::size_t(o)], t.sumFactor, double(c(o, c.cols)));
            if (locatesWith(pick, residual, tolerance, otherTolerance)) {
                (rowsOnly ? K : R).push_back(o);
                r.locatedByLargestResidual = true;
            }
        }
    }

    // Checksum cells found corrupted; they are rebuilt once the result is corrected.
    std::vector<std::pair<std::int64_t, std::int64_t>> checksumCells;
    bool recompute = false;

    if (R.empty() || K.empty()) {
        // Still on one axis only: harmless when that axis is the checksum row / column (the
        // result is intact), otherwise the cell cannot be found here (the run's repair pass
        // recomputes the candidate rows / columns from A and B).
        const bool onlyChecksum = (K.empty() && R.size() == 1 && R[0] == c.rows) ||
                                  (R.empty() && K.size() == 1 && K[0] == c.cols);
        if (!onlyChecksum) {
            r.verdict = Verdict::Uncorrectable;
            return r;
        }
        recompute = true;
    } else if (R.size() == 1) {
        // Row-collinear (or single): errors at (row, j) for j in K; fixed with the column checks,
        // whose stored checksums (row `rows`) are intact unless row == rows.
        const std::int64_t row = R[0];
        for (std::int64_t col : K) {
            if (row == c.rows || col == c.cols) {
                checksumCells.emplace_back(row, col);
                recompute = true;
                continue;
            }
            const double before = double(c(row, col));
            // C(row, col) = C*(rows, col) - ccontrol_col + C_e, with the control sum taken
            // without the erroneous cell so that a huge (or infinite) error cancels exactly.
            c(row, col) = T(double(c(c.rows, col)) - colSum(c, col, row));
            r.corrections.push_back({row, col, before, double(c(row, col))});
        }
    } else {
        // Column-collinear: errors at (i, col) for i in R; fixed with the row checks.
        const std::int64_t col = K[0];
        for (std::int64_t row : R) {
            if (row == c.rows || col == c.cols) {
                checksumCells.emplace_back(row, col);
                recompute = true;
                continue;
            }
            const double before = double(c(row, col));
            c(row, col) = T(double(c(row, c.cols)) - rowSum(c, row, col));
            r.corrections.push_back({row, col, before, double(c(row, col))});
        }
    }

    if (recompute) {
        std::vector<double> before;
        for (const auto& [i, j] : checksumCells)
            before.push_back(double(c(i, j)));
        recomputeChecksums(c);
        for (std::size_t n = 0; n < checksumCells.size(); ++n) {
            const auto [i, j] = checksumCells[n];
            r.corrections.push_back({i, j, before[n], double(c(i, j))});
        }
        r.checksumsRecomputed = true;
    }
    r.verdict = Verdict::Corrected;
    return r;
}

template VerifyResult verifyAndCorrect<float>(BlockView<float>, const Thresholds&);
template VerifyResult verifyAndCorrect<double>(BlockView<double>, const Thresholds&);

}  // namespace gigacheck
