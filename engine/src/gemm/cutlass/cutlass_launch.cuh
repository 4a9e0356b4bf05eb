// Launching an instantiated CUTLASS 3.x kernel of the lab: included by the kernel templates only
// (cutlass_tf32_kernel.cuh, cutlass_16bit_kernel.cuh).
#pragma once

#include "gemm/cutlass/cutlass_launch.hpp"

#include "cutlass/cutlass.h"
#include "cutlass/device_kernel.h"

#include <mutex>

namespace gigacheck::cuda {

// Null when Gemm ran on s with args, else why not. The adapter's initialize() would fill the
// epilogue's sums with the reduction's identity, which CUTLASS cannot do for doubles: the callers
// zero them, and the kernel is launched from its parameters, its shared-memory limit raised once
// per device.
template <class Gemm>
const char* launchCutlass(typename Gemm::Arguments& args, const CutlassLaunch& launch, cudaStream_t s,
                          const CutlassRefusals& no)
{
    using Kernel = typename Gemm::GemmKernel;
    if (Gemm::can_implement(args) != cutlass::Status::kSuccess)
        return no.shape;
    if (Gemm::get_workspace_size(args) != 0)
        return no.workspace;
    static bool smemRaised[kCutlassMaxDevices] = {};
    static std::mutex smemMutex;
    {
        const std::lock_guard<std::mutex> lock(smemMutex);
        if (!smemRaised[launch.device]) {
            if (cudaFuncSetAttribute(cutlass::device_kernel<Kernel>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                     int(Kernel::SharedStorageSize)) != cudaSuccess)
                return no.sharedMemory;
            smemRaised[launch.device] = true;
        }
    }
    typename Kernel::Params params = Kernel::to_underlying_arguments(args, nullptr);
    if (Gemm::run(params, s) != cutlass::Status::kSuccess)
        return no.launch;
    return nullptr;
}

}  // namespace gigacheck::cuda
