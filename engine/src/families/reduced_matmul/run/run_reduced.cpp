// One reduced matmul run: check the request, random A and B, the family's schedule through the
// chosen backend's executor (the library GEMM alone on the reduced shape, then the variant, each a
// warm-up and timed repetitions), times from the spans, and a check of C against an FP64
// reference (every element up to n = 512, else a sample of rows and columns).
#include "gigacheck/reduced_matmul.hpp"

#include "core/median.hpp"
#include "core/memory_check.hpp"
#include "core/span_metrics.hpp"
#include "families/gallery/run_start.hpp"
#include "families/reduced_matmul/cuda/device_reduced.hpp"
#include "families/reduced_matmul/ops.hpp"
#include "families/reduced_matmul/plan/schedule_builder.hpp"
#include "gigacheck/abft.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <type_traits>
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

// Median over the timed repetitions (k > 0) of the time each repetition of `who` took (all its
// ops summed: reduce-blas has two).
double medianCallMs(const std::vector<Span>& spans, int who, OpKind onlyKind, bool anyKind)
{
    std::map<int, double> perCall;
    for (const Span& s : spans)
        if (s.block.i == who && s.block.k > 0 && (anyKind ? (s.kind != kCopyIn && s.kind != kCopyOut) : s.kind == onlyKind))
            perCall[s.block.k] += (s.end - s.start) * 1e3;
    std::vector<double> v;
    for (const auto& [k, ms] : perCall)
        v.push_back(ms);
    return median(v);
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
    // Each cell against the round-off of its own dot product (abft.hpp cellTolerance, the threshold
    // machinery of every family): the pair sums a0 + a1, b0 + b1 round once in the storage type
    // (uInput), the 4 N products of naive4p (N of the others) accumulate in it; S = sum_k m_k^2.
    RoundoffModel model;
    model.uAccumulate = model.uInput = unitRoundoff(std::is_same_v<T, double> ? Precision::F64 : Precision::F32);
    const CellTolerance tolerance = cellTolerance(model, 4 * n, 4.0);
    rec.tolerance = 0;  // the largest tolerance / magnitude a checked cell was allowed
    for (std::int64_t i : rows)
        for (std::int64_t j : cols) {
            double exact = 0, magnitude = 0, squares = 0;
            for (std::int64_t k = 0; k < n; ++k) {
                const double ra = double(a[std::size_t(2 * i * n + k)]) + double(a[std::size_t((2 * i + 1) * n + k)]);
                const double rb = double(b[std::size_t(k * n + 2 * j)]) + double(b[std::size_t(k * n + 2 * j + 1)]);
                exact += ra * rb;
                // Bounds the terms of both forms ((a0 + a1)(b0 + b1) and the four products of 4p).
                const double m = (std::abs(double(a[std::size_t(2 * i * n + k)])) + std::abs(double(a[std::size_t((2 * i + 1) * n + k)]))) *
                                 (std::abs(double(b[std::size_t(k * n + 2 * j)])) + std::abs(double(b[std::size_t(k * n + 2 * j + 1)])));
                magnitude += m;
                squares += m * m;
            }
            const double err = std::abs(double(c[std::size_t(i * h + j)]) - exact);
            const double tol = tolerance(squares, exact);
            const double scale = std::max(magnitude, 1e-300);
            rec.maxRelError = std::max(rec.maxRelError, err / scale);
            rec.tolerance = std::max(rec.tolerance, tol / scale);
            rec.wrong += !(err <= tol);  // NaN (a cell never written) is wrong
            ++rec.checked;
        }
}

// Bytes of one run: A, B and C on the host; the schedule's buffers (A, B, C, Ar, Br).
struct Footprint {
    double host = 0, buffers = 0;
};
Footprint footprintOf(const Config& c)
{
    const double full = double(c.n) * double(c.n) * double(elementSize(c.precision));
    return {2 * full + full / 4, 2 * full + full + full / 4};
}
std::string describe(const Config& c)
{
    return "reduced matmul N = " + std::to_string(c.n) + " " + std::string(gigacheck::toString(c.precision));
}

