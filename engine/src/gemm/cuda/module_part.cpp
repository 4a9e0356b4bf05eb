// The GEMM layer's part of the CUDA module (../cuda_module/part.hpp), handed to the engine by the
// module's entry point (families/cuda_module/module_entry.cpp).
#include "gemm/cuda/gemm_rates.hpp"
#include "gemm/cuda_module/part.hpp"

namespace gigacheck::gemm {

const void* cudaModulePart()
{
    static const CudaModulePart part{&cuda::inCoreGemmGflops, &cuda::tunedInCoreGemmGflops,
                                      &cuda::inCoreTf32GemmGflops, &cuda::inCore16BitGemmGflops};
    return &part;
}

}  // namespace gigacheck::gemm
