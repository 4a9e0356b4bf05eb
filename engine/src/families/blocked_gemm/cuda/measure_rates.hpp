// The cost model's rate tables and the link-under-load measurements, in plain C++ so
// that bench/ compiles with or without CUDA. Each runs on the current device.
#pragma once

#include "core/devices/measure_steps.hpp"
#include "gigacheck/backend.hpp"
#include "gigacheck/blocked_gemm/cost_model.hpp"

#include <string>
#include <vector>

namespace gigacheck::cuda {

// cuBLAS GEMM rates per kind (f32, tf32, f64) for square blocks s x s x s and their ABFT-augmented
// twins (s+1) x (s+1) x s, leading dimensions padded to 32 as the buffers are; pinned 2D copy
// rates (cudaMemcpy2DAsync, host rows of a wider matrix) per row width; the points are
// rateTablePlan(quick)'s (rate_table_plan.hpp). quick: fewer, smaller. steps (may be null): told
// before every point (and throws MeasureCancelled there when cancelled).
void measureRateTables(Ceilings& c, bool quick, MeasureSteps* steps = nullptr);

// The cuBLAS GEMM rate (GFLOP/s) of one shape, C m x n with the common dimension k, of a kind
// ("f32", "tf32", "f64"), laid out as the tables' points are: the planner's probe of its best
// candidates' block shapes (cost_model.hpp GemmRateProbe).
double measureGemmRate(const std::string& kind, std::int64_t m, std::int64_t n, std::int64_t k, int reps);

// Pinned H2D rate of 2D copies of one row width under one condition.
struct LinkUnderLoad {
    std::string condition;  // "alone", "during GEMM", "during GEMM, copy high priority", ...
    std::int64_t rowBytes = 0;
    double h2dGBs = 0;
    double gemmSlowdown = 0;  // GEMM time with the copies / alone - 1 (0 when no GEMM runs)
};
// For every row width (4 KiB ... 64 KiB): alone, during a cuBLAS FP32 GEMM on another stream
// (default priorities, copy stream high, copy stream low), and during the ABFT checksum pass
// (checksumB, memory-bound) on another stream.
std::vector<LinkUnderLoad> measureLinkUnderLoad(bool quick);

// The loads copied one after another alone on the current device into a scratch buffer (pinned or
// not, as the run's host matrices are), twice: the faster pass's seconds, 0 when it cannot (the
// planner's calibration on a run's own host matrices, cost_model.hpp calibrateH2d).
double timeHostLoads(const std::vector<HostLoad>& loads);

// The loads packed on the host as the run packs them (cuda/host_staging.hpp: kStagingSlots pinned
// slots in turn, each slot copied to the device while the next is packed), three times: the
// median pass's packing seconds, 0 when it cannot (calibratePacking's timer on a CUDA device).
double timeHostPacking(const std::vector<HostLoad>& loads);

}  // namespace gigacheck::cuda
