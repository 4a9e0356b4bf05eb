// Probe: does the fused TF32 GEMM (CUTLASS sm_90a, C's row and column sums in the epilogue) reach
// cuBLAS TF32 when both operands are K-major in shared memory (B transposed once by the pass that
// rounds it), instead of B through registers (the lab's kernel today, 82-88 % of cuBLAS)?
// Times, in one process on one GPU, N x N x N row-major C = A B, interleaved, median of reps:
//   cuBLAS TF32 (cublasGemmEx, FAST_TF32);  the lab's layout (A' MN-major, register-sourced);
//   both K-major (A' = B^T from the rounding pass), tile shapes and schedules;
//   the passes the fused path needs beside it: round A (in place), round + transpose B, two GEMVs.
// Build (device): nvcc -std=c++17 -O3 -arch=sm_90a --expt-relaxed-constexpr -I$CUTLASS/include
//   -I$CUTLASS/tools/util/include cutlass_kmajor_probe.cu -lcublas -o probe
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

#include <cublas_v2.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

using namespace cute;
namespace fusion = cutlass::epilogue::fusion;

#define CK(x)                                                                                            \
    do {                                                                                                 \
        cudaError_t e_ = (x);                                                                            \
        if (e_ != cudaSuccess) {                                                                         \
            std::printf("CUDA %s at %d\n", cudaGetErrorString(e_), __LINE__);                            \
            std::exit(1);                                                                                \
        }                                                                                                \
    } while (0)

constexpr auto kRound = cutlass::FloatRoundStyle::round_to_nearest;

struct Call {
    int m, n, q;
    const float *a, *b;  // b: B (n x q, ldb = q) or, K-major, B^T (q x n, ld = n)
    float* c;
    double *rowSums, *colSums;
};

// C' = C^T (q x m, column-major) = A' B': A' (q x n) is B^T, B' (n x m) is A^T (A's memory, K-major).
// LayoutA' ColumnMajor: B's own memory (MN-major); RowMajor: B^T's memory (K-major).
template <class LayoutAPrime, class TileShape, class ClusterShape, class MainSchedule, class EpiSchedule>
struct FusedGemm {
    static constexpr int kAlign = 4;
    using Sum = fusion::Sm90EVT<fusion::Sm90Compute<cutlass::homogeneous_multiply_add, float, float, kRound>,
                                fusion::Sm90ScalarBroadcast<float>, fusion::Sm90SrcFetch<float>, fusion::Sm90AccFetch>;
    using SumsOfCRows = fusion::Sm90RowReduction<cutlass::plus, cutlass::plus, cutlass::atomic_add, 0, TileShape,
                                                 double, double, kRound, Stride<_0, _1, int64_t>, 2>;
    using SumsOfCCols = fusion::Sm90ColReduction<cutlass::plus, cutlass::plus, cutlass::atomic_add, 0, TileShape,
                                                 double, double, kRound, Stride<_1, _0, int64_t>, 2>;
    using Fusion = fusion::Sm90EVT<SumsOfCCols, fusion::Sm90EVT<SumsOfCRows, Sum>>;
    using Epilogue = typename cutlass::epilogue::collective::CollectiveBuilder<
        cutlass::arch::Sm90, cutlass::arch::OpClassTensorOp, TileShape, ClusterShape,
        cutlass::epilogue::collective::EpilogueTileAuto, float, float, float, cutlass::layout::ColumnMajor, kAlign,
        float, cutlass::layout::ColumnMajor, kAlign, EpiSchedule, Fusion>::CollectiveOp;
    using Mainloop = typename cutlass::gemm::collective::CollectiveBuilder<
        cutlass::arch::Sm90, cutlass::arch::OpClassTensorOp, float, LayoutAPrime, kAlign, float,
        cutlass::layout::ColumnMajor, kAlign, float, TileShape, ClusterShape,
        cutlass::gemm::collective::StageCountAutoCarveout<int(sizeof(typename Epilogue::SharedStorage))>,
        MainSchedule>::CollectiveOp;
    using Kernel = cutlass::gemm::kernel::GemmUniversal<Shape<int, int, int, int>, Mainloop, Epilogue>;
    using Gemm = cutlass::gemm::device::GemmUniversalAdapter<Kernel>;
    static constexpr bool kKMajor = std::is_same_v<LayoutAPrime, cutlass::layout::RowMajor>;

