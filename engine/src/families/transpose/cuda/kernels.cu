#include "families/transpose/cuda/kernels.cuh"

#include "core/cuda/check.hpp"
#include "core/cuda/vector16.cuh"

#include <algorithm>
#include <cmath>

namespace gigacheck::transpose::kernels {

using cuda::component;
using cuda::kPerVector;
using cuda::setComponent;
using cuda::Vec16;

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

// The component a lane of a 16-lane group handles first: rotated per 8-lane group so that the
// two groups of a half-warp start in different banks (4 per vector: 0 / 2; 2 per vector: 0 / 1).
template <class T> __device__ __forceinline__ int rotationOf(int t) { return ((t >> 3) * (kPerVector<T> / 2)) & (kPerVector<T> - 1); }

// "padded", 16-byte path (m % 4 == 0, n % 4 == 0, aligned pointers). One block of 256 threads
// moves a 64 x 64 tile: 16 lanes load each 256-byte input row as float4 (4 loads in flight per
// thread, 16 KB per block) into a 64 x 65 shared tile, then 16 lanes store each 256-byte output
// row as float4. The component order is rotated per 8-lane group both ways, so no shared access
// conflicts. Two choices measured on the H200 at 16384^2 (.devscripts-style microbench, % of a
// device copy): blocks walk down a column of tiles (consecutive blocks write neighbouring pieces
// of the same output rows: 96.5 vs 94.3 along rows), and the stores are streaming (`__stcs`,
// evict-first: the output is never read again here and stops pushing the input's lines out of
// L2: 94.3 vs 67.6 with plain stores). The 32 x 128 strips of before: 78.1 (86.4 streaming).
template <class T>
__global__ void __launch_bounds__(256) paddedVectorKernel(const T* __restrict__ in, T* __restrict__ out, std::int64_t m,
                                                          std::int64_t n, std::int64_t tilesPerColumn)
{
    using V = typename Vec16<T>::type;
    __shared__ T tile[kPaddedTile][kPaddedTile + 1];
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const std::int64_t r0 = std::int64_t(blockIdx.x % tilesPerColumn) * kPaddedTile;
    const std::int64_t c0 = std::int64_t(blockIdx.x / tilesPerColumn) * kPaddedTile;
    constexpr int kPasses = kPaddedTile / 16;  // 16 tile rows per pass of 8 warps (2 rows per warp)
    {
        const int t = lane & 15, h = lane >> 4, rotation = (t >> 3) * 2;
        V v[kPasses];
#pragma unroll
        for (int k = 0; k < kPasses; ++k) {
            const std::int64_t r = r0 + warp * 2 + h + 16 * k;
            v[k] = V{};
            if (r < m && c0 + 4 * t < n)
                v[k] = __ldg(reinterpret_cast<const V*>(in + r * n + c0 + 4 * t));
        }
#pragma unroll
        for (int k = 0; k < kPasses; ++k)
#pragma unroll
            for (int e = 0; e < 4; ++e) {
                const int w = (e + rotation) & 3;
                tile[warp * 2 + h + 16 * k][4 * t + w] = component<T>(v[k], w);
            }
    }
    __syncthreads();
    // Output n x m: tile column cl is output row c0 + cl; lanes l: output columns r0 + 4l .. + 3.
    const int l = lane & 15, q = lane >> 4, rotation = (l >> 3) * 2;
#pragma unroll
    for (int k = 0; k < kPasses; ++k) {
        const int cl = warp * 2 + q + 16 * k;
        if (c0 + cl < n && r0 + 4 * l < m) {
            V o;
#pragma unroll
            for (int e = 0; e < 4; ++e) {
                const int w = (e + rotation) & 3;
                setComponent<T>(o, w, tile[4 * l + w][cl]);
            }
            __stcs(reinterpret_cast<V*>(out + (c0 + cl) * m + r0 + 4 * l), o);
        }
    }
}

// "inplace", square, 16-byte path (n a multiple of the elements per 16 bytes, aligned): one block
// per pair of symmetric S x S tiles on the upper triangle (i <= j: a triangular grid, no idle
// block), 256 threads; S = 16 elements per 16-byte vector: 64 for float / int32, 32 and 16 for the
// ratio decomposition's 8- and 16-byte vectors, so a tile row is always 256 bytes. Both tiles are
// loaded as 16-byte vectors (16 lanes per tile row, S / 16 loads of each tile in flight per thread)
// into S x (S + 1) shared tiles, then each is written, transposed, to the other's place as 16-byte
// vectors (16 lanes per output row). Diagonal tiles: one tile, transposed in place. The component
// order is rotated per 8-lane group in both directions so that no shared access conflicts.
template <class T> __global__ void __launch_bounds__(256) tilePairSwapVectorKernel(T* __restrict__ x, std::int64_t n)
{
    using V = typename Vec16<T>::type;
    constexpr int E = kPerVector<T>, S = 16 * E;
    __shared__ T upper[S][S + 1];
    __shared__ T lower[S][S + 1];
    std::int64_t ti, tj;
    tilePairOf(blockIdx.x, ti, tj);
    const bool diagonal = ti == tj;
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const std::int64_t r0 = ti * S, c0 = tj * S;  // the upper tile; its mirror at (c0, r0)
    constexpr int kPasses = S / 16;               // 16 tile rows per pass of 8 warps
    {
        const int t = lane & 15, h = lane >> 4, rotation = rotationOf<T>(t);
        V u[kPasses], w[kPasses];
#pragma unroll
        for (int k = 0; k < kPasses; ++k) {
            const int rr = warp * 2 + h + 16 * k;
            u[k] = V{};
            w[k] = V{};
            if (r0 + rr < n && c0 + E * t < n)
                u[k] = *reinterpret_cast<const V*>(x + (r0 + rr) * n + c0 + E * t);
            if (!diagonal && c0 + rr < n && r0 + E * t < n)
                w[k] = *reinterpret_cast<const V*>(x + (c0 + rr) * n + r0 + E * t);
        }
#pragma unroll
        for (int k = 0; k < kPasses; ++k) {
            const int rr = warp * 2 + h + 16 * k;
#pragma unroll
            for (int e = 0; e < E; ++e) {
                const int c = (e + rotation) & (E - 1);
                upper[rr][E * t + c] = component<T>(u[k], c);
                if (!diagonal)
                    lower[rr][E * t + c] = component<T>(w[k], c);
            }
        }
    }
    __syncthreads();
    const int l = lane & 15, q = lane >> 4, rotation = rotationOf<T>(l);
    T(*const intoUpper)[S + 1] = diagonal ? upper : lower;
#pragma unroll
    for (int k = 0; k < kPasses; ++k) {
        const int cl = warp * 2 + q + 16 * k;
        if (r0 + cl < n && c0 + E * l < n) {  // X'(r0 + cl, c0 + E·l + e) = X(c0 + E·l + e, r0 + cl)
            V o;
#pragma unroll
            for (int e = 0; e < E; ++e) {
                const int c = (e + rotation) & (E - 1);
                setComponent<T>(o, c, intoUpper[E * l + c][cl]);
            }
            __stcs(reinterpret_cast<V*>(x + (r0 + cl) * n + c0 + E * l), o);
        }
        if (!diagonal && c0 + cl < n && r0 + E * l < n) {  // X'(c0 + cl, r0 + E·l + e) = X(r0 + E·l + e, c0 + cl)
            V o;
#pragma unroll
            for (int e = 0; e < E; ++e) {
                const int c = (e + rotation) & (E - 1);
                setComponent<T>(o, c, upper[E * l + c][cl]);
            }
            __stcs(reinterpret_cast<V*>(x + (c0 + cl) * n + r0 + E * l), o);
        }
    }
}

static_assert(16 * kPerVector<float> == kPairTile, "the 4-byte tile-pair tile is kPairTile wide");

bool aligned16(const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; }

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
    if (paddedUsesVectors(m, n) && aligned16(in) && aligned16(out)) {
        const std::int64_t tilesPerColumn = ceilDiv(m, kPaddedTile);
        paddedVectorKernel<<<unsigned(tilesPerColumn * ceilDiv(n, kPaddedTile)), 256, 0, s>>>(in, out, m, n, tilesPerColumn);
        CUDA_CHECK_LAUNCH();
        return;
    }
    const dim3 grid(unsigned(ceilDiv(n, kTile)), unsigned(ceilDiv(m, kTile)));
    paddedKernel<<<grid, block, 0, s>>>(in, out, m, n);
    CUDA_CHECK_LAUNCH();
}

