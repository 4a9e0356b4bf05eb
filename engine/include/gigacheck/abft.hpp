// Host reference of ABFT (seed 000 sections 2.1 and 4.4): checksums, round-off threshold,
// mismatch detection, location and correction of one augmented C block. The CPU backend uses
// it directly; the CUDA kernels are tested against it.
#pragma once

#include "gigacheck/plan.hpp"

#include <vector>

namespace gigacheck {

enum class Verdict { Clean, Corrected, Uncorrectable };
std::string_view toString(Verdict);

// Unit round-off of the arithmetic that produced C: 2^-24 (FP32), 2^-53 (FP64), 2^-11 (TF32).
double unitRoundoff(Precision p, bool tf32 = false);

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
// depth accumulates the inner dimension seen so far.
struct BoundAccumulator {
    std::vector<double> rowScale, colScale;
    std::int64_t depth = 0;
    void reset(std::int64_t rows, std::int64_t cols);
};
template <class T>
void accumulateBound(BoundAccumulator& acc, BlockView<const T> a, BlockView<const T> b);

// Threshold of row check i and column check j (documented in README "Detection threshold"):
//   t_row(i) = lambda * u * (depth + cols + 2) * sqrt(rowScale[i])
//   t_col(j) = lambda * u * (depth + rows + 2) * sqrt(colScale[j])
// Each rounding error in C_ij and in the sums is at most u times a partial sum; partial sums of
// the products a_ik b_kj are bounded, with high probability, by a small multiple of their 2-norm,
// which is what sqrt(scale) is. lambda is the safety factor (default 4).
struct Thresholds {
    std::vector<double> row, col;
};
Thresholds thresholds(const BoundAccumulator& acc, double u, double lambda = 4.0);

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
    // Uncorrectable: the candidate cells are mismatchRows x mismatchCols.
};

// Verifies an augmented C block against its checksum row and column; corrects single and
// collinear errors with the seed's formulas and recomputes corrupted checksums; reports
// non-collinear sets as uncorrectable (C left unchanged).
template <class T>
VerifyResult verifyAndCorrect(BlockView<T> c, const Thresholds& t);

}  // namespace gigacheck
