// Test-only hooks of the CUDA backend (tests/gpu): simulate failures in the middle of a run.
// Plain C++ (no CUDA types) so that tests include it without the CUDA headers.
#pragma once

#include <cstddef>

namespace gigacheck::cuda::testing {

// The next execute() fails with a real CUDA error (an invalid copy) when it issues op `opId`;
// -1 turns it off. Consumed by that run.
void failAtOperation(int opId);
// The next execute() treats device allocations beyond `bytes` as cudaErrorMemoryAllocation
// (an out-of-memory in the middle of setting up); 0 turns it off. Consumed by that run.
void limitDeviceMemory(std::size_t bytes);

}  // namespace gigacheck::cuda::testing
