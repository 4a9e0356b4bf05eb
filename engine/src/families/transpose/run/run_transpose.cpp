// One transpose run: check the request, fill a matrix of distinct values, run the family's schedule
// (copy in, warm-up + timed transposes, copy out) through the backend's executor, verify every
// element, fill the record from the spans.
#include "gigacheck/transpose.hpp"

#include "core/median.hpp"
#include "core/memory_check.hpp"
#include "core/span_metrics.hpp"
#include "families/gallery/run_start.hpp"
#include "families/transpose/cuda/device_transpose.hpp"
#include "families/transpose/ops.hpp"
#include "families/transpose/plan/schedule_builder.hpp"
#include "families/transpose/run/matrix_values.hpp"

#include <algorithm>
#include <vector>

namespace gigacheck::transpose {

namespace {

// Copies timed for the 100 % line: the best of these after a warm-up, before and after the kernels.
constexpr int kCopyReps = 10;

std::string describe(const Config& c)
{
    return "transpose " + std::to_string(c.m) + "x" + std::to_string(c.n) + " " + std::string(toString(c.type));
}
// One matrix's bytes, in double: a side of 2^32 must give its byte count, not an overflow.
double matrixBytes(const Config& c) { return double(c.m) * double(c.n) * double(elementBytes(c.type)); }

// The record's times from the spans. reps 0: one call, no warm-up (cache simulation). In place,
// the calls alternate between the m x n matrix and the n x m result (back): the record's time is
// the m x n calls', as a rectangle's two orientations may run different kernels. A cancelled run
// that timed no call after the warm-up reports no time rather than the warm-up's.
void timeCalls(Record& rec, const Schedule& schedule, bool cancelled)
{
    std::vector<double> timed, back, once;
    for (const Span& s : rec.spans) {
        const double ms = (s.end - s.start) * 1e3;
        if (s.kind == kTranspose)
            (s.block.k == 0 ? once : schedule.ops[std::size_t(s.opId)].rows != rec.config.m ? back : timed).push_back(ms);
        else if (s.kind == kCopyIn)
            rec.h2dMs = ms;
        else if (s.kind == kCopyOut)
            rec.d2hMs = ms;
    }
    rec.kernelMs = median(timed.empty() && (!cancelled || rec.config.reps == 0) ? once : timed);
    rec.backMs = back.empty() ? 0 : median(back);
    if (rec.kernelMs > 0)
        rec.gbps = (rec.counts.bytesRead + rec.counts.bytesWritten) / (rec.kernelMs * 1e-3) / 1e9;
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
        throw InputError("transpose variant '" + name + "' has no CPU implementation (CPU: naive, blocked, outofplace, inplace, library)");
    if (backend == BackendKind::Cuda && !onCuda(c.variant))
        throw InputError("transpose variant '" + name + "' has no CUDA kernel (CUDA: naive, coalesced, inplace, padded, library)");
    if (squareOnly(c.variant) && c.m != c.n)
        throw InputError("transpose variant '" + name + "' needs a square matrix (got " + std::to_string(c.m) + "x" +
                         std::to_string(c.n) + "); inplace takes any m x n");
    if (c.variant == Variant::Library && c.type != ElementType::F32)
        throw InputError("transpose variant 'library' (OpenBLAS somatcopy / cuBLAS geam) takes float32 only (--type f32)");
    // The host holds the matrix and its original for the check (32-bit values); the CPU backend's
    // buffers are host memory too (X, and Y out of place).
    const double matrix = matrixBytes(c), buffers = matrix * (inPlace(c.variant) ? 1 : 2);
    if (backend == BackendKind::Cpu)
        requireHostMemory(2 * matrix + buffers, describe(c),
                          "the matrix and its original for the check " + formatBytes(2 * matrix) + ", the CPU backend's " +
                              (inPlace(c.variant) ? "X " : "X and Y ") + formatBytes(buffers));
    else
        requireHostMemory(2 * matrix, describe(c), "the matrix and its original for the check");
    if (backend == BackendKind::Cuda && (c.m > 2147483647 || c.n > 2147483647))
        throw InputError("transpose: a side above 2^31 - 1 does not fit the kernels' grids");
}

Record runTranspose(const Config& config)
{
    Record rec;
    const BackendKind kind = gallery::startRecord(rec, config, kFamilyName);
    rec.counts = countsOf(config.variant, config.m, config.n, config.type);
    const std::int64_t m = config.m, n = config.n;

    std::unique_ptr<Backend> backend =
        gallery::galleryBackend(kind, config.device, "transpose variant '" + std::string(toString(config.variant)) + "'");
    const std::size_t bytes = std::size_t(m * n) * elementBytes(config.type);
    if (kind == BackendKind::Cuda) {  // X (and Y out of place), or the two buffers of the device copy
        const DeviceInfo d = backend->device();
        requireDeviceMemory(matrixBytes(config) * 2, d.memoryBytes, d.name, describe(config),
                            inPlace(config.variant) ? "X, and the device copy's two buffers" : "X and Y");
    }

    std::vector<std::uint32_t> data(std::size_t(m * n));
    fillDistinct(data, config.seed);
    const std::vector<std::uint32_t> original = data;

    backend->prepare();
    // The 100 % line: the best device copy of the same bytes, measured before the kernels and again
    // after them (one process can run its copies at two speeds: 3750 against 4150 GB/s on an H200).
    if (kind == BackendKind::Cuda)
        rec.copyGbps = device::deviceCopyGbps(bytes, kCopyReps, config.device);
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
    request.cancel = config.cancel;
    ExecutionResult result = backend->execute(request);
    rec.devices = {backend->device()};
    rec.spans = std::move(result.spans);
    rec.metrics = metricsOfSpans(rec.spans);
    rec.metrics.peakBufferBytes = result.peakBufferBytes;
    rec.metrics.hostBytesRequired = data.size() * sizeof(std::uint32_t);
    // A cancel stops the run between transposes, so every call in the spans ran whole and is timed.
    timeCalls(rec, schedule, result.cancelled);
    if (result.cancelled) {  // the matrix is left half done: nothing to verify
        rec.status = "cancelled";
        rec.error = "cancelled";
        return rec;
    }
    if (kind == BackendKind::Cuda) {
        rec.copyGbps = std::max(rec.copyGbps, device::deviceCopyGbps(bytes, kCopyReps, config.device));
        rec.peakGbps = device::datasheetPeakGbps(config.device);
    }
    rec.mismatches = countMisplaced(original, data, m, n);
    rec.verified = rec.mismatches == 0;
    rec.status = rec.verified ? "ok" : "failed";
    if (!rec.verified)
        rec.error = std::to_string(rec.mismatches) + " elements not at their transposed place";
    return rec;
}

}  // namespace gigacheck::transpose
