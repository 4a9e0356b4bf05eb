#include "core/cuda/devices.hpp"

#include "core/cuda/check.hpp"

#include <cuda_runtime.h>

namespace gigacheck::cuda {

std::vector<DeviceInfo> cudaDevices(std::string* why)
{
    std::vector<DeviceInfo> out;
    int count = 0;
    const cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess) {
        (void)cudaGetLastError();
        if (why)
            *why = std::string("no CUDA device (") + cudaGetErrorString(e) + ")";
        return out;
    }
    if (count == 0) {
        if (why)
            *why = "no CUDA device found";
        return out;
    }
    for (int d = 0; d < count; ++d) {
        cudaDeviceProp prop{};
        CUDA_CHECK(cudaGetDeviceProperties(&prop, d));
        DeviceInfo info;
        info.backend = BackendKind::Cuda;
        info.name = prop.name;
        info.memoryBytes = prop.totalGlobalMem;
        info.computeCapability = std::to_string(prop.major) + "." + std::to_string(prop.minor);
        info.index = d;
        out.push_back(info);
    }
    return out;
}

void useDevice(int device) { CUDA_CHECK(cudaSetDevice(device)); }

}  // namespace gigacheck::cuda
