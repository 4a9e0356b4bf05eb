// Roof measurement for `gigacheck devices --measure`: GEMM rates per precision with the blocked
// GEMM family's kernels (OpenBLAS on the CPU, cuBLAS on a GPU), copy and host-link bandwidths.
#include "gigacheck/bench.hpp"

#include "core/devices/measure_steps.hpp"

#ifdef GIGACHECK_HAVE_CUDA
#include "core/cuda/devices.hpp"
#include "families/blocked_gemm/cuda/measure.hpp"
#include "families/blocked_gemm/cuda/measure_rates.hpp"
#include "families/blocked_gemm/cuda/rate_table_plan.hpp"
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

// What the CPU measures: full (devices --measure) or quick (tests, smoke runs).
struct CpuPlan {
    int roofN = 1024;                                          // sgemm / dgemm roof size
    std::size_t bandwidthBytes = std::size_t(256) << 20;       // memcpy roof
    std::vector<std::int64_t> gemmSides{64, 128, 256, 512, 1024};
    std::size_t copyBytes = std::size_t(32) << 20;             // per row width
    std::vector<std::int64_t> rowWidths{256, 1024, 4096, 16384, 65536};

    static CpuPlan of(bool quick)
    {
        CpuPlan p;
        if (quick) {
            p.roofN = 512;
            p.bandwidthBytes = std::size_t(64) << 20;
            p.gemmSides = {64, 128};
            p.copyBytes = std::size_t(8) << 20;
            p.rowWidths = {256, 4096};
        }
        return p;
    }
    // The roofs (FP32, FP64, memcpy), then f32 and f64 for each side and its ABFT twin, then the widths.
    int points() const { return 3 + int(gemmSides.size()) * 2 * 2 + int(rowWidths.size()); }
};

// The cost model's tables on the CPU: OpenBLAS sgemm / dgemm per block shape (square and the ABFT
// twin with one more row and column), and memcpy of rows out of a matrix twice as wide per row
// width (the CPU backend's "copies"; both directions alike).
void measureCpuRateTables(Ceilings& c, const CpuPlan& plan, MeasureSteps& steps)
{
    for (const std::int64_t s : plan.gemmSides) {
        for (const std::int64_t extra : {0, 1}) {
            const std::int64_t m = s + extra, n = s + extra, k = s;
            const double flops = 2.0 * double(m) * double(n) * double(k);
            std::vector<float> af(std::size_t(m * k), 0.5f), bf(std::size_t(k * n), 0.5f), cf(std::size_t(m * n));
            std::vector<double> ad(af.begin(), af.end()), bd(bf.begin(), bf.end()), cd(cf.size());
            const int reps = s <= 256 ? 7 : 3;
            steps.next("GEMM rate table");
            c.gemmRates.push_back({"f32", m, n, k, flops / secondsOf([&] {
                cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, int(m), int(n), int(k), 1.0f, af.data(), int(k),
                            bf.data(), int(n), 0.0f, cf.data(), int(n));
            }, reps) / 1e9});
            steps.next("GEMM rate table");
            c.gemmRates.push_back({"f64", m, n, k, flops / secondsOf([&] {
                cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, int(m), int(n), int(k), 1.0, ad.data(), int(k),
                            bd.data(), int(n), 0.0, cd.data(), int(n));
            }, reps) / 1e9});
        }
    }
    for (const std::int64_t width : plan.rowWidths) {
        steps.next("row copy rate table");
        const std::size_t rows = plan.copyBytes / std::size_t(width);
        std::vector<char> src(rows * std::size_t(width) * 2, 1), dst(rows * std::size_t(width), 0);
        const double seconds = secondsOf([&] {
            for (std::size_t r = 0; r < rows; ++r)
                std::memcpy(dst.data() + r * std::size_t(width), src.data() + 2 * r * std::size_t(width), std::size_t(width));
        }, 3);
        const double gbs = double(plan.copyBytes) / seconds / 1e9;
        c.copyRates.push_back({width, gbs, gbs});
    }
}

// The CPU's roofs: OpenBLAS sgemm / dgemm at n = 1024 (quick: 512), memcpy bandwidth (read + write),
// then the rate tables; a point at a time against options.progress.
Ceilings measureCpuCeilings(const MeasureOptions& options)
{
    const CpuPlan plan = CpuPlan::of(options.quick);
    MeasureSteps steps(options.progress, plan.points());
    const int n = plan.roofN;
    std::vector<float> af(std::size_t(n) * n, 0.5f), bf(af), cf(af);
    std::vector<double> ad(std::size_t(n) * n, 0.5), bd(ad), cd(ad);
    Ceilings c;
    const double flops = 2.0 * n * double(n) * n;
    steps.next("FP32 GEMM roof");
    c.gflopsF32 = flops / secondsOf([&] {
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0f, af.data(), n, bf.data(), n, 0.0f,
                    cf.data(), n);
    }, 3) / 1e9;
    steps.next("FP64 GEMM roof");
    c.gflopsF64 = flops / secondsOf([&] {
        cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0, ad.data(), n, bd.data(), n, 0.0,
                    cd.data(), n);
    }, 3) / 1e9;
    steps.next("memory bandwidth");
    const std::size_t bytes = plan.bandwidthBytes;
    std::vector<char> x(bytes, 1), y(bytes, 0);
    c.deviceBandwidthGBs = 2.0 * double(bytes) / secondsOf([&] { std::memcpy(y.data(), x.data(), bytes); }, 3) / 1e9;
    measureCpuRateTables(c, plan, steps);
    steps.finish();
    c.source = "measured " + today() + " (CPU: OpenBLAS GEMM, memcpy; no TF32, no host link" +
               (options.quick ? std::string("; quick") : std::string()) + ")";
    return c;
}

}  // namespace

Ceilings measureCeilings(const DeviceInfo& device, const MeasureOptions& options)
{
    if (device.backend != BackendKind::Cuda)
        return measureCpuCeilings(options);
#ifdef GIGACHECK_HAVE_CUDA
    std::string why;
    const std::vector<DeviceInfo> devices = cuda::cudaDevices(&why);
    // The device of that ordinal when it carries the name (two GPUs of one model), else by name.
    std::size_t found = devices.size();
    for (std::size_t i = 0; i < devices.size(); ++i)
        if (devices[i].name == device.name && (found == devices.size() || devices[i].index == device.index))
            found = i;
    if (found == devices.size())
        throw BackendError("no CUDA device named \"" + device.name + "\"" + (why.empty() ? "" : ": " + why));
    MeasureSteps steps(options.progress, cuda::kDeviceCeilingPoints + cuda::rateTablePlan(options.quick).points());
    Ceilings c = cuda::measureDeviceCeilings(int(found), &steps);
    cuda::measureRateTables(c, options.quick, &steps);  // with the host's pack rate beside copies
    steps.finish();
    if (options.quick)
        c.source += " (quick)";
    return c;
#else
    (void)options;
    throw BackendError("this build has no CUDA backend: cannot measure \"" + device.name + "\"");
#endif
}

}  // namespace gigacheck
