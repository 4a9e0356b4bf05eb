#include "families/blocked_gemm/cuda/host_staging.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>

namespace gigacheck::cuda {

namespace {

// The host function of the pack stream: its argument is the op's timed job.
template <class TimedJob> void CUDART_CB packCallback(void* argument)
{
    auto* timed = static_cast<TimedJob*>(argument);
    const auto start = std::chrono::steady_clock::now();
    packRows(timed->job);
    timed->seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

HostStaging::HostStaging(const OpContext& c, const std::vector<std::int64_t>& packedBytes)
    : packedBytes_(packedBytes), jobs_(packedBytes.size()), stats_(std::getenv("GIGACHECK_STAGING_STATS") != nullptr)
{
    if (stats_)
        copyEvents_.resize(packedBytes.size());
    for (int d = 0; d < c.schedule.devices; ++d) {
        std::int64_t largest = 0;
        for (const Operation& op : c.schedule.ops)
            if (op.device == d)
                largest = std::max(largest, packedBytes_[std::size_t(op.id)]);
        if (largest == 0) {
            devices_.push_back(nullptr);
            continue;
        }
        CUDA_CHECK(cudaSetDevice(c.ordinals[std::size_t(d)]));
        auto dev = std::make_unique<Device>();
        dev->ordinal = c.ordinals[std::size_t(d)];
        for (int k = 0; k < kSlots; ++k) {
            dev->slots.emplace_back(std::size_t(largest));
            dev->packed.push_back(std::make_unique<Event>(cudaEventDisableTiming));
            dev->copied.push_back(std::make_unique<Event>(cudaEventDisableTiming));
        }
        devices_.push_back(std::move(dev));
    }
    CUDA_CHECK(cudaSetDevice(c.ordinals.front()));  // as the executor left it
}

HostStaging::~HostStaging()
{
    for (const auto& dev : devices_)
        if (dev && cudaSetDevice(dev->ordinal) == cudaSuccess)
            cudaStreamSynchronize(dev->pack.get());
    if (stats_) {
        double packSeconds = 0, copySeconds = 0, bytes = 0;
        int loads = 0;
        for (std::size_t id = 0; id < jobs_.size(); ++id) {
            const auto& [begin, end] = copyEvents_[id];
            float ms = 0;
            if (!begin || cudaEventSynchronize(end->get()) != cudaSuccess ||
                cudaEventElapsedTime(&ms, begin->get(), end->get()) != cudaSuccess)
                continue;
            ++loads;
            bytes += double(packedBytes_[id]);
            packSeconds += jobs_[id].seconds;
            copySeconds += ms * 1e-3;
        }
        if (loads > 0)
            std::fprintf(stderr, "host staging: %d loads, %.1f MB: packing %.1f ms (%.1f GB/s), contiguous copies %.1f ms (%.1f GB/s)\n",
                         loads, bytes / 1e6, packSeconds * 1e3, bytes / packSeconds / 1e9, copySeconds * 1e3,
                         bytes / copySeconds / 1e9);
    }
    (void)cudaGetLastError();
}

void HostStaging::issue(const Operation& op, PackJob job, void* dst, cudaStream_t s)
{
    Device& dev = *devices_[std::size_t(op.device)];
    const int k = dev.next;
    dev.next = (dev.next + 1) % kSlots;
    job.dst = dev.slots[std::size_t(k)].as<char>();
    TimedJob& stored = jobs_[std::size_t(op.id)];
    stored.job = job;
    // Pack once the slot's previous copy has left it ...
    CUDA_CHECK(cudaStreamWaitEvent(dev.pack.get(), dev.copied[std::size_t(k)]->get()));
    CUDA_CHECK(cudaLaunchHostFunc(dev.pack.get(), packCallback<TimedJob>, &stored));
    CUDA_CHECK(cudaEventRecord(dev.packed[std::size_t(k)]->get(), dev.pack.get()));
    // ... and copy it, contiguous, once packed; the slot is free again when the copy is done.
    CUDA_CHECK(cudaStreamWaitEvent(s, dev.packed[std::size_t(k)]->get()));
    if (stats_) {
        auto& [begin, end] = copyEvents_[std::size_t(op.id)];
        begin = std::make_unique<Event>();
        end = std::make_unique<Event>();
        CUDA_CHECK(cudaEventRecord(begin->get(), s));
    }
    CUDA_CHECK(cudaMemcpyAsync(dst, job.dst, std::size_t(packedBytes_[std::size_t(op.id)]), cudaMemcpyHostToDevice, s));
    if (stats_)
        CUDA_CHECK(cudaEventRecord(copyEvents_[std::size_t(op.id)].second->get(), s));
    CUDA_CHECK(cudaEventRecord(dev.copied[std::size_t(k)]->get(), s));
}

}  // namespace gigacheck::cuda
