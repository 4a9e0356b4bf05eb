// The rectangular in-place transpose on the device (README: tiles in place, then segment
// cycles): holds the cycle leaders of both orientations, found once on the host.
#pragma once

#include "core/cuda/resources.hpp"
#include "families/transpose/cpu/kernels.hpp"

#include <vector>

namespace gigacheck::transpose {

// The leaders of the non-trivial cycles of p (a visited bitset on the host).
std::vector<std::int64_t> cycleLeaders(const cpu::SegmentPermutation& p);

template <class T> class AnyShapeInPlace {
public:
    AnyShapeInPlace(std::int64_t m, std::int64_t n);
    // Transposes the m x n matrix at x (forward) or the n x m one (backward) on stream s.
    void run(T* x, bool forward, cudaStream_t s) const;

private:
    struct Orientation {
        cpu::SegmentPermutation p;
        gigacheck::cuda::DeviceBuffer leaders;
        std::int64_t cycles = 0;
    };
    static Orientation make(std::int64_t m, std::int64_t n);
    Orientation forward_, backward_;
};

}  // namespace gigacheck::transpose
