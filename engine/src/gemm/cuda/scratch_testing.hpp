// Test-only view of the streams' scratch (stream_scratch.hpp), for tests/gpu: plain C++, no CUDA types.
#pragma once

#include <cstddef>

namespace gigacheck::cuda::testing {

// How many times a product took the streams' scratch in this process: one given a workspace by
// its caller (the blocked family's plan, charged to its memory cap) takes none.
std::size_t streamScratchRequests();

}  // namespace gigacheck::cuda::testing
