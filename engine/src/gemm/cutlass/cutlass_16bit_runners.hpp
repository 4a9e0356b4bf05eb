// The instantiated CUTLASS 16-bit kernels, one runner per operand type and tile / cluster shape,
// declared without CUTLASS headers: cutlass_16bit_gemm.cu lists them as configurations;
// cutlass_bf16_tiles.cu and cutlass_f16_tiles.cu define them, side by side in a parallel build.
#pragma once

#include "gemm/cutlass/cutlass_16bit_gemm.hpp"
#include "gemm/cutlass/cutlass_launch.hpp"

namespace gigacheck::cuda::cutlass_16bit {

// Null when the GEMM was issued on s, else why not.
using Runner16 = const char* (*)(const Cutlass16BitCall&, const CutlassLaunch&, cudaStream_t);

// Tiles of C' = C^T (cutlass_16bit_kernel.cuh), cooperative, 64 deep (128 bytes of 16-bit values per
// row of a stage: the widest TMA swizzle). Cluster 2 x 1 multicasts A' (B's memory), 1 x 2 B' (A's).
const char* runBf16c2x1(const Cutlass16BitCall&, const CutlassLaunch&, cudaStream_t);
const char* runBf16c1x2(const Cutlass16BitCall&, const CutlassLaunch&, cudaStream_t);
const char* runF16c2x1(const Cutlass16BitCall&, const CutlassLaunch&, cudaStream_t);
const char* runF16c1x2(const Cutlass16BitCall&, const CutlassLaunch&, cudaStream_t);

}  // namespace gigacheck::cuda::cutlass_16bit
