// Runs one GPU transpose on a host matrix: copies, warm-up, timed repetitions (CUDA events,
// median), the device copy of the same bytes as the 100 % line, the datasheet peak.
#include "families/transpose/cuda/device_transpose.hpp"

#include "core/cuda/check.hpp"
#include "core/cuda/devices.hpp"
#include "core/cuda/resources.hpp"
#include "families/transpose/cpu/kernels.hpp"
#include "families/transpose/cuda/kernels.cuh"

#include <algorithm>
#include <vector>

namespace gigacheck::transpose::device {

namespace {

using gigacheck::cuda::DeviceBuffer;
using gigacheck::cuda::Event;
using gigacheck::cuda::Stream;

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}

// Milliseconds of work(), timed with events on stream s.
template <class Work> double timeMs(cudaStream_t s, Work&& work)
{
    Event start, stop;
    CUDA_CHECK(cudaEventRecord(start.get(), s));
    work();
    CUDA_CHECK(cudaEventRecord(stop.get(), s));
    CUDA_CHECK(cudaEventSynchronize(stop.get()));
    float ms = 0;
    CUDA_CHECK(cudaEventElapsedTime(&ms, start.get(), stop.get()));
    return ms;
}

// The cycles of the segment permutation, one leader each (host side: a visited bitset).
std::vector<std::int64_t> cycleLeaders(const cpu::SegmentPermutation& p)
{
    std::vector<std::int64_t> leaders;
    std::vector<bool> visited(std::size_t(p.count()), false);
    for (std::int64_t s = 0; s < p.count(); ++s) {
        if (visited[std::size_t(s)])
            continue;
        visited[std::size_t(s)] = true;
        std::int64_t to = p.destination(s);
        if (to == s)
            continue;
        leaders.push_back(s);
        for (; to != s; to = p.destination(to))
            visited[std::size_t(to)] = true;
    }
    return leaders;
}

// The rectangular in-place transpose of an m x n device matrix: tiles, then segment cycles.
// Holds the cycle leaders of both orientations (m x n and n x m alternate across repetitions).
template <class T> class AnyShapeInPlace {
public:
    AnyShapeInPlace(std::int64_t m, std::int64_t n) : forward_(m, n), backward_(n, m)
    {
        upload(forward_, forwardLeaders_, forwardCount_);
        upload(backward_, backwardLeaders_, backwardCount_);
    }
    void run(T* x, bool forward, cudaStream_t s) const
    {
        const cpu::SegmentPermutation& p = forward ? forward_ : backward_;
        kernels::launchTilePairSwap(x, p.g, p.b * p.g, p.a * p.b, p.b, s);
        kernels::launchSegmentCycles(x, p.g, p.a, p.b, (forward ? forwardLeaders_ : backwardLeaders_).template as<std::int64_t>(),
                                     forward ? forwardCount_ : backwardCount_, s);
    }

private:
    static void upload(const cpu::SegmentPermutation& p, DeviceBuffer& buffer, std::int64_t& count)
    {
        const std::vector<std::int64_t> leaders = cycleLeaders(p);
        count = std::int64_t(leaders.size());
        if (leaders.empty())
            return;
        buffer = DeviceBuffer(leaders.size() * sizeof(std::int64_t));
        CUDA_CHECK(cudaMemcpy(buffer.get(), leaders.data(), buffer.bytes(), cudaMemcpyHostToDevice));
    }
    cpu::SegmentPermutation forward_, backward_;
    DeviceBuffer forwardLeaders_, backwardLeaders_;
    std::int64_t forwardCount_ = 0, backwardCount_ = 0;
};

void geam(cublasHandle_t h, const float* in, float* out, std::int64_t m, std::int64_t n, cudaStream_t s)
{
    // Row-major m x n is column-major n x m (ld n); its transpose, column-major m x n (ld m), is
    // the row-major n x m result.
    const float one = 1, zero = 0;
    CUBLAS_CHECK(cublasSetStream(h, s));
    CUBLAS_CHECK(cublasSgeam(h, CUBLAS_OP_T, CUBLAS_OP_N, int(m), int(n), &one, in, int(n), &zero, out, int(m), out, int(m)));
}

template <class T> Timing runTyped(Variant variant, T* host, std::int64_t m, std::int64_t n, int reps)
{
    const std::size_t bytes = std::size_t(m * n) * sizeof(T);
    Timing t;
    Stream stream;
    const cudaStream_t s = stream.get();
    DeviceBuffer x(bytes);
    DeviceBuffer y(inPlace(variant) ? 0 : bytes);
    t.h2dMs = timeMs(s, [&] { CUDA_CHECK(cudaMemcpyAsync(x.get(), host, bytes, cudaMemcpyHostToDevice, s)); });

    std::unique_ptr<AnyShapeInPlace<T>> anyShape;
    if (variant == Variant::InPlace && m != n)
        anyShape = std::make_unique<AnyShapeInPlace<T>>(m, n);
    gigacheck::cuda::CublasHandle cublas;

    bool forward = true;  // in place: each call transposes the current orientation
    auto once = [&] {
        switch (variant) {
        case Variant::Naive: kernels::launchNaiveInPlace(x.as<T>(), n, s); break;
        case Variant::Coalesced: kernels::launchSeedCoalesced(x.as<T>(), n, s); break;
        case Variant::InPlace:
            if (anyShape)
                anyShape->run(x.as<T>(), forward, s);
            else
                kernels::launchTilePairSwap(x.as<T>(), n, n, 1, 1, s);
            break;
        case Variant::Padded: kernels::launchPadded(x.as<T>(), y.as<T>(), m, n, s); break;
        case Variant::Library:
            if constexpr (std::is_same_v<T, float>)
                geam(cublas.get(), x.as<float>(), y.as<float>(), m, n, s);
            else
                throw InputError("library (cuBLAS geam) transposes float32 only");
            break;
        default: throw InputError(std::string("transpose variant '") + std::string(toString(variant)) + "' has no CUDA kernel");
        }
        forward = !forward;
    };
    std::vector<double> times;
    once();  // warm-up
    for (int r = 0; r < std::max(reps, 1); ++r)
        times.push_back(timeMs(s, once));
    if (inPlace(variant) && forward)  // an even number of in-place calls left x as it was
        once();
    t.kernelMs = median(times);
    const void* result = inPlace(variant) ? x.get() : y.get();
    t.d2hMs = timeMs(s, [&] { CUDA_CHECK(cudaMemcpyAsync(host, result, bytes, cudaMemcpyDeviceToHost, s)); });
    return t;
}

}  // namespace

