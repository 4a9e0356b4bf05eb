// Blocked GEMM's part of the CUDA module (../cuda_module/part.hpp), handed to the engine by the
// module's entry point (families/cuda_module/module_entry.cpp).
#include "core/cuda/op_table.hpp"
#include "families/blocked_gemm/cuda_module/part.hpp"
#include "families/blocked_gemm/ops.hpp"

namespace gigacheck::blocked_gemm {

const void* cudaModulePart()
{
    static const CudaModulePart part = [] {
        CudaModulePart p;
        p.ops = &cudaOps();
        p.measureDeviceCeilings = &cuda::measureDeviceCeilings;
        p.timeGemm = &cuda::timeGemm;
        p.timeAbftOverhead = &cuda::timeAbftOverhead;
        p.timeCublasXt = static_cast<double (*)(const HostMatrix&, const HostMatrix&, HostMatrix&, int, int)>(&cuda::timeCublasXt);
        p.timeCublasXtOn = static_cast<double (*)(const HostMatrix&, const HostMatrix&, HostMatrix&, int, int, const std::vector<int>&)>(
            &cuda::timeCublasXt);
        p.linkBandwidth = &cuda::linkBandwidth;
        p.timeTf32x3 = &cuda::timeTf32x3;
        p.measureRateTables = &cuda::measureRateTables;
        p.measureGemmRate = &cuda::measureGemmRate;
        p.measureLinkUnderLoad = &cuda::measureLinkUnderLoad;
        p.timeHostLoads = &cuda::timeHostLoads;
        p.timeHostPacking = &cuda::timeHostPacking;
        return p;
    }();
    return &part;
}

}  // namespace gigacheck::blocked_gemm
