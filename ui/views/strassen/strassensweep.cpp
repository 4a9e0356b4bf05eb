#include "views/strassen/strassensweep.hpp"

#include <algorithm>
#include <memory>

namespace gigacheck::ui::strassenlab {

StrassenConfig sweepConfig(const SweepRequest& request, StrassenVariant variant, std::int64_t n, int levels)
{
    StrassenConfig c;
    c.shape = {n, n, n};
    c.levels = levels;
    c.variant = variant;
    c.precision = request.precision;
    c.tf32 = request.tf32;
    c.backend = request.backend;
    c.device = request.device;
    // The kernel multiplies products with several targets once (msmes, winograd; CUDA only).
    c.multiTargetKernel = request.multiTargetKernel && request.backend == BackendKind::Cuda && !request.tf32 &&
                          (variant == StrassenVariant::Msmes || variant == StrassenVariant::Winograd);
    c.distribution = request.distribution;
    c.verify = false;      // the timings are the compute ops'; checksums are host work
    c.reference = false;   // only the error runs need the FP64 reference
    return c;
}

namespace {

constexpr int kSpeedupVariants = 4;  // msmes, winograd, workspace, accumulate

double cube(std::int64_t n)
{
    return double(n) * double(n) * double(n);
}

}  // namespace

double sweepWork(const SweepRequest& request)
{
    double work = 0;
    for (int e = request.fromExponent; e <= request.toExponent; ++e)
        work += (kSpeedupVariants + 1) * cube(std::int64_t(1) << e);
    const int errorPoints = 2 * request.maxErrorLevels + 1;  // levels 0 ... L of msmes, 1 ... L of winograd
    return work + errorPoints * cube(request.errorN);
}

double pointWork(const SweepRequest& request, const SweepPoint& point)
{
    if (point.kind == SweepPoint::Kind::Error)
        return cube(request.errorN);
    // A plain GEMM (0 levels) is reported only when it failed, alone, and it ends its N.
    const bool plainFailed = point.levels == 0;
    return plainFailed ? (kSpeedupVariants + 1) * cube(point.n) : (1.0 + 1.0 / kSpeedupVariants) * cube(point.n);
}

void runSweep(const SweepRequest& request, const std::function<void(const SweepPoint&)>& report, const std::atomic<bool>& cancel)
{
    std::unique_ptr<Backend> backend;
    // One run; its best time over `repeats` (the first run of a size also warms the backend up).
    auto measure = [&](StrassenConfig c, int repeats, SweepPoint& p) {
        try {
            if (!backend)
                backend = makeStrassenBackend(c);
            double best = -1;
            for (int r = 0; r < repeats && !cancel.load(); ++r) {
                const StrassenResult result = runStrassen(c, *backend, nullptr, &cancel);
                if (result.status == "failed" || result.status == "cancelled") {
                    p.error = QString::fromStdString(result.error.empty() ? result.status : result.error);
                    return false;
                }
                best = best < 0 ? result.seconds : std::min(best, result.seconds);
                p.relError = result.relErrorC;
                p.recovery = result.recovery;
            }
            p.seconds = best;
            return best >= 0;
        } catch (const std::exception& e) {
            p.error = QString::fromStdString(e.what());
            return false;
        }
    };

    // A first, discarded run: the backend's threads and OpenBLAS's buffers start before any timing
    // (else the first plain GEMM carries them and the smallest N shows a speedup that is not there).
    {
        SweepPoint warmUp;
        measure(sweepConfig(request, StrassenVariant::Msmes, std::int64_t(1) << request.fromExponent, 0), 1, warmUp);
    }
    for (int e = request.fromExponent; e <= request.toExponent && !cancel.load(); ++e) {
        const std::int64_t n = std::int64_t(1) << e;
        SweepPoint plain;
        if (!measure(sweepConfig(request, StrassenVariant::Msmes, n, 0), request.repeats, plain)) {
            plain.n = n;
            report(plain);
            continue;
        }
        for (StrassenVariant v : {StrassenVariant::Msmes, StrassenVariant::Winograd, StrassenVariant::Workspace,
                                  StrassenVariant::Accumulate}) {
            if (cancel.load())
                break;
            SweepPoint p;
            p.variant = v;
            p.n = n;
            p.levels = request.levels;
            measure(sweepConfig(request, v, n, request.levels), request.repeats, p);
            p.plainSeconds = plain.seconds;
            report(p);
        }
    }
    for (StrassenVariant v : {StrassenVariant::Msmes, StrassenVariant::Winograd})
        for (int levels = 0; levels <= request.maxErrorLevels && !cancel.load(); ++levels) {
            if (levels == 0 && v == StrassenVariant::Winograd)
                continue;  // level 0 is the plain GEMM, the same for both
            SweepPoint p;
            p.kind = SweepPoint::Kind::Error;
            p.variant = v;
            p.n = request.errorN;
            p.levels = levels;
            StrassenConfig c = sweepConfig(request, v, request.errorN, levels);
            c.reference = true;
            measure(c, 1, p);
            report(p);
        }
}

}  // namespace gigacheck::ui::strassenlab
