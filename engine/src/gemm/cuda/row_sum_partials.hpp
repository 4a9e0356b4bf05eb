// The fused kernels' row sums of C without atomics: each tile of the kernel writes its partial sums
// of C's rows (one float per tile row and row of C, cutlass_sums_epilogue.cuh), and one small kernel
// after it adds them up. On Hopper the atomic form cost the TF32 kernel 6.6 % at N = 4096: every warp
// of every tile added its 256 partials into the same few doubles as the tiles beside it.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

namespace gigacheck::cuda {

// A fault of the product's arithmetic at C's cell (row, col) of its main part, taken in where C's row
// sums are finished: the cell, its row sum and its column sum change together, as if the kernel had
// computed the faulted value (what abft's inject does with ProductSums, without a launch of its own
// between the product and its check). As abft's DeviceInjection: a delta added in FP32, or one bit
// flipped (two with bit2 >= 0). beforeAfter (pinned host, 2 doubles) gets the cell's values.
struct FaultAsComputed {
    std::int64_t row = -1, col = -1;  // row < 0: none
    int bitFlip = 0, bit = 0, bit2 = -1;
    double delta = 0;
    double* beforeAfter = nullptr;
    bool on() const { return row >= 0; }
};

// Where a FaultAsComputed lands: C (row-major, ldc) and its column sums.
struct FaultCell {
    float* c = nullptr;
    std::int64_t ldc = 0;
    double* colSums = nullptr;
};

// rowSums[i] += sum over t < tiles of partials[t * width + i], for i < rows (in double, in a fixed order);
// with fault.on(), the fault applied as well (fault.row < rows).
void addRowSumPartials(const float* partials, std::int64_t tiles, std::int64_t width, std::int64_t rows,
                       double* rowSums, cudaStream_t s, const FaultAsComputed& fault = {}, FaultCell at = {});

// The same with the tiles from splitTile on kept apart: rowSums[i] += the sum over t < splitTile,
// and splitSums[i * splitStride] = the sum over splitTile <= t < tiles, rounded to float. The tiles of
// C's columns past splitTile's first hold B^T's checksum rows (C's checksum column, computed by the
// tensor cores; abft/cuda/prepared_operands.hpp), which C's row sums must not take.
// A fault (fault.col below the split's first column) goes into rowSums, not splitSums.
void addRowSumPartialsSplit(const float* partials, std::int64_t tiles, std::int64_t splitTile, std::int64_t width,
                            std::int64_t rows, double* rowSums, float* splitSums, std::int64_t splitStride,
                            cudaStream_t s, const FaultAsComputed& fault = {}, FaultCell at = {});

}  // namespace gigacheck::cuda
