#include "gemm/cuda/stream_scratch.hpp"

#include "core/cuda/check.hpp"
#include "gemm/cuda/scratch_testing.hpp"

#include <atomic>
#include <list>
#include <mutex>

namespace gigacheck::cuda {

namespace {

// The oldest of more than kKeptScratches is freed (its stream may be gone: cudaFree waits for the
// whole device).
struct Scratch {
    int device = -1;
    cudaStream_t stream = nullptr;
    ScratchUse use = ScratchUse::Operands;
    void* data = nullptr;
    std::size_t bytes = 0;
};
constexpr std::size_t kKeptScratches = 16;
std::mutex scratchMutex;
std::list<Scratch> scratches;
std::atomic<std::size_t> requests{0};

}  // namespace

void* streamScratch(cudaStream_t stream, std::size_t bytes, ScratchUse use)
{
    ++requests;
    int device = 0;
    CUDA_CHECK(cudaGetDevice(&device));
    const std::lock_guard<std::mutex> lock(scratchMutex);
    for (auto it = scratches.begin(); it != scratches.end(); ++it) {
        if (it->device != device || it->stream != stream || it->use != use)
            continue;
        if (it->bytes < bytes) {
            CUDA_CHECK(cudaFree(it->data));
            it->data = nullptr;
            it->bytes = 0;
            CUDA_CHECK(cudaMalloc(&it->data, bytes));
            it->bytes = bytes;
        }
        scratches.splice(scratches.begin(), scratches, it);  // most recently used first
        return scratches.front().data;
    }
    Scratch s{device, stream, use, nullptr, 0};
    CUDA_CHECK(cudaMalloc(&s.data, bytes));
    s.bytes = bytes;
    scratches.push_front(s);
    while (scratches.size() > kKeptScratches) {
        int current = device;
        CUDA_CHECK(cudaSetDevice(scratches.back().device));
        const cudaError_t freed = cudaFree(scratches.back().data);
        CUDA_CHECK(cudaSetDevice(current));
        scratches.pop_back();
        CUDA_CHECK(freed);
    }
    return scratches.front().data;
}

void* scratchIn(DeviceRegion lent, cudaStream_t stream, std::size_t bytes, ScratchUse use)
{
    if (lent.data != nullptr && bytes <= lent.bytes)
        return lent.data;
    return streamScratch(stream, bytes, use);
}

}  // namespace gigacheck::cuda

namespace gigacheck::cuda::testing {

std::size_t streamScratchRequests() { return requests.load(); }

}  // namespace gigacheck::cuda::testing
