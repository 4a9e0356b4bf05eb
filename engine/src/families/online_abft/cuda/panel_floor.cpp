// The panel products of an online run alone (panel_floor.hpp).
#include "families/online_abft/cuda/panel_floor.hpp"

#include "abft/cuda/abft_device.hpp"
#include "core/cuda/check.hpp"
#include "core/cuda/device_fill.hpp"
#include "core/cuda/resources.hpp"
#include "core/median.hpp"
#include "gemm/cuda/gemm.hpp"
#include "gemm/cuda/gemm_tuning.hpp"
#include "families/online_abft/cuda/panel_tuning.hpp"
#include "families/online_abft/inputs.hpp"

#include <memory>

namespace gigacheck::cuda {

namespace {

std::int64_t aligned(std::int64_t cols)
{
    constexpr std::int64_t r = online_abft::kColumnBlockRowAlignment;  // the online plan's B_r and C_f
    return (cols + r - 1) / r * r;
}

struct Block {
    std::int64_t cols = 0;
    DeviceBuffer b, c, sums;
    Stream stream, lane = Stream::highestPriority();  // lane: the sums, as the checks' lanes (op_table.cpp)
    Event product{cudaEventDisableTiming}, summed{cudaEventDisableTiming};
    CublasHandle handle;
    Block(std::int64_t n, std::int64_t m, std::int64_t w, bool withSums)
        : cols(w), b(std::size_t(n * aligned(w + 2)) * 4), c(std::size_t((m + 1) * aligned(w + 1)) * 4),
          sums(withSums ? std::size_t(m + 1 + w + 1) * sizeof(double) : 0)
    {
    }
};

}  // namespace

PanelFloor panelProductsAlone(std::int64_t m, std::int64_t n, std::int64_t panel, const std::vector<std::int64_t>& blockCols,
                              int reps, bool sumsAfterEachStep)
{
    PanelFloor out;
    DeviceBuffer a(std::size_t((m + 1) * n) * 4);
    std::vector<std::unique_ptr<Block>> blocks;
    for (std::int64_t w : blockCols)
        blocks.push_back(std::make_unique<Block>(n, m, w, sumsAfterEachStep));
    Stream main;
    fill(Precision::F32, a.get(), m + 1, n, n, 1, main.get());
    for (std::size_t i = 0; i < blocks.size(); ++i)
        fill(Precision::F32, blocks[i]->b.get(), n, blocks[i]->cols + 2, aligned(blocks[i]->cols + 2), 2 + i, main.get());
    CUDA_CHECK(cudaStreamSynchronize(main.get()));

    const std::int64_t steps = (n + panel - 1) / panel;
    const auto call = [&](const Block& blk, std::int64_t step) {
        GemmCall g;
        g.m = m;
        g.n = std::min(panel, n - step * panel);
        g.q = blk.cols;
        g.a = static_cast<const float*>(a.get()) + step * panel;
        g.lda = n;
        g.b = static_cast<const float*>(blk.b.get()) + step * panel * aligned(blk.cols + 2);
        g.ldb = aligned(blk.cols + 2);
        g.c = blk.c.get();
        g.ldc = aligned(blk.cols + 1);
        g.accumulate = step > 0;
        g.tuned = true;
        return g;
    };
    // Tuned once per process and shape: the online runs before this one have tuned the same shapes.
    for (const auto& blk : blocks)
        for (std::int64_t step : {std::int64_t(0), std::min<std::int64_t>(1, steps - 1)}) {
            const GemmTuning t = tuneGemm(call(*blk, step), blk->handle.get(), blk->stream.get(),
                                             online_abft::cuda::panelTuningOptions());
            const std::string line = t.kept + (step > 0 ? " (accumulating)" : " (first)");
            if (out.gemms.find(line) == std::string::npos)
                out.gemms.append(out.gemms.empty() ? "" : "; ").append(line);
        }
    CUDA_CHECK(cudaDeviceSynchronize());

    Event start, done;
    std::vector<std::unique_ptr<Event>> ends;
    for (std::size_t i = 0; i < blocks.size(); ++i)
        ends.push_back(std::make_unique<Event>());
    const auto once = [&] {
        CUDA_CHECK(cudaEventRecord(start.get(), main.get()));
        for (const auto& blk : blocks)
            CUDA_CHECK(cudaStreamWaitEvent(blk->stream.get(), start.get(), 0));
        for (std::int64_t step = 0; step < steps; ++step)
            for (const auto& blk : blocks) {
                gemm(call(*blk, step), blk->handle.get(), blk->stream.get());
                if (!sumsAfterEachStep)
                    continue;
                // The check's sums of the block's C_f beside the other blocks' products; the block's
                // next product waits for them, as it waits for its check in a run.
                CUDA_CHECK(cudaEventRecord(blk->product.get(), blk->stream.get()));
                CUDA_CHECK(cudaStreamWaitEvent(blk->lane.get(), blk->product.get(), 0));
                double* rowSum = static_cast<double*>(blk->sums.get());
                sumsOfC(Precision::F32, blk->c.get(), m, blk->cols, aligned(blk->cols + 1), rowSum, rowSum + m + 1,
                        blocks.size() > 1, blk->lane.get());
                CUDA_CHECK(cudaEventRecord(blk->summed.get(), blk->lane.get()));
                CUDA_CHECK(cudaStreamWaitEvent(blk->stream.get(), blk->summed.get(), 0));
            }
        for (std::size_t i = 0; i < blocks.size(); ++i) {
            CUDA_CHECK(cudaEventRecord(ends[i]->get(), blocks[i]->stream.get()));
            CUDA_CHECK(cudaStreamWaitEvent(main.get(), ends[i]->get(), 0));
        }
        CUDA_CHECK(cudaEventRecord(done.get(), main.get()));
        CUDA_CHECK(cudaEventSynchronize(done.get()));
        return elapsedMs(start.get(), done.get()) * 1e-3;
    };
    once();  // warm-up: first launches of the kept configurations
    std::vector<double> times;
    for (int r = 0; r < std::max(1, reps); ++r)
        times.push_back(once());
    out.seconds = median(times);
    return out;
}

}  // namespace gigacheck::cuda
