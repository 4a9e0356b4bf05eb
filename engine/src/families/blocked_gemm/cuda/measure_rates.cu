// The cost model's rate tables (`devices --measure`) and the link under load (`bench link`).
#include "families/blocked_gemm/cuda/measure_rates.hpp"

#include "abft/cuda/abft_device.hpp"
#include "core/cuda/check.hpp"
#include "core/cuda/event_timing.hpp"
#include "core/cuda/resources.hpp"
#include "gemm/cuda/gemm.hpp"
#include "families/blocked_gemm/cuda/rate_table_plan.hpp"
#include "families/blocked_gemm/staging/pack_rows.hpp"
#include "gigacheck/blocked_gemm/h2d_staging.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <exception>
#include <functional>
#include <memory>
#include <vector>

namespace gigacheck::cuda {

namespace {

using Index = std::int64_t;

Index pad32(Index x) { return (x + 31) / 32 * 32; }
std::size_t esz(Precision p) { return p == Precision::F64 ? 8 : 4; }

// A stream with a priority (lower number = higher priority), destroyed with its owner.
class PriorityStream {
public:
    explicit PriorityStream(int priority)
    {
        CUDA_CHECK(cudaStreamCreateWithPriority(&s_, cudaStreamNonBlocking, priority));
    }
    ~PriorityStream() { cudaStreamDestroy(s_); }
    PriorityStream(const PriorityStream&) = delete;
    PriorityStream& operator=(const PriorityStream&) = delete;
    cudaStream_t get() const { return s_; }

private:
    cudaStream_t s_ = nullptr;
};

GemmCall gemmOn(GemmVariant v, Precision p, Index m, Index n, Index k, const DeviceBuffer& a, const DeviceBuffer& b,
                const DeviceBuffer& c)
{
    GemmCall g;
    g.variant = v;
    g.precision = p;
    g.m = m;  // C is m x n over the common dimension k: the call's m x q over n
    g.n = k;
    g.q = n;
    g.a = a.get();
    g.lda = pad32(k);
    g.b = b.get();
    g.ldb = pad32(n);
    g.c = c.get();
    g.ldc = pad32(n);
    return g;
}

double gemmGflops(GemmVariant v, Precision p, Index m, Index n, Index k, int reps)
{
    const std::size_t e = esz(p);
    DeviceBuffer a(std::size_t(m * pad32(k)) * e), b(std::size_t(k * pad32(n)) * e), c(std::size_t(m * pad32(n)) * e);
    CUDA_CHECK(cudaMemset(a.get(), 0, a.bytes()));
    CUDA_CHECK(cudaMemset(b.get(), 0, b.bytes()));
    Stream s;
    CublasHandle h;
    const GemmCall g = gemmOn(v, p, m, n, k, a, b, c);
    const double ms = timeMs(s.get(), reps, [&] { gemm(g, h.get(), s.get()); });
    return gemmFlops(m, n, k) / (ms * 1e-3) / 1e9;
}

// Rows of rowBytes out of a host matrix of p.hostPitchBytes per row (a block of a larger matrix,
// as the run's copies are), `bytes` in all: H2D and D2H GB/s alone, and while FP32 GEMMs (4096^3,
// enough of them to outlast the copy twice) keep another stream busy, as in an out-of-core
// schedule.
void copyRates(std::int64_t rowBytes, std::size_t bytes, CopyRatePoint& p)
{
    const std::size_t rows = std::max<std::size_t>(1, bytes / std::size_t(rowBytes));
    const std::size_t hostPitch = std::size_t(p.hostPitchBytes);
    const std::size_t devPitch = std::size_t(pad32(rowBytes / 4) * 4);
    PinnedBuffer host(rows * hostPitch);
    DeviceBuffer dev(rows * devPitch);
    std::memset(host.get(), 1, host.bytes());
    Stream s;
    const double moved = double(rows) * double(rowBytes);
    auto up = [&](cudaStream_t st) {
        CUDA_CHECK(cudaMemcpy2DAsync(dev.get(), devPitch, host.get(), hostPitch, std::size_t(rowBytes), rows,
                                     cudaMemcpyHostToDevice, st));
    };
    auto down = [&](cudaStream_t st) {
        CUDA_CHECK(cudaMemcpy2DAsync(host.get(), hostPitch, dev.get(), devPitch, std::size_t(rowBytes), rows,
                                     cudaMemcpyDeviceToHost, st));
    };
    const double upMs = timeMs(s.get(), 5, [&] { up(s.get()); });
    const double downMs = timeMs(s.get(), 5, [&] { down(s.get()); });
    p.h2dGBs = moved / (upMs * 1e-3) / 1e9;
    p.d2hGBs = moved / (downMs * 1e-3) / 1e9;

    constexpr Index side = 4096;
    DeviceBuffer a(std::size_t(side * side) * 4), b(std::size_t(side * side) * 4), c(std::size_t(side * side) * 4);
    CUDA_CHECK(cudaMemset(a.get(), 0, a.bytes()));
    CUDA_CHECK(cudaMemset(b.get(), 0, b.bytes()));
    Stream load;
    CublasHandle handle;
    CUBLAS_CHECK(cublasSetStream(handle.get(), load.get()));
    const GemmCall g = gemmOn(GemmVariant::Cublas, Precision::F32, side, side, side, a, b, c);
    const double gemmMs = timeMs(load.get(), 2, [&] { gemm(g, handle.get(), load.get()); });
    const int gemms = 2 + int(2 * std::max(upMs, downMs) / std::max(gemmMs, 1e-3));
    Event c0, c1;
    auto loaded = [&](const std::function<void(cudaStream_t)>& copy) {
        std::vector<double> ms;
        for (int r = 0; r < 3; ++r) {
            gemm(g, handle.get(), load.get());  // the copy starts once the SMs are busy
            CUDA_CHECK(cudaEventRecord(c0.get(), load.get()));
            CUDA_CHECK(cudaStreamWaitEvent(s.get(), c0.get()));
            copy(s.get());
            CUDA_CHECK(cudaEventRecord(c1.get(), s.get()));
            for (int i = 0; i < gemms; ++i)
                gemm(g, handle.get(), load.get());
            CUDA_CHECK(cudaDeviceSynchronize());
            ms.push_back(elapsedMs(c0.get(), c1.get()));
        }
        return median(ms);
    };
    p.h2dLoadedGBs = moved / (loaded(up) * 1e-3) / 1e9;
    p.d2hLoadedGBs = moved / (loaded(down) * 1e-3) / 1e9;
}

// The host's packing rate (staging/pack_rows.hpp) while the link copies into the device at full
// rate: in a run the packing of the next blocks and the copies of the earlier ones share the
// host's memory (on the H200's host 31 GB/s alone, and runs packed well below that).
double hostPackBesideCopiesGBs()
{
    const std::size_t bytes = std::size_t(256) << 20;
    PinnedBuffer src(bytes);
    DeviceBuffer dst(bytes);
    std::memset(src.get(), 1, bytes);
    Stream s;
    const double gbs = measureHostPackGBs([&] {
        for (int i = 0; i < 24; ++i)  // ~110 ms at 55 GB/s: outlasts the packings timed
            CUDA_CHECK(cudaMemcpyAsync(dst.get(), src.get(), bytes, cudaMemcpyHostToDevice, s.get()));
    });
    CUDA_CHECK(cudaStreamSynchronize(s.get()));
    return gbs;
}

}  // namespace

double measureGemmRate(const std::string& kind, std::int64_t m, std::int64_t n, std::int64_t k, int reps)
{
    const Precision p = kind == "f64" ? Precision::F64 : Precision::F32;
    const GemmVariant v = kind == "tf32"   ? GemmVariant::CublasTf32
                          : kind == "bf16" ? GemmVariant::CublasBf16  // the 16-bit conversion included, as in a run
                          : kind == "f16"  ? GemmVariant::CublasF16
                                           : GemmVariant::Cublas;
    return gemmGflops(v, p, m, n, k, reps);
}

void measureRateTables(Ceilings& c, bool quick, MeasureSteps* steps)
{
    const RateTablePlan plan = rateTablePlan(quick);
    auto next = [steps](const char* stage) {
        if (steps)
            steps->next(stage);
    };
    struct Kind {
        const char* name;
        GemmVariant variant;
        Precision precision;
    };
    for (const Kind& k : {Kind{"f32", GemmVariant::Cublas, Precision::F32}, Kind{"tf32", GemmVariant::CublasTf32, Precision::F32},
                          Kind{"f64", GemmVariant::Cublas, Precision::F64}}) {
        for (Index s : plan.sides) {
            const int reps = s >= 8192 ? 3 : 5;
            next("GEMM rate table");
            c.gemmRates.push_back({k.name, s, s, s, gemmGflops(k.variant, k.precision, s, s, s, reps)});
            next("GEMM rate table");
            c.gemmRates.push_back({k.name, s + 1, s + 1, s, gemmGflops(k.variant, k.precision, s + 1, s + 1, s, reps)});
        }
    }
    const std::size_t bytes = std::size_t(quick ? 32 : 256) << 20;
    constexpr std::size_t kHostBytes = std::size_t(1) << 30;  // host memory of one measurement at most
    for (const auto& [width, pitch] : plan.copies) {
        next("2D copy rate table");
        CopyRatePoint p;
        p.rowBytes = width;
        p.hostPitchBytes = pitch;
        const std::size_t rows = std::min(bytes / std::size_t(width), kHostBytes / std::size_t(pitch));
        copyRates(width, rows * std::size_t(width), p);
        c.copyRates.push_back(p);
    }
    next("host packing beside copies");
    c.hostPackGBs = hostPackBesideCopiesGBs();
}

std::vector<LinkUnderLoad> measureLinkUnderLoad(bool quick)
{
    int leastPriority = 0, greatestPriority = 0;
    CUDA_CHECK(cudaDeviceGetStreamPriorityRange(&leastPriority, &greatestPriority));
    const Index n = quick ? 4096 : 8192;  // the GEMM and the checksum pass: one block of the bench's size
    DeviceBuffer a(std::size_t(n * pad32(n)) * 4), b(std::size_t(n * pad32(n + 2)) * 4), c(std::size_t(n * pad32(n)) * 4);
    CUDA_CHECK(cudaMemset(a.get(), 0, a.bytes()));
    CUDA_CHECK(cudaMemset(b.get(), 0, b.bytes()));
    CublasHandle handle;
    const std::size_t bytes = std::size_t(quick ? 32 : 256) << 20;

    std::vector<LinkUnderLoad> rows;
    for (std::int64_t width = 4096; width <= (std::int64_t(64) << 10); width *= 2) {
        const std::size_t count = bytes / std::size_t(width);
        const std::size_t hostPitch = 2 * std::size_t(width);
        PinnedBuffer host(count * hostPitch);
        DeviceBuffer dev(count * std::size_t(width));
        std::memset(host.get(), 1, host.bytes());

        // The copy on its stream while `load` keeps another stream busy for longer than the copy.
        auto measure = [&](const std::string& condition, int copyPriority, int loadPriority,
                           const std::function<void(cudaStream_t)>& load, bool isGemm) {
            PriorityStream copyStream(copyPriority), loadStream(loadPriority);
            Event c0, c1, l0, l1;
            double loadAlone = 0;
            if (load) {
                load(loadStream.get());  // warm-up
                CUDA_CHECK(cudaEventRecord(l0.get(), loadStream.get()));
                load(loadStream.get());
                CUDA_CHECK(cudaEventRecord(l1.get(), loadStream.get()));
                CUDA_CHECK(cudaEventSynchronize(l1.get()));
                loadAlone = elapsedMs(l0.get(), l1.get());
            }
            std::vector<double> copyMs, loadMs;
            for (int r = 0; r < 3; ++r) {
                if (load) {
                    // The copy overlaps the first load (timed alone: l0 .. l1); two more keep the
                    // other stream busy should the copy outlast it.
                    CUDA_CHECK(cudaEventRecord(l0.get(), loadStream.get()));
                    load(loadStream.get());
                    CUDA_CHECK(cudaEventRecord(l1.get(), loadStream.get()));
                    load(loadStream.get());
                    load(loadStream.get());
                }
                CUDA_CHECK(cudaEventRecord(c0.get(), copyStream.get()));
                CUDA_CHECK(cudaMemcpy2DAsync(dev.get(), std::size_t(width), host.get(), hostPitch, std::size_t(width),
                                             count, cudaMemcpyHostToDevice, copyStream.get()));
                CUDA_CHECK(cudaEventRecord(c1.get(), copyStream.get()));
                CUDA_CHECK(cudaDeviceSynchronize());
                copyMs.push_back(elapsedMs(c0.get(), c1.get()));
                if (load)
                    loadMs.push_back(elapsedMs(l0.get(), l1.get()));
            }
            LinkUnderLoad row;
            row.condition = condition;
            row.rowBytes = width;
            row.h2dGBs = double(count) * double(width) / (median(copyMs) * 1e-3) / 1e9;
            row.gemmSlowdown = isGemm && loadAlone > 0 ? median(loadMs) / loadAlone - 1 : 0;
            rows.push_back(row);
        };
        const GemmCall g = gemmOn(GemmVariant::Cublas, Precision::F32, n, n, n, a, b, c);
        auto runGemm = [&](cudaStream_t s) {
            CUBLAS_CHECK(cublasSetStream(handle.get(), s));
            gemm(g, handle.get(), s);
        };
        auto runChecksums = [&](cudaStream_t s) {
            for (int i = 0; i < 64; ++i)  // ~0.07 ms each on an H200: three loads outlast the copy
                checksumB(Precision::F32, b.get(), n, n, pad32(n + 2), s);
        };
        measure("alone", leastPriority, leastPriority, nullptr, false);
        measure("during GEMM", leastPriority, leastPriority, runGemm, true);
        measure("during GEMM, copy stream high priority", greatestPriority, leastPriority, runGemm, true);
        measure("during GEMM, copy stream low priority", leastPriority, greatestPriority, runGemm, true);
        measure("during ABFT checksum passes", leastPriority, leastPriority, runChecksums, false);
    }
    return rows;
}

double timeHostLoads(const std::vector<HostLoad>& loads)
{
    // One scratch of at most 32 MiB (no larger than the tallest load): a larger load is copied in
    // row chunks of the same pattern, so that the calibration stays small beside a run's cap.
    constexpr std::size_t kScratchBytes = 32ull << 20;
    try {
        std::size_t widest = 0, tallest = 0;
        for (const HostLoad& l : loads) {
            widest = std::max(widest, std::size_t(l.rowBytes));
            tallest = std::max(tallest, std::size_t(l.rows));
        }
        if (loads.empty() || widest == 0 || tallest == 0)
            return 0;
        const std::size_t devPitch = (widest + 127) / 128 * 128;
        const std::size_t chunkRows = std::clamp<std::size_t>(kScratchBytes / devPitch, 1, tallest);
        DeviceBuffer scratch(chunkRows * devPitch);
        Stream s;
        auto copy = [&](const HostLoad& l) {
            const char* src = static_cast<const char*>(l.source);
            for (std::size_t r = 0; r < std::size_t(l.rows); r += chunkRows) {
                const std::size_t rows = std::min(chunkRows, std::size_t(l.rows) - r);
                CUDA_CHECK(cudaMemcpy2DAsync(scratch.get(), devPitch, src + r * std::size_t(l.pitchBytes),
                                             std::size_t(l.pitchBytes), std::size_t(l.rowBytes), rows,
                                             cudaMemcpyHostToDevice, s.get()));
            }
        };
        // Twice, the faster kept: the first pass also brings the link up from idle (the bench
        // measured a first pass after the planner's pause at 0.5-0.6 of the run's own copies).
        Event a, b;
        double best = 0;
        for (int pass = 0; pass < 2; ++pass) {
            CUDA_CHECK(cudaEventRecord(a.get(), s.get()));
            for (const HostLoad& l : loads)
                copy(l);
            CUDA_CHECK(cudaEventRecord(b.get(), s.get()));
            CUDA_CHECK(cudaEventSynchronize(b.get()));
            const double seconds = elapsedMs(a.get(), b.get()) * 1e-3;
            best = pass == 0 ? seconds : std::min(best, seconds);
        }
        return best;
    } catch (const std::exception&) {
        cudaGetLastError();  // a failed allocation or copy: not calibrated, the run goes on
        return 0;
    }
}


double timeHostPacking(const std::vector<HostLoad>& loads)
{
    try {
        std::size_t largest = 0;
        for (const HostLoad& l : loads)
            largest = std::max(largest, std::size_t(l.rows * l.rowBytes));
        if (largest == 0)
            return 0;
        // As HostStaging does it: kStagingSlots pinned slots in turn, each packed once its previous
        // copy has left it, then copied to the device while the next one is packed (the link reads
        // host memory beside the packing threads, as in the run).
        std::vector<PinnedBuffer> slots;
        std::vector<std::unique_ptr<Event>> copied;
        for (int k = 0; k < kStagingSlots; ++k) {
            slots.emplace_back(largest);
            copied.push_back(std::make_unique<Event>(cudaEventDisableTiming));
        }
        DeviceBuffer scratch(largest);
        Stream s;
        std::vector<double> passes;
        for (int pass = 0; pass < 3; ++pass) {  // the median kept (cost_model.hpp HostPackTimer)
            double seconds = 0;
            for (std::size_t i = 0; i < loads.size(); ++i) {
                const HostLoad& l = loads[i];
                const std::size_t k = i % slots.size();
                CUDA_CHECK(cudaEventSynchronize(copied[k]->get()));
                const auto start = std::chrono::steady_clock::now();
                packRows({static_cast<const char*>(l.source), slots[k].as<char>(), l.rows, l.rowBytes, l.pitchBytes,
                          l.rowBytes});
                seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
                CUDA_CHECK(cudaMemcpyAsync(scratch.get(), slots[k].get(), std::size_t(l.rows * l.rowBytes),
                                           cudaMemcpyHostToDevice, s.get()));
                CUDA_CHECK(cudaEventRecord(copied[k]->get(), s.get()));
            }
            CUDA_CHECK(cudaStreamSynchronize(s.get()));
            passes.push_back(seconds);
        }
        std::sort(passes.begin(), passes.end());
        return passes[1];
    } catch (const std::exception&) {
        cudaGetLastError();  // no pinned memory for the slots, a CUDA error: not calibrated
        return 0;
    }
}

}  // namespace gigacheck::cuda
