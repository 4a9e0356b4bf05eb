// The CUTLASS TF32 kernel on B^T in a 2 x 1 cluster whose consumer warps also make the protected
// product's checksum products from the stages they multiply (consumer_dots_mainloop.cuh): the
// product on operands prepared at entry then reads A and B^T once, in the kernel.
#include "gemm/cutlass/cutlass_tf32_kernel.cuh"

namespace gigacheck::cuda::cutlass_tf32 {

const char* run128x256c2x1KMajorDots(const CutlassTf32Call& g, const CutlassLaunch& l, cudaStream_t s)
{
    return Tf32GemmWithSums<Shape<_128, _256, _32>, Shape<_2, _1, _1>, true, true>::run(g, l, s);
}

}  // namespace gigacheck::cuda::cutlass_tf32
