// How many multiprocessors the CUTLASS TF32 kernel's persistent grid needs, and how many it can leave
// to other work without taking longer: plain C++, so that the CPU tests check the rule.
//
// The persistent scheduler runs a grid of CTAs that walk the output tiles in turn; a CTA's share is
// ceil(tiles / ctas) tiles, so a grid smaller by a few CTAs often finishes in the same number of
// tile times (2048 tiles: 16 on 132 SMs as on 128). The SMs it leaves idle can run a memory-bound
// pass beside it for free (abft/cuda/prepared_operands.hpp: the checksum products).
#pragma once

#include <algorithm>
#include <cstdint>

namespace gigacheck::cuda {

// The CTAs CUTLASS's Sm90 persistent scheduler launches on `sms` multiprocessors for clusters of
// `clusterSize` CTAs (get_max_cta_occupancy in tile_scheduler_params.h: a cluster must fit in one
// GPC, assumed 18 SMs as on GH100, so each full GPC loses 18 mod clusterSize SMs).
inline int persistentCtas(int sms, int clusterSize)
{
    constexpr int kSmsPerGpc = 18;
    if (sms <= 0 || clusterSize <= 0)
        return 0;
    if (clusterSize == 1)
        return sms;
    const int fullGpcs = sms < kSmsPerGpc ? 1 : sms / kSmsPerGpc;
    const int residual = sms < kSmsPerGpc ? 0 : sms % kSmsPerGpc;
    const int ctas = fullGpcs * (kSmsPerGpc - kSmsPerGpc % clusterSize) + residual - residual % clusterSize;
    return std::min(sms, ctas);
}

// The tiles the scheduler walks for an extentM x extentN output in tileM x tileN tiles, clusters of
// clusterM x clusterN and a swizzle of at most maxSwizzle: both tile counts rounded up to whole
// clusters and swizzle strips, as PersistentTileSchedulerSm90Params does (the padding tiles take
// their turns too).
inline std::int64_t scheduledTiles(std::int64_t extentM, std::int64_t extentN, int tileM, int tileN, int clusterM,
                                   int clusterN, int maxSwizzle)
{
    if (extentM <= 0 || extentN <= 0)
        return 0;
    auto roundUp = [](std::int64_t x, std::int64_t to) { return (x + to - 1) / to * to; };
    const std::int64_t blocksM = roundUp((extentM + tileM - 1) / tileM, clusterM);
    const std::int64_t blocksN = roundUp((extentN + tileN - 1) / tileN, clusterN);
    const std::int64_t shorter = std::min(blocksM, blocksN);
    const int logSwizzle = maxSwizzle >= 8 && shorter >= 6 ? 3
                           : maxSwizzle >= 4 && shorter >= 3 ? 2
                           : maxSwizzle >= 2 && shorter >= 2 ? 1
                                                             : 0;
    return roundUp(blocksM, std::int64_t(clusterM) << logSwizzle) * roundUp(blocksN, std::int64_t(clusterN) << logSwizzle);
}

struct SparingGrid {
    int smCount = 0;  // the scheduler's multiprocessor count (KernelHardwareInfo::sm_count) to pass
    int ctas = 0;     // the CTAs it then launches
    int spare = 0;    // the device's multiprocessors none of them occupies
};

// The smallest sm_count whose grid runs `tiles` output tiles in as many turns as the whole device
// (deviceSms) does, so that the kernel takes as long; spare = deviceSms - its CTAs.
inline SparingGrid gridSparingSms(std::int64_t tiles, int deviceSms, int clusterSize)
{
    SparingGrid g{deviceSms, persistentCtas(deviceSms, clusterSize), 0};
    if (tiles <= 0 || g.ctas <= 0) {
        g.spare = deviceSms - g.ctas;
        return g;
    }
    auto turns = [&](int ctas) { return (tiles + ctas - 1) / ctas; };
    const std::int64_t fullTurns = turns(g.ctas);
    for (int sms = deviceSms - 1; sms > 0; --sms) {
        const int ctas = persistentCtas(sms, clusterSize);
        if (ctas <= 0 || turns(ctas) != fullTurns)
            break;
        g = SparingGrid{sms, ctas, 0};
    }
    g.spare = deviceSms - g.ctas;
    return g;
}

}  // namespace gigacheck::cuda
