// Device listing for `gigacheck devices`: the CUDA devices, then the CPU.
#include "gigacheck/bench.hpp"
#include "gigacheck/cuda_status.hpp"

#include "core/cpu/device_info.hpp"
#ifdef GIGACHECK_HAVE_CUDA
#include "core/cuda/devices.hpp"
#endif

namespace gigacheck {

std::vector<DeviceInfo> listDevices(std::string* whyNoCuda)
{
    std::vector<DeviceInfo> out;
#ifdef GIGACHECK_HAVE_CUDA
    out = cuda::cudaDevices(whyNoCuda);
#else
    if (whyNoCuda)
        *whyNoCuda = whyNoCudaBackend();
#endif
    out.push_back(cpuDeviceInfo());
    return out;
}

}  // namespace gigacheck
