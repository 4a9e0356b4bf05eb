// The fused kernels' row sums of C without atomics: each tile of the kernel writes its partial sums
// of C's rows (one float per tile row and row of C, cutlass_sums_epilogue.cuh), and one small kernel
// after it adds them up. On Hopper the atomic form cost the TF32 kernel 6.6 % at N = 4096: every warp
// of every tile added its 256 partials into the same few doubles as the tiles beside it.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

namespace gigacheck::cuda {

// rowSums[i] += sum over t < tiles of partials[t * width + i], for i < rows (in double, in a fixed order).
void addRowSumPartials(const float* partials, std::int64_t tiles, std::int64_t width, std::int64_t rows,
                       double* rowSums, cudaStream_t s);

// The same with the tiles from splitTile on kept apart: rowSums[i] += the sum over t < splitTile,
// and splitSums[i * splitStride] = the sum over splitTile <= t < tiles, rounded to float. The tiles of
// C's columns past splitTile's first hold B^T's checksum rows (C's checksum column, computed by the
// tensor cores; abft/cuda/prepared_operands.hpp), which C's row sums must not take.
void addRowSumPartialsSplit(const float* partials, std::int64_t tiles, std::int64_t splitTile, std::int64_t width,
                            std::int64_t rows, double* rowSums, float* splitSums, std::int64_t splitStride,
                            cudaStream_t s);

}  // namespace gigacheck::cuda
