// What a caller of measureCeilings (gigacheck/bench.hpp) may hand it: a progress and cancel hook
// (the lab's "Measure this machine…" drives its progress bar and Cancel through it) and a quick
// mode with fewer, smaller points. Plain C++: the engine has no Qt.
#pragma once

#include <stdexcept>
#include <string>

namespace gigacheck {

// Called on the measuring thread. Both calls must return quickly; cancelled() may be set from
// any thread (an atomic flag behind it).
class MeasureProgress {
public:
    virtual ~MeasureProgress() = default;
    // Asked before every point: true stops the measurement there (measureCeilings throws
    // MeasureCancelled; nothing is returned, nothing stored).
    virtual bool cancelled() { return false; }
    // Before every point: the stage it belongs to ("FP32 GEMM roof", "GEMM rate table", ...), the
    // points done so far and the points in all (done <= total; total is fixed for one
    // measurement). After the last point: stage("done", total, total).
    virtual void stage(const std::string& name, int done, int total)
    {
        (void)name;
        (void)done;
        (void)total;
    }
};

// measureCeilings stopped because MeasureProgress::cancelled() said so.
struct MeasureCancelled : std::runtime_error {
    MeasureCancelled() : std::runtime_error("measurement cancelled") {}
};

struct MeasureOptions {
    MeasureProgress* progress = nullptr;  // null: no reports, never cancelled
    // Fewer and smaller points (CPU: roofs at n = 512 and 64 MiB, rate tables of 64 and 128 and
    // two row widths; GPU: the rate tables' quick set). For tests and smoke runs: the roofs are
    // rougher and the cost model's tables coarser than a full measurement's.
    bool quick = false;
};

}  // namespace gigacheck
