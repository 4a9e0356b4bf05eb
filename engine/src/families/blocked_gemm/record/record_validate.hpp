// What a run record claims, checked before anything uses or draws it (internal to the blocked GEMM family).
#pragma once

#include "gigacheck/record.hpp"

#include <cstdint>

namespace gigacheck::recordcheck {

// Ceilings a record must stay under; each is far above what a real run writes.
inline constexpr std::int64_t kMaxExtent = 2147483647;        // one matrix dimension: 2^31 - 1
inline constexpr std::int64_t kMaxProducts = 2147483647;      // block products of a plan (an int)
inline constexpr std::size_t kMaxExplicitFaults = 10000;      // config.faults.at (clicked or --inject-at)
inline constexpr int kMaxRandomFaults = 1 << 20;              // config.faults.count, as the CLI allows
inline constexpr std::size_t kMaxBuffers = 64;                // plan.buffers (S4 uses 7)
inline constexpr int kMaxStreams = 64;                        // streams per queue

// Throws InputError "record: field '<path>' ..." naming the first field that is out of range or
// inconsistent: shape, splits against the shape, block extents against the splits, faults inside C,
// events and spans inside the plan and the matrix. A record with no plan (shape 0 x 0 x 0, as the
// lab keeps its last configuration) is accepted when it has no events either.
void validate(const RunRecord& r);

}  // namespace gigacheck::recordcheck
