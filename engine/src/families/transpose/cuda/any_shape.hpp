// The rectangular in-place transpose on the device (README): the ratio decomposition
// (cuda/ratio_decomposition.cu, two passes; a tall matrix's pipelined in one kernel,
// cuda/ratio_pipeline.cu) where one side is 2 or 4 times the other, else the C2R
// decomposition (cuda/decomposition.cu, three passes); the launch configuration of both
// orientations and the global scratch when a row or a column does not fit the shared memory.
#pragma once

#include "core/cuda/resources.hpp"
#include "families/transpose/cuda/decomposition.cuh"
#include "families/transpose/cuda/ratio_decomposition.cuh"

namespace gigacheck::transpose {

template <class T> class AnyShapeInPlace {
public:
    AnyShapeInPlace(std::int64_t m, std::int64_t n);
    // Transposes the m x n matrix at x (forward) or the n x m one (backward) on stream s.
    void run(T* x, bool forward, cudaStream_t s) const;
    std::size_t scratchBytes() const { return scratch_.bytes(); }

private:
    kernels::RatioConfig ratioForward_, ratioBackward_;
    kernels::DecompositionConfig forward_, backward_;
    gigacheck::cuda::DeviceBuffer scratch_;
};

}  // namespace gigacheck::transpose
