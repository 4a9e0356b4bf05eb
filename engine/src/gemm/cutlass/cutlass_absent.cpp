// Stands in for cutlass_tf32_gemm.cu in a CUDA build without CUTLASS (cmake/Cutlass.cmake says
// why): --gemm cutlass-tf32 then stops with the reason `gigacheck devices` prints.
#include "gemm/cutlass/cutlass_tf32_gemm.hpp"

namespace gigacheck::cuda {

const char* cutlassTf32Gemm(const CutlassTf32Call&, cudaStream_t)
{
    return "--gemm cutlass-tf32: this build has no CUTLASS kernels (gigacheck devices says why)";
}

int cutlassTf32ConfigCount() { return 0; }

const char* cutlassTf32ConfigName(int) { return ""; }

}  // namespace gigacheck::cuda
