// The fq sweep: overhead against the check frequency, and how many runs with
// faults scattered over time end with every check correcting what it found. One function for
// `gigacheck bench online` and the lab's sweep view.
#include "families/online_abft/sweep/fq_sweep.hpp"

#include "families/online_abft/run/run_online.hpp"

#include "families/online_abft/inputs.hpp"

#ifdef GIGACHECK_HAVE_CUDA
#include "families/online_abft/cuda/panel_floor.hpp"
#include "gemm/cuda/gemm_rates.hpp"
#endif

#include <cblas.h>

#include <algorithm>
#include <chrono>
#include <random>
#include <vector>

namespace gigacheck {

namespace online_abft {

double computeSeconds(const OnlineRecord& r)
{
    double first = 1e300, last = 0;
    for (const Span& s : r.spans)
        if (s.queue == Queue::Compute) {
            first = std::min(first, s.start);
            last = std::max(last, s.end);
        }
    return last > first ? last - first : 0.0;
}

double tunedPlainProductSeconds(BackendKind backend, std::int64_t n, int reps, std::string* kept)
{
#ifdef GIGACHECK_HAVE_CUDA
    if (backend == BackendKind::Cuda)
        return 2.0 * double(n) * double(n) * double(n) / (cuda::tunedInCoreGemmGflops(n, reps, kept) * 1e9);
#endif
    (void)backend, (void)n, (void)reps, (void)kept;
    return 0.0;
}

double panelProductsAloneSeconds(const OnlineConfig& config, BackendKind backend, std::string* gemms,
                                 bool sumsAfterEachStep)
{
#ifdef GIGACHECK_HAVE_CUDA
    if (backend == BackendKind::Cuda) {
        OnlineInputs in;
        in.shape = config.shape;
        in.columnBlocks = resolvedColumnBlocks(config, backend);
        std::vector<std::int64_t> widths;
        for (int b = 0; b < in.columnBlocks; ++b)
            widths.push_back(columnBlock(in, b).cols);
        const cuda::PanelFloor floor =
            cuda::panelProductsAlone(config.shape.m, config.shape.n, config.panel, widths, 1, sumsAfterEachStep);
        if (gemms)
            *gemms = floor.gemms;
        return floor.seconds;
    }
#endif
    // The CPU: the same steps as OpenBLAS products of the unaugmented panels, C accumulated (one block).
    (void)backend;
    const std::int64_t m = config.shape.m, n = config.shape.n, q = config.shape.q;
    const std::int64_t panel = std::max<std::int64_t>(1, config.panel);
    std::vector<float> a(std::size_t(m * n), 0.5f), b(std::size_t(n * q), 0.25f), c(std::size_t(m * q));
    std::vector<double> rowSum(static_cast<std::size_t>(m)), colSum(static_cast<std::size_t>(q));
    if (gemms)
        *gemms = "OpenBLAS";
    const auto sums = [&] {  // one read of C, in rows
        std::fill(colSum.begin(), colSum.end(), 0.0);
        for (std::int64_t i = 0; i < m; ++i) {
            double s = 0;
            for (std::int64_t j = 0; j < q; ++j) {
                const double x = c[std::size_t(i * q + j)];
                s += x;
                colSum[std::size_t(j)] += x;
            }
            rowSum[std::size_t(i)] = s;
        }
    };
    const auto steps = [&] {
        const auto t0 = std::chrono::steady_clock::now();
        for (std::int64_t k0 = 0; k0 < n; k0 += panel) {
            cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, int(m), int(q), int(std::min(panel, n - k0)), 1.0f,
                        a.data() + k0, int(n), b.data() + k0 * q, int(q), k0 > 0 ? 1.0f : 0.0f, c.data(), int(q));
            if (sumsAfterEachStep)
                sums();
        }
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    };
    steps();  // warm-up: pages, OpenBLAS's threads
    return steps();
}

double plainProductSeconds(BackendKind backend, std::int64_t n, int reps)
{
#ifdef GIGACHECK_HAVE_CUDA
    if (backend == BackendKind::Cuda)
        return 2.0 * double(n) * double(n) * double(n) / (cuda::inCoreGemmGflops(n, n, n, Precision::F32, reps) * 1e9);
#endif
    (void)backend;
    std::vector<float> a(std::size_t(n * n), 0.5f), b(std::size_t(n * n), 0.25f), c(std::size_t(n * n));
    std::vector<double> times;
    for (int r = 0; r < reps + 1; ++r) {
        const auto t0 = std::chrono::steady_clock::now();
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, int(n), int(n), int(n), 1.0f, a.data(), int(n), b.data(),
                    int(n), 0.0f, c.data(), int(n));
        if (r > 0)
            times.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
    std::sort(times.begin(), times.end());
    return times[times.size() / 2];
}

}  // namespace online_abft

