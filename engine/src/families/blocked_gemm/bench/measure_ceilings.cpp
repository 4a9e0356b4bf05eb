// Roof measurement for `gigacheck devices --measure`: GEMM rates per precision with the blocked
// GEMM family's kernels (OpenBLAS on the CPU, cuBLAS on a GPU), copy and host-link bandwidths.
#include "gigacheck/bench.hpp"

#ifdef GIGACHECK_HAVE_CUDA
#include "core/cuda/devices.hpp"
#include "families/blocked_gemm/cuda/measure.hpp"
#endif

#include <cblas.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <ctime>
#include <functional>
#include <vector>

namespace gigacheck {

namespace {

using Clock = std::chrono::steady_clock;

double secondsOf(const std::function<void()>& body, int reps)
{
    body();  // warm-up
    std::vector<double> t;
    for (int r = 0; r < reps; ++r) {
        const auto start = Clock::now();
        body();
        t.push_back(std::chrono::duration<double>(Clock::now() - start).count());
    }
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}

std::string today()
{
    const std::time_t now = std::time(nullptr);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%d", std::gmtime(&now));
    return buf;
}

// The CPU's roofs: OpenBLAS sgemm / dgemm at n = 1024, memcpy bandwidth (read + write).
Ceilings measureCpuCeilings()
{
    const int n = 1024;
    std::vector<float> af(std::size_t(n) * n, 0.5f), bf(af), cf(af);
    std::vector<double> ad(std::size_t(n) * n, 0.5), bd(ad), cd(ad);
    Ceilings c;
    const double flops = 2.0 * n * double(n) * n;
    c.gflopsF32 = flops / secondsOf([&] {
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0f, af.data(), n, bf.data(), n, 0.0f,
                    cf.data(), n);
    }, 3) / 1e9;
    c.gflopsF64 = flops / secondsOf([&] {
        cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0, ad.data(), n, bd.data(), n, 0.0,
                    cd.data(), n);
    }, 3) / 1e9;
    const std::size_t bytes = std::size_t(256) << 20;
    std::vector<char> x(bytes, 1), y(bytes, 0);
    c.deviceBandwidthGBs = 2.0 * double(bytes) / secondsOf([&] { std::memcpy(y.data(), x.data(), bytes); }, 3) / 1e9;
    c.source = "measured " + today() + " (CPU: OpenBLAS GEMM, memcpy; no TF32, no host link)";
    return c;
}

}  // namespace

Ceilings measureCeilings(const DeviceInfo& device)
{
    if (device.backend != BackendKind::Cuda)
        return measureCpuCeilings();
#ifdef GIGACHECK_HAVE_CUDA
    std::string why;
    const std::vector<DeviceInfo> devices = cuda::cudaDevices(&why);
    for (std::size_t i = 0; i < devices.size(); ++i)
        if (devices[i].name == device.name)
            return cuda::measureDeviceCeilings(int(i));
    throw BackendError("no CUDA device named \"" + device.name + "\"" + (why.empty() ? "" : ": " + why));
#else
    throw BackendError("this build has no CUDA backend: cannot measure \"" + device.name + "\"");
#endif
}

}  // namespace gigacheck
