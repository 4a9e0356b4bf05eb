// The fused 16-bit GEMM of Hopper as a template: the TF32 kernel's formulation (cutlass_tf32_kernel.cuh)
// and epilogue (cutlass_sums_epilogue.cuh) on BF16 or FP16 operands. Row-major C = A B runs as
// column-major C' = A' B' with C' = C^T, A' = B^T (the memory of B, MN-major: 16-bit WGMMA reads
// MN-major operands from shared memory, so no B^T is needed) and B' = A^T (the memory of A, K-major).
// Included only by cutlass_bf16_tiles.cu and cutlass_f16_tiles.cu, compiled for sm_90a alone.
#pragma once

#include "gemm/cutlass/cutlass_16bit_runners.hpp"

#include "gemm/cutlass/cutlass_fused_run.cuh"

namespace gigacheck::cuda::cutlass_16bit {

using namespace cute;
template <class Element, class TileShape, class ClusterShape, bool kReadsC>
struct GemmWithSums16 {
    using Layout = cutlass::layout::ColumnMajor;  // A' MN-major (B's memory), B' K-major, C' column-major
    static constexpr int kAlign16 = 8;  // 16 bytes: what TMA needs

    using Epilogue = typename SumsOfCEpilogue<TileShape, ClusterShape, kReadsC>::Collective;
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
        static constexpr CutlassRefusals kNo{
            "CUTLASS 16-bit GEMM: this shape or alignment cannot be run (operands and leading dimensions must be "
            "multiples of 16 bytes)",
            "CUTLASS 16-bit GEMM: the kernel asks for a workspace, which this build does not give",
            "CUTLASS 16-bit GEMM: the kernel's shared memory could not be reserved",
            "CUTLASS 16-bit GEMM: launch failed"};
        return runGemmWithSums<Gemm, TileShape, ClusterShape, false, Element, kReadsC>(g, launch, s, kNo);
    }
};

// A call that accumulates runs the kernel whose epilogue reads C; one that does not, the kernel
// without C, whose mainloop has a fourth stage (cutlass_sums_epilogue.cuh).
template <class Element, class TileShape, class ClusterShape>
const char* runGemmWithSums16(const Cutlass16BitCall& g, const CutlassLaunch& l, cudaStream_t s)
{
    return g.accumulate ? GemmWithSums16<Element, TileShape, ClusterShape, true>::run(g, l, s)
                        : GemmWithSums16<Element, TileShape, ClusterShape, false>::run(g, l, s);
}

}  // namespace gigacheck::cuda::cutlass_16bit