    static bool run(const Call& g, int sms, cudaStream_t s)
    {
        typename Kernel::StrideA strideA{};
        typename Kernel::StrideB strideB{};
        typename Kernel::StrideC strideC{};
        if constexpr (kKMajor)
            get<0>(strideA) = g.n;  // B^T: q rows of n
        else
            get<1>(strideA) = g.q;  // B: n rows of q
        get<0>(strideB) = g.n;      // A: m rows of n
        get<1>(strideC) = g.q;      // C: m rows of q
        typename Epilogue::FusionCallbacks::Arguments sums{{{{{0.0f}, {nullptr}, {}}, {}, {}, {}}, {g.rowSums, 0.0, {}}},
                                                           {g.colSums, 0.0, {}}};
        cutlass::KernelHardwareInfo hw;
        hw.sm_count = sms;
        typename Gemm::Arguments args{cutlass::gemm::GemmUniversalMode::kGemm,
                                      {g.q, g.m, g.n, 1},
                                      {g.b, strideA, g.a, strideB},
                                      {sums, g.c, strideC, g.c, strideC},
                                      hw};
        if (Gemm::can_implement(args) != cutlass::Status::kSuccess) {
            std::printf("cannot implement\n");
            return false;
        }
        static bool raised = false;
        if (!raised) {
            CK(cudaFuncSetAttribute(cutlass::device_kernel<Kernel>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                    int(Kernel::SharedStorageSize)));
            raised = true;
        }
        typename Kernel::Params params = Kernel::to_underlying_arguments(args, nullptr);
        return Gemm::run(params, s) == cutlass::Status::kSuccess;
    }
};

using RowMajor = cutlass::layout::RowMajor;
using ColMajor = cutlass::layout::ColumnMajor;
using Coop = cutlass::gemm::KernelTmaWarpSpecializedCooperative;
using Ping = cutlass::gemm::KernelTmaWarpSpecializedPingpong;
using EpiCoop = cutlass::epilogue::TmaWarpSpecializedCooperative;
using EpiPing = cutlass::epilogue::TmaWarpSpecialized;

struct Variant {
    const char* name;
    bool kMajor;
    bool (*run)(const Call&, int, cudaStream_t);
};
// One variant per binary (-DPROBE_VARIANT=0..5), so that the six compile in parallel.
#ifndef PROBE_VARIANT
#define PROBE_VARIANT 1
#endif
const Variant kVariants[] = {
#if PROBE_VARIANT == 0
    {"lab today: B' via registers 128x256x32 c2x1 coop", false,
     &FusedGemm<ColMajor, Shape<_128, _256, _32>, Shape<_2, _1, _1>, Coop, EpiCoop>::run},
#elif PROBE_VARIANT == 1
    {"K-major 128x256x32 c2x1 coop", true, &FusedGemm<RowMajor, Shape<_128, _256, _32>, Shape<_2, _1, _1>, Coop, EpiCoop>::run},
#elif PROBE_VARIANT == 2
    {"K-major 128x256x32 c1x2 coop", true, &FusedGemm<RowMajor, Shape<_128, _256, _32>, Shape<_1, _2, _1>, Coop, EpiCoop>::run},
#elif PROBE_VARIANT == 3
    {"K-major 256x128x32 c1x2 coop", true, &FusedGemm<RowMajor, Shape<_256, _128, _32>, Shape<_1, _2, _1>, Coop, EpiCoop>::run},
#elif PROBE_VARIANT == 4
    {"K-major 128x128x32 c2x1 coop", true, &FusedGemm<RowMajor, Shape<_128, _128, _32>, Shape<_2, _1, _1>, Coop, EpiCoop>::run},
#else
    {"K-major 64x256x32 c2x1 pingpong", true, &FusedGemm<RowMajor, Shape<_64, _256, _32>, Shape<_2, _1, _1>, Ping, EpiPing>::run},
#endif
};

