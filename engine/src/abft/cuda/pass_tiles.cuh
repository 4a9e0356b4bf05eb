// What the checksum passes of abft_kernels.cu (FP32 / FP64, TF32 rounding) and checksums_16bit.cu
// (BF16 / FP16) share: the grid's tiles, warp sums, and the A and B passes' steps that are the same
// in both (a warp's rows of A into C's checksum column, each block's partial sums into one atomic
// per column). Each pass keeps its own loads, rounding and launch shapes. The device helpers are
// force-inlined, so the kernels compile as when the helpers were written out in each.
#pragma once

#include "abft/cuda/abft_device.hpp"
#include "core/cuda/check.hpp"

#include <cstddef>
#include <cstdint>

namespace gigacheck::cuda::passes {

constexpr int kWarp = 32;
constexpr int kPassWarps = 8;  // warps per block of the A and B passes (256 threads)

__device__ __forceinline__ double warpSum(double v)
{
#pragma unroll
    for (int o = 16; o > 0; o >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, o);
    return v;
}

inline unsigned blocksFor(Index n, Index per) { return unsigned((n + per - 1) / per); }

// 16-byte loads of elem-byte elements: p aligned, and every row (ld) and chunk (offsetStep) starting
// on a whole vector.
inline bool vectorizable(const void* p, Index ld, Index offsetStep, std::size_t elem)
{
    const Index n = Index(16 / elem);
    return reinterpret_cast<std::uintptr_t>(p) % 16 == 0 && ld % n == 0 && offsetStep % n == 0;
}

// Rows per block of the passes whose partial sums meet in atomics (A pass, B pass, verification
// sums). Twice the base height halves the column atomics: measured faster on an H200 once the grid
// still has >= 2 blocks per SM (FP32, N = 16384: both products 0.623 vs 0.658 ms, N = 8192 0.172 vs
// 0.184), slower below (N = 4096: too few blocks, 0.078 vs 0.061 ms).
inline Index tileRowsFor(Index base, unsigned otherBlocks, Index extent)
{
    int device = 0, sms = 0;
    CUDA_CHECK(cudaGetDevice(&device));
    CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    const Index tall = 2 * base;
    return Index(otherBlocks) * Index(blocksFor(extent, tall)) >= 2 * Index(sms) ? tall : base;
}

namespace {  // kernels: each pass file launches its own copy

// C's checksum column and row (corner included) and the bounds' scales to 0, before a product's
// passes that do not accumulate.
template <class T>
__global__ void resetChecksumsKernel(T* c, Index rows, Index cols, Index ldc, double* rowScale, double* colScale)
{
    const Index t = Index(blockIdx.x) * blockDim.x + threadIdx.x;
    if (t <= rows) {
        c[t * ldc + cols] = T(0);
        rowScale[t] = 0;
    }
    if (t <= cols) {
        if (t < cols)
            c[rows * ldc + t] = T(0);
        colScale[t] = 0;
    }
}

}  // namespace

// ---- A pass ----------------------------------------------------------------------------------------
// One warp step over G rows of A (i, i + 8, ...; those at or past rEnd read as 0), x the lane's E
// elements of each as the product multiplies them, r / w the lane's r_k and bound weights:
//   C[row, cols] += sum_k a_k r_k, rowScale[row] += sum_k a_k^2 w_k  (one atomic each per row),
//   cs[e] += a_k, cq[e] += a_k^2                                      (the lane's column sums).
template <int G, int E, class X, class C>
__device__ __forceinline__ void addRowsOfA(const X (&x)[G][E], const double (&r)[E], const double (&w)[E],
                                           double (&cs)[E], double (&cq)[E], int lane, Index i, Index rEnd, C* c,
                                           Index ldc, Index cols, double* rowScale)
{
    double dot[G], sq[G];
#pragma unroll
    for (int g = 0; g < G; ++g) {
        dot[g] = sq[g] = 0;
#pragma unroll
        for (int e = 0; e < E; ++e) {
            const double v = double(x[g][e]);
            dot[g] += v * r[e];
            sq[g] += v * v * w[e];
            cs[e] += v;
            cq[e] += v * v;
        }
    }
#pragma unroll
    for (int g = 0; g < G; ++g) {
        dot[g] = warpSum(dot[g]);
        sq[g] = warpSum(sq[g]);
    }
    if (lane == 0)
#pragma unroll
        for (int g = 0; g < G; ++g)
            if (i + kPassWarps * g < rEnd) {
                atomicAdd(c + (i + kPassWarps * g) * ldc + cols, C(dot[g]));
                atomicAdd(rowScale + i + kPassWarps * g, sq[g]);
            }
}

// The block's column sums of A and of its squares (cs, cq of every warp, the lane's element e at
// strip column localCol(e)) through shared memory into cA / aSq: one atomic each per column k < kn
// of the strip that starts at column `first` of the chunk.
template <int E, int Cols, class LocalCol>
__device__ __forceinline__ void addColumnsOfA(double (&colPart)[2][kPassWarps][Cols], const double (&cs)[E],
                                              const double (&cq)[E], int warp, LocalCol localCol, Index first, Index kn,
                                              double* cA, double* aSq)
{
#pragma unroll
    for (int e = 0; e < E; ++e) {
        const int local = int(localCol(e));
        colPart[0][warp][local] = cs[e];
        colPart[1][warp][local] = cq[e];
    }
    __syncthreads();
    for (int t = threadIdx.x; t < Cols; t += blockDim.x) {
        const Index k = first + t;
        if (k >= kn)
            continue;
        double s = 0, q = 0;
        for (int y = 0; y < kPassWarps; ++y) {
            s += colPart[0][y][t];
            q += colPart[1][y][t];
        }
        atomicAdd(cA + k, s);
        atomicAdd(aSq + k, q);
    }
}

// ---- B pass ----------------------------------------------------------------------------------------
// The block's (kWarp lanes x 8 row lanes) partial sums of its N columns per lane from j0 on: d / q
// into C's checksum row and colScale (one atomic per column j <= cols), and the corner lane's qc
// (the checksum row's own bound) into rowScale[rows].
template <int N, class C>
__device__ __forceinline__ void addColumnsOfB(double (&pd)[kPassWarps][kWarp * N], double (&pq)[kPassWarps][kWarp * N],
                                              double (&pc)[kPassWarps], const double (&d)[N], const double (&q)[N],
                                              double qc, bool cornerLane, Index j0, Index rows, Index cols, C* c,
                                              Index ldc, double* colScale, double* rowScale)
{
#pragma unroll
    for (int e = 0; e < N; ++e) {
        pd[threadIdx.y][threadIdx.x * N + e] = d[e];
        pq[threadIdx.y][threadIdx.x * N + e] = q[e];
    }
    if (cornerLane)
        pc[threadIdx.y] = qc;
    __syncthreads();
    if (threadIdx.y == 0 && j0 <= cols) {
#pragma unroll
        for (int e = 0; e < N; ++e) {
            const Index j = j0 + e;
            if (j > cols)
                break;
            double sd = 0, sq = 0;
            for (int y = 0; y < kPassWarps; ++y) {
                sd += pd[y][threadIdx.x * N + e];
                sq += pq[y][threadIdx.x * N + e];
            }
            atomicAdd(c + rows * ldc + j, C(sd));
            atomicAdd(colScale + j, sq);
        }
        if (cornerLane) {
            double s = 0;
            for (int y = 0; y < kPassWarps; ++y)
                s += pc[y];
            atomicAdd(rowScale + rows, s);
        }
    }
}

}  // namespace gigacheck::cuda::passes
