// The cost model: rates from a device's measured tables, each op's predicted time.
#include "gigacheck/blocked_gemm/cost_model.hpp"

#include <algorithm>
#include <cmath>
#include <map>

namespace gigacheck {

namespace {

// What the model assumes for a rate nobody measured (a laptop before `devices --measure`): modest
// figures, so that a plan made on them is never far off and the plan text says they were assumed.
constexpr double kAssumedCpuGflops = 20, kAssumedCpuCopyGBs = 5, kAssumedCpuBandwidthGBs = 10;
constexpr double kAssumedGpuGflops = 10000, kAssumedGpuLinkGBs = 20, kAssumedGpuBandwidthGBs = 1000;
// Per op: the CPU executor's queue threads hand an op over through a condition variable; a CUDA op
// is a launch or a copy submission between two events.
constexpr double kCpuOpLatencySeconds = 20e-6, kGpuOpLatencySeconds = 8e-6;

bool aligned(std::int64_t x) { return x % 8 == 0; }

double effectiveSize(double m, double n, double k) { return std::cbrt(m * n * k); }

// y at x from points sorted by x, log-linear between neighbours; `below` says what happens left of
// the first point (scale linearly with x, or hold), the last point's y holds to the right.
struct XY {
    double x, y;
};
double interpolate(std::vector<XY> points, double x, bool slowDownBelow)
{
    std::sort(points.begin(), points.end(), [](const XY& a, const XY& b) { return a.x < b.x; });
    if (x <= points.front().x)
        return slowDownBelow ? points.front().y * x / points.front().x : points.front().y;
    if (x >= points.back().x)
        return points.back().y;
    for (std::size_t i = 1; i < points.size(); ++i) {
        if (x <= points[i].x) {
            const XY& lo = points[i - 1];
            const XY& hi = points[i];
            const double t = std::log(x / lo.x) / std::log(hi.x / lo.x);
            return lo.y + t * (hi.y - lo.y);
        }
    }
    return points.back().y;
}

double fallbackGflops(const CostModel& model, const std::string& kind)
{
    if (kind == "f64")
        return model.gflopsF64;
    if (kind == "tf32" && model.gflopsTf32 > 0)
        return model.gflopsTf32;
    if (kind == "bf16" && model.gflopsBf16 > 0)
        return model.gflopsBf16;
    if (kind == "f16" && model.gflopsF16 > 0)
        return model.gflopsF16;
    return model.gflopsF32;
}

}  // namespace

bool hasMeasuredRates(const Ceilings& c) { return !c.gemmRates.empty() && !c.copyRates.empty(); }

CostModel costModelOf(const DeviceInfo& device)
{
    const Ceilings& c = device.ceilings;
    const bool gpu = device.backend == BackendKind::Cuda;
    CostModel model;
    model.gemmRates = c.gemmRates;
    model.copyRates = c.copyRates;
    model.gflopsF32 = c.gflopsF32;
    model.gflopsTf32 = c.gflopsTf32;
    model.gflopsBf16 = c.gflopsBf16;
    model.gflopsF16 = c.gflopsF16;
    model.gflopsF64 = c.gflopsF64;
    model.deviceBandwidthGBs = c.deviceBandwidthGBs;
    // The CPU's "host link" is a memcpy: each copied byte is read and written once.
    model.h2dGBs = gpu ? c.h2dGBs : c.deviceBandwidthGBs / 2;
    model.d2hGBs = gpu ? c.d2hGBs : c.deviceBandwidthGBs / 2;
    model.opLatencySeconds = gpu ? kGpuOpLatencySeconds : kCpuOpLatencySeconds;
    model.hostPackGBs = c.hostPackGBs;

    std::vector<std::string> assumed;
    if (model.gflopsF32 <= 0 && model.gemmRates.empty()) {
        model.gflopsF32 = gpu ? kAssumedGpuGflops : kAssumedCpuGflops;
        assumed.push_back("GEMM rate");
    }
    if (model.gflopsF64 <= 0)
        model.gflopsF64 = model.gflopsF32 / 2;
    if (model.copyRates.empty() && (model.h2dGBs <= 0 || model.d2hGBs <= 0)) {
        model.h2dGBs = model.d2hGBs = gpu ? kAssumedGpuLinkGBs : kAssumedCpuCopyGBs;
        assumed.push_back("copy rate");
    }
    if (model.deviceBandwidthGBs <= 0) {
        model.deviceBandwidthGBs = gpu ? kAssumedGpuBandwidthGBs : kAssumedCpuBandwidthGBs;
        assumed.push_back("memory bandwidth");
    }
    model.source = hasMeasuredRates(c) ? "rates measured by devices --measure (" + c.source + ")"
                   : c.source.empty()  ? "no measured rates"
                                       : "roofs only (" + c.source + "; no rate tables: devices --measure again)";
    if (!assumed.empty()) {
        model.source += "; assumed ";
        for (std::size_t i = 0; i < assumed.size(); ++i)
            model.source += (i ? ", " : "") + assumed[i];
        model.source += " (run gigacheck devices --measure)";
    }
    return model;
}

std::string gemmRateKind(Precision precision, GemmVariant gemm)
{
    if (precision == Precision::F64)
        return "f64";
    switch (inputFormatOf(gemm)) {
    case InputFormat::Tf32: return "tf32";
    case InputFormat::Bf16: return "bf16";
    case InputFormat::F16: return "f16";
    case InputFormat::F32: break;
    }
    return "f32";
}

double predictedGemmGflops(const CostModel& model, const std::string& kind, std::int64_t m, std::int64_t n,
                           std::int64_t k)
{
    // A point measured at this very shape (the planner's probe) first.
    for (const GemmRatePoint& p : model.gemmRates)
        if (p.kind == kind && p.m == m && p.n == n && p.k == k && p.gflops > 0)
            return p.gflops;
    // Points of the kind in the shape's alignment class; the other class, or the other FP32 kind,
    // when the class has none (an odd extent can cost a tensor-core GEMM much of its rate).
    const bool wantAligned = aligned(m) && aligned(n) && aligned(k);
    std::vector<XY> same, other;
    for (const GemmRatePoint& p : model.gemmRates) {
        if (p.kind != kind || p.gflops <= 0)
            continue;
        const bool isAligned = aligned(p.m) && aligned(p.n) && aligned(p.k);
        (isAligned == wantAligned ? same : other).push_back({effectiveSize(double(p.m), double(p.n), double(p.k)), p.gflops});
    }
    const std::vector<XY>& points = !same.empty() ? same : other;
    if (points.empty()) {
        const double fallback = fallbackGflops(model, kind);
        return fallback > 0 ? fallback : kAssumedCpuGflops;
    }
    return interpolate(points, effectiveSize(double(m), double(n), double(k)), true);
}

double predictedCopyGBs(const CostModel& model, Queue direction, double rowBytes, bool loaded, double hostPitchBytes)
{
    // Per measured row width: the rate at this host pitch (log-linear between the pitches measured
    // for that width, held beyond them; older tables: one point, pitch twice the row); then
    // log-linear across the widths.
    std::map<std::int64_t, std::vector<XY>> byWidth;
    for (const CopyRatePoint& p : model.copyRates) {
        const double alone = direction == Queue::D2H ? p.d2hGBs : p.h2dGBs;
        const double beside = direction == Queue::D2H ? p.d2hLoadedGBs : p.h2dLoadedGBs;
        const double rate = loaded && beside > 0 ? beside : alone;
        if (p.rowBytes > 0 && rate > 0)
            byWidth[p.rowBytes].push_back({double(p.hostPitchBytes > 0 ? p.hostPitchBytes : 2 * p.rowBytes), rate});
    }
    std::vector<XY> points;
    for (const auto& [width, pitches] : byWidth)
        points.push_back({double(width), interpolate(pitches, hostPitchBytes > 0 ? hostPitchBytes : 2 * double(width), false)});
    if (points.empty()) {
        const double fallback = direction == Queue::D2H ? model.d2hGBs : model.h2dGBs;
        return fallback > 0 ? fallback : kAssumedCpuCopyGBs;
    }
    // Narrower rows than measured: per-row overhead dominates, the rate falls with the width.
    return interpolate(points, std::max(1.0, rowBytes), true);
}

GemmShape productRateShape(const Operation& op)
{
    // With ABFT the product runs on the augmented blocks: flops = 2 (rows+1)(cols+1) depth.
    const double plain = 2.0 * double(op.rows) * double(op.cols) * double(op.depth);
    const std::int64_t extra = op.flops > plain * (1 + 1e-12) ? 1 : 0;
    return {op.rows + extra, op.cols + extra, op.depth};
}

double predictedOpSeconds(const CostModel& model, const Operation& op, const std::string& gemmKind,
                          std::size_t elementBytes, bool loaded, double hostPitchBytes, bool packedOnHost)
{
    const double latency = model.opLatencySeconds;
    switch (op.kind) {
    case OpKind::CopyH2D:
    case OpKind::CopyD2H: {
        // Packed on the host: one contiguous copy of the block's bytes (the packing runs ahead of it).
        const double rowBytes = packedOnHost ? op.bytes : double(op.host.cols) * double(elementBytes);
        const double pitch = packedOnHost ? op.bytes : hostPitchBytes;
        double rate = predictedCopyGBs(model, op.queue, rowBytes, loaded, pitch);
        // A direct load reads the run's own host matrices: their calibrated alone rate bounds it.
        if (op.kind == OpKind::CopyH2D && !packedOnHost && model.h2dInSituFactor != 1) {
            const double alone = predictedCopyGBs(model, op.queue, rowBytes, false, pitch) * model.h2dInSituFactor;
            rate = loaded ? std::min(rate, alone) : alone;
        }
        return latency + op.bytes / (rate * 1e9);
    }
    case OpKind::Product: {
        const GemmShape g = productRateShape(op);
        return latency + op.flops / (predictedGemmGflops(model, gemmKind, g.m, g.n, g.k) * 1e9);
    }
    case OpKind::Checksum:
    case OpKind::Verify:
        return latency + op.bytes / (model.deviceBandwidthGBs * 1e9);
    default:
        return latency;  // inject: a no-op for the products the fault plan does not target
    }
}

}  // namespace gigacheck
