// A cheap hash of an element's index, for filling timing inputs on the device (the benches' inputs:
// the values do not matter to the timing, but all-zero inputs would draw less power than real data).
#pragma once

#include <cstddef>

namespace gigacheck::strassen {

__device__ __forceinline__ unsigned indexHash(std::size_t i, unsigned seed)
{
    unsigned x = unsigned(i) * 2654435761u ^ seed;
    x ^= x >> 13;
    x *= 0x5bd1e995u;
    x ^= x >> 15;
    return x;
}

}  // namespace gigacheck::strassen
