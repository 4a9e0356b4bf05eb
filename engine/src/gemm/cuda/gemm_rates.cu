// The plain in-core GEMM rates (gemm_rates.hpp).
#include "gemm/cuda/gemm_rates.hpp"

#include "core/cuda/device_fill.hpp"
#include "core/cuda/event_timing.hpp"
#include "core/cuda/resources.hpp"
#include "gemm/cuda/gemm.hpp"
#include "gemm/cuda/gemm_16bit.hpp"
#include "gemm/cuda/gemm_tuning.hpp"

namespace gigacheck::cuda {

namespace {

std::size_t elementBytes(Precision p) { return p == Precision::F64 ? 8 : 4; }

// A device-resident cuBLAS product of m x n x q, median GFLOP/s; with `tuning`, first tuned
// (gemm_tuning.hpp) and run with the kept configuration, its name into *kept.
double residentGemmGflops(std::int64_t m, std::int64_t n, std::int64_t q, Precision p, int reps,
                          const TuningOptions* tuning, std::string* kept, GemmVariant variant = GemmVariant::Cublas)
{
    const std::size_t e = elementBytes(p);
    DeviceBuffer a(std::size_t(m * n) * e), b(std::size_t(n * q) * e), c(std::size_t(m * q) * e);
    Stream s;
    CublasHandle h;
    fill(p, a.get(), m, n, n, 1, s.get());
    fill(p, b.get(), n, q, q, 2, s.get());
    GemmCall g;
    g.variant = variant;
    g.precision = p;
    g.m = m;
    g.n = n;
    g.q = q;
    g.a = a.get();
    g.lda = n;
    g.b = b.get();
    g.ldb = q;
    g.c = c.get();
    g.ldc = q;
    if (tuning) {
        g.tuned = true;
        const GemmTuning t = tuneGemm(g, h.get(), s.get(), *tuning);
        if (kept)
            *kept = t.kept;
    }
    const double ms = timeMs(s.get(), reps, [&] { gemm(g, h.get(), s.get()); });
    return gemmFlops(m, n, q) / (ms * 1e-3) / 1e9;
}

}  // namespace

double inCoreGemmGflops(std::int64_t m, std::int64_t n, std::int64_t q, Precision p, int reps)
{
    return residentGemmGflops(m, n, q, p, reps, nullptr, nullptr);
}

double inCoreTf32GemmGflops(std::int64_t m, std::int64_t n, std::int64_t q, int reps)
{
    return residentGemmGflops(m, n, q, Precision::F32, reps, nullptr, nullptr, GemmVariant::CublasTf32);
}

double inCore16BitGemmGflops(std::int64_t m, std::int64_t n, std::int64_t q, InputFormat format, int reps)
{
    DeviceBuffer a(std::size_t(m * n) * 4), b(std::size_t(n * q) * 4), c(std::size_t(m * q) * 4);
    DeviceBuffer a16(std::size_t(m * n) * 2), b16(std::size_t(n * q) * 2);
    Stream s;
    CublasHandle h;
    fill(Precision::F32, a.get(), m, n, n, 1, s.get());
    fill(Precision::F32, b.get(), n, q, q, 2, s.get());
    convertTo16Bit(format, static_cast<const float*>(a.get()), n, m, n, a16.get(), s.get());
    convertTo16Bit(format, static_cast<const float*>(b.get()), q, n, q, b16.get(), s.get());
    const double ms = timeMs(s.get(), reps, [&] {
        gemmOf16BitOperands(format, a16.get(), b16.get(), static_cast<float*>(c.get()), m, n, q, h.get(), s.get());
    });
    return gemmFlops(m, n, q) / (ms * 1e-3) / 1e9;
}

double tunedInCoreGemmGflops(std::int64_t n, int reps, std::string* kept)
{
    TuningOptions anyLength;
    anyLength.longestMs = 1e30;
    return residentGemmGflops(n, n, n, Precision::F32, reps, &anyLength, kept);
}

}  // namespace gigacheck::cuda
