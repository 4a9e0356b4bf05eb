#include "families/transpose/cuda/kernels.cuh"

#include "core/cuda/check.hpp"

#include <algorithm>
#include <cmath>

namespace gigacheck::transpose::kernels {

namespace {

std::int64_t ceilDiv(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

template <class T> __global__ void naiveInPlaceKernel(T* x, std::int64_t n)
{
    const std::int64_t c = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
    const std::int64_t r = std::int64_t(blockIdx.y) * blockDim.y + threadIdx.y;
    if (r < n && c < n && c > r) {
        const T upper = x[r * n + c];
        x[r * n + c] = x[c * n + r];
        x[c * n + r] = upper;
    }
}

template <class T> __global__ void seedCoalescedKernel(T* x, std::int64_t n)
{
    __shared__ T a[kTile * kTile];
    __shared__ T b[kTile * kTile];
    const int bx = blockIdx.x, by = blockIdx.y, tx = threadIdx.x, ty = threadIdx.y;
    if (bx < by)
        return;
    const bool diagonal = bx == by;
    const std::int64_t xA = std::int64_t(bx) * kTile + tx, yA = std::int64_t(by) * kTile + ty;
    const std::int64_t xB = std::int64_t(by) * kTile + tx, yB = std::int64_t(bx) * kTile + ty;
    for (int j = 0; j < kTile; j += blockDim.y)
        for (int i = 0; i < kTile; i += blockDim.x) {
            if (yA + j < n && xA + i < n)
                a[(ty + j) * kTile + tx + i] = x[(yA + j) * n + xA + i];
            if (!diagonal && yB + j < n && xB + i < n)
                b[(ty + j) * kTile + tx + i] = x[(yB + j) * n + xB + i];
        }
    __syncthreads();
    for (int j = 0; j < kTile; j += blockDim.y)
        for (int i = 0; i < kTile; i += blockDim.x) {
            if (yA + j < n && xA + i < n)
                x[(yA + j) * n + xA + i] = diagonal ? a[(tx + i) * kTile + ty + j] : b[(tx + i) * kTile + ty + j];
            if (!diagonal && yB + j < n && xB + i < n)
                x[(yB + j) * n + xB + i] = a[(tx + i) * kTile + ty + j];
        }
}

// Tile pair k of the upper triangle (row-major over j, then i <= j).
__device__ void tilePairOf(std::int64_t k, std::int64_t& i, std::int64_t& j)
{
    j = std::int64_t((sqrt(8.0 * double(k) + 1.0) - 1.0) / 2.0);
    while (j * (j + 1) / 2 > k)
        --j;
    while ((j + 1) * (j + 2) / 2 <= k)
        ++j;
    i = k - j * (j + 1) / 2;
}

template <class T>
__global__ void tilePairSwapKernel(T* x, std::int64_t g, std::int64_t ld, std::int64_t tiles, std::int64_t tilesPerRow)
{
    __shared__ T upper[kTile][kTile + 1];
    __shared__ T lower[kTile][kTile + 1];
    std::int64_t ti, tj;
    tilePairOf(blockIdx.x, ti, tj);
    const bool diagonal = ti == tj;
    const int tx = threadIdx.x, ty = threadIdx.y;
    const std::int64_t r0 = ti * kTile, c0 = tj * kTile;  // the upper tile; its mirror at (c0, r0)
    for (std::int64_t t = blockIdx.y; t < tiles; t += gridDim.y) {
        T* base = x + (t / tilesPerRow) * g * ld + (t % tilesPerRow) * g;
#pragma unroll
        for (int r = 0; r < kTile; r += kTileRows) {
            if (r0 + ty + r < g && c0 + tx < g)
                upper[ty + r][tx] = base[(r0 + ty + r) * ld + c0 + tx];
            if (!diagonal && c0 + ty + r < g && r0 + tx < g)
                lower[ty + r][tx] = base[(c0 + ty + r) * ld + r0 + tx];
        }
        __syncthreads();
#pragma unroll
        for (int r = 0; r < kTile; r += kTileRows) {
            if (r0 + ty + r < g && c0 + tx < g)
                base[(r0 + ty + r) * ld + c0 + tx] = diagonal ? upper[tx][ty + r] : lower[tx][ty + r];
            if (!diagonal && c0 + ty + r < g && r0 + tx < g)
                base[(c0 + ty + r) * ld + r0 + tx] = upper[tx][ty + r];
        }
        __syncthreads();
    }
}

template <class T> __global__ void paddedKernel(const T* __restrict__ in, T* __restrict__ out, std::int64_t m, std::int64_t n)
{
    __shared__ T tile[kTile][kTile + 1];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const std::int64_t c = std::int64_t(blockIdx.x) * kTile + tx;
    const std::int64_t r0 = std::int64_t(blockIdx.y) * kTile;
#pragma unroll
    for (int r = 0; r < kTile; r += kTileRows)
        if (r0 + ty + r < m && c < n)
            tile[ty + r][tx] = in[(r0 + ty + r) * n + c];
    __syncthreads();
    const std::int64_t oc = r0 + tx;  // output is n x m
    const std::int64_t or0 = std::int64_t(blockIdx.x) * kTile;
#pragma unroll
    for (int r = 0; r < kTile; r += kTileRows)
        if (or0 + ty + r < n && oc < m)
            out[(or0 + ty + r) * m + oc] = tile[tx][ty + r];
}

__device__ __forceinline__ std::int64_t segmentDestination(std::int64_t s, std::int64_t g, std::int64_t a, std::int64_t b)
{
    const std::int64_t j = s % b, t = s / b, r = t % g, i = t / g;
    return (j * g + r) * a + i;
}

// Each thread carries kSegmentElementsPerThread elements of the segment along the cycle: the
// next segment's addresses do not depend on the data, so the loads of a step overlap.
template <class T>
__global__ void segmentCyclesKernel(T* x, std::int64_t g, std::int64_t a, std::int64_t b, const std::int64_t* leaders, std::int64_t cycles)
{
    const std::int64_t chunk = std::int64_t(kSegmentThreads) * kSegmentElementsPerThread;
    const std::int64_t first = std::int64_t(blockIdx.x) * chunk + threadIdx.x;
    for (std::int64_t cycle = blockIdx.y; cycle < cycles; cycle += gridDim.y) {
        const std::int64_t start = leaders[cycle];
        T carried[kSegmentElementsPerThread];
#pragma unroll
        for (int e = 0; e < kSegmentElementsPerThread; ++e) {
            const std::int64_t off = first + e * kSegmentThreads;
            if (off < g)
                carried[e] = x[start * g + off];
        }
        std::int64_t to = segmentDestination(start, g, a, b);
        while (to != start) {
#pragma unroll
            for (int e = 0; e < kSegmentElementsPerThread; ++e) {
                const std::int64_t off = first + e * kSegmentThreads;
                if (off < g) {
                    const T displaced = x[to * g + off];
                    x[to * g + off] = carried[e];
                    carried[e] = displaced;
                }
            }
            to = segmentDestination(to, g, a, b);
        }
#pragma unroll
        for (int e = 0; e < kSegmentElementsPerThread; ++e) {
            const std::int64_t off = first + e * kSegmentThreads;
            if (off < g)
                x[start * g + off] = carried[e];
        }
    }
}

constexpr std::int64_t kMaxGridY = 65535;

}  // namespace

template <class T> void launchNaiveInPlace(T* x, std::int64_t n, cudaStream_t s)
{
    const dim3 block(kTile, kTileRows);
    const dim3 grid(unsigned(ceilDiv(n, kTile)), unsigned(ceilDiv(n, kTileRows)));
    naiveInPlaceKernel<<<grid, block, 0, s>>>(x, n);
    CUDA_CHECK_LAUNCH();
}

template <class T> void launchSeedCoalesced(T* x, std::int64_t n, cudaStream_t s)
{
    const dim3 block(kSeedThreadsX, kSeedThreadsY);
    const dim3 grid(unsigned(ceilDiv(n, kTile)), unsigned(ceilDiv(n, kTile)));
    seedCoalescedKernel<<<grid, block, 0, s>>>(x, n);
    CUDA_CHECK_LAUNCH();
}

template <class T>
void launchTilePairSwap(T* x, std::int64_t g, std::int64_t ld, std::int64_t tiles, std::int64_t tilesPerRow, cudaStream_t s)
{
    if (g <= 1 || tiles <= 0)
        return;
    const std::int64_t side = ceilDiv(g, kTile);
    const dim3 block(kTile, kTileRows);
    const dim3 grid(unsigned(side * (side + 1) / 2), unsigned(std::min(tiles, kMaxGridY)));
    tilePairSwapKernel<<<grid, block, 0, s>>>(x, g, ld, tiles, tilesPerRow);
    CUDA_CHECK_LAUNCH();
}

template <class T> void launchPadded(const T* in, T* out, std::int64_t m, std::int64_t n, cudaStream_t s)
{
    const dim3 block(kTile, kTileRows);
    const dim3 grid(unsigned(ceilDiv(n, kTile)), unsigned(ceilDiv(m, kTile)));
    paddedKernel<<<grid, block, 0, s>>>(in, out, m, n);
    CUDA_CHECK_LAUNCH();
}

template <class T>
void launchSegmentCycles(T* x, std::int64_t g, std::int64_t a, std::int64_t b, const std::int64_t* leaders,
                         std::int64_t cycles, cudaStream_t s)
{
    if (cycles <= 0)
        return;
    const dim3 grid(unsigned(ceilDiv(g, std::int64_t(kSegmentThreads) * kSegmentElementsPerThread)),
                    unsigned(std::min(cycles, kMaxGridY)));
    segmentCyclesKernel<<<grid, kSegmentThreads, 0, s>>>(x, g, a, b, leaders, cycles);
    CUDA_CHECK_LAUNCH();
}

#define GIGACHECK_TRANSPOSE_KERNELS(T)                                                                       \
    template void launchNaiveInPlace<T>(T*, std::int64_t, cudaStream_t);                                    \
    template void launchSeedCoalesced<T>(T*, std::int64_t, cudaStream_t);                                   \
    template void launchTilePairSwap<T>(T*, std::int64_t, std::int64_t, std::int64_t, std::int64_t, cudaStream_t); \
    template void launchPadded<T>(const T*, T*, std::int64_t, std::int64_t, cudaStream_t);                  \
    template void launchSegmentCycles<T>(T*, std::int64_t, std::int64_t, std::int64_t, const std::int64_t*, std::int64_t, cudaStream_t);
GIGACHECK_TRANSPOSE_KERNELS(float)
GIGACHECK_TRANSPOSE_KERNELS(std::int32_t)
#undef GIGACHECK_TRANSPOSE_KERNELS

}  // namespace gigacheck::transpose::kernels
