// The fused TF32 GEMM of Hopper as a template: a CUTLASS 3.x warp-specialized TMA / WGMMA kernel made
// by the collective builders, whose epilogue visitor tree (cutlass_sums_epilogue.cuh) writes
// C = A B (+ C) and, from the same registers, C's row and column sums, added into double vectors by
// atomics. Included only by the few .cu files that instantiate it (cutlass_tf32_*_tiles.cu), each
// compiled for sm_90a alone (engine/CMakeLists.txt).
#pragma once

#include "gemm/cutlass/cutlass_tf32_runners.hpp"

#include "gemm/cutlass/cutlass_fused_run.cuh"

#include <type_traits>

namespace gigacheck::cuda::cutlass_tf32 {

using namespace cute;

// The row-major C = A B of the engine is run as its transpose, column-major C' = A' B' with
// C' = C^T (q x m), A' = B^T (q x n: the memory of B, q contiguous) and B' = A^T (n x m: the memory
// of A, n contiguous, K-major). A', MN-major, goes through registers (TF32 GMMA reads only K-major
// operands from shared memory). Formulated so, not as C = A B with a K-major A and an MN-major B:
// there the builder swaps the operands inside the mainloop (SwapAB), whose epilogue then wrote C
// wrongly (measured on the H200: relative error 0.1 against 1e-5 for cuBLAS).
// With B^T at hand (KMajorA: B^T's memory, q x n row-major), A' is K-major too and both operands
// stay in shared memory: measured on the H200 93.9 / 92.7 / 96.3 % of cuBLAS TF32 at 4096 / 8192 /
// 16384 against 77.7 / 78.5 / 78.4 % with A' through registers (resources/results/README.md,
// "K-major B").
template <class TileShape, class ClusterShape, bool KMajorA, bool kReadsC>
struct Tf32GemmWithSums {
    using Layout = cutlass::layout::ColumnMajor;  // A' MN-major (B's memory), B' K-major, C' column-major
    using LayoutA = std::conditional_t<KMajorA, cutlass::layout::RowMajor, Layout>;  // RowMajor: B^T's memory
    static constexpr int kAlign = 4;  // 16 bytes: what TMA needs

    using Epilogue = typename SumsOfCEpilogue<TileShape, ClusterShape, kReadsC>::Collective;
    using Mainloop = typename cutlass::gemm::collective::CollectiveBuilder<
        cutlass::arch::Sm90, cutlass::arch::OpClassTensorOp, float, LayoutA, kAlign, float, Layout, kAlign, float,
        TileShape, ClusterShape,
        cutlass::gemm::collective::StageCountAutoCarveout<int(sizeof(typename Epilogue::SharedStorage))>,
        cutlass::gemm::KernelTmaWarpSpecializedCooperative>::CollectiveOp;
    // The persistent tile scheduler (the cooperative kernel's default): one CTA per SM walks the
    // tiles in the raster order and swizzle of CutlassLaunch.
    using Kernel = cutlass::gemm::kernel::GemmUniversal<Shape<int, int, int, int>, Mainloop, Epilogue,
                                                        cutlass::gemm::PersistentScheduler>;
    using Gemm = cutlass::gemm::device::GemmUniversalAdapter<Kernel>;

    static const char* run(const CutlassTf32Call& g, const CutlassLaunch& launch, cudaStream_t s)
    {
        static constexpr CutlassRefusals kNo{
            "CUTLASS TF32 GEMM: this shape or alignment cannot be run (operands and leading dimensions must be "
            "multiples of 16 bytes)",
            "CUTLASS TF32 GEMM: the kernel asks for a workspace, which this build does not give",
            "CUTLASS TF32 GEMM: the kernel's shared memory could not be reserved", "CUTLASS TF32 GEMM: launch failed"};
        return runGemmWithSums<Gemm, TileShape, ClusterShape, KMajorA, float, kReadsC>(g, launch, s, kNo);
    }
};

// As runGemmWithSums16 (cutlass_16bit_kernel.cuh): the kernel reading C only where the call accumulates.
template <class TileShape, class ClusterShape, bool KMajorA>
const char* runTf32GemmWithSums(const CutlassTf32Call& g, const CutlassLaunch& l, cudaStream_t s)
{
    return g.accumulate ? Tf32GemmWithSums<TileShape, ClusterShape, KMajorA, true>::run(g, l, s)
                        : Tf32GemmWithSums<TileShape, ClusterShape, KMajorA, false>::run(g, l, s);
}

}  // namespace gigacheck::cuda::cutlass_tf32
