// The mainloop of the step-sums kernel (cutlass_step_sums.hpp): CUTLASS's Hopper TMA / WGMMA
// warp-specialized mainloop (`Base`, made by the collective builder; its producer side and shared
// memory are used as they are), with its consumer loop written here so that the accumulators stay
// alive across the online family's steps. At the end of every step (panelTiles k tiles) the two
// consumer warp groups wait for their WGMMAs, apply the faults planned after that step to the
// registers that hold the faulted cells, and add the step's row and column sums of the tile into
// the step's slot; then the next step's WGMMAs accumulate on top. The epilogue, CUTLASS's, writes C
// once at the end.
//
// The kernel runs the engine's row-major C = A B as column-major C' = C^T (cutlass_fused_run.cuh):
// C''s rows (M') are C's columns, its columns (N') C's rows.
#pragma once

#include "abft/cuda/faulted_value.cuh"
#include "gemm/cutlass/cutlass_step_sums.hpp"

#include "cute/tensor.hpp"
#include "cutlass/arch/barrier.h"
#include "cutlass/gemm/kernel/sm90_tile_scheduler.hpp"

namespace gigacheck::cuda {

// The shared memory the step sums take beside the mainloop's stages (the builder's carveout must
// leave it): two buffers of the 8 consumer warps' partial sums of a tile's tileN columns.
constexpr int stepSumsSharedBytes(int tileN) { return 2 * 8 * tileN * int(sizeof(float)); }

// What the consumer needs besides CUTLASS's parameters: where the sums go and the faults.
struct StepSumsTarget {
    int panelTiles = 0;         // k tiles per step
    std::int64_t rowsOfC = 0;   // m: C's rows (N' of the kernel)
    std::int64_t colsOfC = 0;   // q: C's columns (M')
    double* stepSums = nullptr; // per step: C's row sums (m), then its column sums (q)
    StepFault faults[kStepFaultsMax];
    int faultCount = 0;
    double* faultValues = nullptr;
};

template <class Base>
struct StepSumsMainloop : Base {
    using typename Base::MainloopPipeline;
    using typename Base::PipelineState;
    using typename Base::TensorStorage;
    using typename Base::TiledMma;
    using typename Base::SmemLayoutA;
    using typename Base::SmemLayoutB;
    using TileShape = typename Base::TileShape;
    using ClusterShape = typename Base::DispatchPolicy::ClusterShape;
    // The kernel's tile scheduler (PersistentScheduler): the consumer asks its own copy which tile it
    // multiplies, as the kernel's does (the same parameters, the same walk).
    using Scheduler = cutlass::gemm::kernel::detail::PersistentTileSchedulerSm90;

    static constexpr int kTileM = cute::size<0>(TileShape{});
    static constexpr int kTileN = cute::size<1>(TileShape{});
    static constexpr int kMmaThreads = cute::size(TiledMma{});
    static constexpr int kMmaWarps = kMmaThreads / 32;
    static_assert(kMmaThreads == 256, "the step sums are written for the cooperative kernel's two warp groups");

    struct Arguments : Base::Arguments {
        StepSumsTarget target;
        cutlass::KernelHardwareInfo hw;           // as given to the kernel
        typename Scheduler::Arguments scheduler;  // as given to the kernel
    };
    struct Params : Base::Params {
        StepSumsTarget target;
        typename Scheduler::Params scheduler;
    };


    template <class ProblemShape>
    static Params to_underlying_arguments(ProblemShape const& shape, Arguments const& args, void* workspace)
    {
        Params p;
        static_cast<typename Base::Params&>(p) = Base::to_underlying_arguments(shape, args, workspace);
        p.target = args.target;
        p.scheduler = Scheduler::to_underlying_arguments(cute::append<4>(shape, 1), TileShape{}, ClusterShape{},
                                                         args.hw, args.scheduler, nullptr);
        return p;
    }

    int tilesDone = 0;  // tiles this CTA's consumer has multiplied: where its scheduler copy stands

