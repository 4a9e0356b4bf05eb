#include "families/blocked_gemm/cuda/host_staging.hpp"

#include <algorithm>

namespace gigacheck::cuda {

namespace {

// The host function of the pack stream: its argument is the op's PackJob.
void CUDART_CB packCallback(void* job) { packRows(*static_cast<const PackJob*>(job)); }

}  // namespace

HostStaging::HostStaging(const OpContext& c, const std::vector<std::int64_t>& packedBytes)
    : packedBytes_(packedBytes), jobs_(packedBytes.size())
{
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
    (void)cudaGetLastError();
}

void HostStaging::issue(const Operation& op, PackJob job, void* dst, cudaStream_t s)
{
    Device& dev = *devices_[std::size_t(op.device)];
    const int k = dev.next;
    dev.next = (dev.next + 1) % kSlots;
    job.dst = dev.slots[std::size_t(k)].as<char>();
    PackJob& stored = jobs_[std::size_t(op.id)];
    stored = job;
    // Pack once the slot's previous copy has left it ...
    CUDA_CHECK(cudaStreamWaitEvent(dev.pack.get(), dev.copied[std::size_t(k)]->get()));
    CUDA_CHECK(cudaLaunchHostFunc(dev.pack.get(), packCallback, &stored));
    CUDA_CHECK(cudaEventRecord(dev.packed[std::size_t(k)]->get(), dev.pack.get()));
    // ... and copy it, contiguous, once packed; the slot is free again when the copy is done.
    CUDA_CHECK(cudaStreamWaitEvent(s, dev.packed[std::size_t(k)]->get()));
    CUDA_CHECK(cudaMemcpyAsync(dst, job.dst, std::size_t(packedBytes_[std::size_t(op.id)]), cudaMemcpyHostToDevice, s));
    CUDA_CHECK(cudaEventRecord(dev.copied[std::size_t(k)]->get(), s));
}

}  // namespace gigacheck::cuda
