// The transpose family's schedule: copy the matrix in, `calls` transposes (a warm-up and the
// timed repetitions; in place, each op transposes the current orientation, so an odd number
// leaves it transposed), copy the result out. Plain data, checked by validateOperations.
#pragma once

#include "gigacheck/schedule.hpp"
#include "gigacheck/transpose.hpp"

namespace gigacheck::transpose {

// Slot 0: X (m x n); out of place, slot 1: Y (n x m). calls >= 1; in place it is made odd.
Schedule buildSchedule(Variant variant, ElementType type, std::int64_t m, std::int64_t n, int calls);

}  // namespace gigacheck::transpose
