// An online ABFT run in the lab (ui/README.md "Online ABFT"): its record, and C after
// every step reduced to a bounded grid (the step slider's frames), recorded on the engine's
// thread through the observer. The views that every family shares take the record's envelope
// (models/familyrecord.hpp); the step view and the report read the rest of the online record.
#pragma once

#include <gigacheck/online_abft.hpp>

#include <QMetaType>

#include <memory>
#include <mutex>
#include <vector>

namespace gigacheck::ui {

// C_f after one op, reduced: gridRows x gridCols cells of C (each the value of largest magnitude
// of its block of cells, so a fault's spike survives) followed by the K checksum rows / columns
// (each reduced along its length the same way): (gridRows + K) x (gridCols + K), row-major.
struct StepFrame {
    int opId = 0;
    OpKind kind = OpKind::Product;  // the online family's panel-product, inject-fault or check
    int step = 0;
    std::vector<float> cells;
};

struct StepFrames {
    // Bounds: the grid is at most kMaxCells per axis and a run keeps at most kMaxFrames frames
    // (~ 19 KB each: ~ 15 MB at most, whatever the size of C or the number of steps).
    static constexpr int kMaxCells = 64;
    static constexpr int kMaxFrames = 768;
    std::int64_t resultRows = 0, resultCols = 0;  // m, q of C
    int gridRows = 0, gridCols = 0, checksums = 0;
    std::vector<StepFrame> frames;
    int productStride = 1;       // every productStride-th panel product kept (all faults and checks)
    bool replayedOnCpu = false;  // the run was on the device: the frames are its replay on the CPU
    // The grid cell of C(row, col) (of checksum row / column K: gridRows + K / gridCols + K).
    int cellRow(std::int64_t row) const;
    int cellCol(std::int64_t col) const;
};

struct OnlineRun {
    OnlineRecord record;
    StepFrames frames;  // empty for a record opened from a file
};
using OnlinePtr = std::shared_ptr<const OnlineRun>;

// Reduces each snapshot as it comes (on the compute queue's thread: one pass over C_f, no copy)
// into a bounded frame.
class StepFrameRecorder {
public:
    // steps: the run's panel products, to thin them to kMaxFrames.
    explicit StepFrameRecorder(int steps);
    void record(const StepSnapshot& snapshot);
    StepFrames take();

private:
    std::mutex mutex_;
    StepFrames frames_;
    int lastStep_ = 0;
};

// Runs the online family with the frames recorded. A run on the device keeps C there: its frames
// come from a replay of the same configuration (same seed, same faults) on the CPU, on this
// thread, when the product is small enough to replay quickly (m n q <= kMaxReplayFlops / 2).
constexpr double kMaxReplayFlops = 4e9;
std::shared_ptr<OnlineRun> runOnlineForLab(const OnlineConfig& config, const RunHooks& hooks);
// The configuration of a device run as the CPU replays it for the step view: same seed, faults
// and steps, C as one block (a fault in block b's checksum column strikes C's one checksum column).
OnlineConfig cpuReplayOf(const OnlineConfig& config);

}  // namespace gigacheck::ui

Q_DECLARE_METATYPE(gigacheck::OnlineConfig)
Q_DECLARE_METATYPE(gigacheck::ui::OnlinePtr)
