#include "batchingobserver.hpp"

#include <algorithm>
#include <utility>

namespace gigacheck::ui {

void BatchingObserver::onSpan(const Span& s)
{
    std::lock_guard lock(mutex_);
    pending_.spans.push_back(s);
}

void BatchingObserver::onInject(const InjectEvent& e)
{
    std::lock_guard lock(mutex_);
    pending_.injections.push_back(e);
}

void BatchingObserver::onVerify(const VerifyEvent& e)
{
    std::lock_guard lock(mutex_);
    pending_.verifications.push_back(e);
}

void BatchingObserver::onProgress(double fraction)
{
    std::lock_guard lock(mutex_);
    pending_.progress = fraction;
}

void BatchingObserver::onPlan(const Schedule& schedule)
{
    // All tiles together stay near 512 x 512 cells, whatever the number of blocks (blocked GEMM:
    // splitM x splitQ, the largest block row and column its ops name, plus one).
    int blocksPerAxis = 1;
    for (const Operation& op : schedule.ops)
        blocksPerAxis = std::max({blocksPerAxis, op.block.i + 1, op.block.j + 1});
    tileCells_ = std::clamp(512 / std::max(blocksPerAxis, 1), 2, 256);
}

void BatchingObserver::onResultBlock(const HostMatrix& c, const Region& region)
{
    const int cells = tileCells_;
    HeatmapGrid tile = HeatmapGrid::sampledFromMatrix(c, MatrixWindow{region.row, region.col, region.rows, region.cols},
                                                      cells, 4 * cells);
    std::lock_guard lock(mutex_);
    pending_.resultTiles.push_back(std::move(tile));
}

BatchingObserver::Batch BatchingObserver::take()
{
    std::lock_guard lock(mutex_);
    return std::exchange(pending_, Batch{});
}

void BatchingObserver::clear()
{
    std::lock_guard lock(mutex_);
    pending_ = Batch{};
}

}  // namespace gigacheck::ui