FqSweepResult sweepCheckEvery(const FqSweepOptions& o, Backend& backend, const std::function<bool(double)>& progress)
{
    if (o.n < 1 || o.panel < 1 || o.trials < 1 || o.reps < 1)
        throw InputError("fq sweep: n, panel, trials and reps must be at least 1");
    for (int fq : o.checkEvery)
        if (fq < 0)
            throw InputError("fq sweep: a check frequency is 0 (offline) or more");
    for (int f : o.faultCounts)
        if (f < 0)
            throw InputError("fq sweep: a fault count is 0 or more");
    FqSweepResult result;
    result.options = o;
    result.device = backend.device().name;
    const BackendKind kind = backend.device().backend;
    const HostAllocator alloc = backend.hostAllocator();
    HostMatrix a(Precision::F32, o.n, o.n, alloc), b(Precision::F32, o.n, o.n, alloc), c(Precision::F32, o.n, o.n, alloc);
    fillRandom(a, Distribution::Uniform, o.seed, 1);
    fillRandom(b, Distribution::Uniform, o.seed, 2);
    RunHooks hooks;
    hooks.backend = &backend;
    const auto once = [&](const OnlineConfig& config) { return online_abft::runOnlineOn(config, hooks, a, b, c); };

    OnlineConfig base;
    base.shape = {o.n, o.n, o.n};
    base.backend = kind;
    base.panel = o.panel;
    base.reference = ReferenceMode::None;  // correctness: the tests and `gigacheck run`; here: time and verdicts
    const int steps = base.steps();
    const double total = double(o.checkEvery.size()) * double(o.reps + o.trials * int(o.faultCounts.size()));
    double done = 0;
    const auto advance = [&] {
        done += 1;
        if (progress && !progress(done / total))
            throw InputError("fq sweep cancelled");
    };
    (void)once(base);  // warm-up: first launches, pages, handles (not timed)
    result.plainSeconds = online_abft::plainProductSeconds(kind, o.n, o.reps);
    std::mt19937_64 rng(o.seed);
    for (int fq : o.checkEvery) {
        OnlineConfig config = base;
        config.scheme = fq == 0 ? Scheme::Offline : Scheme::Online;
        config.checkEvery = fq;
        FqSweepRow row;
        row.checkEvery = fq;
        std::vector<double> times;
        for (int r = 0; r < o.reps; ++r) {
            times.push_back(online_abft::computeSeconds(once(config)));
            advance();
        }
        std::sort(times.begin(), times.end());
        row.seconds = times[times.size() / 2];
        row.overhead = result.plainSeconds > 0 ? row.seconds / result.plainSeconds - 1.0 : 0.0;
        for (int count : o.faultCounts) {
            int ok = 0;
            for (int trial = 0; trial < o.trials; ++trial) {
                OnlineConfig faulty = config;
                std::uniform_int_distribution<std::int64_t> cell(0, o.n - 1);
                std::uniform_int_distribution<int> step(0, steps - 1);
                for (int e = 0; e < count; ++e)
                    faulty.faults.push_back(OnlineFault{OnlineTarget::Result, cell(rng), cell(rng), std::nullopt, step(rng)});
                ok += once(faulty).uncorrectableChecks() == 0;
                advance();
            }
            row.correctable.push_back(ok);
        }
        result.rows.push_back(std::move(row));
    }
    return result;
}

}  // namespace gigacheck
