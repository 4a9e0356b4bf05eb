// The user's own A and B (gigacheck run --load-a / --load-b, the lab's File > Import A / B):
// their shapes checked against each other, their values checked, their precision converted.
#pragma once

#include "gigacheck/matrix.hpp"

#include <string>

namespace gigacheck {

// The product's shape from A (m x n) and B (n x q); InputError when B's rows are not A's columns.
Shape shapeOfOperands(const HostMatrix& a, const HostMatrix& b);

// InputError naming `what` (e.g. "A.npy") and the first element that is NaN or infinite: a
// checksum of such a matrix is meaningless, so the run refuses it before it starts.
void requireFinite(const HostMatrix& m, const std::string& what);

// A copy in precision p (float64 -> float32 rounds to nearest), in memory from `alloc`.
HostMatrix convertedTo(const HostMatrix& m, Precision p, const HostAllocator& alloc = HostAllocator::heap());

// sqrt(n * mean(a^2) * mean(b^2)): the expected |C_ij| of these operands, which scales the
// random fault deltas as typicalMagnitude does for generated inputs.
double typicalMagnitudeOf(const HostMatrix& a, const HostMatrix& b);

}  // namespace gigacheck
