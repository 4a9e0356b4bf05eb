// The ratio decomposition's two passes of a tall matrix pipelined in one persistent kernel
// (ratio_pipeline.cu), so that a band of rows is squared while the row pass's output is in L2.
#pragma once

#include "families/transpose/ratio_decomposition.hpp"

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace gigacheck::transpose::kernels {

struct RatioConfig;

// Rows per band: one row of square-pass tiles (32 rows of 8-byte vectors for k = 2, 16 of 16-byte
// vectors for k = 4).
inline std::int64_t pipelineBandRows(std::int64_t k) { return k == 2 ? 32 : 16; }

// Whether the pipeline runs this shape: tall, the row fits the shared memory and the side is whole
// bands; else the two kernels run.
bool pipelineApplies(const ratio::Shape& s, std::size_t rowSharedBytes);

// The device memory the pipeline's counters need, in 4-byte words (a ticket, one counter per band).
inline std::size_t pipelineCounterWords(const ratio::Shape& s) { return std::size_t(s.side / pipelineBandRows(s.k)) + 1; }

// Sets cfg's pipeline fields (lookahead, shared bytes, blocks) for element type T; the CUDA calls
// that need (function attributes, occupancy) happen here, not at launch.
template <class T> void configureRatioPipeline(RatioConfig& cfg);

// Transposes x (16-byte aligned) in place; counters: pipelineCounterWords words of device memory,
// zeroed here on stream st.
template <class T> void launchRatioPipeline(T* x, const RatioConfig& cfg, unsigned* counters, cudaStream_t st);

}  // namespace gigacheck::transpose::kernels
