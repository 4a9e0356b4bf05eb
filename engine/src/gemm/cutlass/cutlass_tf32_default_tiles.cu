// The default tile of the CUTLASS TF32 kernel (128 x 256 x 32, cluster 2 x 1) for both layouts of B,
// and the N-major tile sweep of the device scripts (GIGACHECK_CUTLASS_TILE_SWEEP).
#include "gemm/cutlass/cutlass_tf32_kernel.cuh"

namespace gigacheck::cuda::cutlass_tf32 {

const char* run128x256c2x1(const CutlassTf32Call& g, const CutlassLaunch& l, cudaStream_t s)
{
    return runTf32GemmWithSums<Shape<_128, _256, _32>, Shape<_2, _1, _1>, false>(g, l, s);
}

const char* run128x256c2x1KMajor(const CutlassTf32Call& g, const CutlassLaunch& l, cudaStream_t s)
{
    return runTf32GemmWithSums<Shape<_128, _256, _32>, Shape<_2, _1, _1>, true>(g, l, s);
}

#ifdef GIGACHECK_CUTLASS_TILE_SWEEP
const char* run128x256c1x1(const CutlassTf32Call& g, const CutlassLaunch& l, cudaStream_t s)
{
    return runTf32GemmWithSums<Shape<_128, _256, _32>, Shape<_1, _1, _1>, false>(g, l, s);
}

const char* run256x128c1x2(const CutlassTf32Call& g, const CutlassLaunch& l, cudaStream_t s)
{
    return runTf32GemmWithSums<Shape<_256, _128, _32>, Shape<_1, _2, _1>, false>(g, l, s);
}

const char* run128x128c2x1(const CutlassTf32Call& g, const CutlassLaunch& l, cudaStream_t s)
{
    return runTf32GemmWithSums<Shape<_128, _128, _32>, Shape<_2, _1, _1>, false>(g, l, s);
}
#endif

}  // namespace gigacheck::cuda::cutlass_tf32
