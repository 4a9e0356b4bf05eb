// Test-only hooks of the CUDA backend (tests/gpu): simulate failures in the middle of a run.
// Plain C++ (no CUDA types) so that tests include it without the CUDA headers.
#pragma once

#include "gigacheck/events.hpp"

#include <cstddef>
#include <vector>

namespace gigacheck::cuda::testing {

// The next execute() fails with a real CUDA error (an invalid copy) when it issues op `opId`;
// -1 turns it off. Consumed by that run.
void failAtOperation(int opId);
// The next execute() treats device allocations beyond `bytes` as cudaErrorMemoryAllocation
// (an out-of-memory in the middle of setting up); 0 turns it off. Consumed by that run.
void limitDeviceMemory(std::size_t bytes);

// A run of a three-op schedule over two devices, on CUDA ordinals ordinal0 and ordinal1 (the same
// ordinal twice is two logical devices of one GPU): `in` (rows of 4 doubles) loaded on device 0,
// rows 1.. of columns 1..2 copied to device 1 (copyBetweenDevices, a dependency across devices),
// device 1's buffer stored into `out`. Only that region of out is defined. Throws BackendError.
struct CopyAcrossDevices {
    std::vector<double> out;
    std::vector<Span> spans;
    std::vector<std::size_t> devicePeakBytes;
};
CopyAcrossDevices copyAcrossDevices(const std::vector<double>& in, int ordinal0, int ordinal1);

}  // namespace gigacheck::cuda::testing
