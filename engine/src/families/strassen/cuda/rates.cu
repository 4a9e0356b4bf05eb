#include "families/strassen/bench/rates.hpp"

#include "core/cuda/check.hpp"
#include "core/cuda/resources.hpp"
#include "families/strassen/cuda/index_hash.cuh"

#include <algorithm>
#include <utility>
#include <vector>

namespace gigacheck::strassen {

namespace {

// Values in [-1, 1) from a hash of the index: GEMM timing does not depend on them, but all-zero
// inputs would draw less power than real data.
template <class T> __global__ void fillKernel(T* p, std::size_t count, unsigned seed)
{
    for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += std::size_t(gridDim.x) * blockDim.x) {
        p[i] = T(double(indexHash(i, seed)) / 2147483648.0 - 1.0);
    }
}

template <class T> void fill(void* p, std::size_t count, unsigned seed)
{
    fillKernel<T><<<1024, 256>>>(static_cast<T*>(p), count, seed);
    CUDA_CHECK(cudaGetLastError());
}

}  // namespace

double cublasGemmSeconds(const Shape& s, Precision precision, bool tf32, int device, int repetitions)
{
    CUDA_CHECK(cudaSetDevice(std::max(device, 0)));
    const std::size_t es = precision == Precision::F64 ? 8 : 4;
    cuda::DeviceBuffer a(std::size_t(s.m * s.n) * es), b(std::size_t(s.n * s.q) * es), c(std::size_t(s.m * s.q) * es);
    if (precision == Precision::F64) {
        fill<double>(a.get(), std::size_t(s.m * s.n), 1);
        fill<double>(b.get(), std::size_t(s.n * s.q), 2);
    } else {
        fill<float>(a.get(), std::size_t(s.m * s.n), 1);
        fill<float>(b.get(), std::size_t(s.n * s.q), 2);
    }
    cuda::CublasHandle handle;
    CUBLAS_CHECK(cublasSetMathMode(handle.get(), tf32 ? CUBLAS_TF32_TENSOR_OP_MATH : CUBLAS_DEFAULT_MATH));
    cuda::Event start, stop;
    auto once = [&] {
        if (precision == Precision::F64) {
            const double one = 1, zero = 0;
            CUBLAS_CHECK(cublasDgemm(handle.get(), CUBLAS_OP_N, CUBLAS_OP_N, int(s.q), int(s.m), int(s.n), &one,
                                     b.as<double>(), int(s.q), a.as<double>(), int(s.n), &zero, c.as<double>(), int(s.q)));
        } else {
            const float one = 1, zero = 0;
            CUBLAS_CHECK(cublasSgemm(handle.get(), CUBLAS_OP_N, CUBLAS_OP_N, int(s.q), int(s.m), int(s.n), &one,
                                     b.as<float>(), int(s.q), a.as<float>(), int(s.n), &zero, c.as<float>(), int(s.q)));
        }
    };
    once();  // warm-up: heuristics, kernel loading
    CUDA_CHECK(cudaDeviceSynchronize());
    std::vector<double> times;
    for (int r = 0; r < std::max(1, repetitions); ++r) {
        CUDA_CHECK(cudaEventRecord(start.get(), nullptr));
        once();
        CUDA_CHECK(cudaEventRecord(stop.get(), nullptr));
        CUDA_CHECK(cudaEventSynchronize(stop.get()));
        times.push_back(cuda::elapsedMs(start.get(), stop.get()) * 1e-3);
    }
    std::sort(times.begin(), times.end());
    return times[times.size() / 2];
}

double deviceCopyGBs(int device)
{
    CUDA_CHECK(cudaSetDevice(std::max(device, 0)));
    const std::size_t bytes = std::size_t(1) << 30;
    cuda::DeviceBuffer x(bytes), y(bytes);
    cuda::Event start, stop;
    CUDA_CHECK(cudaMemcpy(y.get(), x.get(), bytes, cudaMemcpyDeviceToDevice));
    CUDA_CHECK(cudaEventRecord(start.get(), nullptr));
    for (int r = 0; r < 5; ++r)
        CUDA_CHECK(cudaMemcpyAsync(y.get(), x.get(), bytes, cudaMemcpyDeviceToDevice, nullptr));
    CUDA_CHECK(cudaEventRecord(stop.get(), nullptr));
    CUDA_CHECK(cudaEventSynchronize(stop.get()));
    return 5.0 * 2.0 * double(bytes) / (cuda::elapsedMs(start.get(), stop.get()) * 1e-3) / 1e9;
}

double peerCopyGBs(int from, int to)
{
    const std::size_t bytes = std::size_t(512) << 20;
    if (from != to) {
        for (auto [a, b] : {std::pair{from, to}, std::pair{to, from}}) {
            int can = 0;
            if (cudaDeviceCanAccessPeer(&can, a, b) == cudaSuccess && can) {
                CUDA_CHECK(cudaSetDevice(a));
                const cudaError_t e = cudaDeviceEnablePeerAccess(b, 0);
                if (e != cudaSuccess && e != cudaErrorPeerAccessAlreadyEnabled)
                    CUDA_CHECK(e);
            }
            (void)cudaGetLastError();  // "already enabled", or no peer access: not an error here
        }
    }
    CUDA_CHECK(cudaSetDevice(to));
    cuda::DeviceBuffer y(bytes);
    CUDA_CHECK(cudaSetDevice(from));
    cuda::DeviceBuffer x(bytes);
    cuda::Event start, stop;
    CUDA_CHECK(cudaMemcpyPeer(y.get(), to, x.get(), from, bytes));  // warm-up
    CUDA_CHECK(cudaEventRecord(start.get(), nullptr));
    for (int r = 0; r < 5; ++r)
        CUDA_CHECK(cudaMemcpyPeerAsync(y.get(), to, x.get(), from, bytes, nullptr));
    CUDA_CHECK(cudaEventRecord(stop.get(), nullptr));
    CUDA_CHECK(cudaEventSynchronize(stop.get()));
    const double seconds = cuda::elapsedMs(start.get(), stop.get()) * 1e-3;
    return 5.0 * double(bytes) / seconds / 1e9;
}

}  // namespace gigacheck::strassen
