// The parts of gemm_workspace.hpp the CUTLASS kernels' translation units see (they include nothing
// of the engine's public headers): a region of device memory lent to a product, and the bounds
// of the row-sum partials' layout.
#pragma once

#include <cstddef>
#include <cstdint>

namespace gigacheck {

// A caller's device memory lent to a product (GemmCall::operandCopies / rowSumPartials); empty:
// the stream's scratch (gemm/cuda/stream_scratch.hpp).
struct DeviceRegion {
    void* data = nullptr;
    std::size_t bytes = 0;
};

// The partial sums' layout bounds every CUTLASS configuration keeps (cutlass_fused_run.cuh checks
// them at compile time): C's columns per tile at least this many, its rows rounded up to a multiple
// of at most this many.
inline constexpr std::int64_t kRowSumPartialTileColumnsAtLeast = 128;
inline constexpr std::int64_t kRowSumPartialRowRoundingAtMost = 256;

}  // namespace gigacheck
