#include "families/strassen/cuda/kernels.hpp"

#include "core/cuda/check.hpp"
#include "families/strassen/leaf_check.hpp"

#include <algorithm>
#include <cstdlib>

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

// The same with four elements per thread (16-byte loads and stores) where the block allows it:
// every row start aligned and the width a multiple of 4. Sums are memory bound, and the wide
// accesses move ~30 % more bytes per second on an H200 than one element per thread.
template <class V, class T>
__global__ void addKernel4(T* dst, const T* src, std::int64_t ld, std::int64_t srcLd, std::int64_t rows,
                           std::int64_t cols4, T k)
{
    const std::int64_t c = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (c >= cols4)
        return;
    for (std::int64_t r = blockIdx.y; r < rows; r += gridDim.y) {
        V* d = reinterpret_cast<V*>(dst + r * ld) + c;
        const V v = reinterpret_cast<const V*>(src + r * srcLd)[c];
        V x = *d;
        x.x += k * v.x;
        x.y += k * v.y;
        x.z += k * v.z;
        x.w += k * v.w;
        *d = x;
    }
}

template <class T> struct Vec4;
template <> struct Vec4<float> { using type = float4; };
// CUDA 13 deprecates double4 for its ambiguous alignment; double4_16a is the old one (16 bytes),
// which is all the callers check for.
#if CUDART_VERSION >= 13000
using Double4 = double4_16a;
#else
using Double4 = double4;
#endif
template <> struct Vec4<double> { using type = Double4; };

template <class T> bool aligned16(const T* p, std::int64_t ld)
{
    return reinterpret_cast<std::uintptr_t>(p) % 16 == 0 && (ld * std::int64_t(sizeof(T))) % 16 == 0;
}

template <class T> __global__ void injectKernel(T* cell, T delta) { *cell += delta; }
// The stored word's bits in mask flipped (a bit flip, as the blocked family's injections do).
__global__ void flipBitsKernel(float* cell, unsigned mask) { *cell = __uint_as_float(__float_as_uint(*cell) ^ mask); }
__global__ void flipBitsKernel(double* cell, unsigned long long mask)
{
    *cell = __longlong_as_double(static_cast<long long>(static_cast<unsigned long long>(__double_as_longlong(*cell)) ^ mask));
}

// One thread per column, a chunk of kSumRows rows per block row; partial sums added atomically
// (the order of a double sum does not matter against the FP32 / FP64 thresholds).
constexpr int kSumRows = 128;
template <class T>
__global__ void columnSumsKernel(const T* x, std::int64_t ld, std::int64_t rows, std::int64_t cols, const double* w,
                                 const double* wAbs, double* sum, double* abs)
{
    const std::int64_t c = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (c >= cols)
        return;
    const std::int64_t r0 = std::int64_t(blockIdx.y) * kSumRows, r1 = r0 + kSumRows < rows ? r0 + kSumRows : rows;
    double s = 0, a = 0;
    for (std::int64_t r = r0; r < r1; ++r) {
        const double v = double(x[r * ld + c]);
        s += (w ? w[r] : 1.0) * v;
        a += (wAbs ? wAbs[r] : 1.0) * fabs(v);
    }
    atomicAdd(sum + c, s);
    atomicAdd(abs + c, a);
}

// One block: the largest ratio of the target's columns, folded into *result.
__global__ void leafCompareKernel(LeafColumns in, std::int64_t cols, double* result, double* code)
{
    __shared__ double worst[256];
    __shared__ double where[256];
    double m = 0, w = 0;
    for (std::int64_t c = threadIdx.x; c < cols; c += blockDim.x) {
        const double ratio = leafColumnRatio(in.before[c], in.beforeAbs[c], in.after[c], in.afterAbs[c], in.expected[c],
                                             in.expectedAbs[c], in.sign, in.k, in.u, in.uIn);
        m = fmax(m, ratio);
        if (ratio > 1)
            w = mergeLeafColumnCode(w, double(c + 1));
    }
    worst[threadIdx.x] = m;
    where[threadIdx.x] = w;
    __syncthreads();
    for (int half = blockDim.x / 2; half > 0; half /= 2) {
        if (threadIdx.x < half) {
            worst[threadIdx.x] = fmax(worst[threadIdx.x], worst[threadIdx.x + half]);
            where[threadIdx.x] = mergeLeafColumnCode(where[threadIdx.x], where[threadIdx.x + half]);
        }
        __syncthreads();
    }
    if (threadIdx.x == 0) {
        *result = fmax(*result, worst[0]);
        *code = mergeLeafColumnCode(*code, where[0]);
    }
}

}  // namespace

