// families/blocked_gemm/cuda/measure.hpp in the engine of a CUDA build: forwarded to the module.
#include "core/cuda_module/module_loader.hpp"
#include "families/blocked_gemm/cuda/measure.hpp"
#include "families/blocked_gemm/cuda/measure_rates.hpp"

namespace gigacheck::cuda {
namespace {
const cuda_module::Api& module() { return cuda_module::require("measuring the device"); }
}  // namespace

Ceilings measureDeviceCeilings(int device, MeasureSteps* steps) { return module().measureDeviceCeilings(device, steps); }

GemmTiming timeGemm(GemmVariant v, int tile, int optimizedBk, Precision p, std::int64_t n, int reps)
{
    return module().timeGemm(v, tile, optimizedBk, p, n, reps);
}

AbftTiming timeAbftOverhead(Precision p, bool tf32, std::int64_t n, int errors, int reps)
{
    return module().timeAbftOverhead(p, tf32, n, errors, reps);
}

double timeCublasXt(const HostMatrix& a, const HostMatrix& b, HostMatrix& c, int blockDim, int reps)
{
    return module().timeCublasXt(a, b, c, blockDim, reps);
}

double inCoreGemmGflops(std::int64_t m, std::int64_t n, std::int64_t q, Precision p, int reps)
{
    return module().inCoreGemmGflops(m, n, q, p, reps);
}

double tunedInCoreGemmGflops(std::int64_t n, int reps, std::string* kept)
{
    return module().tunedInCoreGemmGflops(n, reps, kept);
}

double timeCublasXt(const HostMatrix& a, const HostMatrix& b, HostMatrix& c, int blockDim, int reps, const std::vector<int>& gpus)
{
    return module().timeCublasXtOn(a, b, c, blockDim, reps, gpus);
}

void linkBandwidth(double& h2dGBs, double& d2hGBs) { module().linkBandwidth(h2dGBs, d2hGBs); }

void measureRateTables(Ceilings& c, bool quick, MeasureSteps* steps) { module().measureRateTables(c, quick, steps); }

double measureGemmRate(const std::string& kind, std::int64_t m, std::int64_t n, std::int64_t k, int reps)
{
    return module().measureGemmRate(kind, m, n, k, reps);
}

std::vector<LinkUnderLoad> measureLinkUnderLoad(bool quick) { return module().measureLinkUnderLoad(quick); }

double timeHostLoads(const std::vector<HostLoad>& loads) { return module().timeHostLoads(loads); }
double timeHostPacking(const std::vector<HostLoad>& loads) { return module().timeHostPacking(loads); }

}  // namespace gigacheck::cuda
