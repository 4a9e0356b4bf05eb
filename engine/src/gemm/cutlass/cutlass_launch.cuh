// Launching an instantiated CUTLASS 3.x kernel of the lab: included by the kernel templates only
// (cutlass_tf32_kernel.cuh, cutlass_16bit_kernel.cuh).
#pragma once

#include "gemm/cutlass/cutlass_launch.hpp"

#include "cutlass/cutlass.h"
#include "cutlass/device_kernel.h"
#include "cute/tensor.hpp"

#include <map>
#include <mutex>

namespace gigacheck::cuda {

// The cluster launch GemmUniversalAdapter::run makes for an sm_90 kernel, without its per-launch
// cudaFuncSetAttribute (NonPortableClusterSizeAllowed: the lab's clusters of 2 and 4 are portable).
template <class Kernel>
bool launchKernelFromParams(typename Kernel::Params& params, cudaStream_t s)
{
    using Cluster = typename Kernel::DispatchPolicy::ClusterShape;
    cudaLaunchAttribute cluster{};
    cluster.id = cudaLaunchAttributeClusterDimension;
    cluster.val.clusterDim.x = unsigned(cute::size<0>(Cluster{}));
    cluster.val.clusterDim.y = unsigned(cute::size<1>(Cluster{}));
    cluster.val.clusterDim.z = unsigned(cute::size<2>(Cluster{}));
    cudaLaunchConfig_t config{};
    config.gridDim = Kernel::get_grid_shape(params);
    config.blockDim = Kernel::get_block_shape();
    config.dynamicSmemBytes = std::size_t(Kernel::SharedStorageSize);
    config.stream = s;
    config.attrs = &cluster;
    config.numAttrs = 1;
    void* arguments[] = {&params};
    return cudaLaunchKernelExC(&config, reinterpret_cast<const void*>(cutlass::device_kernel<Kernel>), arguments) ==
           cudaSuccess;
}

// Null when Gemm ran on s with args, else why not. The adapter's initialize() would fill the
// epilogue's sums with the reduction's identity, which CUTLASS cannot do for doubles: the callers
// zero them, and the kernel is launched from its parameters, its shared-memory limit raised once
// per device. The parameters are kept per `key` (what args were made from: CutlassParamsKey): on the
// H200 the kernel started 25-35 us after a short kernel queued before it (the host making the TMA
// descriptors, each through a driver entry-point lookup, and the adapter's launch), 10-28 us with
// the parameters kept.
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
    return launchKernelFromParams<Kernel>(params, s) ? nullptr : no.launch;
}

}  // namespace gigacheck::cuda