    // The whole depth of one tile, step by step; releases every stage it reads (mma_tail: nothing left).
    template <class FrgTensorC>
    CUTLASS_DEVICE void mma(MainloopPipeline pipeline, PipelineState read, FrgTensorC& accum, int kTiles, int thread,
                            TensorStorage& shared, Params const& params)
    {
        using namespace cute;
        Tensor sA = make_tensor(make_smem_ptr(shared.smem_A.data()), SmemLayoutA{});
        Tensor sB = make_tensor(make_smem_ptr(shared.smem_B.data()), SmemLayoutB{});
        constexpr int warpGroups = kMmaThreads / cutlass::NumThreadsPerWarpGroup;
        const Layout groups = make_layout(Int<warpGroups>{}, Int<cutlass::NumThreadsPerWarpGroup>{});
        const int group = __shfl_sync(0xffffffff, thread / cutlass::NumThreadsPerWarpGroup, 0);
        TiledMma mmaOp;
        auto slice = mmaOp.get_slice(groups(group));
        Tensor tCrA = slice.make_fragment_A(slice.partition_A(sA));
        Tensor tCrB = slice.make_fragment_B(slice.partition_B(sB));

        Scheduler scheduler(params.scheduler);
        scheduler.advance_to_next_work(uint32_t(tilesDone++));
        const auto work = scheduler.get_current_work();
        const int m0 = work.M_idx * kTileM, n0 = work.N_idx * kTileN;

        PipelineState release = read;
        mmaOp.accumulate_ = GMMA::ScaleOut::Zero;
        for (int step = 0; kTiles > 0; ++step) {
            const int tiles = kTiles < params.target.panelTiles ? kTiles : params.target.panelTiles;
            kTiles -= tiles;
            warpgroup_fence_operand(accum);
            for (int t = 0; t < tiles; ++t) {
                pipeline.consumer_wait(read, pipeline.consumer_try_wait(read));
                const int stage = read.index();
                warpgroup_fence_operand(accum);
                warpgroup_arrive();
                CUTLASS_PRAGMA_UNROLL
                for (int k = 0; k < size<2>(tCrA); ++k) {
                    cute::gemm(mmaOp, tCrA(_, _, k, stage), tCrB(_, _, k, stage), accum);
                    mmaOp.accumulate_ = GMMA::ScaleOut::One;
                }
                warpgroup_commit_batch();
                ++read;
                if (t > 0) {  // one batch in flight: the stage before it is free
                    warpgroup_wait<1>();
                    warpgroup_fence_operand(accum);
                    pipeline.consumer_release(release);
                    ++release;
                }
            }
            warpgroup_wait<0>();
            warpgroup_fence_operand(accum);
            pipeline.consumer_release(release);
            ++release;
            endOfStep(accum, mmaOp, thread, m0, n0, step, params.target);
            warpgroup_fence_operand(accum);
        }
    }

