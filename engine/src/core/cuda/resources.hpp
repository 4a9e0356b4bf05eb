// RAII owners of CUDA resources: device and pinned buffers, streams, events, cuBLAS handles.
// Destructors never throw; they run during error unwinding too.
#pragma once

#include "core/cuda/check.hpp"

#include <cstddef>
#include <utility>

namespace gigacheck::cuda {

// How each kind of CUDA memory is obtained and given back.
struct DeviceMemory {
    static cudaError_t allocate(void** p, std::size_t bytes) { return cudaMalloc(p, bytes); }
    static void release(void* p) { cudaFree(p); }
};
struct PinnedMemory {  // page-locked host memory: copies from and to it overlap with kernels
    static cudaError_t allocate(void** p, std::size_t bytes) { return cudaMallocHost(p, bytes); }
    static void release(void* p) { cudaFreeHost(p); }
};

// Owns one allocation of Memory; movable, never copied.
template <class Memory>
class Buffer {
public:
    Buffer() = default;
    explicit Buffer(std::size_t bytes) : bytes_(bytes)
    {
        if (bytes)
            CUDA_CHECK(Memory::allocate(&ptr_, bytes));
    }
    ~Buffer() { reset(); }
    Buffer(Buffer&& o) noexcept : ptr_(std::exchange(o.ptr_, nullptr)), bytes_(std::exchange(o.bytes_, 0)) {}
    Buffer& operator=(Buffer&& o) noexcept
    {
        if (this != &o) {
            reset();
            ptr_ = std::exchange(o.ptr_, nullptr);
            bytes_ = std::exchange(o.bytes_, 0);
        }
        return *this;
    }
    Buffer(const Buffer&) = delete;
    Buffer& operator=(const Buffer&) = delete;

    void reset()
    {
        if (ptr_)
            Memory::release(ptr_);
        ptr_ = nullptr;
        bytes_ = 0;
    }
    void* get() const { return ptr_; }
    template <class T> T* as() const { return static_cast<T*>(ptr_); }
    std::size_t bytes() const { return bytes_; }

private:
    void* ptr_ = nullptr;
    std::size_t bytes_ = 0;
};

using DeviceBuffer = Buffer<DeviceMemory>;
using PinnedBuffer = Buffer<PinnedMemory>;

class Stream {
public:
    Stream() { CUDA_CHECK(cudaStreamCreateWithFlags(&s_, cudaStreamNonBlocking)); }
    // A stream of the device's greatest priority: the block scheduler dispatches its kernels'
    // blocks before the waiting blocks of kernels on ordinary streams.
    static Stream highestPriority()
    {
        int least = 0, greatest = 0;
        CUDA_CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
        Stream st(nullptr);
        CUDA_CHECK(cudaStreamCreateWithPriority(&st.s_, cudaStreamNonBlocking, greatest));
        return st;
    }
    ~Stream()
    {
        if (s_)
            cudaStreamDestroy(s_);
    }
    Stream(Stream&& o) noexcept : s_(std::exchange(o.s_, nullptr)) {}
    Stream& operator=(Stream&&) = delete;
    Stream(const Stream&) = delete;
    Stream& operator=(const Stream&) = delete;
    cudaStream_t get() const { return s_; }

private:
    explicit Stream(std::nullptr_t) {}
    cudaStream_t s_ = nullptr;
};

class Event {
public:
    explicit Event(unsigned flags = cudaEventDefault) { CUDA_CHECK(cudaEventCreateWithFlags(&e_, flags)); }
    ~Event()
    {
        if (e_)
            cudaEventDestroy(e_);
    }
    Event(Event&& o) noexcept : e_(std::exchange(o.e_, nullptr)) {}
    Event& operator=(Event&&) = delete;
    Event(const Event&) = delete;
    Event& operator=(const Event&) = delete;
    cudaEvent_t get() const { return e_; }

private:
    cudaEvent_t e_ = nullptr;
};

class CublasHandle {
public:
    CublasHandle() { CUBLAS_CHECK(cublasCreate(&h_)); }
    ~CublasHandle()
    {
        if (h_)
            cublasDestroy(h_);
    }
    CublasHandle(const CublasHandle&) = delete;
    CublasHandle& operator=(const CublasHandle&) = delete;
    cublasHandle_t get() const { return h_; }

private:
    cublasHandle_t h_ = nullptr;
};

// Milliseconds between two recorded events.
inline double elapsedMs(cudaEvent_t a, cudaEvent_t b)
{
    float ms = 0;
    CUDA_CHECK(cudaEventElapsedTime(&ms, a, b));
    return ms;
}

}  // namespace gigacheck::cuda