__device__ float roundTf32(float x)
{
    unsigned r;
    asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(r) : "f"(x));
    return __uint_as_float(r);
}

// B (n x q) -> B^T (q x n), rounded to TF32, and B's row sums of the rounded values.
__global__ void roundTransposeB(const float* b, float* bt, double* rowSums, int n, int q)
{
    __shared__ float tile[32][33];
    const int x = blockIdx.x * 32 + threadIdx.x;  // column of B
    const int y0 = blockIdx.y * 32;
    for (int j = threadIdx.y; j < 32; j += 8) {
        const int y = y0 + j;
        float v = y < n && x < q ? roundTf32(b[std::size_t(y) * q + x]) : 0.0f;
        tile[j][threadIdx.x] = v;
        float s = v;
        for (int o = 16; o > 0; o /= 2)
            s += __shfl_down_sync(0xffffffffu, s, o);
        if (threadIdx.x == 0 && y < n)
            atomicAdd(&rowSums[y], double(s));
    }
    __syncthreads();
    const int tx = y0 + threadIdx.x;  // column of B^T
    for (int j = threadIdx.y; j < 32; j += 8) {
        const int ty = blockIdx.x * 32 + j;
        if (ty < q && tx < n)
            bt[std::size_t(ty) * n + tx] = tile[threadIdx.x][j];
    }
}

// A rounded to TF32 in place (the pass the lab's TF32 path makes over A), 4 floats a thread.
__global__ void roundInPlace(float4* a, std::size_t count4)
{
    for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < count4; i += std::size_t(gridDim.x) * blockDim.x) {
        float4 v = a[i];
        v.x = roundTf32(v.x);
        v.y = roundTf32(v.y);
        v.z = roundTf32(v.z);
        v.w = roundTf32(v.w);
        a[i] = v;
    }
}

__global__ void fill(float* p, std::size_t count, unsigned seed)
{
    for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < count; i += std::size_t(gridDim.x) * blockDim.x) {
        unsigned h = unsigned(i) * 2654435761u ^ seed;
        h ^= h >> 13;
        h *= 0x5bd1e995u;
        h ^= h >> 15;
        p[i] = float(h & 0xffffff) / float(0x1000000) - 0.5f;
    }
}

