// Runs one GPU reduced matmul: copies, warm-up, timed repetitions (CUDA events, median), and the
// cuBLAS GEMM alone on the reduced shape as the library reference of the same process.
#include "families/reduced_matmul/cuda/device_reduced.hpp"

#include "core/cuda/check.hpp"
#include "core/cuda/devices.hpp"
#include "core/cuda/resources.hpp"
#include "families/reduced_matmul/cuda/kernels.cuh"

#include <algorithm>
#include <type_traits>
#include <vector>

namespace gigacheck::reduced_matmul::device {

namespace {

using gigacheck::cuda::CublasHandle;
using gigacheck::cuda::DeviceBuffer;
using gigacheck::cuda::Event;
using gigacheck::cuda::Stream;

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}

template <class Work> double timeMs(cudaStream_t s, Work&& work)
{
    Event start, stop;
    CUDA_CHECK(cudaEventRecord(start.get(), s));
    work();
    CUDA_CHECK(cudaEventRecord(stop.get(), s));
    CUDA_CHECK(cudaEventSynchronize(stop.get()));
    float ms = 0;
    CUDA_CHECK(cudaEventElapsedTime(&ms, start.get(), stop.get()));
    return ms;
}

// c (h x h) = ar (h x n) br (n x h), row-major, as the column-major c^T = br^T ar^T.
template <class T> void gemm(cublasHandle_t handle, const T* ar, const T* br, T* c, std::int64_t n)
{
    const int h = int(n / 2), k = int(n);
    const T one = 1, zero = 0;
    if constexpr (std::is_same_v<T, float>)
        CUBLAS_CHECK(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, h, h, k, &one, br, h, ar, k, &zero, c, h));
    else
        CUBLAS_CHECK(cublasDgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, h, h, k, &one, br, h, ar, k, &zero, c, h));
}

template <class Work> double medianOf(cudaStream_t s, int reps, Work&& work)
{
    work();  // warm-up
    std::vector<double> times;
    for (int r = 0; r < std::max(reps, 1); ++r)
        times.push_back(timeMs(s, work));
    return median(times);
}

template <class T> Timing runTyped(Variant v, const T* a, const T* b, T* c, std::int64_t n, int reps)
{
    const std::size_t full = std::size_t(n * n) * sizeof(T), half = full / 2, quarter = full / 4;
    Stream stream;
    const cudaStream_t s = stream.get();
    CublasHandle cublas;
    CUBLAS_CHECK(cublasSetStream(cublas.get(), s));
    DeviceBuffer da(full), db(full), dc(quarter), ar(half), br(half);
    Timing t;
    t.h2dMs = timeMs(s, [&] {
        CUDA_CHECK(cudaMemcpyAsync(da.get(), a, full, cudaMemcpyHostToDevice, s));
        CUDA_CHECK(cudaMemcpyAsync(db.get(), b, full, cudaMemcpyHostToDevice, s));
    });
    auto kernel = [&] {
        switch (v) {
        case Variant::Naive4p: kernels::launchNaive4p(da.as<T>(), db.as<T>(), dc.as<T>(), n, s); break;
        case Variant::NaiveP: kernels::launchNaiveP(da.as<T>(), db.as<T>(), dc.as<T>(), n, s); break;
        case Variant::Tiled8:
        case Variant::Tiled16:
        case Variant::Tiled32: kernels::launchTiled(tileOf(v), da.as<T>(), db.as<T>(), dc.as<T>(), n, s); break;
        case Variant::ReduceBlas:
            kernels::launchReduce(da.as<T>(), db.as<T>(), ar.as<T>(), br.as<T>(), n, s);
            gemm(cublas.get(), ar.as<T>(), br.as<T>(), dc.as<T>(), n);
            break;
        }
    };
    // Slow kernels (naive at large n: seconds) are timed once after the warm-up.
    const double first = timeMs(s, kernel);
    t.kernelMs = first > 1000 ? first : medianOf(s, reps, kernel);
    t.d2hMs = timeMs(s, [&] { CUDA_CHECK(cudaMemcpyAsync(c, dc.get(), quarter, cudaMemcpyDeviceToHost, s)); });
    // The library reference: the GEMM of the reduced shape on already-reduced operands.
    kernels::launchReduce(da.as<T>(), db.as<T>(), ar.as<T>(), br.as<T>(), n, s);
    t.libraryMs = medianOf(s, reps, [&] { gemm(cublas.get(), ar.as<T>(), br.as<T>(), dc.as<T>(), n); });
    CUDA_CHECK(cudaStreamSynchronize(s));
    return t;
}

}  // namespace

bool available(std::string* why)
{
    return !gigacheck::cuda::cudaDevices(why).empty();
}

Timing run(Variant v, Precision p, const void* a, const void* b, void* c, std::int64_t n, int reps, int device)
{
    std::string why;
    const std::vector<DeviceInfo> devices = gigacheck::cuda::cudaDevices(&why);
    if (devices.empty())
        throw BackendError("no CUDA device: " + why);
    const int ordinal = device < 0 ? devices.front().index : device;
    gigacheck::cuda::useDevice(ordinal);
    Timing t = p == Precision::F32
                   ? runTyped(v, static_cast<const float*>(a), static_cast<const float*>(b), static_cast<float*>(c), n, reps)
                   : runTyped(v, static_cast<const double*>(a), static_cast<const double*>(b), static_cast<double*>(c), n, reps);
    for (const DeviceInfo& d : devices)
        if (d.index == ordinal)
            t.deviceName = d.name;
    return t;
}

}  // namespace gigacheck::reduced_matmul::device
