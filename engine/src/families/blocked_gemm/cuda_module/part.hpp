// Blocked GEMM's part of the CUDA module (core/cuda_module/README.md): its op table and the
// measurements of the bench and `devices --measure`, which engine code calls through the
// forwarders in forward.cpp and the module fills in cuda/module_part.cpp.
#pragma once

#include "families/blocked_gemm/cuda/measure.hpp"
#include "families/blocked_gemm/cuda/measure_rates.hpp"
#include "families/blocked_gemm/cuda/measure_tf32x3.hpp"

namespace gigacheck::cuda {
struct OpTable;
}

namespace gigacheck::blocked_gemm {

struct CudaModulePart {
    const cuda::OpTable* ops = nullptr;
    // cuda/measure.hpp
    Ceilings (*measureDeviceCeilings)(int device, MeasureSteps* steps) = nullptr;
    cuda::GemmTiming (*timeGemm)(GemmVariant, int tile, int optimizedBk, Precision, std::int64_t n, int reps,
                                  bool bTransposed) = nullptr;
    cuda::AbftTiming (*timeAbftOverhead)(Precision, GemmVariant, std::int64_t n, int errors, int reps) = nullptr;
    double (*timeCublasXt)(const HostMatrix& a, const HostMatrix& b, HostMatrix& c, int blockDim, int reps) = nullptr;
    double (*timeCublasXtOn)(const HostMatrix& a, const HostMatrix& b, HostMatrix& c, int blockDim, int reps,
                             const std::vector<int>& gpus) = nullptr;
    void (*linkBandwidth)(double& h2dGBs, double& d2hGBs) = nullptr;
    // cuda/measure_tf32x3.hpp
    cuda::Tf32x3Timing (*timeTf32x3)(std::int64_t n, int errors, int reps) = nullptr;
    // cuda/measure_rates.hpp (the cost model's tables, `bench link`)
    void (*measureRateTables)(Ceilings& c, bool quick, MeasureSteps* steps) = nullptr;
    double (*measureGemmRate)(const std::string& kind, std::int64_t m, std::int64_t n, std::int64_t k, int reps) = nullptr;
    std::vector<cuda::LinkUnderLoad> (*measureLinkUnderLoad)(bool quick) = nullptr;
    double (*timeHostLoads)(const std::vector<HostLoad>& loads) = nullptr;
    double (*timeHostPacking)(const std::vector<HostLoad>& loads) = nullptr;
};

}  // namespace gigacheck::blocked_gemm
