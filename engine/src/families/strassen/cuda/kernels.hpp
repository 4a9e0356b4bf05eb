// The strassen family's small kernels: in-place block sums (the seed's addition/subtraction
// stages), the workspace scatter, a fault injection. The products are cuBLAS (cuda/op_table.cpp).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

namespace gigacheck::strassen::device {

// dst[r, c] += k * src[r, c] for a rows x cols block; both with leading dimension ld (elements).
template <class T>
void launchAdd(T* dst, const T* src, std::int64_t ld, std::int64_t srcLd, std::int64_t rows, std::int64_t cols, T k,
               cudaStream_t s);
// *cell += delta.
template <class T> void launchInject(T* cell, T delta, cudaStream_t s);
// *cell's stored bits in mask flipped (the low 32 for float).
template <class T> void launchFlipBits(T* cell, std::uint64_t mask, cudaStream_t s);
// Leaf checks (leaf_check.hpp): sum[c] = sum_r w[r] x[r, c], abs[c] = sum_r |w[r]| |x[r, c]| over a
// rows x cols block (w = nullptr: weights 1), in double.
template <class T>
void launchColumnSums(const T* x, std::int64_t ld, std::int64_t rows, std::int64_t cols, const double* w,
                      const double* wAbs, double* sum, double* abs, cudaStream_t s);
// *result = max(*result, the largest leafColumnRatio over cols columns of one target); *code merges
// the columns above 1 (mergeLeafColumnCode).
struct LeafColumns {
    const double *before, *beforeAbs, *after, *afterAbs, *expected, *expectedAbs;
    double sign, k, u, uIn;
};
void launchLeafCompare(const LeafColumns& in, std::int64_t cols, double* result, double* code, cudaStream_t s);
// Loads the kernels above on the current device (lazy module loading), untimed.
void loadKernels();

}  // namespace gigacheck::strassen::device
