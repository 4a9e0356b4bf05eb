// The instantiated CUTLASS TF32 kernels, one runner per tile / cluster shape and layout of B, declared
// without CUTLASS headers: cutlass_tf32_gemm.cu lists them as configurations; cutlass_tf32_*_tiles.cu
// define them, in separate translation units so that a parallel build compiles them side by side.
#pragma once

#include "gemm/cutlass/cutlass_launch.hpp"
#include "gemm/cutlass/cutlass_tf32_gemm.hpp"

namespace gigacheck::cuda::cutlass_tf32 {

// Null when the GEMM was issued on s, else why not.
using Runner = const char* (*)(const CutlassTf32Call&, const CutlassLaunch&, cudaStream_t);

// Tiles of C' = C^T (q x m, cutlass_tf32_kernel.cuh), all cooperative (two consumer warp groups on
// one 128 x 256 tile: WGMMA's widest N, which the other shapes' probes fell behind).
// B as it lies (N-major, through registers) / B^T (K-major, both operands in shared memory).
const char* run128x256c2x1(const CutlassTf32Call&, const CutlassLaunch&, cudaStream_t);
const char* run128x256c2x1KMajor(const CutlassTf32Call&, const CutlassLaunch&, cudaStream_t);
const char* run128x256c1x2KMajor(const CutlassTf32Call&, const CutlassLaunch&, cudaStream_t);
const char* run128x256c2x2KMajor(const CutlassTf32Call&, const CutlassLaunch&, cudaStream_t);
#ifdef GIGACHECK_CUTLASS_TILE_SWEEP
const char* run128x256c1x1(const CutlassTf32Call&, const CutlassLaunch&, cudaStream_t);
const char* run256x128c1x2(const CutlassTf32Call&, const CutlassLaunch&, cudaStream_t);
const char* run128x128c2x1(const CutlassTf32Call&, const CutlassLaunch&, cudaStream_t);
#endif

}  // namespace gigacheck::cuda::cutlass_tf32
