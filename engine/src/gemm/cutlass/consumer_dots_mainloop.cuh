// The checksum products of a protected product (C's checksum column A r_B, its row c_A B and the
// scales of their bounds: abft/cuda/prepared_operands.hpp) made by the CUTLASS kernel that
// multiplies it, from the operand tiles its consumer warps already have in shared memory: no pass
// reads A or B^T again. Each k-tile of a row block of A (of B^T) is loaded by every CTA of that
// block's row (column) of tiles; the k-tiles are shared out among those CTAs (k-tile t to the one
// whose other coordinate is t mod their number), so each product term is computed once. A thread
// dots its rows of an owned stage while the tensor cores multiply it, and the warp group meets at a
// named barrier before the stage can be released, so no copy overwrites it mid-read. Per tile, one
// atomic per row adds the CTA's share into the checksum vectors (zeroed by the caller).
//
// The consumer warps are not told which tile they multiply (the builder's mainloop gets no
// coordinates there); the producer warp, which is, writes them into a small ring in shared memory
// before its first copy of the tile, and its barrier arrival (release) publishes them to the
// consumers' wait (acquire) on that stage.
//
// The previous attempt gave the dots to the producer warp group's idle warp (40 registers, its own
// loads of A and B^T): too slow (resources/results/README.md, "checksum products inside the kernel").
// Included by the kernel templates (cutlass_tf32_kernel.cuh, cutlass_16bit_kernel.cuh); instantiated
// with it only in cutlass_tf32_dots_tiles.cu and cutlass_16bit_dots_tiles.cu.
#pragma once

#include "gemm/cutlass/operand_dots.hpp"
#include "gigacheck/tf32.hpp"

#include "cute/tensor.hpp"
#include "cutlass/arch/barrier.h"
#include "cutlass/cutlass.h"

