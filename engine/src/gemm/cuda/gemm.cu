#include "core/cuda/check.hpp"
#include "core/cuda/gemm_tile.cuh"
#include "gemm/cuda/tile_epilogue.cuh"
#include "gemm/cuda/gemm.hpp"
#include "gemm/cuda/gemm_16bit.hpp"
#include "gemm/cuda/gemm_tf32x3.hpp"
#include "gemm/cuda/gemm_tuning.hpp"

#include <string>

namespace gigacheck::cuda {

namespace {

using Index = std::int64_t;

// ---- naive: one thread per C element, both operands straight from global memory ----------------
template <class T>
__global__ void naiveGemmKernel(Index m, Index n, Index q, const T* a, Index lda, const T* b, Index ldb,
                                T* c, Index ldc, bool accumulate)
{
    const Index row = Index(blockIdx.y) * blockDim.y + threadIdx.y;
    const Index col = Index(blockIdx.x) * blockDim.x + threadIdx.x;
    if (row >= m || col >= q)
        return;
    T sum = 0;
    for (Index k = 0; k < n; ++k)
        sum += a[row * lda + k] * b[k * ldb + col];
    T* out = c + row * ldc + col;
    *out = accumulate ? *out + sum : sum;
}

// ---- tiled: seed figure 7. A block of TILE x TILE threads computes one TILE x TILE tile of C ----
template <class T, int TILE>
__global__ void tiledGemmKernel(Index m, Index n, Index q, const T* a, Index lda, const T* b, Index ldb,
                                T* c, Index ldc, bool accumulate)
{
    __shared__ T sa[TILE][TILE];
    __shared__ T sb[TILE][TILE + 1];  // +1: no bank conflicts on the column reads
    const int tx = threadIdx.x, ty = threadIdx.y;
    const Index row = Index(blockIdx.y) * TILE + ty;
    const Index col = Index(blockIdx.x) * TILE + tx;
    T val = 0;
    for (Index t = 0; t < n; t += TILE) {
        sa[ty][tx] = (row < m && t + tx < n) ? a[row * lda + t + tx] : T(0);
        sb[ty][tx] = (t + ty < n && col < q) ? b[(t + ty) * ldb + col] : T(0);
        __syncthreads();
#pragma unroll
        for (int e = 0; e < TILE; ++e)
            val += sa[ty][e] * sb[e][tx];
        __syncthreads();
    }
    if (row < m && col < q) {
        T* out = c + row * ldc + col;
        *out = accumulate ? *out + val : val;
    }
}

// ---- optimized: the register-tiled main loop of core/cuda/gemm_tile.cuh, then C (+)= the tile ----
using tile::kBM;
using tile::kBN;

template <class T, int BK, bool VEC>
__global__ void __launch_bounds__(tile::kThreads, sizeof(T) == 4 ? 2 : 1)
    optimizedGemmKernel(Index m, Index n, Index q, const T* __restrict__ a, Index lda, const T* __restrict__ b, Index ldb,
                        T* __restrict__ c, Index ldc, bool accumulate)
{
    const Index m0 = Index(blockIdx.y) * kBM, q0 = Index(blockIdx.x) * kBN;
    T acc[8][8];
    tile::tileProduct<T, BK, VEC>(m, n, q, a, lda, b, ldb, m0, q0, acc);
    tile::forEachTileCell(m, q, m0, q0, acc, [&](Index r, Index col, T v) {
        T* out = c + r * ldc + col;
        *out = accumulate ? *out + v : v;
    });
}

unsigned gridDim1(Index extent, Index per) { return unsigned((extent + per - 1) / per); }

template <class T>
void launchOwn(const GemmCall& g, cudaStream_t s)
{
    const T* a = static_cast<const T*>(g.a);
    const T* b = static_cast<const T*>(g.b);
    T* c = static_cast<T*>(g.c);
    switch (g.variant) {
    case GemmVariant::Naive: {
        const dim3 block(32, 8);
        const dim3 grid(gridDim1(g.q, 32), gridDim1(g.m, 8));
        naiveGemmKernel<T><<<grid, block, 0, s>>>(g.m, g.n, g.q, a, g.lda, b, g.ldb, c, g.ldc, g.accumulate);
        break;
    }
    case GemmVariant::Tiled: {
        const int t = g.tile;
        const dim3 block(t, t);
        const dim3 grid(gridDim1(g.q, t), gridDim1(g.m, t));
        if (t == 8)
            tiledGemmKernel<T, 8><<<grid, block, 0, s>>>(g.m, g.n, g.q, a, g.lda, b, g.ldb, c, g.ldc, g.accumulate);
        else if (t == 16)
            tiledGemmKernel<T, 16><<<grid, block, 0, s>>>(g.m, g.n, g.q, a, g.lda, b, g.ldb, c, g.ldc, g.accumulate);
        else
            tiledGemmKernel<T, 32><<<grid, block, 0, s>>>(g.m, g.n, g.q, a, g.lda, b, g.ldb, c, g.ldc, g.accumulate);
        break;
    }
    default: {
        const dim3 grid(gridDim1(g.q, kBN), gridDim1(g.m, kBM));
        // 16-byte loads need 16-byte aligned rows: aligned base pointers and leading dimensions.
        const bool vec = tile::vectorizable(a, g.lda, b, g.ldb);
        // FP32 defaults to BK = 16 (no register spills at 2 blocks per SM; BK = 8 spills a little).
        // FP64 stays at BK = 8: two 16-deep stages of doubles exceed the 48 KB static shared limit.
        if constexpr (sizeof(T) == 4) {
            if (g.optimizedBk != 8) {
                if (vec)
                    optimizedGemmKernel<T, 16, true><<<grid, 256, 0, s>>>(g.m, g.n, g.q, a, g.lda, b, g.ldb, c, g.ldc, g.accumulate);
                else
                    optimizedGemmKernel<T, 16, false><<<grid, 256, 0, s>>>(g.m, g.n, g.q, a, g.lda, b, g.ldb, c, g.ldc, g.accumulate);
                break;
            }
        }
        if (vec)
            optimizedGemmKernel<T, 8, true><<<grid, 256, 0, s>>>(g.m, g.n, g.q, a, g.lda, b, g.ldb, c, g.ldc, g.accumulate);
        else
            optimizedGemmKernel<T, 8, false><<<grid, 256, 0, s>>>(g.m, g.n, g.q, a, g.lda, b, g.ldb, c, g.ldc, g.accumulate);
        break;
    }
    }
    CUDA_CHECK_LAUNCH();
}

// Row-major C = A B is column-major C^T = B^T A^T: hand cuBLAS B first.
void launchCublas(const GemmCall& g, cublasHandle_t h, cudaStream_t s)
{
    CUBLAS_CHECK(cublasSetStream(h, s));
    const int m = int(g.q), n = int(g.m), k = int(g.n);
    if (g.precision == Precision::F64) {
        const double alpha = 1.0, beta = g.accumulate ? 1.0 : 0.0;
        CUBLAS_CHECK(cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &alpha, static_cast<const double*>(g.b),
                                 int(g.ldb), static_cast<const double*>(g.a), int(g.lda), &beta,
                                 static_cast<double*>(g.c), int(g.ldc)));
        return;
    }
    const float alpha = 1.0f, beta = g.accumulate ? 1.0f : 0.0f;
    const cublasComputeType_t compute =
        multipliesInTf32(g.variant) ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F;
    CUBLAS_CHECK(cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &alpha, g.b, CUDA_R_32F, int(g.ldb), g.a,
                              CUDA_R_32F, int(g.lda), &beta, g.c, CUDA_R_32F, int(g.ldc), compute,
                              CUBLAS_GEMM_DEFAULT));
}

