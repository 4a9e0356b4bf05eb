// Byte counts that stop at SIZE_MAX instead of wrapping around: the blocks of huge shapes must read
// as "more than any cap", never as a small number that seems to fit.
#pragma once

#include <cstddef>
#include <limits>

namespace gigacheck {

inline constexpr std::size_t kMostBytes = std::numeric_limits<std::size_t>::max();

inline std::size_t mulSaturated(std::size_t x, std::size_t y) { return x != 0 && y > kMostBytes / x ? kMostBytes : x * y; }

inline std::size_t addSaturated(std::size_t x, std::size_t y) { return y > kMostBytes - x ? kMostBytes : x + y; }

// x rounded up to a multiple of step (step > 0).
inline std::size_t roundedUpSaturated(std::size_t x, std::size_t step)
{
    return x > kMostBytes - (step - 1) ? kMostBytes : (x + step - 1) / step * step;
}

}  // namespace gigacheck