namespace gigacheck::cuda {

// Tiles the producer may run ahead of the consumers is bounded by the stages (one k-tile each at
// least), so a slot is rewritten only after its tile's consumers have read it.
constexpr int kTileSlots = 16;

// One thread's share of a tile's checksum products: a row (or half a row) of one operand tile and its
// running dot product and squared-weight sum over the k-tiles the CTA owns.
struct RowShare {
    double dot = 0, sq = 0;
    bool owned = false;
};

// The vectors' entries of one k-tile (kK deep) for a warp: lane l holds entries l, l + 32, ... (and
// of s when the side has squares). Loaded one k-tile ahead, so that no global load is waited for
// while the stage is held: a first version loading them in the dot loop made the kernel 26 % slower.
template <int kK> struct VectorSlice {
    static constexpr int kSlots = kK / 32;
    double v[kSlots], s[kSlots];
};

template <int kK>
CUTLASS_DEVICE VectorSlice<kK> loadSlice(const OperandRowDots& d, std::int64_t k0, std::int64_t depth, int lane)
{
    VectorSlice<kK> w;
    CUTLASS_PRAGMA_UNROLL
    for (int j = 0; j < VectorSlice<kK>::kSlots; ++j) {
        const std::int64_t k = k0 + 32 * j + lane;
        w.v[j] = k < depth ? __ldg(d.v + k) : 0.0;
        w.s[j] = d.s && k < depth ? __ldg(d.s + k) : 0.0;
    }
    return w;
}

// Adds sum_k x(k) v_k (and, with squares, sum_k x(k)^2 s_k) over the entries [first, first + count)
// of one row of a stage, x as the tensor cores multiply it (TF32 as the copy into shared memory
// left it, rounded to nearest again, which changes nothing there; 16-bit values exactly), in
// double as the pass kernels do. first and count are the same in the whole warp (the shuffles).
template <bool kRoundToTf32, int kK, class Row>
CUTLASS_DEVICE void addRowTerms(RowShare& r, const Row& x, int first, int count, const VectorSlice<kK>& w,
                                bool squares)
{
    r.owned = true;
    CUTLASS_PRAGMA_UNROLL
    for (int slot = 0; slot < VectorSlice<kK>::kSlots; ++slot) {
        CUTLASS_PRAGMA_UNROLL
        for (int e = 0; e < 32; ++e) {
            const int k = 32 * slot + e;
            if (k < first || k >= first + count)
                continue;
            const double v = __shfl_sync(0xffffffffu, w.v[slot], e);
            const double s = squares ? __shfl_sync(0xffffffffu, w.s[slot], e) : 0.0;
            float y = float(x(k));
            if constexpr (kRoundToTf32)
                y = roundToTf32(y);
            const double t = double(y);
            r.dot += t * v;
            r.sq += t * t * s;
        }
    }
}

CUTLASS_DEVICE void flushRowShare(const RowShare& r, const OperandRowDots& d, std::int64_t row)
{
    if (r.owned && row < d.rows) {
        atomicAdd(d.out + row * d.outStride, float(r.dot));
        if (d.scale)
            atomicAdd(d.scale + row, r.sq);
    }
}

// The builder's TMA / WGMMA mainloop with the checksum products in its consumer loop, and the dots'
// arguments beside its own.
template <class Base> struct MainloopWithOperandDots : Base {
    using MainloopPipeline = typename Base::MainloopPipeline;
    using PipelineState = typename Base::PipelineState;
    using TileShape = typename Base::TileShape;
    static constexpr int kBlockM = int(cute::size<0>(TileShape{}));  // rows of B^T per tile (C' = C^T)
    static constexpr int kBlockN = int(cute::size<1>(TileShape{}));  // rows of A per tile
    static constexpr int kBlockK = int(cute::size<2>(TileShape{}));
    static constexpr int kWarpGroup = cutlass::NumThreadsPerWarpGroup;
    static_assert(Base::DispatchPolicy::Stages + 2 <= kTileSlots, "the tile ring must outlast the stages");
    static_assert(kBlockK % 64 == 0 || kBlockK == 32, "a B^T row's half k-tile lies in one 32-entry slot");
    // The cooperative kernel's two consumer warp groups: one thread per row of A's tile, two per B^T's.
    static_assert(int(cute::size(typename Base::TiledMma{})) == kBlockN && kBlockN == 2 * kBlockM,
                  "the rows are shared out for a 128 x 256 tile on 256 consumer threads");

    struct TensorStorage : Base::TensorStorage {
        int tiles[kTileSlots][2];  // (B^T block, A block) of the CTA's t-th tile at t % kTileSlots
    };
    struct Arguments : Base::Arguments {
        OperandDots dots;
    };
    struct Params : Base::Params {
        OperandDots dots;
    };

    template <class ProblemShape>
    static Params to_underlying_arguments(ProblemShape const& shape, Arguments const& args, void* workspace)
    {
        return Params{Base::to_underlying_arguments(shape, static_cast<typename Base::Arguments const&>(args), workspace),
                      args.dots};
    }

    // Producer: publish the tile's coordinates, then the builder's loads. Every lane writes the same
    // values; the lane that issues the copies arrives on the stage after its write.
    template <class TensorA, class TensorB, class KTileIterator, class BlockCoord>
    CUTLASS_DEVICE void load(Params const& params, MainloopPipeline pipeline, PipelineState write,
                             cute::tuple<TensorA, TensorB> const& inputs, BlockCoord const& tile,
                             KTileIterator kTiles, int kTileCount, int thread, uint32_t rankInCluster,
                             TensorStorage& storage)
    {
        int* slot = storage.tiles[loadedTiles_ % kTileSlots];
        slot[0] = int(cute::get<0>(tile));
        slot[1] = int(cute::get<1>(tile));
        ++loadedTiles_;
        Base::load(params, pipeline, write, inputs, tile, kTiles, kTileCount, thread, rankInCluster, storage);
    }

    // Consumer: the builder's loop (K_PIPE_MMAS batches of WGMMAs in flight, a stage released once
    // its batch is done), with the owned stages' dot products while their WGMMAs run. A stage read
    // by the dot products is released in the next k-tile's step, after the warp group's barrier.
    template <class Accumulators>
    CUTLASS_DEVICE void mma(MainloopPipeline pipeline, PipelineState read, Accumulators& accum, int kTileCount,
                            int thread, TensorStorage& storage, Params const& params)
    {
        using namespace cute;
        Tensor sA = make_tensor(make_smem_ptr(storage.smem_A.data()), typename Base::SmemLayoutA{});  // B^T: (M, K, PIPE)
        Tensor sB = make_tensor(make_smem_ptr(storage.smem_B.data()), typename Base::SmemLayoutB{});  // A: (N, K, PIPE)
        // TF32 stages hold FP32 values the tensor cores round; 16-bit ones are multiplied as they are.
        constexpr bool kTf32 = cute::is_same_v<cute::remove_cv_t<typename decltype(sA)::value_type>, cutlass::tfloat32_t>;
        const int warpGroup = __shfl_sync(0xffffffffu, thread / kWarpGroup, 0);
        typename Base::TiledMma tiledMma;
        auto slice = tiledMma.get_slice(warpGroup * kWarpGroup);
        Tensor fragA = slice.make_fragment_A(slice.partition_A(sA));
        Tensor fragB = slice.make_fragment_B(slice.partition_B(sB));

        const OperandDots& d = params.dots;
        const int tilesM = int((d.bt.rows + kBlockM - 1) / kBlockM), tilesN = int((d.a.rows + kBlockN - 1) / kBlockN);
        // A B^T row's k-tile is split between two warps (each lane a row; the half the same in the
        // warp, for the shuffles), an A row's is one thread's.
        const int lane = thread % 32, warp = thread / 32;
        const int rowBt = (warp / 2) * 32 + lane, halfBt = (warp % 2) * (kBlockK / 2);
        const int rowA = thread;
        const bool squaresBt = d.bt.s != nullptr, squaresA = d.a.s != nullptr;
        int tileM = 0, tileN = 0;
        RowShare bt, a;
        VectorSlice<kBlockK> sliceBt{}, sliceA{};  // the vectors of the k-tile at hand, when owned
        PipelineState release = read;
        tiledMma.accumulate_ = GMMA::ScaleOut::Zero;
        warpgroup_fence_operand(accum);
        CUTLASS_PRAGMA_NO_UNROLL
        for (int t = 0; t < kTileCount; ++t) {
            pipeline.consumer_wait(read, pipeline.consumer_try_wait(read));
            const int stage = read.index();
            if (t == 0) {
                const int* slot = storage.tiles[consumedTiles_ % kTileSlots];
                tileM = slot[0];
                tileN = slot[1];
                ++consumedTiles_;
                if (tileN == 0)  // k-tile 0 is owned by the first tile of each line
                    sliceBt = loadSlice<kBlockK>(d.bt, 0, d.depth, lane);
                if (tileM == 0)
                    sliceA = loadSlice<kBlockK>(d.a, 0, d.depth, lane);
            }
            warpgroup_fence_operand(accum);
            warpgroup_arrive();
            CUTLASS_PRAGMA_UNROLL
            for (int kb = 0; kb < size<2>(fragA); ++kb) {
                cute::gemm(tiledMma, fragA(_, _, kb, stage), fragB(_, _, kb, stage), accum);
                tiledMma.accumulate_ = GMMA::ScaleOut::One;
            }
            warpgroup_commit_batch();
            // The previous k-tile's stage back to the producer before this one's dot products, so
            // that they do not delay its next copy.
            if (t >= Base::K_PIPE_MMAS) {
                warpgroup_wait<Base::K_PIPE_MMAS>();
                warpgroup_fence_operand(accum);
                pipeline.consumer_release(release);
                ++release;
            }

            // Owned k-tiles (the same in every thread): t mod the number of tiles that load it.
            const bool ownsBt = (d.probeSides & 1) && t % tilesN == tileN, ownsA = (d.probeSides & 2) && t % tilesM == tileM;
            if (ownsBt)
                addRowTerms<kTf32>(bt, [&](int k) { return sA(rowBt, k, stage); }, halfBt, kBlockK / 2, sliceBt,
                                   squaresBt);
            if (ownsA)
                addRowTerms<kTf32>(a, [&](int k) { return sB(rowA, k, stage); }, 0, kBlockK, sliceA, squaresA);
            if ((ownsBt || ownsA) && !(d.probeSides & 8))  // every thread of the warp group done reading before the stage is released
                cutlass::arch::NamedBarrier::sync(kWarpGroup, warpGroup);
            // The next owned k-tile's vectors, in flight until they are used there.
            if (t + 1 < kTileCount && (t + 1) % tilesN == tileN)
                sliceBt = loadSlice<kBlockK>(d.bt, std::int64_t(t + 1) * kBlockK, d.depth, lane);
            if (t + 1 < kTileCount && (t + 1) % tilesM == tileM)
                sliceA = loadSlice<kBlockK>(d.a, std::int64_t(t + 1) * kBlockK, d.depth, lane);

            ++read;
        }
        warpgroup_fence_operand(accum);

        if (!(d.probeSides & 4)) {
        flushRowShare(bt, d.bt, std::int64_t(tileM) * kBlockM + rowBt);  // two halves: two atomics a row
        flushRowShare(a, d.a, std::int64_t(tileN) * kBlockN + rowA);
        }
    }

private:
    int loadedTiles_ = 0;    // producer's count of tiles loaded
    int consumedTiles_ = 0;  // a consumer thread's count of tiles multiplied
};

}  // namespace gigacheck::cuda
