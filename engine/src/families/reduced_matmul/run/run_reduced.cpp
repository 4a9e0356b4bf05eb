// One reduced matmul run: check the request, random A and B, the kernel on the chosen backend
// (warm-up + timed repetitions), the library GEMM alone on the reduced shape, and a check of C
// against an FP64 reference (every element up to n = 512, else a sample of rows and columns).
#include "gigacheck/reduced_matmul.hpp"

#include "core/timestamp.hpp"
#include "families/reduced_matmul/cpu/kernels.hpp"
#include "families/reduced_matmul/cuda/device_reduced.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <vector>

namespace gigacheck::reduced_matmul {

namespace {

constexpr std::int64_t kCheckEverythingUpTo = 512;
constexpr std::int64_t kSampledRowsAndColumns = 24;

double uniform(std::uint64_t k, std::uint64_t seed)  // counter-based, in (-1, 1)
{
    std::uint64_t x = k * 0x9E3779B97F4A7C15ULL ^ seed;
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    x ^= x >> 33;
    return double(x >> 11) / double(std::uint64_t(1) << 53) * 2 - 1;
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}

template <class Work> double medianMs(int reps, Work&& work)
{
    work();  // warm-up
    std::vector<double> times;
    for (int r = 0; r < std::max(reps, 1); ++r) {
        const auto t0 = std::chrono::steady_clock::now();
        work();
        const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        times.push_back(ms);
        if (ms > 2000)
            break;  // a naive kernel at large n: one timing is enough
    }
    return median(times);
}

template <class T> void runCpu(Record& rec, const std::vector<T>& a, const std::vector<T>& b, std::vector<T>& c)
{
    const std::int64_t n = rec.config.n;
    std::vector<T> ar(std::size_t(n * n / 2)), br(std::size_t(n * n / 2));
    switch (rec.config.variant) {
    case Variant::Naive4p: rec.kernelMs = medianMs(rec.config.reps, [&] { cpu::naive4p(a.data(), b.data(), c.data(), n); }); break;
    case Variant::NaiveP: rec.kernelMs = medianMs(rec.config.reps, [&] { cpu::naiveP(a.data(), b.data(), c.data(), n); }); break;
    case Variant::ReduceBlas:
        rec.kernelMs = medianMs(rec.config.reps, [&] { cpu::reduceBlas(a.data(), b.data(), c.data(), ar.data(), br.data(), n); });
        break;
    default: throw InputError("reduced matmul variant '" + std::string(toString(rec.config.variant)) + "' has no CPU implementation");
    }
    std::vector<T> scratch(c.size());
    cpu::reduceRowPairs(a.data(), ar.data(), n);
    cpu::reduceColumnPairs(b.data(), br.data(), n);
    rec.libraryMs = medianMs(rec.config.reps, [&] { cpu::blasGemm(ar.data(), br.data(), scratch.data(), n); });
}

// Compares C(i, j) with sum_k (A(2i,k) + A(2i+1,k)) (B(k,2j) + B(k,2j+1)) in FP64.
template <class T> void verify(Record& rec, const std::vector<T>& a, const std::vector<T>& b, const std::vector<T>& c)
{
    const std::int64_t n = rec.config.n, h = n / 2;
    std::vector<std::int64_t> rows, cols;
    if (n <= kCheckEverythingUpTo) {
        for (std::int64_t i = 0; i < h; ++i)
            rows.push_back(i);
        cols = rows;
    } else {
        for (std::int64_t s = 0; s < kSampledRowsAndColumns; ++s) {
            rows.push_back(std::int64_t((uniform(std::uint64_t(s), 7) + 1) / 2 * double(h)) % h);
            cols.push_back(std::int64_t((uniform(std::uint64_t(s), 11) + 1) / 2 * double(h)) % h);
        }
        rows.push_back(h - 1);
        cols.push_back(h - 1);
    }
    const double eps = std::numeric_limits<T>::epsilon();
    rec.tolerance = 4.0 * double(n) * eps;  // a loose a-priori bound on the relative error of a length-n dot product
    for (std::int64_t i : rows)
        for (std::int64_t j : cols) {
            double exact = 0, magnitude = 0;
            for (std::int64_t k = 0; k < n; ++k) {
                const double ra = double(a[std::size_t(2 * i * n + k)]) + double(a[std::size_t((2 * i + 1) * n + k)]);
                const double rb = double(b[std::size_t(k * n + 2 * j)]) + double(b[std::size_t(k * n + 2 * j + 1)]);
                exact += ra * rb;
                // Bounds the terms of both forms ((a0 + a1)(b0 + b1) and the four products of 4p).
                magnitude += (std::abs(double(a[std::size_t(2 * i * n + k)])) + std::abs(double(a[std::size_t((2 * i + 1) * n + k)]))) *
                             (std::abs(double(b[std::size_t(k * n + 2 * j)])) + std::abs(double(b[std::size_t(k * n + 2 * j + 1)])));
            }
            const double rel = std::abs(double(c[std::size_t(i * h + j)]) - exact) / std::max(magnitude, 1e-300);
            rec.maxRelError = std::max(rec.maxRelError, rel);
            rec.wrong += !(rel <= rec.tolerance);
            ++rec.checked;
        }
}

template <class T> void runTyped(Record& rec, BackendKind backend)
{
    const std::int64_t n = rec.config.n;
    std::vector<T> a(std::size_t(n * n)), b(std::size_t(n * n)), c(std::size_t(n * n / 4));
    for (std::size_t k = 0; k < a.size(); ++k) {
        a[k] = T(uniform(k, rec.config.seed));
        b[k] = T(uniform(k, rec.config.seed + 1));
    }
    if (backend == BackendKind::Cuda) {
        std::string why;
        if (!device::available(&why))
            throw InputError("reduced matmul variant '" + std::string(toString(rec.config.variant)) + "' on CUDA: no CUDA device: " + why);
        const device::Timing t = device::run(rec.config.variant, rec.config.precision, a.data(), b.data(), c.data(), n,
                                             rec.config.reps, rec.config.device);
        rec.device = t.deviceName;
        rec.kernelMs = t.kernelMs;
        rec.libraryMs = t.libraryMs;
        rec.h2dMs = t.h2dMs;
        rec.d2hMs = t.d2hMs;
    } else {
        rec.device = "CPU";
        runCpu(rec, a, b, c);
    }
    verify(rec, a, b, c);
}

}  // namespace

BackendKind resolveBackend(const Config& c)
{
    if (c.backend != BackendKind::Auto)
        return c.backend;
    if (!onCpu(c.variant))
        return BackendKind::Cuda;
    return device::available(nullptr) ? BackendKind::Cuda : BackendKind::Cpu;
}

void checkConfig(const Config& c, BackendKind backend)
{
    if (c.n <= 0 || c.n % 2 != 0)
        throw InputError("reduced matmul needs an even N > 0 (C is N/2 x N/2 of row and column pairs), got " + std::to_string(c.n));
    if (backend == BackendKind::Cpu && !onCpu(c.variant))
        throw InputError("reduced matmul variant '" + std::string(toString(c.variant)) +
                         "' has no CPU implementation (CPU: naive4p, naivep, reduce-blas)");
}

Record runReduced(const Config& config)
{
    Record rec;
    rec.config = config;
    rec.createdAt = nowIso8601();
    const BackendKind backend = resolveBackend(config);
    checkConfig(config, backend);
    rec.backend = backend == BackendKind::Cuda ? "cuda" : "cpu";
    rec.counts = countsOf(config.variant, config.n, config.precision);
    if (config.precision == Precision::F32)
        runTyped<float>(rec, backend);
    else
        runTyped<double>(rec, backend);
    rec.verified = rec.wrong == 0;
    rec.status = rec.verified ? "ok" : "wrong";
    if (rec.kernelMs > 0)
        rec.gflops = rec.counts.flops / (rec.kernelMs * 1e-3) / 1e9;
    return rec;
}

}  // namespace gigacheck::reduced_matmul
