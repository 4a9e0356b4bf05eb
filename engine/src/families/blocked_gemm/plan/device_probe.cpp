#include "families/blocked_gemm/plan/device_probe.hpp"

#include "families/blocked_gemm/staging/pack_rows.hpp"

#ifdef GIGACHECK_HAVE_CUDA
#include "core/cuda/devices.hpp"
#include "families/blocked_gemm/cuda/measure_rates.hpp"

#include <exception>
#endif

namespace gigacheck {

#ifdef GIGACHECK_HAVE_CUDA
namespace {

// A measurement on one device: 0 when it cannot be made (no memory for it, a CUDA error), so that
// the planner falls back on its tables.
template <class Measure> double measuredOn(int device, Measure&& measure)
{
    try {
        cuda::useDevice(device);
        return measure();
    } catch (const std::exception&) {
        return 0.0;
    }
}

}  // namespace
#endif

GemmRateProbe gemmRateProbeOn(int device)
{
#ifdef GIGACHECK_HAVE_CUDA
    return [device](const std::string& kind, std::int64_t m, std::int64_t n, std::int64_t k) {
        return measuredOn(device, [&] { return cuda::measureGemmRate(kind, m, n, k, 3); });
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
        return measuredOn(device, [&] { return cuda::timeHostLoads(loads); });
    };
#else
    (void)device;
    return {};
#endif
}

HostPackTimer hostPackTimerOn(int device)
{
#ifdef GIGACHECK_HAVE_CUDA
    return [device](const std::vector<HostLoad>& loads) {
        return measuredOn(device, [&] { return cuda::timeHostPacking(loads); });
    };
#else
    (void)device;
    return hostPackTimer();
#endif
}

RunCalibration calibrateOnRunsMatrices(CostModel& model, const Schedule& schedule, std::size_t elementBytes,
                                       const HostMatrix& a, const HostMatrix& b, int device)
{
    RunCalibration out;
    out.h2d = calibrateH2d(schedule, model, elementBytes, a, b, hostLoadTimerOn(device));
    model.h2dInSituFactor = out.h2d.factor;
    out.text = out.h2d.text;
    if (model.h2dStaging == H2dStaging::Pack) {
        out.pack = calibratePacking(schedule, model, elementBytes, a, b, hostPackTimerOn(device));
        model.hostPackGBs = out.pack.packGBs;
        out.text += "; " + out.pack.text;
    }
    return out;
}

}  // namespace gigacheck
