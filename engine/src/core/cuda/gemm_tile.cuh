// The register-tiled GEMM main loop shared by the blocked family's optimized kernel
// (gemm/cuda/gemm.cu) and Strassen's multi-target kernel
// (families/strassen/cuda/multi_target_gemm.cu); each adds its own epilogue.
//
// 256 threads compute a 128 x 128 tile of C; each thread an 8 x 8 register tile made of two 4-row
// and two 4-column groups 64 apart (conflict-free 16-byte shared reads). A is stored transposed in
// shared memory (padded by 4 so that the transposing stores do not conflict). The next k-stage is
// fetched into registers while the current one is multiplied, then written to the other shared
// buffer: one barrier per stage. Row-major operands; VEC: 16-byte loads (aligned rows).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

namespace gigacheck::cuda::tile {

using Index = std::int64_t;
constexpr int kBM = 128, kBN = 128, kPadA = 4, kThreads = 256;

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

// acc = A(m0 .. m0 + 128, :) B(:, q0 .. q0 + 128) for this thread's 8 x 8 register tile
// (tx = tid % 16, ty = tid / 16): acc[i][j] is C(m0 + row(i), q0 + col(j)) with row(i) = ty * 4 + i
// for i < 4, 64 + ty * 4 + (i - 4) above (col(j) likewise with tx). Rows and columns outside
// m x q count as zero. The epilogues spell row(i) and col(j) out inline: as helper functions they
// made ptxas spill registers in the FP32 BK 16 kernel (88 bytes; measured 76 % of cuBLAS against 86 %).
template <class T, int BK, bool VEC>
__device__ __forceinline__ void tileProduct(Index m, Index n, Index q, const T* __restrict__ a, Index lda,
                                            const T* __restrict__ b, Index ldb, Index m0, Index q0, T (&acc)[8][8])
{
    // Per thread and stage: A tile BK x 128 -> BK/2 elements, B tile BK x 128 -> BK/2 elements.
    constexpr int kLoads = BK / 2;
    __shared__ __align__(16) T sa[2][BK][kBM + kPadA];
    __shared__ __align__(16) T sb[2][BK][kBN];

    const int tid = threadIdx.x;
    const int tx = tid % 16, ty = tid / 16;
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
}

// Whether a launch may use 16-byte loads: aligned base pointers and leading dimensions.
template <class T> inline bool vectorizable(const T* a, Index lda, const T* b, Index ldb)
{
    constexpr Index perVec = 16 / Index(sizeof(T));
    return reinterpret_cast<std::uintptr_t>(a) % 16 == 0 && reinterpret_cast<std::uintptr_t>(b) % 16 == 0 &&
           lda % perVec == 0 && ldb % perVec == 0;
}

}  // namespace gigacheck::cuda::tile
