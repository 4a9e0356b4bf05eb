#include "families/reduced_matmul/cuda/kernels.cuh"

#include "core/cuda/check.hpp"

namespace gigacheck::reduced_matmul::kernels {

namespace {

std::int64_t ceilDiv(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

// Thread t of the 1D grid computes C(t / h, t % h).
template <class T> __global__ void naive4pKernel(const T* a, const T* b, T* c, std::int64_t n)
{
    const std::int64_t h = n / 2;
    const std::int64_t t = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (t >= h * h)
        return;
    const std::int64_t i = t / h, j = t % h;
    const T* a0 = a + 2 * i * n;
    const T* a1 = a0 + n;
    T sum = 0;
    for (std::int64_t k = 0; k < n; ++k) {
        const T b0 = b[k * n + 2 * j], b1 = b[k * n + 2 * j + 1];
        sum += a0[k] * b0 + a0[k] * b1 + a1[k] * b0 + a1[k] * b1;
    }
    c[t] = sum;
}

template <class T> __global__ void naivePKernel(const T* a, const T* b, T* c, std::int64_t n)
{
    const std::int64_t h = n / 2;
    const std::int64_t t = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (t >= h * h)
        return;
    const std::int64_t i = t / h, j = t % h;
    const T* a0 = a + 2 * i * n;
    const T* a1 = a0 + n;
    T sum = 0;
    for (std::int64_t k = 0; k < n; ++k)
        sum += (a0[k] + a1[k]) * (b[k * n + 2 * j] + b[k * n + 2 * j + 1]);
    c[t] = sum;
}

template <class T, int Tile> __global__ void tiledKernel(const T* a, const T* b, T* c, std::int64_t n)
{
    __shared__ T blockA[Tile][Tile];
    __shared__ T blockB[Tile][Tile];
    const std::int64_t h = n / 2;
    const int tx = threadIdx.x, ty = threadIdx.y;
    const std::int64_t i = std::int64_t(blockIdx.y) * Tile + ty;  // C row
    const std::int64_t j = std::int64_t(blockIdx.x) * Tile + tx;  // C column
    T sum = 0;
    for (std::int64_t k0 = 0; k0 < n; k0 += Tile) {
        const std::int64_t ka = k0 + tx, kb = k0 + ty;
        blockA[ty][tx] = i < h && ka < n ? a[2 * i * n + ka] + a[(2 * i + 1) * n + ka] : T(0);
        blockB[ty][tx] = j < h && kb < n ? b[kb * n + 2 * j] + b[kb * n + 2 * j + 1] : T(0);
        __syncthreads();
#pragma unroll
        for (int kk = 0; kk < Tile; ++kk)
            sum += blockA[ty][kk] * blockB[kk][tx];
        __syncthreads();
    }
    if (i < h && j < h)
        c[i * h + j] = sum;
}

template <class T> __global__ void reduceRowPairsKernel(const T* a, T* ar, std::int64_t n)
{
    const std::int64_t t = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (t >= (n / 2) * n)
        return;
    const std::int64_t i = t / n, k = t % n;
    ar[t] = a[2 * i * n + k] + a[(2 * i + 1) * n + k];
}

// Two adjacent B elements per thread, read as one pair; writes are consecutive.
template <class T> __global__ void reduceColumnPairsKernel(const T* b, T* br, std::int64_t n)
{
    const std::int64_t t = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (t >= n * (n / 2))
        return;
    br[t] = b[2 * t] + b[2 * t + 1];  // B(k, 2j) and B(k, 2j+1) sit at 2t and 2t + 1
}

template <class T, int Tile> void launchTiledOf(const T* a, const T* b, T* c, std::int64_t n, cudaStream_t s)
{
    const std::int64_t tiles = ceilDiv(n / 2, Tile);
    const dim3 grid{unsigned(tiles), unsigned(tiles)};
    const dim3 block{Tile, Tile};
    tiledKernel<T, Tile><<<grid, block, 0, s>>>(a, b, c, n);
    CUDA_CHECK_LAUNCH();
}

}  // namespace

template <class T> void launchNaive4p(const T* a, const T* b, T* c, std::int64_t n, cudaStream_t s)
{
    const std::int64_t h = n / 2;
    naive4pKernel<<<unsigned(ceilDiv(h * h, kNaiveThreads)), kNaiveThreads, 0, s>>>(a, b, c, n);
    CUDA_CHECK_LAUNCH();
}

template <class T> void launchNaiveP(const T* a, const T* b, T* c, std::int64_t n, cudaStream_t s)
{
    const std::int64_t h = n / 2;
    naivePKernel<<<unsigned(ceilDiv(h * h, kNaiveThreads)), kNaiveThreads, 0, s>>>(a, b, c, n);
    CUDA_CHECK_LAUNCH();
}

template <class T> void launchTiled(int tile, const T* a, const T* b, T* c, std::int64_t n, cudaStream_t s)
{
    switch (tile) {
    case 8: launchTiledOf<T, 8>(a, b, c, n, s); break;
    case 16: launchTiledOf<T, 16>(a, b, c, n, s); break;
    default: launchTiledOf<T, 32>(a, b, c, n, s); break;
    }
}

template <class T> void launchReduce(const T* a, const T* b, T* ar, T* br, std::int64_t n, cudaStream_t s)
{
    const std::int64_t half = (n / 2) * n;
    constexpr int threads = 256;
    reduceRowPairsKernel<<<unsigned(ceilDiv(half, threads)), threads, 0, s>>>(a, ar, n);
    CUDA_CHECK_LAUNCH();
    reduceColumnPairsKernel<<<unsigned(ceilDiv(half, threads)), threads, 0, s>>>(b, br, n);
    CUDA_CHECK_LAUNCH();
}

#define GIGACHECK_REDUCED_KERNELS(T)                                                         \
    template void launchNaive4p<T>(const T*, const T*, T*, std::int64_t, cudaStream_t);     \
    template void launchNaiveP<T>(const T*, const T*, T*, std::int64_t, cudaStream_t);      \
    template void launchTiled<T>(int, const T*, const T*, T*, std::int64_t, cudaStream_t);  \
    template void launchReduce<T>(const T*, const T*, T*, T*, std::int64_t, cudaStream_t);
GIGACHECK_REDUCED_KERNELS(float)
GIGACHECK_REDUCED_KERNELS(double)
#undef GIGACHECK_REDUCED_KERNELS

}  // namespace gigacheck::reduced_matmul::kernels