void launchCutlass(const GemmCall& g, cudaStream_t s)
{
    if (const char* why = cutlassTf32Gemm(cutlassCallOf(g), s))
        throw BackendError(why);
    CUDA_CHECK_LAUNCH();
}

}  // namespace

void gemm(const GemmCall& g, cublasHandle_t handle, cudaStream_t stream)
{
    if (g.variant == GemmVariant::Tiled && g.tile != 8 && g.tile != 16 && g.tile != 32)
        throw InputError("--tile must be 8, 16 or 32 (got " + std::to_string(g.tile) + ")");
    if (g.m <= 0 || g.q <= 0)
        return;
    if (g.n <= 0) {  // empty inner dimension: C = 0 (or unchanged when accumulating)
        if (!g.accumulate) {
            const std::size_t es = g.precision == Precision::F64 ? 8 : 4;
            CUDA_CHECK(cudaMemset2DAsync(g.c, std::size_t(g.ldc) * es, 0, std::size_t(g.q) * es, std::size_t(g.m), stream));
        }
        return;
    }
    if (writesSumsOfC(g)) {
        launchCutlass(g, stream);
        return;
    }
    if (g.variant == GemmVariant::CublasBf16 || g.variant == GemmVariant::CublasF16) {
        if (g.precision == Precision::F64)  // 16-bit inputs are for FP32 values: doubles run FP64 cuBLAS
            launchCublas(g, handle, stream);
        else
            gemm16Bit(g, handle, stream);
        return;
    }
    if (g.variant == GemmVariant::Tf32x3) {
        if (g.precision == Precision::F64)  // the split is for FP32 values: doubles run FP64 cuBLAS
            launchCublas(g, handle, stream);
        else
            gemmTf32x3(g, handle, stream);
        return;
    }
    if (g.variant == GemmVariant::Cublas || g.variant == GemmVariant::CublasTf32 || g.variant == GemmVariant::CutlassTf32) {
        if (g.tuned && runTunedGemm(g, stream))
            return;
        launchCublas(g, handle, stream);
        return;
    }
    if (g.precision == Precision::F64)
        launchOwn<double>(g, stream);
    else
        launchOwn<float>(g, stream);
}

}  // namespace gigacheck::cuda