bool available(std::string* why)
{
    return !gigacheck::cuda::cudaDevices(why).empty();
}

double deviceCopyGbps(std::size_t bytes, int reps)
{
    Stream stream;
    DeviceBuffer a(bytes), b(bytes);
    CUDA_CHECK(cudaMemsetAsync(a.get(), 1, bytes, stream.get()));
    std::vector<double> times;
    for (int r = 0; r <= std::max(reps, 1); ++r) {
        const double ms = timeMs(stream.get(), [&] {
            CUDA_CHECK(cudaMemcpyAsync(b.get(), a.get(), bytes, cudaMemcpyDeviceToDevice, stream.get()));
        });
        if (r > 0)  // the first is the warm-up
            times.push_back(ms);
    }
    return 2.0 * double(bytes) / (median(times) * 1e-3) / 1e9;
}

Timing run(Variant variant, ElementType type, void* host, std::int64_t m, std::int64_t n, int reps, int device)
{
    std::string why;
    const std::vector<DeviceInfo> devices = gigacheck::cuda::cudaDevices(&why);
    if (devices.empty())
        throw BackendError("no CUDA device: " + why);
    const int ordinal = device < 0 ? devices.front().index : device;
    gigacheck::cuda::useDevice(ordinal);
    Timing t = type == ElementType::F32 ? runTyped(variant, static_cast<float*>(host), m, n, reps)
                                        : runTyped(variant, static_cast<std::int32_t*>(host), m, n, reps);
    for (const DeviceInfo& d : devices)
        if (d.index == ordinal)
            t.deviceName = d.name;
    t.copyGbps = deviceCopyGbps(std::size_t(m * n) * elementBytes(type), reps);
    int clockKHz = 0, busBits = 0;
    if (cudaDeviceGetAttribute(&clockKHz, cudaDevAttrMemoryClockRate, ordinal) == cudaSuccess &&
        cudaDeviceGetAttribute(&busBits, cudaDevAttrGlobalMemoryBusWidth, ordinal) == cudaSuccess)
        t.peakGbps = 2.0 * double(clockKHz) * 1e3 * double(busBits) / 8.0 / 1e9;
    return t;
}

}  // namespace gigacheck::transpose::device
