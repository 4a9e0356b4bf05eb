// Which K-major configuration of the CUTLASS TF32 kernel a call with config -1 runs
// (cutlass_tf32_gemm.hpp), and on how many multiprocessors a kernel with work beside it runs: plain
// C++, so that the CPU tests check the rules.
#pragma once

#include "gemm/cuda/tuning_choice.hpp"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace gigacheck::cuda {

// Below this extent of C (m or q) or this depth (n) the default tile is run untimed: small products
// stay deterministic and cheap (a tuning pass costs three warmed-up timed runs of every
// configuration). Shallow products of a large C are timed: the online family's panels (depth 1024)
// are where a pingpong configuration can win.
inline constexpr std::int64_t kCutlassTuneFrom = 2048;
inline constexpr std::int64_t kCutlassTuneDepthFrom = 512;
// Another configuration replaces the default only when its best timing is this much faster, so that
// noise alone does not move the pick.
inline constexpr double kCutlassKeepDefaultWithin = 0.01;

inline bool cutlassTunesKMajor(std::int64_t m, std::int64_t n, std::int64_t q)
{
    return std::min(m, q) >= kCutlassTuneFrom && n >= kCutlassTuneDepthFrom;
}

// From this extent on (the smallest of m, n, q) a configuration whose tile scheduler swizzles wins a
// tie instead of the default: on an H200 at 16384, every process whose tuner kept the default
// (128x256 c2x1, no swizzle) ran the kernel in 104.6-105.6 % of cuBLAS TF32's time, every one that kept a
// swizzled configuration in 96.6-99.4 % (resources/results/README.md, 2026-12-03).
inline constexpr std::int64_t kCutlassPreferSwizzleFrom = 8192;

inline bool cutlassPrefersSwizzle(std::int64_t m, std::int64_t n, std::int64_t q)
{
    return std::min({m, n, q}) >= kCutlassPreferSwizzleFrom;
}

// There the unswizzled configurations are not timed at all: with the tie rule alone, a process on
// the H200 still kept the default at 16384 (its best-of-three timing more than 1 % ahead), and ran
// the kernel writing C's sums in 104.2-104.6 % of cuBLAS TF32's time, where the swizzled pick of the
// other processes ran at 98-100 %.
inline bool cutlassTimesConfig(std::int64_t m, std::int64_t n, std::int64_t q, bool swizzles)
{
    return swizzles || !cutlassPrefersSwizzle(m, n, q);
}

// ms[i]: the time of the i-th K-major configuration, entry 0 the default (<= 0: it did not run);
// swizzled[i]: whether it swizzles (empty: none is preferred). The position of the fastest, or of
// the preferred one -- the default, or with preferSwizzle the fastest swizzled one -- when that is
// within kCutlassKeepDefaultWithin of the fastest; 0 when nothing ran.
inline int keptCutlassKMajorConfig(const std::vector<double>& ms, bool preferSwizzle = false,
                                   const std::vector<bool>& swizzled = {})
{
    std::vector<bool> preferred{true};
    if (preferSwizzle && !swizzled.empty())
        preferred = swizzled;
    const int chosen = chooseConfiguration(ms, preferred, kCutlassKeepDefaultWithin);
    return chosen < 0 ? 0 : chosen;
}

// The multiprocessors a persistent kernel of the lab needs to walk C (m x q) in as few rounds of
// tiles as all `sms` walk it, in whole clusters of `clusterCtas`. The lab's tiles are 128 columns of
// C by 256 rows (the kernels compute C^T). The multiprocessors left over cost the kernel nothing
// and run work beside it from its start: at 4096^2 and 8192^2 (512 and 2048 tiles) 128 of an H200's
// 132 walk them in 4 and 16 rounds as all 132 do, and the prepared product's pass over A and B^T
// runs on the other 4 (at 16384^2, 8192 tiles, all 132 are needed).
inline int cutlassSmsKeepingRounds(std::int64_t m, std::int64_t q, int sms, int clusterCtas)
{
    const std::int64_t tiles = ((q + 127) / 128) * ((m + 255) / 256);
    if (tiles <= 0 || sms <= 0 || clusterCtas <= 0)
        return sms;
    const std::int64_t rounds = (tiles + sms - 1) / sms;
    std::int64_t need = (tiles + rounds - 1) / rounds;
    need = (need + clusterCtas - 1) / clusterCtas * clusterCtas;
    return need < sms ? int(need) : sms;
}

// Whether the prepared TF32 product takes C's checksum column by the kernel (protected_product.hpp,
// ChecksumColumnBy::Choice) on `sms` multiprocessors: B^T's checksum rows make one more tile row of
// C, which pays only where it adds no round of tiles to the kernel's walk and that walk is short --
// then the pass beside the kernel, on the multiprocessors it leaves, reads little before the kernel
// ends. Measured on an H100 (132 SMs; bench abft-overhead, "column the other way"): 2-3 points of
// overhead better at 4096 (4 rounds either way), 3 worse at 6144 (9 rounds), 6 worse at 8192 (16);
// at 2048 the extra tile row made a second round (1 -> 2) and doubled the product's time.
inline constexpr std::int64_t kKernelChecksumColumnMaxRounds = 4;

inline bool kernelChecksumColumnPaysOn(std::int64_t m, std::int64_t q, int sms)
{
    const std::int64_t tileRows = (q + 127) / 128, tileCols = (m + 255) / 256;
    if (sms <= 0 || tileRows <= 0 || tileCols <= 0)
        return false;
    const std::int64_t rounds = (tileRows * tileCols + sms - 1) / sms;
    const std::int64_t extended = ((tileRows + 1) * tileCols + sms - 1) / sms;
    return extended == rounds && rounds <= kKernelChecksumColumnMaxRounds;
}

}  // namespace gigacheck::cuda
