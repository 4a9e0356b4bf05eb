// Launching an instantiated CUTLASS 3.x kernel of the lab: included by the kernel templates only
// (cutlass_tf32_kernel.cuh, cutlass_16bit_kernel.cuh).
#pragma once

#include "gemm/cutlass/cutlass_launch.hpp"

#include "cutlass/cutlass.h"
#include "cutlass/device_kernel.h"

#include <map>
#include <mutex>

namespace gigacheck::cuda {

// Null when Gemm ran on s with args, else why not. The adapter's initialize() would fill the
// epilogue's sums with the reduction's identity, which CUTLASS cannot do for doubles: the callers
// zero them, and the kernel is launched from its parameters, its shared-memory limit raised once
// per device. The parameters are kept per `key` (what args were made from: CutlassParamsKey), since
// making them (the TMA descriptors, each through a driver entry-point lookup) took the host 25-35 us
// a launch on the H200 -- time the GPU waited whenever nothing else was queued before the kernel.
template <class Gemm>
const char* launchCutlass(typename Gemm::Arguments& args, const CutlassParamsKey& key, const CutlassLaunch& launch,
                          cudaStream_t s, const CutlassRefusals& no)
{
    using Kernel = typename Gemm::GemmKernel;
    using Params = typename Kernel::Params;
    static std::mutex mutex;
    static std::map<CutlassParamsKey, Params> made;
    static bool smemRaised[kCutlassMaxDevices] = {};
    Params params;
    {
        const std::lock_guard<std::mutex> lock(mutex);
        if (!smemRaised[launch.device]) {
            if (cudaFuncSetAttribute(cutlass::device_kernel<Kernel>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                     int(Kernel::SharedStorageSize)) != cudaSuccess)
                return no.sharedMemory;
            smemRaised[launch.device] = true;
        }
        const auto found = made.find(key);
        if (found != made.end()) {
            params = found->second;
        } else {
            if (Gemm::can_implement(args) != cutlass::Status::kSuccess)
                return no.shape;
            if (Gemm::get_workspace_size(args) != 0)
                return no.workspace;
            params = Kernel::to_underlying_arguments(args, nullptr);
            if (made.size() >= kCutlassParamsKept)  // a bound, not an eviction policy: the set is small
                made.clear();
            made.emplace(key, params);
        }
    }
    if (Gemm::run(params, s) != cutlass::Status::kSuccess)
        return no.launch;
    return nullptr;
}

}  // namespace gigacheck::cuda
