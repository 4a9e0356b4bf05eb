#include "core/cuda/check.hpp"
#include "families/blocked_gemm/cuda/gemm.hpp"

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

// ---- optimized ------------------------------------------------------------------------------
// 256 threads compute a 128 x 128 tile of C; each thread an 8 x 8 register tile made of two 4-row
// and two 4-column groups 64 apart (conflict-free 16-byte shared reads). A is stored transposed in
// shared memory (padded by 4 so that the transposing stores do not conflict). The next k-stage is
// fetched into registers while the current one is multiplied, then written to the other shared
// buffer: one barrier per stage.
constexpr int kBM = 128, kBN = 128, kPadA = 4;

template <class T> struct Vec4;
template <> struct Vec4<float> {
    static __device__ __forceinline__ void load(const float* p, float (&v)[4])
    {
        const float4 x = *reinterpret_cast<const float4*>(p);
        v[0] = x.x; v[1] = x.y; v[2] = x.z; v[3] = x.w;
    }
};
template <> struct Vec4<double> {
    static __device__ __forceinline__ void load(const double* p, double (&v)[4])
    {
        const double2 x = *reinterpret_cast<const double2*>(p);
        const double2 y = *reinterpret_cast<const double2*>(p + 2);
        v[0] = x.x; v[1] = x.y; v[2] = y.x; v[3] = y.y;
    }
};

template <class T, int BK, bool VEC>
__global__ void __launch_bounds__(256, sizeof(T) == 4 ? 2 : 1) optimizedGemmKernel(Index m, Index n, Index q, const T* __restrict__ a,
                                                           Index lda, const T* __restrict__ b, Index ldb,
                                                           T* __restrict__ c, Index ldc, bool accumulate)
{
    // Per thread and stage: A tile BK x 128 -> BK/2 elements, B tile BK x 128 -> BK/2 elements.
    constexpr int kLoads = BK / 2;
    __shared__ __align__(16) T sa[2][BK][kBM + kPadA];
    __shared__ __align__(16) T sb[2][BK][kBN];

    const int tid = threadIdx.x;
    const int tx = tid % 16, ty = tid / 16;
    const Index m0 = Index(blockIdx.y) * kBM, q0 = Index(blockIdx.x) * kBN;

    // Load coordinates: A: row tid/2 of the tile, k columns (tid%2)*kLoads .. +kLoads.
    const int aRow = tid / 2, aK = (tid % 2) * kLoads;
    // B: k row tid/32 (+8 for BK=16), columns (tid%32)*4 .. +4.
    const int bK = tid / 32, bCol = (tid % 32) * 4;

    const bool fullMQ = (m0 + kBM <= m) && (q0 + kBN <= q);
    T ra[kLoads], rb[kLoads];

    auto fetch = [&](Index k0) {
        const bool full = fullMQ && (k0 + BK <= n);
        if (VEC && full) {
#pragma unroll
            for (int v = 0; v < kLoads / 4; ++v) {
                T tmp[4];
                Vec4<T>::load(a + (m0 + aRow) * lda + k0 + aK + 4 * v, tmp);
#pragma unroll
                for (int e = 0; e < 4; ++e)
                    ra[4 * v + e] = tmp[e];
            }
#pragma unroll
            for (int v = 0; v < kLoads / 4; ++v) {
                T tmp[4];
                Vec4<T>::load(b + (k0 + bK + 8 * v) * ldb + q0 + bCol, tmp);
#pragma unroll
                for (int e = 0; e < 4; ++e)
                    rb[4 * v + e] = tmp[e];
            }
        } else {
#pragma unroll
            for (int e = 0; e < kLoads; ++e) {
                const Index r = m0 + aRow, k = k0 + aK + e;
                ra[e] = (r < m && k < n) ? a[r * lda + k] : T(0);
            }
#pragma unroll
            for (int v = 0; v < kLoads / 4; ++v)
#pragma unroll
                for (int e = 0; e < 4; ++e) {
                    const Index k = k0 + bK + 8 * v, col = q0 + bCol + e;
                    rb[4 * v + e] = (k < n && col < q) ? b[k * ldb + col] : T(0);
                }
        }
    };
    auto stash = [&](int buf) {
#pragma unroll
        for (int e = 0; e < kLoads; ++e)
            sa[buf][aK + e][aRow] = ra[e];
#pragma unroll
        for (int v = 0; v < kLoads / 4; ++v)
#pragma unroll
            for (int e = 0; e < 4; ++e)
                sb[buf][bK + 8 * v][bCol + e] = rb[4 * v + e];
    };

    T acc[8][8];
#pragma unroll
    for (int i = 0; i < 8; ++i)
#pragma unroll
        for (int j = 0; j < 8; ++j)
            acc[i][j] = 0;

    fetch(0);
    stash(0);
    __syncthreads();

    int buf = 0;
    for (Index k0 = 0; k0 < n; k0 += BK) {
        const bool more = k0 + BK < n;
        if (more)
            fetch(k0 + BK);
#pragma unroll
        for (int kk = 0; kk < BK; ++kk) {
            T av[8], bv[8];
#pragma unroll
            for (int e = 0; e < 4; ++e) {
                av[e] = sa[buf][kk][ty * 4 + e];
                av[4 + e] = sa[buf][kk][64 + ty * 4 + e];
                bv[e] = sb[buf][kk][tx * 4 + e];
                bv[4 + e] = sb[buf][kk][64 + tx * 4 + e];
            }
#pragma unroll
            for (int i = 0; i < 8; ++i)
#pragma unroll
                for (int j = 0; j < 8; ++j)
                    acc[i][j] += av[i] * bv[j];
        }
        if (more) {
            stash(buf ^ 1);
            __syncthreads();
            buf ^= 1;
        }
    }

#pragma unroll
    for (int i = 0; i < 8; ++i) {
        const Index r = m0 + (i < 4 ? ty * 4 + i : 64 + ty * 4 + (i - 4));
        if (r >= m)
            continue;
#pragma unroll
        for (int j = 0; j < 8; ++j) {
            const Index col = q0 + (j < 4 ? tx * 4 + j : 64 + tx * 4 + (j - 4));
            if (col < q) {
                T* out = c + r * ldc + col;
                *out = accumulate ? *out + acc[i][j] : acc[i][j];
            }
        }
    }
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
        constexpr Index perVec = 16 / Index(sizeof(T));
        const bool vec = (reinterpret_cast<std::uintptr_t>(a) % 16 == 0) && (reinterpret_cast<std::uintptr_t>(b) % 16 == 0) &&
                         g.lda % perVec == 0 && g.ldb % perVec == 0;
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
        g.variant == GemmVariant::CublasTf32 ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F;
    CUBLAS_CHECK(cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &alpha, g.b, CUDA_R_32F, int(g.ldb), g.a,
                              CUDA_R_32F, int(g.lda), &beta, g.c, CUDA_R_32F, int(g.ldc), compute,
                              CUBLAS_GEMM_DEFAULT));
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
    if (g.variant == GemmVariant::Cublas || g.variant == GemmVariant::CublasTf32) {
        launchCublas(g, handle, stream);
        return;
    }
    if (g.precision == Precision::F64)
        launchOwn<double>(g, stream);
    else
        launchOwn<float>(g, stream);
}

}  // namespace gigacheck::cuda
