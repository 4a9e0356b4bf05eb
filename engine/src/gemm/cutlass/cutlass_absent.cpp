// Stands in for the cutlass_tf32_*.cu files in a CUDA build without CUTLASS (cmake/Cutlass.cmake says
// why): --gemm cutlass-tf32 then stops with the reason `gigacheck devices` prints.
#include "gemm/cutlass/cutlass_16bit_gemm.hpp"
#include "gemm/cutlass/cutlass_step_sums.hpp"
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

bool cutlass16BitRuns() { return false; }

const char* cutlass16BitGemm(const Cutlass16BitCall&, cudaStream_t)
{
    return "CUTLASS 16-bit GEMM: this build has no CUTLASS kernels (gigacheck devices says why)";
}

int cutlass16BitConfigCount() { return 0; }

const char* cutlass16BitConfigName(int) { return ""; }

int cutlass16BitPick(const Cutlass16BitCall&, cudaStream_t) { return -1; }

const char* cutlassTf32StepSums(const CutlassStepSumsCall&, cudaStream_t)
{
    return "CUTLASS TF32 step sums: this build has no CUTLASS kernels (gigacheck devices says why)";
}

}  // namespace gigacheck::cuda
