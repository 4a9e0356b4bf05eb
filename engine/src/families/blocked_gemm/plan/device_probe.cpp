#include "families/blocked_gemm/plan/device_probe.hpp"

#ifdef GIGACHECK_HAVE_CUDA
#include "core/cuda/devices.hpp"
#include "families/blocked_gemm/cuda/measure_rates.hpp"

#include <exception>
#endif

namespace gigacheck {

GemmRateProbe gemmRateProbeOn(int device)
{
#ifdef GIGACHECK_HAVE_CUDA
    return [device](const std::string& kind, std::int64_t m, std::int64_t n, std::int64_t k) {
        try {
            cuda::useDevice(device);
            return cuda::measureGemmRate(kind, m, n, k, 3);
        } catch (const std::exception&) {
            return 0.0;
        }
    };
#else
    (void)device;
    return {};
#endif
}

HostLoadTimer hostLoadTimerOn(int device)
{
#ifdef GIGACHECK_HAVE_CUDA
    return [device](const std::vector<HostLoad>& loads) {
        try {
            cuda::useDevice(device);
            return cuda::timeHostLoads(loads);
        } catch (const std::exception&) {
            return 0.0;
        }
    };
#else
    (void)device;
    return {};
#endif
}

}  // namespace gigacheck
