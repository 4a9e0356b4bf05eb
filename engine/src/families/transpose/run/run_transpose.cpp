// One transpose run: check the request, fill a matrix of distinct values, transpose it on the
// chosen backend (warm-up + timed repetitions), verify every element, fill the record.
#include "gigacheck/transpose.hpp"

#include "core/timestamp.hpp"
#include "families/transpose/cpu/kernels.hpp"
#include "families/transpose/cuda/device_transpose.hpp"
#include "families/transpose/run/matrix_values.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <vector>

namespace gigacheck::transpose {

namespace {

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}

template <class T> void runCpuOnce(Variant v, T* x, T* y, std::int64_t m, std::int64_t n)
{
    switch (v) {
    case Variant::Naive: cpu::naiveInPlace(x, n); break;
    case Variant::Blocked: cpu::blockedInPlace(x, n); break;
    case Variant::OutOfPlace: cpu::outOfPlace(x, y, m, n); break;
    case Variant::InPlace: cpu::inPlaceAnyShape(x, m, n); break;
    default: throw InputError(std::string("transpose variant '") + std::string(toString(v)) + "' has no CPU implementation");
    }
}

// Warm-up + reps on the CPU; in place, the orientation alternates, and an even number of calls
// is followed by one more so that x ends transposed. Returns the median milliseconds.
template <class T> double runCpu(Variant v, std::vector<std::uint32_t>& data, std::vector<std::uint32_t>& out, std::int64_t m, std::int64_t n, int reps)
{
    T* x = reinterpret_cast<T*>(data.data());
    T* y = reinterpret_cast<T*>(out.data());
    bool forward = true;
    auto once = [&] {
        if (inPlace(v))
            runCpuOnce(v, x, y, forward ? m : n, forward ? n : m);
        else
            runCpuOnce(v, x, y, m, n);
        forward = !forward;
    };
    once();
    std::vector<double> times;
    for (int r = 0; r < std::max(reps, 1); ++r) {
        const auto t0 = std::chrono::steady_clock::now();
        once();
        times.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    }
    if (inPlace(v) && forward)  // an even number of calls left x as it was
        once();
    return median(times);
}

}  // namespace

BackendKind resolveBackend(const Config& c)
{
    if (c.backend != BackendKind::Auto)
        return c.backend;
    if (!onCuda(c.variant))
        return BackendKind::Cpu;
    if (!onCpu(c.variant))
        return BackendKind::Cuda;
    return device::available(nullptr) ? BackendKind::Cuda : BackendKind::Cpu;
}

void checkConfig(const Config& c, BackendKind backend)
{
    if (c.m <= 0 || c.n <= 0)
        throw InputError("transpose: the shape must be positive, got " + std::to_string(c.m) + "x" + std::to_string(c.n));
    const std::string name(toString(c.variant));
    if (backend == BackendKind::Cpu && !onCpu(c.variant))
        throw InputError("transpose variant '" + name + "' has no CPU implementation (CPU: naive, blocked, outofplace, inplace)");
    if (backend == BackendKind::Cuda && !onCuda(c.variant))
        throw InputError("transpose variant '" + name + "' has no CUDA kernel (CUDA: naive, coalesced, inplace, padded, library)");
    if (squareOnly(c.variant) && c.m != c.n)
        throw InputError("transpose variant '" + name + "' needs a square matrix (got " + std::to_string(c.m) + "x" +
                         std::to_string(c.n) + "); inplace takes any m x n");
    if (c.variant == Variant::Library && c.type != ElementType::F32)
        throw InputError("transpose variant 'library' (cuBLAS geam) takes float32 only (--type f32)");
    if (backend == BackendKind::Cuda && (c.m > 2147483647 || c.n > 2147483647))
        throw InputError("transpose: a side above 2^31 - 1 does not fit the kernels' grids");
}

Record runTranspose(const Config& config)
{
    Record rec;
    rec.config = config;
    rec.createdAt = nowIso8601();
    const BackendKind backend = resolveBackend(config);
    checkConfig(config, backend);
    rec.backend = backend == BackendKind::Cuda ? "cuda" : "cpu";
    rec.counts = countsOf(config.variant, config.m, config.n, config.type);
    const std::int64_t m = config.m, n = config.n;
    std::vector<std::uint32_t> data(std::size_t(m * n)), out;
    fillDistinct(data, config.seed);
    const std::vector<std::uint32_t> original = data;
    if (!inPlace(config.variant))
        out.resize(data.size());
    if (backend == BackendKind::Cuda) {
        std::string why;
        if (!device::available(&why))
            throw InputError("transpose variant '" + std::string(toString(config.variant)) + "' on CUDA: no CUDA device: " + why);
        void* host = inPlace(config.variant) ? data.data() : nullptr;
        if (!host) {
            std::copy(data.begin(), data.end(), out.begin());  // run() transposes out-of-place into host
            host = out.data();
        }
        const device::Timing t = device::run(config.variant, config.type, host, m, n, config.reps, config.device);
        rec.device = t.deviceName;
        rec.kernelMs = t.kernelMs;
        rec.h2dMs = t.h2dMs;
        rec.d2hMs = t.d2hMs;
        rec.copyGbps = t.copyGbps;
        rec.peakGbps = t.peakGbps;
    } else {
        rec.device = "CPU";
        rec.kernelMs = config.type == ElementType::F32 ? runCpu<float>(config.variant, data, out, m, n, config.reps)
                                                       : runCpu<std::int32_t>(config.variant, data, out, m, n, config.reps);
    }
    const std::vector<std::uint32_t>& result = inPlace(config.variant) ? data : out;
    rec.mismatches = countMisplaced(original, result, m, n);
    rec.verified = rec.mismatches == 0;
    rec.status = rec.verified ? "ok" : "wrong";
    if (rec.kernelMs > 0)
        rec.gbps = (rec.counts.bytesRead + rec.counts.bytesWritten) / (rec.kernelMs * 1e-3) / 1e9;
    return rec;
}

}  // namespace gigacheck::transpose
