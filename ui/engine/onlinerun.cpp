#include "onlinerun.hpp"

#include <gigacheck/backend.hpp>

#include <algorithm>
#include <cmath>

namespace gigacheck::ui {

namespace {

bool isKind(OpKind kind, std::string_view name)
{
    return toString(kind) == name;
}

int gridExtent(std::int64_t n)
{
    return int(std::min<std::int64_t>(n, StepFrames::kMaxCells));
}

// The value of largest magnitude of row[begin..end).
template <class T> float signedMax(const T* row, std::int64_t begin, std::int64_t end)
{
    float best = 0;
    for (std::int64_t j = begin; j < end; ++j) {
        const float v = float(row[j]);
        if (!(std::abs(v) <= std::abs(best)))  // NaN and inf win
            best = v;
    }
    return best;
}

template <class T> void reduce(const StepSnapshot& s, const StepFrames& shape, std::vector<float>& out)
{
    const int gr = shape.gridRows, gc = shape.gridCols, k = shape.checksums;
    const int width = gc + k;
    out.assign(std::size_t((gr + k) * width), 0.0f);
    const T* data = static_cast<const T*>(s.data);
    const auto colEdge = [&](int cell) { return cell * s.resultCols / gc; };
    for (std::int64_t i = 0; i < s.rows; ++i) {
        const int cr = i < s.resultRows ? int(i * gr / s.resultRows) : gr + int(i - s.resultRows);
        const T* row = data + i * s.ld;
        float* cells = out.data() + std::size_t(cr) * width;
        for (int cc = 0; cc < gc; ++cc) {
            const float v = signedMax(row, colEdge(cc), colEdge(cc + 1));
            if (!(std::abs(v) <= std::abs(cells[cc])))
                cells[cc] = v;
        }
        for (int c = 0; c < k; ++c) {
            const float v = float(row[s.resultCols + c]);
            if (!(std::abs(v) <= std::abs(cells[gc + c])))
                cells[gc + c] = v;
        }
    }
}

}  // namespace

int StepFrames::cellRow(std::int64_t row) const
{
    return resultRows > 0 ? int(std::clamp<std::int64_t>(row, 0, resultRows - 1) * gridRows / resultRows) : 0;
}

int StepFrames::cellCol(std::int64_t col) const
{
    return resultCols > 0 ? int(std::clamp<std::int64_t>(col, 0, resultCols - 1) * gridCols / resultCols) : 0;
}

StepFrameRecorder::StepFrameRecorder(int steps)
{
    // Products thinned so that they, their faults and checks stay within kMaxFrames.
    frames_.productStride = std::max(1, (3 * steps + StepFrames::kMaxFrames - 1) / StepFrames::kMaxFrames);
    lastStep_ = std::max(0, steps - 1);
}

void StepFrameRecorder::record(const StepSnapshot& s)
{
    const std::lock_guard lock(mutex_);
    if (frames_.frames.empty()) {
        frames_.resultRows = s.resultRows;
        frames_.resultCols = s.resultCols;
        frames_.gridRows = gridExtent(s.resultRows);
        frames_.gridCols = gridExtent(s.resultCols);
        frames_.checksums = int(s.rows - s.resultRows);
    }
    const bool product = isKind(s.kind, "panel-product");
    if (product && s.step % frames_.productStride != 0 && s.step != lastStep_)
        return;
    if (int(frames_.frames.size()) >= StepFrames::kMaxFrames)
        return;
    StepFrame frame;
    frame.opId = s.opId;
    frame.kind = s.kind;
    frame.step = s.step;
    if (s.precision == Precision::F32)
        reduce<float>(s, frames_, frame.cells);
    else
        reduce<double>(s, frames_, frame.cells);
    frames_.frames.push_back(std::move(frame));
}

StepFrames StepFrameRecorder::take()
{
    const std::lock_guard lock(mutex_);
    StepFrames out = std::move(frames_);
    frames_ = StepFrames();
    frames_.productStride = out.productStride;
    return out;
}

OnlineConfig cpuReplayOf(const OnlineConfig& config)
{
    OnlineConfig c = config;
    c.backend = BackendKind::Cpu;
    c.device = -1;
    // BF16 / FP16 inputs and tf32x3: the CPU emulates them (the same rounded operands, the same
    // split), so the frames are the device run's product; the other kernels replay as FP32 products.
    const InputFormat input = inputFormatOf(config.gemm);
    const bool emulated = input == InputFormat::Bf16 || input == InputFormat::F16 || config.gemm == GemmVariant::Tf32x3;
    c.gemm = emulated ? config.gemm : GemmVariant::Cublas;
    c.columnBlocks = 0;
    c.mergeSteps = StepMerge::Off;  // the step view shows C after every step
    for (OnlineFault& f : c.faults)
        if (f.target == OnlineTarget::ChecksumCol && c.checksums == 1)
            f.col = 0;
    return c;
}

std::shared_ptr<OnlineRun> runOnlineForLab(const OnlineConfig& config, const RunHooks& hooks)
{
    auto run = std::make_shared<OnlineRun>();
    const int steps = config.scheme == Scheme::Tmr ? 0 : config.steps();
    StepFrameRecorder recorder(steps);
    run->record = runOnline(config, hooks, [&](const StepSnapshot& s) { recorder.record(s); });
    run->frames = recorder.take();
    const Shape& s = config.shape;
    const bool small = 2.0 * double(s.m) * double(s.n) * double(s.q) <= kMaxReplayFlops;
    if (run->frames.frames.empty() && run->record.status == "ok" && config.scheme != Scheme::Tmr && small &&
        !(hooks.cancel && hooks.cancel->load())) {
        // C stayed on the device: the same run (same seed, faults, steps) again on the CPU.
        OnlineConfig replay = cpuReplayOf(run->record.config);
        replay.reference = ReferenceMode::None;
        StepFrameRecorder cpuRecorder(steps);
        RunHooks cpuHooks;
        cpuHooks.cancel = hooks.cancel;
        try {
            (void)runOnline(replay, cpuHooks, [&](const StepSnapshot& s) { cpuRecorder.record(s); });
            run->frames = cpuRecorder.take();
            run->frames.replayedOnCpu = true;
        } catch (const std::exception&) {
            // A setting the CPU refuses: the run stands, without frames.
        }
    }
    return run;
}

}  // namespace gigacheck::ui
