// The CUTLASS BF16 GEMM with C's sums in its epilogue (cutlass_bf16_gemm.hpp): the TF32 kernel's
// formulation and epilogue visitor tree (cutlass_tf32_kernel.cuh) on BF16 operands, one tile shape.
// Row-major C = A B runs as column-major C' = A' B' with C' = C^T, A' = B^T (the memory of B,
// MN-major: 16-bit WGMMA reads MN-major operands from shared memory too) and B' = A^T (the memory of
// A, K-major). C's row sums are C''s column sums (Sm90RowReduction) and its column sums C''s row sums.
#include "gemm/cutlass/cutlass_bf16_gemm.hpp"

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

#include <atomic>
#include <mutex>

namespace gigacheck::cuda {

namespace {

using namespace cute;
namespace fusion = cutlass::epilogue::fusion;

constexpr auto kRound = cutlass::FloatRoundStyle::round_to_nearest;
constexpr int kMaxDevices = 64;

struct Bf16GemmWithSums {
    using TileShape = Shape<_128, _256, _64>;
    using ClusterShape = Shape<_2, _1, _1>;
    using Layout = cutlass::layout::ColumnMajor;  // A' MN-major (B's memory), B' K-major, C' column-major
    using Element = cutlass::bfloat16_t;
    static constexpr int kAlign16 = 8, kAlign32 = 4;  // 16 bytes: what TMA needs

    using Sum = fusion::Sm90EVT<fusion::Sm90Compute<cutlass::homogeneous_multiply_add, float, float, kRound>,
                                fusion::Sm90ScalarBroadcast<float>, fusion::Sm90SrcFetch<float>, fusion::Sm90AccFetch>;
    using SumsOfCRows = fusion::Sm90RowReduction<cutlass::plus, cutlass::plus, cutlass::atomic_add, 0, TileShape,
                                                 double, double, kRound, Stride<_0, _1, int64_t>, 2>;
    using SumsOfCCols = fusion::Sm90ColReduction<cutlass::plus, cutlass::plus, cutlass::atomic_add, 0, TileShape,
                                                 double, double, kRound, Stride<_1, _0, int64_t>, 2>;
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

    static const char* run(const CutlassBf16Call& g, int device, int smCount, cudaStream_t s)
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
        typename Epilogue::FusionCallbacks::Arguments sums{{{{{beta}, {nullptr}, {}}, {}, {}, {}}, {g.rowSums, 0.0, {}}},
                                                           {g.colSums, 0.0, {}}};
        cutlass::KernelHardwareInfo hw;
        hw.device_id = device;
        hw.sm_count = smCount;
        typename Gemm::Arguments args{cutlass::gemm::GemmUniversalMode::kGemm,
                                      {int(g.q), int(g.m), int(g.n), 1},
                                      {static_cast<const Element*>(g.b), strideA, static_cast<const Element*>(g.a), strideB},
                                      {sums, g.c, strideC, g.c, strideC},
                                      hw};
        if (Gemm::can_implement(args) != cutlass::Status::kSuccess)
            return "CUTLASS BF16 GEMM: this shape or alignment cannot be run (operands and leading dimensions "
                   "must be multiples of 16 bytes)";
        if (Gemm::get_workspace_size(args) != 0)
            return "CUTLASS BF16 GEMM: the kernel asks for a workspace, which this build does not give";
        // As the TF32 kernel: the caller zeroes the sums (CUTLASS cannot fill doubles with the
        // reduction's identity), and the kernel is launched from its parameters.
        static bool smemRaised[kMaxDevices] = {};
        static std::mutex smemMutex;
        {
            const std::lock_guard<std::mutex> lock(smemMutex);
            if (!smemRaised[device]) {
                if (cudaFuncSetAttribute(cutlass::device_kernel<Kernel>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                         int(Kernel::SharedStorageSize)) != cudaSuccess)
                    return "CUTLASS BF16 GEMM: the kernel's shared memory could not be reserved";
                smemRaised[device] = true;
            }
        }
        typename Kernel::Params params = Kernel::to_underlying_arguments(args, nullptr);
        if (Gemm::run(params, s) != cutlass::Status::kSuccess)
            return "CUTLASS BF16 GEMM: launch failed";
        return nullptr;
    }
};

}  // namespace

bool cutlassBf16Runs()
{
    // Per device: unknown (0), runs (1), does not (2).
    static std::atomic<char> known[kMaxDevices] = {};
    int device = 0;
    if (cudaGetDevice(&device) != cudaSuccess || device < 0 || device >= kMaxDevices)
        return false;
    if (const char k = known[device].load())
        return k == 1;
    int major = 0, minor = 0;
    const bool runs = cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device) == cudaSuccess &&
                      cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device) == cudaSuccess &&
                      major == 9 && minor == 0;
    known[device].store(runs ? 1 : 2);
    return runs;
}

const char* cutlassBf16Gemm(const CutlassBf16Call& call, cudaStream_t s)
{
    int device = 0, major = 0, minor = 0, sms = 0;
    if (cudaGetDevice(&device) != cudaSuccess || device >= kMaxDevices ||
        cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device) != cudaSuccess ||
        cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device) != cudaSuccess ||
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device) != cudaSuccess)
        return "CUTLASS BF16 GEMM: no CUDA device";
    if (major != 9 || minor != 0)
        return "CUTLASS BF16 GEMM: the kernel is sm_90a machine code (a Hopper GPU)";
    if (!cutlassBf16Fits(call))
        return "CUTLASS BF16 GEMM: n, q and the leading dimensions must be whole 16 bytes";
    return Bf16GemmWithSums::run(call, device, sms, s);
}

}  // namespace gigacheck::cuda
