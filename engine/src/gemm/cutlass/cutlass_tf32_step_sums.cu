// The step-sums kernel of the online family in TF32 (cutlass_step_sums.hpp): both operands K-major
// (B given as B^T), the 128 x 256 x 32 tile in clusters of 2 x 1 of the fused TF32 kernel, CUTLASS's
// plain epilogue (C written once, not read), the consumer loop of cutlass_step_sums_mainloop.cuh.
#include "gemm/cutlass/cutlass_step_sums_mainloop.cuh"

#include "gemm/cutlass/cutlass_launch.cuh"
#include "gemm/cutlass/kmajor_choice.hpp"

#include "cutlass/epilogue/collective/collective_builder.hpp"
#include "cutlass/gemm/collective/collective_builder.hpp"
#include "cutlass/gemm/device/gemm_universal_adapter.h"
#include "cutlass/gemm/kernel/gemm_universal.hpp"

#include <cstdint>
#include <mutex>

namespace gigacheck::cuda {

namespace {

using namespace cute;

using TileShape = cute::Shape<_128, _256, _32>;
using ClusterShape = cute::Shape<_2, _1, _1>;
constexpr int kAlign = 4;  // 16 bytes of FP32: what TMA needs

// C' = A' B' with A' = B^T's memory (q x n row-major: K-major), B' = A's memory (K-major), C' = C^T.
// The epilogue runs once per tile after its whole depth: a small staging tile (128 x 16: two of 8 KB) leaves
// the shared memory for four stages of operands beside the step sums' partials.
using Epilogue = typename cutlass::epilogue::collective::CollectiveBuilder<
    cutlass::arch::Sm90, cutlass::arch::OpClassTensorOp, TileShape, ClusterShape, cute::Shape<_128, _16>, float, float, void, cutlass::layout::ColumnMajor, kAlign, float,
    cutlass::layout::ColumnMajor, kAlign, cutlass::epilogue::TmaWarpSpecializedCooperative>::CollectiveOp;
using BaseMainloop = typename cutlass::gemm::collective::CollectiveBuilder<
    cutlass::arch::Sm90, cutlass::arch::OpClassTensorOp, float, cutlass::layout::RowMajor, kAlign, float,
    cutlass::layout::ColumnMajor, kAlign, float, TileShape, ClusterShape,
    cutlass::gemm::collective::StageCountAutoCarveout<int(sizeof(typename Epilogue::SharedStorage)) +
                                                      stepSumsSharedBytes(size<1>(TileShape{}))>,
    cutlass::gemm::KernelTmaWarpSpecializedCooperative>::CollectiveOp;
using Mainloop = StepSumsMainloop<BaseMainloop>;
using Kernel = cutlass::gemm::kernel::GemmUniversal<cute::Shape<int, int, int, int>, Mainloop, Epilogue,
                                                    cutlass::gemm::PersistentScheduler>;
using Gemm = cutlass::gemm::device::GemmUniversalAdapter<Kernel>;

bool aligned(const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; }

}  // namespace

const char* cutlassTf32StepSums(const CutlassStepSumsCall& g, cudaStream_t s)
{
    int device = 0;
    if (cudaGetDevice(&device) != cudaSuccess)
        return "CUTLASS TF32 step sums: no CUDA device";
    const int sms = cutlassHopperSmCount(device);
    if (sms <= 0)
        return "CUTLASS TF32 step sums: the kernel runs on Hopper GPUs (compute capability 9.0) only";
    if (g.m <= 0 || g.n <= 0 || g.q <= 0 || g.m > INT32_MAX || g.n > INT32_MAX || g.q > INT32_MAX)
        return "CUTLASS TF32 step sums: every extent must be positive and below 2^31";
    if (g.panel <= 0 || g.panel % kStepSumsPanelMultiple != 0)
        return "CUTLASS TF32 step sums: the panel width must be a positive multiple of 32";
    if (g.faultCount < 0 || g.faultCount > kStepFaultsMax)
        return "CUTLASS TF32 step sums: at most 8 faults per product";
    if (g.n % kAlign || g.lda % kAlign || g.ldbt % kAlign || g.ldc % kAlign || !aligned(g.a) || !aligned(g.bt) ||
        !aligned(g.c))
        return "CUTLASS TF32 step sums: n, the leading dimensions and the addresses must be whole 16 bytes";
    if (!g.stepSums || (g.faultCount > 0 && !g.faultValues))
        return "CUTLASS TF32 step sums: no buffer for the sums or the faults' values";

    using StrideA = typename Kernel::StrideA;
    using StrideB = typename Kernel::StrideB;
    using StrideC = typename Kernel::StrideC;
    StrideA strideA{};
    get<0>(strideA) = g.ldbt;
    StrideB strideB{};
    get<0>(strideB) = g.lda;
    StrideC strideC{};
    get<1>(strideC) = g.ldc;

    cutlass::KernelHardwareInfo hw;
    hw.device_id = device;
    hw.sm_count = g.leavesIdleSms ? cutlassSmsKeepingRounds(g.m, g.q, sms, size(ClusterShape{})) : sms;
    typename Mainloop::Arguments mainloop;
    mainloop.ptr_A = g.bt;
    mainloop.dA = strideA;
    mainloop.ptr_B = g.a;
    mainloop.dB = strideB;
    mainloop.target.panelTiles = int(g.panel / kStepSumsPanelMultiple);
    mainloop.target.rowsOfC = g.m;
    mainloop.target.colsOfC = g.q;
    mainloop.target.stepSums = g.stepSums;
    for (int f = 0; f < g.faultCount; ++f)
        mainloop.target.faults[f] = g.faults[f];
    mainloop.target.faultCount = g.faultCount;
    mainloop.target.faultValues = g.faultValues;
    mainloop.hw = hw;
    typename Gemm::Arguments args{cutlass::gemm::GemmUniversalMode::kGemm,
                                  {int(g.q), int(g.m), int(g.n), 1},
                                  mainloop,
                                  {{}, nullptr, strideC, g.c, strideC},
                                  hw};
    using Raster = typename Mainloop::Scheduler::RasterOrderOptions;
    args.scheduler.max_swizzle_size = g.maxSwizzle;
    // C' = C^T: C''s M is C's columns.
    args.scheduler.raster_order = g.raster == 1 ? Raster::AlongM : g.raster == 2 ? Raster::AlongN : Raster::Heuristic;
    args.mainloop.scheduler = args.scheduler;  // the consumer walks the tiles as the kernel does

    static std::mutex mutex;
    static bool smemRaised[kCutlassMaxDevices] = {};
    {
        const std::lock_guard<std::mutex> lock(mutex);
        if (device >= kCutlassMaxDevices)
            return "CUTLASS TF32 step sums: device index out of range";
        if (!smemRaised[device]) {
            if (cudaFuncSetAttribute(cutlass::device_kernel<Kernel>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                     int(Kernel::SharedStorageSize)) != cudaSuccess)
                return "CUTLASS TF32 step sums: the kernel's shared memory could not be reserved";
            smemRaised[device] = true;
        }
    }
    if (Gemm::can_implement(args) != cutlass::Status::kSuccess)
        return "CUTLASS TF32 step sums: this shape or alignment cannot be run";
    if (Gemm::get_workspace_size(args) != 0)
        return "CUTLASS TF32 step sums: the kernel asks for a workspace, which this build does not give";
    typename Kernel::Params params = Kernel::to_underlying_arguments(args, nullptr);
    if (!launchKernelFromParams<Kernel>(params, s)) {
        (void)cudaGetLastError();
        return "CUTLASS TF32 step sums: launch failed";
    }
    return nullptr;
}

}  // namespace gigacheck::cuda
