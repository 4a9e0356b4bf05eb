// Packing a block of a row-major host matrix into contiguous memory on the host's threads: the
// CUDA backend's staged loads (cuda/host_staging.hpp) and the pack rate `devices --measure`
// stores for the cost model (Ceilings::hostPackGBs).
#pragma once

#include "gigacheck/blocked_gemm/cost_model.hpp"

#include <cstdint>
#include <functional>

namespace gigacheck {

// Rows of rowBytes, srcPitch apart, into dst dstPitch apart (the bytes between rowBytes and
// dstPitch are zeroed, except after the last row: they land in a device buffer's padding).
struct PackJob {
    const char* src = nullptr;
    char* dst = nullptr;
    std::int64_t rows = 0, rowBytes = 0, srcPitch = 0, dstPitch = 0;
};

// Runs the job on up to kPackThreads host threads (fewer for small blocks). Eight threads were
// the fastest on the H200's host (25-30 GB/s; 12 and 16 no faster: the host's memory bandwidth,
// resources/results/probes/h2d_split_pack_probe.cu).
inline constexpr std::int64_t kPackThreads = 8;
// Each thread takes at least kPackBytesPerThread: a job of kPackBytesForAllThreads or more gets
// all kPackThreads (calibratePacking's sample keeps its cuts at least that large).
inline constexpr std::int64_t kPackBytesPerThread = std::int64_t(4) << 20;
inline constexpr std::int64_t kPackBytesForAllThreads = kPackThreads * kPackBytesPerThread;
void packRows(const PackJob& job);

// The host's packing rate in GB/s of block bytes: blocks of 16 KiB rows out of a 128 KiB-wide
// matrix (the rows of 32768-wide FP32 matrices under small caps), best of a few; whileTimed runs
// first, after the buffers are made (the GPU measurement starts its copies there).
double measureHostPackGBs(const std::function<void()>& whileTimed = {});

// calibratePacking's timer where no GPU takes the copies (gigacheck/blocked_gemm/cost_model.hpp): the loads
// packed one after another into kStagingSlots slots in turn, three times, the median pass's seconds. On a
// CUDA device cuda::timeHostPacking packs them the same way with each slot copied to the device.
HostPackTimer hostPackTimer();

}  // namespace gigacheck
