// Running a fused kernel of the lab (cutlass_tf32_kernel.cuh, cutlass_16bit_kernel.cuh): the engine's
// row-major C = A B as column-major C' = A' B' (C' = C^T, A' = the memory of B, B' = the memory of A),
// with the epilogue that writes C's row and column sums. One place for the strides, the problem
// shape and the scheduler's swizzle, whatever the operands' type.
#pragma once

#include "gemm/cutlass/cutlass_launch.cuh"
#include "gemm/cutlass/cutlass_sums_epilogue.cuh"
#include "gemm/cuda/row_sum_partials.hpp"
#include "gemm/cuda/stream_scratch.hpp"

#include <exception>

namespace gigacheck::cuda {

// KMajorA: g.b holds B^T (q x n, row-major), so A' is K-major. Call: CutlassTf32Call or
// Cutlass16BitCall (the same fields). kReadsC: Gemm's epilogue reads C (SumsOfCEpilogue); without,
// it runs only calls that do not accumulate. Null when the kernel ran on s, else why not (`no`).
template <class Gemm, class TileShape, class ClusterShape, bool KMajorA, class Element, bool kReadsC, class Call>
const char* runGemmWithSums(const Call& g, const CutlassLaunch& launch, cudaStream_t s, const CutlassRefusals& no)
{
    using Kernel = typename Gemm::GemmKernel;
    using StrideA = typename Kernel::StrideA;  // A' (M' x K): (1, ldb), K-major (ldb, 1)
    using StrideB = typename Kernel::StrideB;  // B' (N' x K): (lda, 1)
    using StrideC = typename Kernel::StrideC;  // C' (M' x N'): (1, ldc)
    static_assert(cute::is_static_v<decltype(cute::get<1>(StrideB{}))> &&
                  cute::is_static_v<decltype(cute::get<0>(StrideC{}))>);
    StrideA strideA{};
    if constexpr (KMajorA)
        cute::get<0>(strideA) = g.ldb;
    else
        cute::get<1>(strideA) = g.ldb;
    StrideB strideB{};
    cute::get<0>(strideB) = g.lda;
    StrideC strideC{};
    cute::get<1>(strideC) = g.ldc;

    // C's row sums leave the kernel as partials per tile row (cutlass_sums_epilogue.cuh), added into
    // g.rowSums after it on s; the stream's scratch keeps them (the next product on s comes after).
    using Sums = SumsOfCEpilogue<TileShape, ClusterShape, kReadsC>;
    if (!kReadsC && g.accumulate)
        return "CUTLASS GEMM: this kernel does not read C, so it cannot accumulate into it";
    // rowSumPartialBytes (gemm/gemm_workspace.hpp) bounds the partials of every configuration.
    static_assert(Sums::kTileRows >= kRowSumPartialTileColumnsAtLeast &&
                  kRowSumPartialRowRoundingAtMost % Sums::kTileCols == 0);
    const RowSumSplit& split = g.rowSumSplit;
    if (split.at != 0 && (split.at < 0 || split.at % Sums::kTileRows != 0 || split.at >= g.q || !split.sums))
        return "CUTLASS GEMM: C's row sums can be split only at a column on a tile's edge, before C's last column";
    if (g.fault.on() && (!g.rowSums || !g.colSums || g.fault.row >= g.m || g.fault.col < 0 ||
                         g.fault.col >= (split.at > 0 ? split.at : g.q) || !g.fault.beforeAfter))
        return "CUTLASS GEMM: a fault of the product's arithmetic lies in C's main part, with both of C's sums written";
    float* rowPartials = nullptr;
    const std::int64_t tiles = Sums::partialTiles(g.q), width = Sums::partialWidth(g.m);
    if (g.rowSums) {
        try {
            rowPartials = static_cast<float*>(
                scratchIn(g.rowSumPartials, s, std::size_t(tiles) * std::size_t(width) * sizeof(float), ScratchUse::SumPartials));
        } catch (const std::exception&) {  // a refusal like any other (the tuner skips the configuration)
            (void)cudaGetLastError();         // the failed allocation's error, not left for a later check
            return "CUTLASS GEMM: no device memory for the partial sums of C's rows";
        }
    }
    const auto sums = Sums::arguments(g.accumulate, rowPartials, g.colSums);
    cutlass::KernelHardwareInfo hw;
    hw.device_id = launch.device;
    hw.sm_count = launch.smCount;
    typename Gemm::Arguments args{cutlass::gemm::GemmUniversalMode::kGemm,
                                  {int(g.q), int(g.m), int(g.n), 1},
                                  {static_cast<const Element*>(g.b), strideA, static_cast<const Element*>(g.a), strideB},
                                  {sums, kReadsC ? g.c : nullptr, strideC, g.c, strideC},
                                  hw};
    args.scheduler.max_swizzle_size = launch.maxSwizzle;
    const CutlassParamsKey key = cutlassParamsKey(launch, g.m, g.n, g.q, g.a, g.lda, g.b, g.ldb, g.c, g.ldc,
                                                  g.accumulate, rowPartials, g.colSums);
    const char* refused = launchCutlass<Gemm>(args, key, launch, s, no);
    if (!refused && g.afterLaunch)
        g.afterLaunch();
    if (!refused && g.rowSums) {
        if (split.at > 0)
            addRowSumPartialsSplit(rowPartials, tiles, split.at / Sums::kTileRows, width, g.m, g.rowSums, split.sums,
                                   split.stride, s, g.fault, FaultCell{g.c, g.ldc, g.colSums});
        else
            addRowSumPartials(rowPartials, tiles, width, g.m, g.rowSums, s, g.fault, FaultCell{g.c, g.ldc, g.colSums});
    }
    return refused;
}

}  // namespace gigacheck::cuda
