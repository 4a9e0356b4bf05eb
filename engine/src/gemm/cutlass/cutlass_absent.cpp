// Stands in for the cutlass_tf32_*.cu files in a CUDA build without CUTLASS (cmake/Cutlass.cmake says
// why): --gemm cutlass-tf32 then stops with the reason `gigacheck devices` prints.
#include "gemm/cutlass/cutlass_bf16_gemm.hpp"
#include "gemm/cutlass/cutlass_tf32_gemm.hpp"

namespace gigacheck::cuda {

const char* cutlassTf32Gemm(const CutlassTf32Call&, cudaStream_t)
{
    return "--gemm cutlass-tf32: this build has no CUTLASS kernels (gigacheck devices says why)";
}

int cutlassTf32ConfigCount() { return 0; }

const char* cutlassTf32ConfigName(int) { return ""; }

bool cutlassTf32ConfigRuns(int, bool) { return false; }

int cutlassTf32KMajorPick(const CutlassTf32Call&, cudaStream_t) { return -1; }

bool cutlassBf16Runs() { return false; }

const char* cutlassBf16Gemm(const CutlassBf16Call&, cudaStream_t)
{
    return "CUTLASS BF16 GEMM: this build has no CUTLASS kernels (gigacheck devices says why)";
}

}  // namespace gigacheck::cuda
