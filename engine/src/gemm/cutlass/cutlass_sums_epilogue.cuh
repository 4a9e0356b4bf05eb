// The epilogue every fused kernel of the lab shares (cutlass_tf32_kernel.cuh, cutlass_16bit_kernel.cuh):
// a CUTLASS 3.x visitor tree on Hopper that writes D = acc + beta C (beta = 0 skips C's load) and, from
// the same registers, the row and column sums of D. kReadsC = false: D = acc, with no C in the
// epilogue at all -- its shared memory then holds D's staging alone (34 KB instead of 66 KB), which
// leaves room for a fourth stage of operands in the mainloop (three with C). Every kernel runs the
// engine's row-major C = A B as column-major C' = C^T, so C's row sums (one per row i of C) are C''s column sums
// (Sm90RowReduction) and C's column sums C''s row sums (Sm90ColReduction).
#pragma once

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

#include <type_traits>

namespace gigacheck::cuda {

template <class TileShape, class ClusterShape, bool kReadsC = true>
struct SumsOfCEpilogue {
    static constexpr auto kRound = cutlass::FloatRoundStyle::round_to_nearest;
    using Layout = cutlass::layout::ColumnMajor;  // C' column-major: the memory of row-major C
    static constexpr int kAlign = 4;               // 16 bytes of FP32: what TMA needs

    // D = acc + beta C, then the two reductions pass D on unchanged.
    using Sum = cutlass::epilogue::fusion::Sm90EVT<
        cutlass::epilogue::fusion::Sm90Compute<cutlass::homogeneous_multiply_add, float, float, kRound>,
        cutlass::epilogue::fusion::Sm90ScalarBroadcast<float>, cutlass::epilogue::fusion::Sm90SrcFetch<float>,
        cutlass::epilogue::fusion::Sm90AccFetch>;
    // The tile's partial sums in FP32: converting every element of C to double made the reductions
    // cost the TF32 kernel 4.3 % at 8192 and 8.8 % at 4096 (H200). The FP32 summation of a line lies
    // inside the threshold's extent term, which bounds summing the line in the working precision.
    // C's row sums: each tile reduces its 8 warps' partials through shared memory and writes one float
    // per row of C into a (tile rows of C') x (C's rows, rounded up to the tile) buffer, no atomics
    // (FinalReduction = false); addRowSumPartials adds them into the double vector after the kernel.
    // Atomics there made every warp add 256 partials into the doubles the tiles beside it hit too.
    using SumsOfCRows = cutlass::epilogue::fusion::Sm90RowReduction<
        cutlass::plus, cutlass::plus, cutlass::plus, 0, TileShape, float, float, kRound,
        cute::Stride<cute::_0, cute::_1, int64_t>, 4, /*EnableNullptr*/ true, /*FinalReduction*/ false>;
    // C's column sums: one warp per tile row in that direction, so few atomics, added in double.
    using SumsOfCCols =
        cutlass::epilogue::fusion::Sm90ColReduction<cutlass::plus, cutlass::plus, cutlass::atomic_add, 0, TileShape,
                                                    double, float, kRound, cute::Stride<cute::_1, cute::_0, int64_t>, 2>;
    using Value = std::conditional_t<kReadsC, Sum, cutlass::epilogue::fusion::Sm90AccFetch>;
    using Fusion = cutlass::epilogue::fusion::Sm90EVT<SumsOfCCols, cutlass::epilogue::fusion::Sm90EVT<SumsOfCRows, Value>>;
    using ElementC = std::conditional_t<kReadsC, float, void>;

    using Collective = typename cutlass::epilogue::collective::CollectiveBuilder<
        cutlass::arch::Sm90, cutlass::arch::OpClassTensorOp, TileShape, ClusterShape,
        cutlass::epilogue::collective::EpilogueTileAuto, float, float, ElementC, Layout, kAlign, float, Layout, kAlign,
        cutlass::epilogue::TmaWarpSpecializedCooperative, Fusion>::CollectiveOp;

    // The buffer of C's row-sum partials for a C of rows x cols: tiles x width floats.
    static constexpr std::int64_t kTileRows = cute::size<0>(TileShape{}), kTileCols = cute::size<1>(TileShape{});
    static std::int64_t partialTiles(std::int64_t cols) { return (cols + kTileRows - 1) / kTileRows; }
    static std::int64_t partialWidth(std::int64_t rows) { return (rows + kTileCols - 1) / kTileCols * kTileCols; }

    // The tree's arguments nest as the tree does: {{{beta, C, acc, fma}, C's row-sum partials}, C's
    // column sums} ({{acc, ...}, ...} without C). Either sum may be null (that reduction is skipped).
    static typename Collective::FusionCallbacks::Arguments arguments(bool accumulate, float* rowPartials,
                                                                     double* colSums)
    {
        if constexpr (kReadsC) {
            const float beta = accumulate ? 1.0f : 0.0f;
            return {{{{{beta}, {nullptr}, {}}, {}, {}, {}}, {rowPartials, 0.0f, {}}}, {colSums, 0.0f, {}}};
        } else {
            return {{{}, {rowPartials, 0.0f, {}}}, {colSums, 0.0f, {}}};
        }
    }
};

}  // namespace gigacheck::cuda
