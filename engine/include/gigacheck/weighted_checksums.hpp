// Weighted checksums (the online-ABFT paper's section IV.C): K checksum vectors per axis instead of one, so that
// several errors in one check are located and corrected by solving a small linear system. Host
// reference, shared by any family that checks a full-checksum matrix (online ABFT uses it; K = 1 is
// the plain checksum of abft.hpp and goes through verifyAndCorrect there).
//
// Layout of a weighted full-checksum block, row-major with leading dimension ld:
//   C is (rows + K) x (cols + K): row rows + s holds sum_i w_s(i) C(i, :), column cols + t holds
//   sum_j w_t(j) C(:, j); the K x K corner checks the checksums themselves.
// Weights (abft README "Weighted checksums"): w_0 = 1 (the plain checksum), and for t >= 1
//   w_t(j) = cos(t * alpha_j),  alpha_j = 2 pi frac((j + 1) / phi)   (phi the golden ratio)
// i.e. Chebyshev polynomials T_t at the nodes x_j = cos(alpha_j): every weight lies in [-1, 1] (the
// round-off of a weighted sum is bounded by that of the plain one), and the golden-ratio stride
// spreads the nodes of neighbouring indices apart, which keeps the small systems well conditioned.
#pragma once

#include "gigacheck/abft.hpp"

#include <cstdint>
#include <vector>

namespace gigacheck {

// Most weighted checksum vectors per axis the engine accepts.
inline constexpr int kMaxChecksums = 8;

// Weight t (0 <= t < K) of index j.
double checksumWeight(int t, std::int64_t j);

// Round-off bound of a weighted full-checksum product C += A_w(:, P) B_w(P, :), accumulated step by
// step like BoundAccumulator, over the whole augmented block (K checksum rows / columns included):
//   rowScale[i] += sum_k a_ik^2 * sum_{j < cols + K} b_kj^2
//   colScale[j] += sum_k (sum_{i < rows + K} a_ik^2) * b_kj^2
struct WeightedBound {
    std::vector<double> rowScale, colScale;
    std::int64_t depth = 0;
    void reset(std::int64_t augmentedRows, std::int64_t augmentedCols);
};
// a: augmentedRows x depth (lda), b: depth x augmentedCols (ldb).
template <class T>
void accumulateWeightedBound(WeightedBound& acc, const T* a, std::int64_t lda, const T* b, std::int64_t ldb,
                             std::int64_t depth);

// Thresholds of every row check (each of its K weighted sums) and column check:
//   t_row(i) = lambda * u * (depth + cols + K + 1) * sqrt(rowScale[i])
//   t_col(j) = lambda * u * (depth + rows + K + 1) * sqrt(colScale[j])
// The plain threshold (abft.hpp) with K stored checksums instead of one: since |w_t| <= 1, each
// term w_t(j) C_ij carries at most the round-off of C_ij, so the bound of the plain sum bounds every
// weighted sum (derivation: abft README "Weighted checksums").
Thresholds weightedThresholds(const WeightedBound& acc, std::int64_t rows, std::int64_t cols, int k, double u,
                              double lambda = 4.0);

// Writes the K weighted checksum columns of B (b: depth x (cols + K)) / checksum rows of A
// (a: (rows + K) x depth) from the data part, sums in double.
template <class T> void weightedRowChecksums(T* b, std::int64_t depth, std::int64_t cols, std::int64_t ld, int k);
template <class T> void weightedColumnChecksums(T* a, std::int64_t rows, std::int64_t depth, std::int64_t ld, int k);

// The rule of every check of verifyWeighted: line x (row or column of the augmented block)
// mismatches when one of its k residuals (control - stored, res[x * k + s]) is not <= its
// threshold (NaN / Inf mismatch). Lists the mismatching lines in ascending order and the largest
// residual / threshold ratio of the clean ones. The CUDA host-checked path classifies the
// residuals the device computed with it (families/online_abft/host_check.hpp).
struct WeightedMismatches {
    std::vector<std::int64_t> badRows, badCols;
    double maxCleanResidualRatio = 0;
};
WeightedMismatches weightedMismatches(const double* rowRes, std::int64_t rowLines, const double* colRes,
                                      std::int64_t colLines, int k, const Thresholds& t);

// Verifies a weighted full-checksum block and corrects what it can (k >= 2; k = 1 is
// verifyAndCorrect): with R / K the mismatching result rows / columns, when |K| <= k each row of R
// solves its k weighted residuals for the errors at the columns K (least squares), otherwise when
// |R| <= k each column of K likewise; cells found nonzero are corrected (and, when alone in their
// column or row, rebuilt from the plain checksum so that a huge error cancels exactly), the block
// is checked again, and mismatches left only in checksum rows / columns mean the checksums were hit
// and are rebuilt. Anything else is uncorrectable and C is left as it was. Result indices are
// augmented-block indices (>= rows / cols: a checksum).
template <class T>
VerifyResult verifyWeighted(T* c, std::int64_t rows, std::int64_t cols, std::int64_t ld, int k, const Thresholds& t);

}  // namespace gigacheck
