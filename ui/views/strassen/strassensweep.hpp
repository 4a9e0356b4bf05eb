// The Strassen view's small sweep (run on the view's worker thread): speedup vs N of every variant
// (msmes, Strassen-Winograd, and the workspace and accumulate variants, the ones that beat cuBLAS)
// against the plain GEMM (the same family at 0 levels: one leaf GEMM on the same backend, in the
// same process), and per level, classic vs Winograd, the error of C against an FP64 reference and
// the recovery error of A and B (max ulps, changed elements), on inputs of the chosen distribution.
#pragma once

#include <gigacheck/strassen.hpp>

#include <QString>

#include <atomic>
#include <functional>
#include <vector>

namespace gigacheck::ui::strassenlab {

struct SweepRequest {
    Precision precision = Precision::F32;
    bool tf32 = false;
    BackendKind backend = BackendKind::Cpu;
    int device = -1;
    int levels = 1;                    // of the speedup runs
    // CUDA: msmes and winograd by the seed's multi-target kernel instead of cuBLAS (--leaf kernel).
    bool multiTargetKernel = false;
    Distribution distribution = Distribution::Uniform;  // of the error-vs-level runs (--dist)
    int fromExponent = 7, toExponent = 10;  // N = 2^from ... 2^to
    std::int64_t errorN = 256;         // the size of the error-vs-level runs
    int maxErrorLevels = 4;
    int repeats = 3;                   // best of, for the timings
};

struct SweepPoint {
    enum class Kind { Speedup, Error } kind = Kind::Speedup;
    StrassenVariant variant = StrassenVariant::Msmes;
    std::int64_t n = 0;
    int levels = 0;
    double seconds = 0;       // Speedup: the variant's compute time
    double plainSeconds = 0;  // Speedup: the plain GEMM's, same N
    double relError = -1;     // Error: max |C - C_ref| / max |C_ref|
    StrassenLevelError recovery;  // Error: recovered A and B against the originals
    QString error;            // the run failed: why
    double speedup() const { return seconds > 0 ? plainSeconds / seconds : 0; }
};

// The configuration of one sweep run (exposed for the tests).
StrassenConfig sweepConfig(const SweepRequest& request, StrassenVariant variant, std::int64_t n, int levels);
// The sweep's work in multiply-adds (N^3 per run, the plain GEMM's share spread over the variants
// of its N), in all and per reported point: its progress by work, not by points, since the
// largest N takes nearly all of the time.
double sweepWork(const SweepRequest& request);
double pointWork(const SweepRequest& request, const SweepPoint& point);
// Runs the sweep, handing each point to `report` as it is measured; stops early when cancel is set.
void runSweep(const SweepRequest& request, const std::function<void(const SweepPoint&)>& report,
              const std::atomic<bool>& cancel);

}  // namespace gigacheck::ui::strassenlab
