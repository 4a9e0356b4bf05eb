#include "families/strassen/cuda/kernels.hpp"

#include "core/cuda/check.hpp"

#include <algorithm>

namespace gigacheck::strassen::device {

namespace {

// One thread per element of a row chunk; rows over blockIdx.y (grid-stride beyond 65535 rows).
// Memory bound: 2 loads + 1 store per element, coalesced along the row.
template <class T>
__global__ void addKernel(T* dst, const T* src, std::int64_t ld, std::int64_t srcLd, std::int64_t rows,
                          std::int64_t cols, T k)
{
    const std::int64_t c = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (c >= cols)
        return;
    for (std::int64_t r = blockIdx.y; r < rows; r += gridDim.y)
        dst[r * ld + c] += k * src[r * srcLd + c];
}

template <class T> __global__ void injectKernel(T* cell, T delta) { *cell += delta; }

}  // namespace

template <class T>
void launchAdd(T* dst, const T* src, std::int64_t ld, std::int64_t srcLd, std::int64_t rows, std::int64_t cols, T k,
               cudaStream_t s)
{
    if (rows <= 0 || cols <= 0)
        return;
    const int threads = 256;
    const dim3 grid(unsigned((cols + threads - 1) / threads), unsigned(std::min<std::int64_t>(rows, 65535)));
    addKernel<T><<<grid, threads, 0, s>>>(dst, src, ld, srcLd, rows, cols, k);
    CUDA_CHECK(cudaGetLastError());
}

template <class T> void launchInject(T* cell, T delta, cudaStream_t s)
{
    injectKernel<T><<<1, 1, 0, s>>>(cell, delta);
    CUDA_CHECK(cudaGetLastError());
}

template void launchAdd<float>(float*, const float*, std::int64_t, std::int64_t, std::int64_t, std::int64_t, float, cudaStream_t);
template void launchAdd<double>(double*, const double*, std::int64_t, std::int64_t, std::int64_t, std::int64_t, double,
                                cudaStream_t);
template void launchInject<float>(float*, float, cudaStream_t);
template void launchInject<double>(double*, double, cudaStream_t);

}  // namespace gigacheck::strassen::device
