// Random device matrices (device_fill.hpp).
#include "core/cuda/device_fill.hpp"

#include "core/cuda/check.hpp"

namespace gigacheck::cuda {

namespace {

// Counter-based uniform(-1, 1): reproducible, no state, fills gigabytes in milliseconds.
__device__ __forceinline__ double hashUniform(unsigned long long x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    x ^= x >> 33;
    return double(x >> 11) * (2.0 / 9007199254740992.0) - 1.0;
}

template <class T>
__global__ void fillKernel(T* p, std::int64_t rows, std::int64_t cols, std::int64_t ld, unsigned long long seed)
{
    const std::int64_t n = rows * cols;
    for (std::int64_t e = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x; e < n;
         e += std::int64_t(gridDim.x) * blockDim.x) {
        const std::int64_t r = e / cols, c = e % cols;
        p[r * ld + c] = T(hashUniform(seed * 0x9E3779B97F4A7C15ULL + (unsigned long long)e));
    }
}

}  // namespace

void fill(Precision p, void* ptr, std::int64_t rows, std::int64_t cols, std::int64_t ld, unsigned long long seed,
          cudaStream_t s)
{
    if (p == Precision::F64)
        fillKernel<double><<<1024, 256, 0, s>>>(static_cast<double*>(ptr), rows, cols, ld, seed);
    else
        fillKernel<float><<<1024, 256, 0, s>>>(static_cast<float*>(ptr), rows, cols, ld, seed);
    CUDA_CHECK_LAUNCH();
}

}  // namespace gigacheck::cuda
