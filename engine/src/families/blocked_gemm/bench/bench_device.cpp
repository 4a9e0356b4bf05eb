// Choosing and making current the device of a blocked-GEMM bench (bench_device.hpp).
#include "families/blocked_gemm/bench/bench_device.hpp"

#include "gigacheck/cuda_status.hpp"
#include "gigacheck/types.hpp"
#ifdef GIGACHECK_HAVE_CUDA
#include "core/cuda/devices.hpp"
#endif

#include <algorithm>
#include <exception>
#include <string>
#include <vector>

namespace gigacheck {

std::string benchDeviceLine(const DeviceInfo& device)
{
    return "device: " + device.name + " (CUDA device " + std::to_string(device.index) + ", compute capability " +
           device.computeCapability + ", " + formatBytes(double(device.memoryBytes)) + ")";
}

std::string noCudaBuildLine() { return "no CUDA device: " + whyNoCudaBackend(); }

#ifdef GIGACHECK_HAVE_CUDA

std::optional<BenchDevice> chooseBenchDevice(int wanted, std::ostream& err)
{
    std::string why;
    const std::vector<DeviceInfo> devices = cuda::cudaDevices(&why);
    if (devices.empty()) {
        err << "no CUDA device: " << why << "\n";
        return std::nullopt;
    }
    wanted = std::max(wanted, 0);
    if (wanted >= int(devices.size())) {
        err << "no CUDA device " << wanted << " (" << devices.size() << " found, numbered 0.."
            << devices.size() - 1 << ")\n";
        return std::nullopt;
    }
    const DeviceInfo& device = devices[std::size_t(wanted)];
    try {
        cuda::useDevice(device.index);
    } catch (const std::exception& e) {
        err << "cannot use CUDA device " << device.index << ": " << e.what() << "\n";
        return std::nullopt;
    }
    return BenchDevice{device, devices.size()};
}

#endif  // GIGACHECK_HAVE_CUDA

}  // namespace gigacheck