template <class T> void launchSquareInPlace(T* x, std::int64_t n, cudaStream_t s)
{
    if (n <= 1)
        return;
    if (n % kPerVector<T> == 0 && aligned16(x)) {
        const std::int64_t side = ceilDiv(n, 16 * kPerVector<T>);
        tilePairSwapVectorKernel<<<unsigned(side * (side + 1) / 2), 256, 0, s>>>(x, n);
        CUDA_CHECK_LAUNCH();
        return;
    }
    launchTilePairSwap(x, n, n, 1, 1, s);
}

#define GIGACHECK_TRANSPOSE_KERNELS(T)                                                                       \
    template void launchNaiveInPlace<T>(T*, std::int64_t, cudaStream_t);                                    \
    template void launchSeedCoalesced<T>(T*, std::int64_t, cudaStream_t);                                   \
    template void launchTilePairSwap<T>(T*, std::int64_t, std::int64_t, std::int64_t, std::int64_t, cudaStream_t); \
    template void launchPadded<T>(const T*, T*, std::int64_t, std::int64_t, cudaStream_t);                  \
    template void launchSquareInPlace<T>(T*, std::int64_t, cudaStream_t);
GIGACHECK_TRANSPOSE_KERNELS(float)
GIGACHECK_TRANSPOSE_KERNELS(std::int32_t)
#undef GIGACHECK_TRANSPOSE_KERNELS
// The ratio decomposition's square pass: vectors of two / four 4-byte elements as one element.
template void launchSquareInPlace<unsigned long long>(unsigned long long*, std::int64_t, cudaStream_t);
template void launchSquareInPlace<uint4>(uint4*, std::int64_t, cudaStream_t);

}  // namespace gigacheck::transpose::kernels
