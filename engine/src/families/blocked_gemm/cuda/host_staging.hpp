// Block loads packed on the host (gigacheck/blocked_gemm/h2d_staging.hpp says when and why): host threads copy
// the block's rows out of the host matrix into a pinned staging slot, laid out as the device
// buffer is (its leading dimension), and one contiguous copy takes the slot to the device.
//
// Per device: a pack stream whose host functions do the packing, and kSlots staging slots used in
// turn. A slot is packed once its previous copy has left it (event `copied`), and copied once it is
// packed (event `packed`), so packing runs up to kSlots - 1 loads ahead of the copy engine while
// the copies themselves wait for their buffers as before. The copy op's span therefore includes any
// wait for its packing.
#pragma once

#include "core/cuda/op_table.hpp"
#include "core/cuda/resources.hpp"
#include "families/blocked_gemm/staging/pack_rows.hpp"
#include "gigacheck/blocked_gemm/h2d_staging.hpp"

#include <cstdint>
#include <memory>
#include <vector>

namespace gigacheck::cuda {

class HostStaging {
public:
    static constexpr int kSlots = kStagingSlots;

    // packedBytes[op id]: the staged bytes of each op that is packed, 0 for the others. Makes each
    // device's stream, events and slots (the largest packed copy of that device) with it current.
    HostStaging(const OpContext& c, const std::vector<std::int64_t>& packedBytes);
    // Waits for the packings still queued, so that no host function outlives its job.
    ~HostStaging();
    HostStaging(const HostStaging&) = delete;
    HostStaging& operator=(const HostStaging&) = delete;

    bool packs(int opId) const { return packedBytes_[std::size_t(opId)] > 0; }
    // Packs op's block (job.dst is filled in) and copies it to dst on stream s. The op's device
    // must be current.
    void issue(const Operation& op, PackJob job, void* dst, cudaStream_t s);

private:
    struct Device {
        int ordinal = 0;
        Stream pack;
        std::vector<PinnedBuffer> slots;
        std::vector<std::unique_ptr<Event>> packed, copied;
        int next = 0;
    };
    // Per op id: the host function's argument, alive for the run, and how long its packing took
    // (written by the host function; read after the pack streams are synchronized).
    struct TimedJob {
        PackJob job;
        double seconds = 0;
    };
    std::vector<std::int64_t> packedBytes_;
    std::vector<TimedJob> jobs_;
    // GIGACHECK_STAGING_STATS=1: events around each contiguous copy, and one line on stderr at the
    // end of the run with the packing and copy rates (what a prediction of packed loads misses).
    bool stats_ = false;
    std::vector<std::pair<std::unique_ptr<Event>, std::unique_ptr<Event>>> copyEvents_;
    std::vector<std::unique_ptr<Device>> devices_;
};

}  // namespace gigacheck::cuda
