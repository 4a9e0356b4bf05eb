// The GEMM layer's CUDA functions in the engine of a CUDA build (cuda/gemm_rates.hpp): forwarded
// to its part of the module (part.hpp).
#include "core/cuda_module/module_loader.hpp"
#include "gemm/cuda/gemm_rates.hpp"
#include "gemm/cuda_module/part.hpp"

namespace gigacheck::cuda {

namespace {
const gemm::CudaModulePart& module()
{
    return cuda_module::requirePart<gemm::CudaModulePart>(gemm::kModulePartName, "the in-core GEMM rate");
}
}  // namespace

double inCoreGemmGflops(std::int64_t m, std::int64_t n, std::int64_t q, Precision p, int reps)
{
    return module().inCoreGemmGflops(m, n, q, p, reps);
}

double inCoreTf32GemmGflops(std::int64_t m, std::int64_t n, std::int64_t q, int reps)
{
    return module().inCoreTf32GemmGflops(m, n, q, reps);
}

double inCore16BitGemmGflops(std::int64_t m, std::int64_t n, std::int64_t q, InputFormat format, int reps)
{
    return module().inCore16BitGemmGflops(m, n, q, format, reps);
}

double tunedInCoreGemmGflops(std::int64_t n, int reps, std::string* kept)
{
    return module().tunedInCoreGemmGflops(n, reps, kept);
}

}  // namespace gigacheck::cuda