template <class T> void runTyped(Record& rec, Backend& backend)
{
    const std::int64_t n = rec.config.n;
    std::vector<T> a(std::size_t(n * n)), b(std::size_t(n * n)), c(std::size_t(n * n / 4));
    for (std::size_t k = 0; k < a.size(); ++k) {
        a[k] = T(uniform(k, rec.config.seed));
        b[k] = T(uniform(k, rec.config.seed + 1));
    }
    const Schedule schedule = buildSchedule(rec.config.variant, rec.config.precision, n, 1 + std::max(rec.config.reps, 1));
    Inputs inputs;
    inputs.variant = rec.config.variant;
    inputs.precision = rec.config.precision;
    inputs.n = n;
    inputs.a = a.data();
    inputs.b = b.data();
    inputs.c = c.data();
    ExecutionRequest request;
    request.schedule = &schedule;
    request.inputs = &inputs;
    request.cancel = rec.config.cancel;
    ExecutionResult result = backend.execute(request);
    rec.spans = std::move(result.spans);
    if (result.cancelled || (rec.config.cancel && rec.config.cancel->load())) {
        rec.status = "cancelled";  // C is incomplete: nothing to time or check
        return;
    }
    rec.metrics = metricsOfSpans(rec.spans);
    rec.metrics.peakBufferBytes = result.peakBufferBytes;
    rec.metrics.usefulFlops = rec.counts.flops;
    rec.metrics.hostBytesRequired = (a.size() + b.size() + c.size()) * sizeof(T);
    rec.kernelMs = medianCallMs(rec.spans, kVariantCall, kKernel, true);
    rec.libraryMs = medianCallMs(rec.spans, kReferenceCall, kGemm, false);
    for (const Span& s : rec.spans) {
        if (s.kind == kCopyIn)
            rec.h2dMs = (s.end - s.start) * 1e3;
        else if (s.kind == kCopyOut)
            rec.d2hMs = (s.end - s.start) * 1e3;
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
    const Footprint f = footprintOf(c);
    if (backend == BackendKind::Cpu)
        requireHostMemory(f.host + f.buffers, describe(c),
                          "A, B and C " + formatBytes(f.host) + ", the CPU backend's A, B, C, Ar and Br " + formatBytes(f.buffers));
    else
        requireHostMemory(f.host, describe(c), "A, B and C on the host");
    if (c.n > 2147483647)  // OpenBLAS and cuBLAS take int extents
        throw InputError(describe(c) + ": N above 2^31 - 1 does not fit the BLAS libraries' int extents");
}

Record runReduced(const Config& config)
{
    Record rec;
    const BackendKind kind = gallery::startRecord(rec, config, kFamilyName);
    rec.counts = countsOf(config.variant, config.n, config.precision);
    std::unique_ptr<Backend> backend =
        gallery::galleryBackend(kind, config.device, "reduced matmul variant '" + std::string(toString(config.variant)) + "'");
    if (kind == BackendKind::Cuda) {
        const DeviceInfo d = backend->device();
        requireDeviceMemory(footprintOf(config).buffers, d.memoryBytes, d.name, describe(config), "A, B, C, Ar and Br");
    }
    backend->prepare();
    rec.devices = {backend->device()};
    if (config.precision == Precision::F32)
        runTyped<float>(rec, *backend);
    else
        runTyped<double>(rec, *backend);
    if (rec.status == "cancelled") {
        rec.error = "cancelled";
        return rec;
    }
    rec.verified = rec.wrong == 0;
    rec.status = rec.verified ? "ok" : "failed";
    if (!rec.verified)
        rec.error = std::to_string(rec.wrong) + " of " + std::to_string(rec.checked) + " checked elements of C are wrong";
    if (rec.kernelMs > 0)
        rec.gflops = rec.counts.flops / (rec.kernelMs * 1e-3) / 1e9;
    return rec;
}

}  // namespace gigacheck::reduced_matmul
