// The device copy of the same bytes (the bench's 100 % line) and the datasheet peak, measured
// beside a transpose run on the same device.
#include "families/transpose/cuda/device_transpose.hpp"

#include "core/cuda/check.hpp"
#include "core/cuda/devices.hpp"
#include "core/cuda/resources.hpp"

#include <algorithm>
#include <vector>

namespace gigacheck::transpose::device {

namespace {
int ordinalOf(int device)
{
    std::string why;
    const std::vector<DeviceInfo> devices = gigacheck::cuda::cudaDevices(&why);
    if (devices.empty())
        throw BackendError("no CUDA device: " + why);
    return device < 0 ? devices.front().index : device;
}
}  // namespace

bool available(std::string* why) { return !gigacheck::cuda::cudaDevices(why).empty(); }

double deviceCopyGbps(std::size_t bytes, int reps, int device)
{
    gigacheck::cuda::useDevice(ordinalOf(device));
    gigacheck::cuda::Stream stream;
    gigacheck::cuda::DeviceBuffer a(bytes), b(bytes);
    gigacheck::cuda::Event start, stop;
    CUDA_CHECK(cudaMemsetAsync(a.get(), 1, bytes, stream.get()));
    CUDA_CHECK(cudaMemsetAsync(b.get(), 0, bytes, stream.get()));  // both buffers touched before the first timed copy
    constexpr int kWarmUps = 2;
    double best = 0;
    for (int r = 0; r < kWarmUps + std::max(reps, 1); ++r) {
        CUDA_CHECK(cudaEventRecord(start.get(), stream.get()));
        CUDA_CHECK(cudaMemcpyAsync(b.get(), a.get(), bytes, cudaMemcpyDeviceToDevice, stream.get()));
        CUDA_CHECK(cudaEventRecord(stop.get(), stream.get()));
        CUDA_CHECK(cudaEventSynchronize(stop.get()));
        float ms = 0;
        CUDA_CHECK(cudaEventElapsedTime(&ms, start.get(), stop.get()));
        if (r >= kWarmUps && ms > 0)
            best = std::max(best, 2.0 * double(bytes) / (double(ms) * 1e-3) / 1e9);
    }
    return best;
}

double datasheetPeakGbps(int device)
{
    const int ordinal = ordinalOf(device);
    int clockKHz = 0, busBits = 0;
    if (cudaDeviceGetAttribute(&clockKHz, cudaDevAttrMemoryClockRate, ordinal) != cudaSuccess ||
        cudaDeviceGetAttribute(&busBits, cudaDevAttrGlobalMemoryBusWidth, ordinal) != cudaSuccess)
        return 0;
    return 2.0 * double(clockKHz) * 1e3 * double(busBits) / 8.0 / 1e9;
}

}  // namespace gigacheck::transpose::device
