// What a reduced matmul record claims, checked before anything uses or prints it: a
// record someone sent may claim N = 0 ("C 0x0") or an odd N. Internal to the reduced matmul family.
#pragma once

#include "gigacheck/reduced_matmul.hpp"

#include <cstdint>

namespace gigacheck::reduced_matmul {

// Ceiling of `reps` a record may claim: the CLI's --reps limit.
inline constexpr std::int64_t kMaxRecordReps = 1000000;

// Calls of the library GEMM and of the variant a run of this configuration makes (a warm-up and
// the timed ones; the run times at least one), and the ops it schedules (plan/schedule_builder.cpp),
// without building the schedule.
std::int64_t plannedCalls(const Config& config);
std::int64_t plannedOps(const Config& config);

// Throws InputError "record: field 'reduced_matmul.<path>' ..." naming the first field out of range
// or inconsistent: N (even, 2 .. 2^31 - 1), the variant against the backend, reps, every time and
// rate (finite, >= 0), the check against C's size and the verdict against the status, the counts
// that follow from N (flops, multiplications, footprint), the others' ranges, the spans against
// the schedule, and no fault events (a reduced matmul injects none).
void validateRecord(const Record& record);

}  // namespace gigacheck::reduced_matmul
