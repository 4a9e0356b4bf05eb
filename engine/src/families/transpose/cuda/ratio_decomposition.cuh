// The rectangular in-place transpose on the GPU in two passes where one side is 2 or 4 times the
// other (../ratio_decomposition.hpp): a row pass, one row per block through shared memory, and the
// square tile-pair kernel on k-element vectors (kernels.cuh, launchSquareInPlace) -- or both in one
// pipelined kernel (ratio_pipeline.cuh) where the shape allows it.
#pragma once

#include "families/transpose/cuda/ratio_pipeline.cuh"
#include "families/transpose/ratio_decomposition.hpp"

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace gigacheck::transpose::kernels {

inline constexpr int kRatioRowThreads = 512;

struct RatioConfig {
    ratio::Shape shape;
    // Row pass: one row (k·side elements) per block in shared memory (rowSharedBytes > 0), or,
    // where the row does not fit, one slot of k·side elements per block in global scratch
    // (rowGrid slots). GIGACHECK_TRANSPOSE_ROW_SCRATCH=1 forces the global scratch (tests).
    std::size_t rowSharedBytes = 0;
    std::int64_t rowGrid = 1;
    // Both passes in one pipelined kernel (ratio_pipeline.cuh) where it applies and the matrix is
    // over twice the L2, its counters in the scratch; GIGACHECK_TRANSPOSE_RATIO_PIPELINE=1 / 0
    // forces it on / off (tests, comparisons).
    bool pipelined = false;
    std::int64_t pipelineLookahead = 0, pipelineBlocks = 0;
    std::size_t pipelineSharedBytes = 0;
    std::size_t scratchElements() const
    {
        return rowSharedBytes ? (pipelined ? pipelineCounterWords(shape) : 0) : std::size_t(rowGrid * shape.rowLength());
    }
};

// The configuration for an m x n input of 4-byte elements T on the current device (shape.applies()
// false where the ratio is not 2 or 4).
template <class T> RatioConfig ratioConfig(std::int64_t m, std::int64_t n);

// Transposes the m x n matrix at x in place (the result n x m); scratch: cfg.scratchElements()
// elements of device memory (may be null when that is 0). One or two kernels on stream s.
template <class T> void launchRatioDecomposition(T* x, const RatioConfig& cfg, T* scratch, cudaStream_t s);

}  // namespace gigacheck::transpose::kernels
