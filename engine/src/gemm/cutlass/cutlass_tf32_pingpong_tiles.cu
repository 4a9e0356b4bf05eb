// The pingpong kernels of the CUTLASS TF32 GEMM, B^T only: 128 x 128 tiles, one per consumer warp
// group (a warp group cannot hold a 128 x 256 accumulator), so that one tile's epilogue runs beside
// the other's mainloop. For shallow products that accumulate into C (cutlass_tf32_kernel.cuh).
#include "gemm/cutlass/cutlass_tf32_kernel.cuh"

namespace gigacheck::cuda::cutlass_tf32 {

const char* run128x128c1x1PingpongKMajor(const CutlassTf32Call& g, const CutlassTf32Launch& l, cudaStream_t s)
{
    return Tf32GemmWithSums<Shape<_128, _128, _32>, Shape<_1, _1, _1>, true, true>::run(g, l, s);
}

const char* run128x128c2x1PingpongKMajor(const CutlassTf32Call& g, const CutlassTf32Launch& l, cudaStream_t s)
{
    return Tf32GemmWithSums<Shape<_128, _128, _32>, Shape<_2, _1, _1>, true, true>::run(g, l, s);
}

const char* run128x128c1x2PingpongKMajor(const CutlassTf32Call& g, const CutlassTf32Launch& l, cudaStream_t s)
{
    return Tf32GemmWithSums<Shape<_128, _128, _32>, Shape<_1, _2, _1>, true, true>::run(g, l, s);
}

}  // namespace gigacheck::cuda::cutlass_tf32
