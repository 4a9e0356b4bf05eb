// The CUTLASS 16-bit kernels in a 2 x 1 cluster whose consumer warps also make the protected
// product's checksum products from the stages they multiply (consumer_dots_mainloop.cuh): the
// product on 16-bit operands prepared at entry then reads A and B once, in the kernel.
#include "gemm/cutlass/cutlass_16bit_kernel.cuh"

namespace gigacheck::cuda::cutlass_16bit {

const char* runBf16c2x1Dots(const Cutlass16BitCall& g, const CutlassLaunch& l, cudaStream_t s)
{
    return GemmWithSums16<cutlass::bfloat16_t, Shape<_128, _256, _64>, Shape<_2, _1, _1>, true>::run(g, l, s);
}

const char* runF16c2x1Dots(const Cutlass16BitCall& g, const CutlassLaunch& l, cudaStream_t s)
{
    return GemmWithSums16<cutlass::half_t, Shape<_128, _256, _64>, Shape<_2, _1, _1>, true>::run(g, l, s);
}

}  // namespace gigacheck::cuda::cutlass_16bit
