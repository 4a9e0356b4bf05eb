// The values a transpose run moves: 32-bit patterns that are float32 numbers in [1, 2) (so cuBLAS
// geam's 1 * x + 0 keeps them exact) and equally good int32s. Element k holds 1 + k * 2^-23 while
// k < 2^23, so every element of a matrix up to 2^23 elements is distinct and a misplaced one is
// always caught; above, a hash of k (a collision hides a misplacement with probability 2^-23).
#pragma once

#include <cstdint>
#include <vector>

namespace gigacheck::transpose {

void fillDistinct(std::vector<std::uint32_t>& data, std::uint64_t seed);
// Elements of the n x m `result` not equal to the transpose of the m x n `original`.
std::int64_t countMisplaced(const std::vector<std::uint32_t>& original, const std::vector<std::uint32_t>& result,
                            std::int64_t m, std::int64_t n);

}  // namespace gigacheck::transpose
