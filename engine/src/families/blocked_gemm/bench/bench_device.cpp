// Choosing and making current the device of a blocked-GEMM bench (bench_device.hpp).
#include "families/blocked_gemm/bench/bench_device.hpp"

#ifdef GIGACHECK_HAVE_CUDA

#include "core/cuda/devices.hpp"

#include <algorithm>
#include <exception>
#include <string>
#include <vector>

namespace gigacheck {

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

}  // namespace gigacheck

#endif  // GIGACHECK_HAVE_CUDA
