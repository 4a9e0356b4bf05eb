// Host reference of ABFT (the Gigacheck report's sections 2.1 and 4.4): checksums, round-off threshold,
// mismatch detection, location and correction of one augmented C block. The CPU backend uses
// it directly; the CUDA kernels are tested against it.
#pragma once

#include "gigacheck/locate_rule.hpp"
#include "gigacheck/types.hpp"

#include <vector>

namespace gigacheck {

enum class Verdict { Clean, Corrected, Uncorrectable };
template <> const EnumTable<Verdict>& enumTable<Verdict>();  // names.hpp
std::string_view toString(Verdict);

// Unit round-off of the arithmetic that produced C: 2^-24 (FP32), 2^-53 (FP64), 2^-11 (TF32).
double unitRoundoff(Precision p, bool tf32 = false);

// Where the round-off of C comes from, relative to the checksums.
// FP32 / FP64: every operation rounds with uAccumulate, the inputs are exact.
// TF32 (`cublas-tf32`, `roundoffModel(F32, true)`): the operand blocks are rounded to TF32 before
// the product and the checksums are taken over the rounded values (gigacheck/tf32.hpp), so the
// products are exact and only the FP32 accumulation rounds, as in FP32 (uInput = 0). Tensor cores
// may accumulate by truncation, whose mean does not cancel: tf32Operands adds a part that follows
// the checked sum (Thresholds::sumFactor = 2 uA depth, see thresholds()).
// uInput > 0 models operands rounded (to u_I) where the checksums do NOT see it (the checksum side
// on unrounded inputs): the engine's TF32 path used that before it rounded the operands itself;
// kept for a product whose input rounding cannot be followed.
// BF16 / FP16 inputs (`cublas-bf16`, `cublas-f16`) are treated as TF32 is: the operands rounded to
// the input format before the product, the checksums over the rounded values, tf32Operands set
// (it names any rounded input format); `operands` says which format (the repair pass rounds to it).
struct RoundoffModel {
    double uAccumulate = 0;
    double uInput = 0;
    bool tf32Operands = false;
    InputFormat operands = InputFormat::F32;
};
RoundoffModel roundoffModel(Precision p, bool tf32 = false);
RoundoffModel roundoffModel(Precision p, InputFormat operands);

// Views of an augmented block in row-major storage with leading dimension ld.
// A block: (rows + 1) x depth, row `rows` = column checksum c_A.
// B block: depth x (cols + 1), column `cols` = row checksum r_B.
// C block: (rows + 1) x (cols + 1) = A_c * B_r.
template <class T> struct BlockView {
    T* data = nullptr;
    std::int64_t rows = 0, cols = 0, ld = 0;  // rows / cols of the *unaugmented* part
    T& operator()(std::int64_t r, std::int64_t c) const { return data[r * ld + c]; }
};

// Writes the column checksum of A into row `rows` (c_A) / row checksum of B into column `cols` (r_B).
template <class T> void columnChecksum(BlockView<T> a);
template <class T> void rowChecksum(BlockView<T> b);

// The round-off bound inputs for one block product, accumulated over k steps:
//   rowScale[i] += sum_k a_ik^2 * (sum_j b_kj^2)   for i in [0, rows]   (row rows = checksum row)
//   colScale[j] += sum_k (sum_i a_ik^2) * b_kj^2   for j in [0, cols]
// depth accumulates the inner dimension seen so far. For rounded inputs (TF32) the checksum side
// needs two more scales, with r_B = b_k,cols and c_A = a_rows,k (the stored operand checksums):
//   rowChecksumScale[i] += sum_k a_ik^2 * r_B[k]^2            (rounding of a_ik, shared by all j)
//   colChecksumScale[j] += sum_k c_A[k]^2 * b_kj^2            (rounding of b_kj, shared by all i)
struct BoundAccumulator {
    std::vector<double> rowScale, colScale;
    std::vector<double> rowChecksumScale, colChecksumScale;
    std::int64_t depth = 0;
    void reset(std::int64_t rows, std::int64_t cols);
};
// Inner-index classes of a product whose algorithm mixes inner indices before it multiplies
// (Strassen: column k of A is summed with column k + N/2, row k of B with row k + N/2, and their
// rounded sums meet): index k in [0, core) shares a class with k + leaf, k + 2 leaf, ... The norms
// of B's rows and A's columns (and the checksum entries) then take their class's largest, so the
// scales bound every pairing the algorithm forms, not only a_ik b_kj. Default: no classes.
struct DepthClasses {
    std::int64_t core = 0, leaf = 0;
};
template <class T>
void accumulateBound(BoundAccumulator& acc, BlockView<const T> a, BlockView<const T> b, DepthClasses classes = {});

// Each entry of v in [0, core) takes the largest of its class (indices equal modulo leaf); the
// entries from core on (a fringe the classes do not mix) stay. leaf <= 0 or core <= leaf: unchanged.
void maxOverClasses(std::vector<double>& v, std::int64_t core, std::int64_t leaf);

// Threshold of row check i and column check j (documented in docs/reference.md "Detection threshold"):
//   t_row(i) = lambda * u * (depth + cols + 2) * sqrt(rowScale[i])
//   t_col(j) = lambda * u * (depth + rows + 2) * sqrt(colScale[j])
// Each rounding error in C_ij and in the sums is at most u times a partial sum; partial sums of
// the products a_ik b_kj are bounded, with high probability, by a small multiple of their 2-norm,
// which is what sqrt(scale) is. lambda is the safety factor (default 4).
//
// With tf32Operands (TF32 on rounded operands): the FP32 formula above, plus
//   sumFactor = 2 uA depth:   t_row(i) + sumFactor * |S_row(i)|,   t_col(j) + sumFactor * |S_col(j)|
// where S is the checked sum (min of |control| and |stored|, so that a fault cannot raise its own
// threshold). Truncating accumulation errs by up to one ulp (2 uA) of the partial sum per step,
// always toward zero; for same-sign data every partial sum of C_ij is below |C_ij|, so a cell's
// error is at most 2 uA depth |C_ij| and a row's at most 2 uA depth |S|. Zero-mean data keeps that
// part far below the sqrt(scale) term.
//
// With a RoundoffModel whose uInput > 0 (operand rounding the checksums do not see), with
// Q_row(i) = rowScale[i] + rowChecksumScale[i] and Q_col(j) = colScale[j] + colChecksumScale[j]:
//   t_row(i) = lambda * (uA * (depth + cols + 2) + 2 sqrt(2) uI) * sqrt(Q_row(i)) + 4 uI * |S_row(i)|
//   t_col(j) = lambda * (uA * (depth + rows + 2) + 2 sqrt(2) uI) * sqrt(Q_col(j)) + 4 uI * |S_col(j)|
// The sqrt(Q) part is the zero-mean part of the input rounding: the rounding of a_ik enters every
// C_ij of row i alike (sqrt(sum a_ik^2 r_k^2)), that of b_kj independently (sqrt(rowScale));
// 2 uI allows truncation instead of round-to-nearest, sqrt(2) joins both square roots into one.
// The |S| part is the rounding's mean (truncation shrinks every input by up to 2 uI, i.e. every
// product by up to 4 uI): it scales with the checked sum. With uInput = 0 and no tf32Operands
// this is exactly the FP32 / FP64 formula above.
struct Thresholds {
    std::vector<double> row, col;
    double sumFactor = 0;  // the check of sum S has threshold row[i] (col[j]) + sumFactor * |S|
};
Thresholds thresholds(const BoundAccumulator& acc, double u, double lambda = 4.0);
// The tf32Operands part of sumFactor for a product of inner dimension depth (0 otherwise).
double truncationSumFactor(const RoundoffModel& model, std::int64_t depth);
Thresholds thresholds(const BoundAccumulator& acc, const RoundoffModel& model, double lambda = 4.0);

// Tolerance of one cell of a product against an FP64 reference: the round-off of the cell's own
// dot product (V-ABFT style: the actual sum's scale, not the worst case over all inputs). With
// S = sum_k a_ik^2 b_kj^2 over an inner dimension of depth (docs/reference.md "Reference check"):
//   tol = 2 lambda (uA (depth + 2) + 2 sqrt(2) uI) growth sqrt(S) + 4 uI |ref|
// growth: how much larger than one dot product's the algorithm's round-off is (1 for a
// conventional product; Strassen's per level); the factor 2 covers the reference's own round-off.
struct CellTolerance {
    double scaleFactor = 0, refFactor = 0;
    double operator()(double sumSquares, double ref) const;
};
CellTolerance cellTolerance(const RoundoffModel& model, std::int64_t depth, double lambda, double growth = 1.0);

// Operand rounding the checksums cannot see, with the scale of the operands actually rounded: an
// algorithm that forms its operands before rounding them (Strassen's TF32 leaves round the stage
// sums, not A and B) hands, per check or cell, Q = the sum of the squares of the products those
// rounded values enter (a line check's: with the line sums they are multiplied by). Its part of a
// threshold or tolerance is, as the uInput part of thresholds():
//   lambda 2 sqrt(2) uI sqrt(Q) + 4 uI |S|
// (2 uI allows truncation as well as rounding to nearest, sqrt(2) joins the two operands' parts;
// the |S| part is a truncation's mean, S the checked sum or the reference cell). lambda is the
// blocked family's 4: Q is the actual operands' scale, with no growth or class maximum to cover.
struct InputRoundingBound {
    double scaleFactor = 0, sumFactor = 0;
    double operator()(double q, double sum) const;
};
InputRoundingBound inputRoundingBound(double uInput, double lambda = 4.0);

// Threshold of an operand line sum taken again from a copy against the same sum taken at entry:
// `count` values of unit round-off u summed in any order and stored in that precision, i.e. the
// row check's bound (thresholds above) with depth 1:
//   lambda * u * (count + 2) * sqrt(sum of the squares of the values)
// Used by blocked GEMM's end-to-end operand checks (gigacheck/blocked_gemm/operand_checks.hpp).
double operandSumThreshold(double sumOfSquares, std::int64_t count, double u, double lambda = 4.0);

// Variance bound of one check over sums of products (V-ABFT: the round-off of the actual sums,
// modelled from the data, not the worst case over all inputs; docs/reference.md "Variance bound").
// A dot product of `depth` terms rounds `depth` partial sums, each by at most u times the partial
// sum, independently (variance u^2 / 3 each). Taken in any order, the partial sums of terms with
// sum S and sum of squares Q have sum over k of E[s_k^2] <= depth (S^2 / 3 + Q / 6): the drift
// k S / depth and the fluctuation around it. A check over several independent dot products adds
// their variances, so with sumSquares = sum of their S^2 and productSquares = sum of their Q:
//   sigma = u sqrt(depth (sumSquares / 9 + productSquares / 18))
// and the threshold is `sigmas` standard deviations (6: a Gaussian tail of 2e-9 per check).
double varianceThreshold(double u, std::int64_t depth, double sumSquares, double productSquares, double sigmas);

struct Correction {
    std::int64_t row = 0, col = 0;  // in the augmented block (== rows / cols: checksum)
    double before = 0, after = 0;
};

struct VerifyResult {
    Verdict verdict = Verdict::Clean;
    std::vector<std::int64_t> mismatchRows, mismatchCols;  // augmented indices (may include the checksum index)
    std::vector<double> rowResidual, colResidual;          // |control - stored| per mismatching row / col
    std::vector<Correction> corrections;
    bool checksumsRecomputed = false;
    double maxCleanResidualRatio = 0;  // max over non-mismatching checks of residual / threshold
    double minThreshold = 0, maxThreshold = 0;
    // One axis mismatched and the other axis's largest residual located the cell (README "One axis").
    bool locatedByLargestResidual = false;
    // Uncorrectable: the candidate cells are mismatchRows x mismatchCols.
};

// Verifies an augmented C block against its checksum row and column; corrects single and
// collinear errors with the seed's formulas and recomputes corrupted checksums; locates a single
// mismatch seen on one axis only with the one-axis rule; reports non-collinear sets and one-axis
// mismatches it cannot locate as uncorrectable (C left unchanged).
template <class T>
VerifyResult verifyAndCorrect(BlockView<T> c, const Thresholds& t);

}  // namespace gigacheck
