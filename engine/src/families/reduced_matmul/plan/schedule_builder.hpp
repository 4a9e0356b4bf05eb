// The reduced matmul family's schedule: copy A and B in; reduce the pairs; `calls` library GEMMs
// of the reduced shape (the reference, the first a warm-up); C (and Ar, Br for reduce-blas) filled
// with NaN; `calls` calls of the variant (a kernel op, or reduce + GEMM for reduce-blas); copy C out. Plain data, checked by
// validateOperations. Slots: 0 A, 1 B, 2 C, 3 Ar (n/2 x n), 4 Br (n x n/2).
#pragma once

#include "gigacheck/reduced_matmul.hpp"
#include "gigacheck/schedule.hpp"

namespace gigacheck::reduced_matmul {

inline constexpr int kSlotA = 0, kSlotB = 1, kSlotC = 2, kSlotAr = 3, kSlotBr = 4;

Schedule buildSchedule(Variant variant, Precision precision, std::int64_t n, int calls);

}  // namespace gigacheck::reduced_matmul
