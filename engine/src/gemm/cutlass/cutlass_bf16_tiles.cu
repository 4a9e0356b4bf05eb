// The BF16 instantiations of the fused 16-bit kernel (cutlass_16bit_runners.hpp).
#include "gemm/cutlass/cutlass_16bit_kernel.cuh"

namespace gigacheck::cuda::cutlass_16bit {

const char* runBf16c2x1(const Cutlass16BitCall& g, const CutlassLaunch& l, cudaStream_t s)
{
    return runGemmWithSums16<cutlass::bfloat16_t, Shape<_128, _256, _64>, Shape<_2, _1, _1>>(g, l, s);
}

const char* runBf16c1x2(const Cutlass16BitCall& g, const CutlassLaunch& l, cudaStream_t s)
{
    return runGemmWithSums16<cutlass::bfloat16_t, Shape<_128, _256, _64>, Shape<_1, _2, _1>>(g, l, s);
}

}  // namespace gigacheck::cuda::cutlass_16bit
