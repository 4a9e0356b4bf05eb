// What a run record claims, checked before anything uses or draws it (internal to the blocked GEMM family).
#pragma once

#include "core/record/record_checks.hpp"
#include "gigacheck/blocked_gemm/plan.hpp"
#include "gigacheck/blocked_gemm/record.hpp"

#include <cstdint>

namespace gigacheck::recordcheck {

// Ceilings a record must stay under; each is far above what a real run writes.
// kMaxExtent (one matrix dimension) and the shared checks: core/record/record_checks.hpp.
inline constexpr std::int64_t kMaxProducts = kMaxScheduleProducts;  // block products a run schedules
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