template <class T>
void launchAdd(T* dst, const T* src, std::int64_t ld, std::int64_t srcLd, std::int64_t rows, std::int64_t cols, T k,
               cudaStream_t s)
{
    if (rows <= 0 || cols <= 0)
        return;
    static const int threads = [] {
        const char* env = std::getenv("GIGACHECK_STRASSEN_ADD_THREADS");
        return env ? std::max(32, std::atoi(env)) : 256;
    }();
    const unsigned rowBlocks = unsigned(std::min<std::int64_t>(rows, 65535));
    if (cols % 4 == 0 && aligned16(dst, ld) && aligned16(src, srcLd)) {
        const std::int64_t cols4 = cols / 4;
        const dim3 grid(unsigned((cols4 + threads - 1) / threads), rowBlocks);
        addKernel4<typename Vec4<T>::type, T><<<grid, threads, 0, s>>>(dst, src, ld, srcLd, rows, cols4, k);
    } else {
        const dim3 grid(unsigned((cols + threads - 1) / threads), rowBlocks);
        addKernel<T><<<grid, threads, 0, s>>>(dst, src, ld, srcLd, rows, cols, k);
    }
    CUDA_CHECK(cudaGetLastError());
}

template <class T>
void launchColumnSums(const T* x, std::int64_t ld, std::int64_t rows, std::int64_t cols, const double* w,
                      const double* wAbs, double* sum, double* abs, cudaStream_t s)
{
    CUDA_CHECK(cudaMemsetAsync(sum, 0, std::size_t(cols) * sizeof(double), s));
    CUDA_CHECK(cudaMemsetAsync(abs, 0, std::size_t(cols) * sizeof(double), s));
    if (rows <= 0 || cols <= 0)
        return;
    const int threads = 256;
    const dim3 grid(unsigned((cols + threads - 1) / threads), unsigned((rows + kSumRows - 1) / kSumRows));
    columnSumsKernel<T><<<grid, threads, 0, s>>>(x, ld, rows, cols, w, wAbs, sum, abs);
    CUDA_CHECK(cudaGetLastError());
}

void launchLeafCompare(const LeafColumns& in, std::int64_t cols, double* result, double* code, cudaStream_t s)
{
    leafCompareKernel<<<1, 256, 0, s>>>(in, cols, result, code);
    CUDA_CHECK(cudaGetLastError());
}

template <class T> void launchInject(T* cell, T delta, cudaStream_t s)
{
    injectKernel<T><<<1, 1, 0, s>>>(cell, delta);
    CUDA_CHECK(cudaGetLastError());
}

template <class T> void launchFlipBits(T* cell, std::uint64_t mask, cudaStream_t s)
{
    if constexpr (sizeof(T) == 4)
        flipBitsKernel<<<1, 1, 0, s>>>(cell, unsigned(mask));
    else
        flipBitsKernel<<<1, 1, 0, s>>>(cell, static_cast<unsigned long long>(mask));
    CUDA_CHECK(cudaGetLastError());
}

// With lazy module loading (the CUDA default) a kernel's first launch loads it inside whatever
// runs first: on an H200 the first sum stage of a 16384^3 run took 40 ms instead of 0.8 ms.
// Asking for a kernel's attributes loads it, untimed.
void loadKernels()
{
    cudaFuncAttributes a;
    CUDA_CHECK(cudaFuncGetAttributes(&a, addKernel<float>));
    CUDA_CHECK(cudaFuncGetAttributes(&a, addKernel<double>));
    CUDA_CHECK(cudaFuncGetAttributes(&a, addKernel4<float4, float>));
    CUDA_CHECK(cudaFuncGetAttributes(&a, addKernel4<Double4, double>));
    CUDA_CHECK(cudaFuncGetAttributes(&a, injectKernel<float>));
    CUDA_CHECK(cudaFuncGetAttributes(&a, injectKernel<double>));
    CUDA_CHECK(cudaFuncGetAttributes(&a, columnSumsKernel<float>));
    CUDA_CHECK(cudaFuncGetAttributes(&a, columnSumsKernel<double>));
    CUDA_CHECK(cudaFuncGetAttributes(&a, leafCompareKernel));
}

template void launchAdd<float>(float*, const float*, std::int64_t, std::int64_t, std::int64_t, std::int64_t, float, cudaStream_t);
template void launchAdd<double>(double*, const double*, std::int64_t, std::int64_t, std::int64_t, std::int64_t, double,
                                cudaStream_t);
template void launchColumnSums<float>(const float*, std::int64_t, std::int64_t, std::int64_t, const double*, const double*,
                                      double*, double*, cudaStream_t);
template void launchColumnSums<double>(const double*, std::int64_t, std::int64_t, std::int64_t, const double*,
                                       const double*, double*, double*, cudaStream_t);
template void launchInject<float>(float*, float, cudaStream_t);
template void launchInject<double>(double*, double, cudaStream_t);
template void launchFlipBits<float>(float*, std::uint64_t, cudaStream_t);
template void launchFlipBits<double>(double*, std::uint64_t, cudaStream_t);

}  // namespace gigacheck::strassen::device
