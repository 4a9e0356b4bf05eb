// The fused 16-bit GEMM of Hopper as a template: the TF32 kernel's formulation and epilogue visitor
// tree (cutlass_tf32_kernel.cuh) on BF16 or FP16 operands. Row-major C = A B runs as column-major
// C' = A' B' with C' = C^T, A' = B^T (the memory of B, MN-major: 16-bit WGMMA reads MN-major operands
// from shared memory, so no B^T is needed) and B' = A^T (the memory of A, K-major). C's row sums are
// C''s column sums (Sm90RowReduction) and its column sums C''s row sums (Sm90ColReduction).
// Included only by cutlass_bf16_tiles.cu and cutlass_f16_tiles.cu, compiled for sm_90a alone.
#pragma once

#include "gemm/cutlass/cutlass_16bit_runners.hpp"

#include "cute/tensor.hpp"
#include "cutlass/cutlass.h"
#include "cutlass/epilogue/collective/collective_builder.hpp"
#include "cutlass/epilogue/fusion/sm90_visitor_compute_tma_warpspecialized.hpp"
#include "cutlass/epilogue/fusion/sm90_visitor_load_tma_warpspecialized.hpp"
#include "cutlass/epilogue/fusion/sm90_visitor_store_tma_warpspecialized.hpp"
#include "cutlass/epilogue/fusion/sm90_visitor_tma_warpspecialized.hpp"
#include "cutlass/gemm/collective/collective_builder.hpp"
#include "cutlass/gemm/device/gemm_universal_adapter.h"
#include "cutlass/gemm/kernel/gemm_universal.hpp"
#include "gemm/cutlass/cutlass_launch.cuh"

namespace gigacheck::cuda::cutlass_16bit {

using namespace cute;
namespace fusion = cutlass::epilogue::fusion;

inline constexpr auto kRound = cutlass::FloatRoundStyle::round_to_nearest;

template <class Element, class TileShape, class ClusterShape>
struct GemmWithSums16 {
    using Layout = cutlass::layout::ColumnMajor;  // A' MN-major (B's memory), B' K-major, C' column-major
    static constexpr int kAlign16 = 8, kAlign32 = 4;  // 16 bytes: what TMA needs

    // D = acc + beta C (beta = 0 skips C's load), then the two reductions pass D on unchanged. The
    // tile's partial sums in FP32, added into the double vectors by atomics, as the TF32 kernel does:
    // summing in double cost that kernel 4.3 % at 8192 and 8.8 % at 4096 (H200).
    using Sum = fusion::Sm90EVT<fusion::Sm90Compute<cutlass::homogeneous_multiply_add, float, float, kRound>,
                                fusion::Sm90ScalarBroadcast<float>, fusion::Sm90SrcFetch<float>, fusion::Sm90AccFetch>;
    using SumsOfCRows = fusion::Sm90RowReduction<cutlass::plus, cutlass::plus, cutlass::atomic_add, 0, TileShape,
                                                 double, float, kRound, Stride<_0, _1, int64_t>, 2>;
    using SumsOfCCols = fusion::Sm90ColReduction<cutlass::plus, cutlass::plus, cutlass::atomic_add, 0, TileShape,
                                                 double, float, kRound, Stride<_1, _0, int64_t>, 2>;
    using Fusion = fusion::Sm90EVT<SumsOfCCols, fusion::Sm90EVT<SumsOfCRows, Sum>>;

    using Epilogue = typename cutlass::epilogue::collective::CollectiveBuilder<
        cutlass::arch::Sm90, cutlass::arch::OpClassTensorOp, TileShape, ClusterShape,
        cutlass::epilogue::collective::EpilogueTileAuto, float, float, float, Layout, kAlign32, float, Layout,
        kAlign32, cutlass::epilogue::TmaWarpSpecializedCooperative, Fusion>::CollectiveOp;
    using Mainloop = typename cutlass::gemm::collective::CollectiveBuilder<
        cutlass::arch::Sm90, cutlass::arch::OpClassTensorOp, Element, Layout, kAlign16, Element, Layout, kAlign16,
        float, TileShape, ClusterShape,
        cutlass::gemm::collective::StageCountAutoCarveout<int(sizeof(typename Epilogue::SharedStorage))>,
        cutlass::gemm::KernelTmaWarpSpecializedCooperative>::CollectiveOp;
    using Kernel = cutlass::gemm::kernel::GemmUniversal<Shape<int, int, int, int>, Mainloop, Epilogue,
                                                        cutlass::gemm::PersistentScheduler>;
    using Gemm = cutlass::gemm::device::GemmUniversalAdapter<Kernel>;

    static const char* run(const Cutlass16BitCall& g, const CutlassLaunch& launch, cudaStream_t s)
    {
        using StrideA = typename Kernel::StrideA;  // A' (M' x K): (1, ldb)
        using StrideB = typename Kernel::StrideB;  // B' (N' x K): (lda, 1)
        using StrideC = typename Kernel::StrideC;  // C' (M' x N'): (1, ldc)
        StrideA strideA{};
        get<1>(strideA) = g.ldb;
        StrideB strideB{};
        get<0>(strideB) = g.lda;
        StrideC strideC{};
        get<1>(strideC) = g.ldc;
        // {{{beta, C, acc, fma}, C's row sums}, C's column sums}; beta = 0: C is not read.
        const float beta = g.accumulate ? 1.0f : 0.0f;
        typename Epilogue::FusionCallbacks::Arguments sums{{{{{beta}, {nullptr}, {}}, {}, {}, {}}, {g.rowSums, 0.0f, {}}},
                                                           {g.colSums, 0.0f, {}}};
        cutlass::KernelHardwareInfo hw;
        hw.device_id = launch.device;
        hw.sm_count = launch.smCount;
        typename Gemm::Arguments args{cutlass::gemm::GemmUniversalMode::kGemm,
                                      {int(g.q), int(g.m), int(g.n), 1},
                                      {static_cast<const Element*>(g.b), strideA, static_cast<const Element*>(g.a), strideB},
                                      {sums, g.c, strideC, g.c, strideC},
                                      hw};
        args.scheduler.max_swizzle_size = launch.maxSwizzle;
        static constexpr CutlassRefusals kNo{
            "CUTLASS 16-bit GEMM: this shape or alignment cannot be run (operands and leading dimensions must be "
            "multiples of 16 bytes)",
            "CUTLASS 16-bit GEMM: the kernel asks for a workspace, which this build does not give",
            "CUTLASS 16-bit GEMM: the kernel's shared memory could not be reserved",
            "CUTLASS 16-bit GEMM: launch failed"};
        return launchCutlass<Gemm>(args, launch, s, kNo);
    }
};

}  // namespace gigacheck::cuda::cutlass_16bit