    // mma released every stage.
    CUTLASS_DEVICE void mma_tail(MainloopPipeline, PipelineState, int) {}

private:
    // Faults, then sums. The accumulator of a 64 x N WGMMA holds, for lane l of warp w of its warp
    // group, rows 16 w + l / 4 + 8 v1 and columns 2 (l % 4) + v0 + 8 v2 (v0, v1 in {0, 1}): a row's
    // values lie in one quad of lanes, a column's in the 8 lanes of one l % 4.
    template <class FrgTensorC>
    CUTLASS_DEVICE void endOfStep(FrgTensorC& accum, TiledMma const& mmaOp, int thread, int m0, int n0, int step,
                                  StepSumsTarget const& target)
    {
        using namespace cute;
        Tensor cells = mmaOp.get_slice(thread).partition_C(make_identity_tensor(take<0, 2>(TileShape{})));
        for (int f = 0; f < target.faultCount; ++f) {
            const StepFault& x = target.faults[f];
            // C(row, col) is C'(col, row).
            const int r = int(x.col) - m0, c = int(x.row) - n0;
            if (x.step != step || r < 0 || r >= kTileM || c < 0 || c >= kTileN)
                continue;
            CUTLASS_PRAGMA_UNROLL
            for (int i = 0; i < size(accum); ++i)
                if (get<0>(cells(i)) == r && get<1>(cells(i)) == c) {
                    const float before = accum(i);
                    accum(i) = faulted(before, x);
                    target.faultValues[2 * f] = double(before);
                    target.faultValues[2 * f + 1] = double(accum(i));
                }
        }

        double* const rowSumsOfC = target.stepSums + std::int64_t(step) * (target.rowsOfC + target.colsOfC);
        double* const colSumsOfC = rowSumsOfC + target.rowsOfC;
        const int lane = thread % 32, warp = thread / 32;
        using Frag = typename FrgTensorC::layout_type;
        static_assert(size<0, 0>(Frag{}) == 2 && size<0, 1>(Frag{}) == 2, "a WGMMA accumulator");
        constexpr int groupsN = size<0, 2>(Frag{});
        constexpr int tilesM = size<1>(Frag{}), tilesN = size<2>(Frag{});
        static_assert(tilesM == 1, "one WGMMA row of atoms per warp group");

        // Sums along N' (C's column sums, one per row of C'): a row's values, then its quad.
        CUTLASS_PRAGMA_UNROLL
        for (int v1 = 0; v1 < 2; ++v1) {
            float sum = 0.0f;
            CUTLASS_PRAGMA_UNROLL
            for (int nt = 0; nt < tilesN; ++nt)
                CUTLASS_PRAGMA_UNROLL
                for (int v2 = 0; v2 < groupsN; ++v2)
                    sum += accum(make_coord(make_coord(0, v1, v2), 0, nt)) +
                           accum(make_coord(make_coord(1, v1, v2), 0, nt));
            sum += __shfl_xor_sync(0xffffffff, sum, 1);
            sum += __shfl_xor_sync(0xffffffff, sum, 2);
            const int col = m0 + get<0>(cells(make_coord(make_coord(0, v1, 0), 0, 0)));
            if (lane % 4 == 0 && col < target.colsOfC)
                atomicAdd(colSumsOfC + col, double(sum));
        }

        // Sums along M' (C's row sums, one per column of C'): each thread's two rows, then the 8 lanes
        // of its l % 4 (halving: each lane keeps a part), then the 8 warps through shared memory.
        constexpr int values = 2 * groupsN * tilesN;  // the thread's columns
        static_assert(values % 8 == 0);
        float v[values];
        CUTLASS_PRAGMA_UNROLL
        for (int nt = 0; nt < tilesN; ++nt)
            CUTLASS_PRAGMA_UNROLL
            for (int v2 = 0; v2 < groupsN; ++v2)
                CUTLASS_PRAGMA_UNROLL
                for (int v0 = 0; v0 < 2; ++v0)
                    v[(nt * groupsN + v2) * 2 + v0] = accum(make_coord(make_coord(v0, 0, v2), 0, nt)) +
                                                      accum(make_coord(make_coord(v0, 1, v2), 0, nt));
        halve<values, 16>(v, lane);
        halve<values / 2, 8>(v, lane);
        halve<values / 4, 4>(v, lane);
        // Lane l now holds, in v[0, values / 8), the sums over its 8 lanes of the value indices from
        // `first` on: its bits 4, 3, 2 chose the upper half at each halving.
        __shared__ float partials[2][kMmaWarps][kTileN];  // stepSumsSharedBytes(kTileN)
        float(&mine)[kMmaWarps][kTileN] = partials[step & 1];
        constexpr int kept = values / 8;
        const int first = ((lane >> 4) & 1) * (values / 2) + ((lane >> 3) & 1) * (values / 4) +
                          ((lane >> 2) & 1) * (values / 8);
        CUTLASS_PRAGMA_UNROLL
        for (int i = 0; i < kept; ++i) {
            const int j = first + i, v0 = j % 2, v2 = (j / 2) % groupsN, nt = j / (2 * groupsN);
            mine[warp][get<1>(cells(make_coord(make_coord(v0, 0, v2), 0, nt)))] = v[i];
        }
        // Both buffers: the one of step s is written again at step s + 2, after every thread has
        // passed step s + 1's barrier, so after it read step s's.
        cutlass::arch::NamedBarrier::sync(kMmaThreads, int(cutlass::arch::ReservedNamedBarriers::FirstUserBarrier));
        for (int col = thread; col < kTileN; col += kMmaThreads) {
            float sum = 0.0f;
            CUTLASS_PRAGMA_UNROLL
            for (int w = 0; w < kMmaWarps; ++w)
                sum += mine[w][col];
            if (n0 + col < target.rowsOfC)
                atomicAdd(rowSumsOfC + n0 + col, double(sum));
        }
    }

    // v[0, count) summed with the lane `mask` apart: this lane keeps the half its mask bit names, in
    // v[0, count / 2).
    template <int count, int mask>
    CUTLASS_DEVICE static void halve(float* v, int lane)
    {
        const bool upper = (lane & mask) != 0;
        CUTLASS_PRAGMA_UNROLL
        for (int i = 0; i < count / 2; ++i) {
            const float keep = upper ? v[i + count / 2] : v[i];
            const float give = upper ? v[i] : v[i + count / 2];
            v[i] = keep + __shfl_xor_sync(0xffffffff, give, mask);
        }
    }
};

}  // namespace gigacheck::cuda
