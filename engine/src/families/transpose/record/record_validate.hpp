// What a transpose record claims, checked before anything uses or prints it: a record
// someone sent may claim a shape of -3 x 32 or a time of -1 ms. Internal to the transpose family.
#pragma once

#include "gigacheck/transpose.hpp"

#include <cstdint>

namespace gigacheck::transpose {

// Ceiling of `reps` a record may claim: the CLI's --reps limit.
inline constexpr std::int64_t kMaxRecordReps = 1000000;

// The ops a run of this configuration schedules (copy in, the transposes, copy out), from the
// schedule builder's rule without building it: 1 + reps calls, made odd in place.
std::int64_t plannedOps(const Config& config);

// Throws InputError "record: field 'transpose.<path>' ..." naming the first field out of range or
// inconsistent: the shape (1 .. 2^31 - 1 each side), the variant against the shape, type and
// backend, reps, every time and rate (finite, >= 0), the verdict against the status, the counts
// that follow from the shape (moves, swaps, bytes), the others' ranges, the spans against the
// schedule, and no fault events (a transpose injects none).
void validateRecord(const Record& record);

}  // namespace gigacheck::transpose
