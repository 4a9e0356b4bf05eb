// Which K-major configuration of the CUTLASS TF32 kernel a call with config -1 runs
// (cutlass_tf32_gemm.hpp): plain C++, so that the CPU tests check the rule.
#pragma once

#include "gemm/cuda/tuning_choice.hpp"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace gigacheck::cuda {

// Below this extent the default tile is run untimed: small products stay deterministic and cheap
// (a tuning pass costs three warmed-up timed runs of every configuration).
inline constexpr std::int64_t kCutlassTuneFrom = 2048;
// Another configuration replaces the default only when its best timing is this much faster, so that
// noise alone does not move the pick.
inline constexpr double kCutlassKeepDefaultWithin = 0.01;

inline bool cutlassTunesKMajor(std::int64_t m, std::int64_t n, std::int64_t q)
{
    return std::min({m, n, q}) >= kCutlassTuneFrom;
}

// ms[i]: the time of the i-th K-major configuration, entry 0 the default (<= 0: it did not run).
// The position of the fastest, or 0 (the default) when it is within kCutlassKeepDefaultWithin of
// the fastest or nothing ran.
inline int keptCutlassKMajorConfig(const std::vector<double>& ms)
{
    const int chosen = chooseConfiguration(ms, {true}, kCutlassKeepDefaultWithin);
    return chosen < 0 ? 0 : chosen;
}

}  // namespace gigacheck::cuda