int main()
{
    int sms = 0;
    CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    std::printf("device %s, %d SMs\n", prop.name, sms);
    cublasHandle_t h;
    cublasCreate(&h);
    cudaStream_t s;
    CK(cudaStreamCreate(&s));
    cublasSetStream(h, s);
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));

    for (int N : {4096, 8192, 16384}) {
        const std::size_t nn = std::size_t(N) * N;
        float *a, *b, *bt, *c, *cref;
        double *sums, *ones;
        CK(cudaMalloc(&a, nn * 4));
        CK(cudaMalloc(&b, nn * 4));
        CK(cudaMalloc(&bt, nn * 4));
        CK(cudaMalloc(&c, nn * 4));
        CK(cudaMalloc(&cref, nn * 4));
        CK(cudaMalloc(&sums, 4 * std::size_t(N) * 8));
        CK(cudaMalloc(&ones, std::size_t(N) * 8));
        fill<<<1024, 256, 0, s>>>(a, nn, 1);
        fill<<<1024, 256, 0, s>>>(b, nn, 2);
        // The operands as the fused path sees them: rounded once (A in place, B into B^T).
        roundInPlace<<<2048, 256, 0, s>>>(reinterpret_cast<float4*>(a), nn / 4);
        roundInPlace<<<2048, 256, 0, s>>>(reinterpret_cast<float4*>(b), nn / 4);
        CK(cudaMemsetAsync(sums, 0, 4 * std::size_t(N) * 8, s));
        roundTransposeB<<<dim3(N / 32, N / 32), dim3(32, 8), 0, s>>>(b, bt, sums + 2 * N, N, N);
        const float one = 1.0f, zero = 0.0f;
        auto cublasTf32 = [&] {
            cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, N, N, N, &one, b, CUDA_R_32F, N, a, CUDA_R_32F, N, &zero, cref,
                         CUDA_R_32F, N, CUBLAS_COMPUTE_32F_FAST_TF32, CUBLAS_GEMM_DEFAULT);
        };
        auto time = [&](auto&& f) {
            CK(cudaEventRecord(e0, s));
            f();
            CK(cudaEventRecord(e1, s));
            CK(cudaEventSynchronize(e1));
            float ms = 0;
            CK(cudaEventElapsedTime(&ms, e0, e1));
            return double(ms);
        };
        const int reps = N >= 16384 ? 7 : 15;
        const int nv = int(sizeof(kVariants) / sizeof(kVariants[0]));
        std::vector<std::vector<double>> t(nv + 2);
        cublasTf32();
        for (const Variant& v : kVariants)
            v.run(Call{N, N, N, a, v.kMajor ? bt : b, c, sums, sums + N}, sms, s);
        CK(cudaStreamSynchronize(s));
        for (int r = 0; r < reps; ++r) {
            t[0].push_back(time(cublasTf32));
            for (int i = 0; i < nv; ++i) {
                const Variant& v = kVariants[i];
                t[1 + i].push_back(time([&] {
                    cudaMemsetAsync(sums, 0, 2 * std::size_t(N) * 8, s);
                    v.run(Call{N, N, N, a, v.kMajor ? bt : b, c, sums, sums + N}, sms, s);
                }));
            }
            // The passes the fused K-major path adds: A rounded in place, B rounded into B^T with
            // its row sums, then (e^T A) B^T and A (B e) as two GEMVs (the checksum products).
            t[1 + nv].push_back(time([&] {
                roundInPlace<<<2048, 256, 0, s>>>(reinterpret_cast<float4*>(a), nn / 4);
                roundTransposeB<<<dim3(N / 32, N / 32), dim3(32, 8), 0, s>>>(b, bt, sums + 2 * N, N, N);
                cublasSgemv(h, CUBLAS_OP_N, N, N, &one, bt, N, reinterpret_cast<float*>(sums), 1, &zero, c, 1);
                cublasSgemv(h, CUBLAS_OP_T, N, N, &one, a, N, reinterpret_cast<float*>(sums), 1, &zero, c + N, 1);
            }));
        }
        auto median = [](std::vector<double> v) {
            std::sort(v.begin(), v.end());
            return v[v.size() / 2];
        };
        const double base = median(t[0]);
        std::printf("\nN = %d: cuBLAS TF32 %.3f ms (%.1f TFLOP/s)\n", N, base, 2.0 * N * double(N) * N / base / 1e9);
        // Correctness of each fused variant against cuBLAS TF32 (same rounded operands).
        std::vector<float> hc(nn), hr(nn);
        CK(cudaMemcpy(hr.data(), cref, nn * 4, cudaMemcpyDeviceToHost));
        for (int i = 0; i < nv; ++i) {
            const Variant& v = kVariants[i];
            CK(cudaMemset(c, 0, nn * 4));
            v.run(Call{N, N, N, a, v.kMajor ? bt : b, c, sums, sums + N}, sms, s);
            CK(cudaStreamSynchronize(s));
            CK(cudaMemcpy(hc.data(), c, nn * 4, cudaMemcpyDeviceToHost));
            double worst = 0, scale = 0;
            for (std::size_t k = 0; k < nn; k += 97) {
                worst = std::max(worst, double(std::fabs(hc[k] - hr[k])));
                scale = std::max(scale, double(std::fabs(hr[k])));
            }
            const double ms = median(t[1 + i]);
            std::printf("  %-46s %.3f ms  %.1f %% of cuBLAS  max|C-C_cublas|/max|C| %.1e\n", v.name, ms,
                        100.0 * base / ms, worst / scale);
        }
        const double passes = median(t[1 + nv]);
        std::printf("  passes beside (round A, round+transpose B, 2 GEMV) %.3f ms = %.2f %% of cuBLAS TF32\n", passes,
                    100.0 * passes / base);
        CK(cudaFree(a));
        CK(cudaFree(b));
        CK(cudaFree(bt));
        CK(cudaFree(c));
        CK(cudaFree(cref));
        CK(cudaFree(sums));
        CK(cudaFree(ones));
    }
    return 0;
}
