// The device side of the online family's host-checked path (K >= 2 weighted checksums, faults in
// A or B; README "On the GPU"): small memory-bound kernels whose results are O(K (m + q)) doubles
// that the host decides on with the CPU's code (host_check.hpp). All asynchronous on stream s;
// every array lives in the plan's buffers (the aux rows of inputs.hpp auxRows).
#pragma once

#include "gigacheck/types.hpp"

#include <cuda_runtime.h>

namespace gigacheck::online_abft::cuda {

using Index = std::int64_t;

// Plain row and column sums of x (rows x cols, ld) in double, each line summed in index order
// exactly as host_check.hpp plainSums does, so that the sums are bit-identical to the host's:
// a difference is a changed element. rowSums: rows doubles, colSums: cols doubles.
void inputSums(Precision p, const void* x, Index rows, Index cols, Index ld, double* rowSums, double* colSums,
               cudaStream_t s);

// The K weighted checksums of the inputs (gigacheck/weighted_checksums.hpp, the host's
// weightedColumnChecksums / weightedRowChecksums, sums in double in index order, no contraction):
//   A: row rows + t = sum_i w_t(i) A(i, :)        (a: (rows + K) x depth, lda)
//   B: column cols + t = sum_j w_t(j) B(:, j)     (b: depth x (cols + K), ldb)
// weights: K rows of w_t(x) (row t at weights + t * wld), computed on the host (checksumWeight).
void weightedChecksumsA(Precision p, void* a, Index rows, Index depth, Index lda, int k, const double* weights,
                        Index wld, cudaStream_t s);
void weightedChecksumsB(Precision p, void* b, Index depth, Index cols, Index ldb, int k, const double* weights,
                        Index wld, cudaStream_t s);

// The round-off bound of one augmented panel product (WeightedBound of weighted_checksums.hpp,
// which is BoundAccumulator's for K = 1): a is augRows x width (lda), b width x augCols (ldb);
//   rowScale[i] += sum_k a_ik^2 sum_j b_kj^2,   colScale[j] += sum_k (sum_i a_ik^2) b_kj^2.
// scratch: 2 * width doubles.
void weightedBound(Precision p, const void* a, Index lda, const void* b, Index ldb, Index augRows, Index width,
                   Index augCols, double* rowScale, double* colScale, double* scratch, cudaStream_t s);

// The K weighted residuals (control - stored) of every check of C_f ((rows + K) x (cols + K), ldc):
//   row i < rows + K, sum s:  rowRes[i * K + s] = sum_{j < cols} w_s(j) C(i, j) - C(i, cols + s)
//   column j < cols + K:      colRes[j * K + s] = sum_{i < rows} w_s(i) C(i, j) - C(rows + s, j)
// Two reads of C (rows, then columns in chunks), sums in double.
void weightedResiduals(Precision p, const void* c, Index rows, Index cols, Index ldc, int k, const double* weights,
                       Index wld, double* rowRes, double* colRes, cudaStream_t s);

}  // namespace gigacheck::online_abft::cuda
