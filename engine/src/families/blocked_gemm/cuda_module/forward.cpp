// Blocked GEMM's CUDA functions in the engine of a CUDA build (cuda/measure.hpp,
// cuda/measure_rates.hpp, cuda/measure_tf32x3.hpp, its op table): forwarded to its part of the module (part.hpp).
#include "core/cuda_module/module_loader.hpp"
#include "families/blocked_gemm/cuda_module/part.hpp"
#include "families/blocked_gemm/ops.hpp"

namespace gigacheck::blocked_gemm {
const cuda::OpTable& cudaOps()
{
    const CudaModulePart* part = cuda_module::loadPart<CudaModulePart>(kFamilyName, nullptr);
    return cuda_module::opTableOr(part ? part->ops : nullptr);
}
}  // namespace gigacheck::blocked_gemm

namespace gigacheck::cuda {
namespace {
const blocked_gemm::CudaModulePart& module()
{
    return cuda_module::requirePart<blocked_gemm::CudaModulePart>(blocked_gemm::kFamilyName, "measuring the device");
}
}  // namespace

Ceilings measureDeviceCeilings(int device, MeasureSteps* steps) { return module().measureDeviceCeilings(device, steps); }

GemmTiming timeGemm(GemmVariant v, int tile, int optimizedBk, Precision p, std::int64_t n, int reps, bool bTransposed)
{
    return module().timeGemm(v, tile, optimizedBk, p, n, reps, bTransposed);
}

AbftTiming timeAbftOverhead(Precision p, GemmVariant variant, std::int64_t n, int errors, int reps)
{
    return module().timeAbftOverhead(p, variant, n, errors, reps);
}

double timeCublasXt(const HostMatrix& a, const HostMatrix& b, HostMatrix& c, int blockDim, int reps)
{
    return module().timeCublasXt(a, b, c, blockDim, reps);
}

double timeCublasXt(const HostMatrix& a, const HostMatrix& b, HostMatrix& c, int blockDim, int reps, const std::vector<int>& gpus)
{
    return module().timeCublasXtOn(a, b, c, blockDim, reps, gpus);
}

void linkBandwidth(double& h2dGBs, double& d2hGBs) { module().linkBandwidth(h2dGBs, d2hGBs); }

Tf32x3Timing timeTf32x3(std::int64_t n, int errors, int reps) { return module().timeTf32x3(n, errors, reps); }

void measureRateTables(Ceilings& c, bool quick, MeasureSteps* steps) { module().measureRateTables(c, quick, steps); }

double measureGemmRate(const std::string& kind, std::int64_t m, std::int64_t n, std::int64_t k, int reps)
{
    return module().measureGemmRate(kind, m, n, k, reps);
}

std::vector<LinkUnderLoad> measureLinkUnderLoad(bool quick) { return module().measureLinkUnderLoad(quick); }

double timeHostLoads(const std::vector<HostLoad>& loads) { return module().timeHostLoads(loads); }
double timeHostPacking(const std::vector<HostLoad>& loads) { return module().timeHostPacking(loads); }

}  // namespace gigacheck::cuda
