// The default tile of the CUTLASS TF32 kernel in other clusters, B^T only (both operands K-major):
// 1 x 2 multicasts the B^T tile (C''s 128 side) to two CTAs instead of A's, 2 x 2 both; each CTA
// then streams fewer operand bytes from L2 per tile (the K-major probe had 1 x 2 ahead at 8192).
#include "gemm/cutlass/cutlass_tf32_kernel.cuh"

namespace gigacheck::cuda::cutlass_tf32 {

const char* run128x256c1x2KMajor(const CutlassTf32Call& g, const CutlassLaunch& l, cudaStream_t s)
{
    return runTf32GemmWithSums<Shape<_128, _256, _32>, Shape<_1, _2, _1>, true>(g, l, s);
}

const char* run128x256c2x2KMajor(const CutlassTf32Call& g, const CutlassLaunch& l, cudaStream_t s)
{
    return runTf32GemmWithSums<Shape<_128, _256, _32>, Shape<_2, _2, _1>, true>(g, l, s);
}

}  // namespace gigacheck::cuda::cutlass_tf32
