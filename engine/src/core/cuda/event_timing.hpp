// Median time (ms) of `body` on stream s over reps, after one warm-up (module load, cuBLAS
// heuristics), measured with CUDA events: the benches' and the rate tables' timer.
#pragma once

#include "core/cuda/check.hpp"
#include "core/cuda/resources.hpp"
#include "core/median.hpp"

#include <functional>
#include <vector>

namespace gigacheck::cuda {

inline double timeMs(cudaStream_t s, int reps, const std::function<void()>& body)
{
    Event a, b;
    body();
    CUDA_CHECK(cudaStreamSynchronize(s));
    std::vector<double> t;
    for (int r = 0; r < reps; ++r) {
        CUDA_CHECK(cudaEventRecord(a.get(), s));
        body();
        CUDA_CHECK(cudaEventRecord(b.get(), s));
        CUDA_CHECK(cudaEventSynchronize(b.get()));
        t.push_back(elapsedMs(a.get(), b.get()));
    }
    return median(t);
}

}  // namespace gigacheck::cuda
