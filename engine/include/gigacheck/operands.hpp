// The user's own A and B (gigacheck run --load-a / --load-b, the lab's File > Import A / B):
// their shapes checked against each other, their values checked, their precision converted.
#pragma once

#include "gigacheck/matrix.hpp"

#include <cstdint>
#include <string>

namespace gigacheck {

// One of the user's own matrices (gigacheck run --load-a / --load-b, the lab's File > Import):
// what the record keeps of the file it came from (the values themselves are not in the record).
struct InputMatrix {
    std::string operand;  // "A" or "B"
    std::string file;     // the file's name, without its folder
    std::int64_t rows = 0, cols = 0;
    std::string dtype;    // "float32" or "float64": what the file holds
    bool fortranOrder = false;
};

// The product's shape from A (m x n) and B (n x q); InputError when B's rows are not A's columns.
Shape shapeOfOperands(const HostMatrix& a, const HostMatrix& b);

// InputError naming `what` (e.g. "A.npy") and the first element that is NaN or infinite: a
// checksum of such a matrix is meaningless, so the run refuses it before it starts.
void requireFinite(const HostMatrix& m, const std::string& what);

// What a run record keeps of an operand read from the .npy file at `path` (operand "A" or "B"):
// the file's name without its folder, shape, dtype and order, from its header (readNpyHeader).
// Throws InputError like readNpy when the header is bad.
InputMatrix inputMatrixOfFile(const std::string& operand, const std::string& path);

// A copy in precision p (float64 -> float32 rounds to nearest), in memory from `alloc`.
HostMatrix convertedTo(const HostMatrix& m, Precision p, const HostAllocator& alloc = HostAllocator::heap());

// sqrt(n * mean(a^2) * mean(b^2)): the expected |C_ij| of these operands, which scales the
// random fault deltas as typicalMagnitude does for generated inputs.
double typicalMagnitudeOf(const HostMatrix& a, const HostMatrix& b);

}  // namespace gigacheck
