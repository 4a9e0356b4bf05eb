// One transpose run: check the request, fill a matrix of distinct values, run the family's schedule
// (copy in, warm-up + timed transposes, copy out) through the backend's executor, verify every
// element, fill the record from the spans.
#include "gigacheck/transpose.hpp"

#include "core/median.hpp"
#include "core/span_metrics.hpp"
#include "core/timestamp.hpp"
#include "families/transpose/cuda/device_transpose.hpp"
#include "families/transpose/ops.hpp"
#include "families/transpose/plan/schedule_builder.hpp"
#include "families/transpose/run/matrix_values.hpp"
#include "gigacheck/version.hpp"

#include <algorithm>
#include <vector>

namespace gigacheck::transpose {

namespace {

std::unique_ptr<Backend> backendFor(const Config& config, BackendKind kind)
{
    if (kind == BackendKind::Cpu)
        return makeCpuBackend();
    std::string why;
    std::unique_ptr<Backend> b = makeCudaBackend(&why, config.device);
    if (!b)
        throw InputError("transpose variant '" + std::string(toString(config.variant)) + "' on CUDA: no CUDA device: " + why);
    return b;
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
    rec.family = std::string(kFamilyName);
    rec.toolVersion = kVersion;
    rec.createdAt = nowIso8601();
    const BackendKind kind = resolveBackend(config);
    checkConfig(config, kind);
    rec.backend = kind == BackendKind::Cuda ? "cuda" : "cpu";
    rec.counts = countsOf(config.variant, config.m, config.n, config.type);
    const std::int64_t m = config.m, n = config.n;

    std::vector<std::uint32_t> data(std::size_t(m * n));
    fillDistinct(data, config.seed);
    const std::vector<std::uint32_t> original = data;

    std::unique_ptr<Backend> backend = backendFor(config, kind);
    backend->prepare();
    const Schedule schedule = buildSchedule(config.variant, config.type, m, n, 1 + std::max(config.reps, 0));
    Inputs inputs;
    inputs.variant = config.variant;
    inputs.type = config.type;
    inputs.m = m;
    inputs.n = n;
    inputs.host = data.data();
    ExecutionRequest request;
    request.schedule = &schedule;
    request.inputs = &inputs;
    ExecutionResult result = backend->execute(request);

    rec.devices = {backend->device()};
    rec.spans = std::move(result.spans);
    rec.metrics = metricsOfSpans(rec.spans);
    rec.metrics.peakBufferBytes = result.peakBufferBytes;
    rec.metrics.hostBytesRequired = data.size() * sizeof(std::uint32_t);
    // reps 0: one call, no warm-up (cache simulation). In place, the calls alternate between the
    // m x n matrix and the n x m result (back): the record's time is the m x n calls', as a
    // rectangle's two orientations may run different kernels.
    std::vector<double> timed, back, once;
    for (const Span& s : rec.spans) {
        const double ms = (s.end - s.start) * 1e3;
        if (s.kind == kTranspose)
            (s.block.k == 0 ? once : schedule.ops[std::size_t(s.opId)].rows != m ? back : timed).push_back(ms);
        else if (s.kind == kCopyIn)
            rec.h2dMs = ms;
        else if (s.kind == kCopyOut)
            rec.d2hMs = ms;
    }
    rec.kernelMs = median(timed.empty() ? once : timed);
    rec.backMs = back.empty() ? 0 : median(back);
    if (kind == BackendKind::Cuda) {
        const std::size_t bytes = std::size_t(m * n) * elementBytes(config.type);
        rec.copyGbps = device::deviceCopyGbps(bytes, std::max(config.reps, 1), config.device);
        rec.peakGbps = device::datasheetPeakGbps(config.device);
    }
    rec.mismatches = countMisplaced(original, data, m, n);
    rec.verified = rec.mismatches == 0;
    rec.status = rec.verified ? "ok" : "failed";
    if (!rec.verified)
        rec.error = std::to_string(rec.mismatches) + " elements not at their transposed place";
    if (rec.kernelMs > 0)
        rec.gbps = (rec.counts.bytesRead + rec.counts.bytesWritten) / (rec.kernelMs * 1e-3) / 1e9;
    return rec;
}

}  // namespace gigacheck::transpose
