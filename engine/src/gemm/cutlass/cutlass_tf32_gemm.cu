// The CUTLASS TF32 kernels' configurations and the choice among them (see cutlass_tf32_gemm.hpp).
// No CUTLASS header here: the kernels are instantiated in cutlass_tf32_*_tiles.cu
// (cutlass_tf32_kernel.cuh); this file only lists, dispatches and times them.
#include "gemm/cutlass/cutlass_tf32_gemm.hpp"

#include "gemm/cutlass/cutlass_tf32_runners.hpp"
#include "gemm/cutlass/cutlass_tuning.hpp"
#include "gemm/cutlass/kmajor_choice.hpp"

#include <tuple>
#include <vector>

namespace gigacheck::cuda {

namespace {

using namespace cutlass_tf32;

struct Config {
    const char* name;
    Runner bAsItLies;    // B N-major, through registers; null: not built for it
    Runner bTransposed;  // B^T, both operands K-major; null: not built for it
    int maxSwizzle = 1;
    int clusterCtas = 2;
};

// The first entry is the default. The K-major entries are what a bTransposed call with config -1
// chooses from (cutlassTf32KMajorPick); the swizzled ones reuse an instantiation, free to build.
const Config kConfigs[] = {
    // The first sweep (SwapAB formulation) had 128x256 c2x1 fastest; with K-major operands too (the
    // probe beside, 4 shapes and pingpong: pingpong's 64x256 tiles ran at 47-60 % of cuBLAS, and a
    // pingpong warp group cannot hold a 128x256 accumulator). Pingpong 128x128 (clusters 1x1, 2x1,
    // 1x2, swizzle 4) lost the tuner's timing on the online family's panel product too (16384 x 1024 x
    // 16384 accumulating into C, H200): the 128x256 c2x1 swizzle 8 tile was kept.
    {"128x256x32 c2x1", &run128x256c2x1, &run128x256c2x1KMajor},
    {"128x256x32 c2x1 swizzle 2", nullptr, &run128x256c2x1KMajor, 2},
    {"128x256x32 c2x1 swizzle 4", nullptr, &run128x256c2x1KMajor, 4},
    {"128x256x32 c2x1 swizzle 8", nullptr, &run128x256c2x1KMajor, 8},
    {"128x256x32 c1x2", nullptr, &run128x256c1x2KMajor},
    {"128x256x32 c1x2 swizzle 4", nullptr, &run128x256c1x2KMajor, 4},
    {"128x256x32 c2x2", nullptr, &run128x256c2x2KMajor, 1, 4},
    {"128x256x32 c2x2 swizzle 4", nullptr, &run128x256c2x2KMajor, 4, 4},
#ifdef GIGACHECK_CUTLASS_TILE_SWEEP
    {"128x256x32 c1x1", &run128x256c1x1, nullptr, 1, 1},
    {"256x128x32 c1x2", &run256x128c1x2, nullptr},
    {"128x128x32 c2x1", &run128x128c2x1, nullptr},
#endif
};
constexpr int kConfigCount = int(sizeof(kConfigs) / sizeof(kConfigs[0]));

const char* runConfig(int config, const CutlassTf32Call& call, int device, int sms, cudaStream_t s)
{
    const Config& c = kConfigs[config];
    const Runner run = call.bTransposed ? c.bTransposed : c.bAsItLies;
    if (!run)
        return call.bTransposed ? "CUTLASS TF32 GEMM: this configuration is built for B as it lies only"
                                : "CUTLASS TF32 GEMM: this configuration is built for B^T (bTransposed) only";
    const int used = call.leavesIdleSms ? cutlassSmsKeepingRounds(call.m, call.q, sms, c.clusterCtas) : sms;
    return run(call, CutlassLaunch{device, used, c.maxSwizzle}, s);
}

// Times every K-major configuration on the call's shape (timeCutlassConfigs), into scratch sums (and
// a scratch C when the call accumulates: its C is an input), and returns the kept one's index. The
// default when scratch cannot be had.
int tuneKMajor(const CutlassTf32Call& call, int device, int sms, cudaStream_t s)
{
    std::vector<int> candidates;
    for (int i = 0; i < kConfigCount; ++i)
        if (kConfigs[i].bTransposed && cutlassTimesConfig(call.m, call.n, call.q, kConfigs[i].maxSwizzle > 1))
            candidates.push_back(i);
    CutlassTf32Call trial = call;
    trial.afterLaunch = nullptr;  // the caller's work follows its own kernel only
    trial.fault = {};              // nor a fault asked of it
    CutlassScratch sums(call.rowSums || call.colSums ? std::size_t(call.m + call.q) * sizeof(double) : 0);
    CutlassScratch c(call.accumulate ? std::size_t(call.m) * std::size_t(call.ldc) * sizeof(float) : 0);
    if ((call.rowSums || call.colSums) && !sums.p)
        return 0;
    if (call.accumulate && !c.p)
        return 0;
    if (call.rowSums)
        trial.rowSums = static_cast<double*>(sums.p);
    if (call.colSums)
        trial.colSums = static_cast<double*>(sums.p) + call.m;
    if (call.accumulate)
        trial.c = static_cast<float*>(c.p);
    const std::vector<double> ms = timeCutlassConfigs(
        int(candidates.size()),
        [&](int i) { return runConfig(candidates[std::size_t(i)], trial, device, sms, s); }, s);
    std::vector<bool> swizzled;
    for (const int c : candidates)
        swizzled.push_back(kConfigs[c].maxSwizzle > 1);
    const int kept =
        candidates[std::size_t(keptCutlassKMajorConfig(ms, cutlassPrefersSwizzle(call.m, call.n, call.q), swizzled))];
    logCutlassTuning("TF32", call.m, call.n, call.q, call.accumulate, candidates, ms, kept,
                     [](int i) { return kConfigs[i].name; });
    return kept;
}

// The K-major pick per device, shape and whether C is accumulated into (reading C moves the pick:
// the online family's panel products), kept for the process.
CutlassPicks<std::tuple<int, std::int64_t, std::int64_t, std::int64_t, bool>> gPicks;

int kMajorPick(const CutlassTf32Call& call, int device, int sms, cudaStream_t s)
{
    if (!cutlassTunesKMajor(call.m, call.n, call.q))
        return 0;
    return gPicks.get(std::make_tuple(device, call.m, call.n, call.q, call.accumulate),
                      [&] { return tuneKMajor(call, device, sms, s); });
}

// Null when the call can run here (device, sms set), else why not.
const char* checkCall(const CutlassTf32Call& call, int& device, int& sms)
{
    static const CutlassDeviceRefusals why{
        "CUTLASS TF32 GEMM: no current CUDA device",
        "CUTLASS TF32 GEMM: needs a GPU of compute capability 9.0 (Hopper: H100, H200); the kernel is built for "
        "sm_90a only",
        "CUTLASS TF32 GEMM: an extent beyond 2^31",
        "CUTLASS TF32 GEMM: the inner dimension, C's columns and the leading dimensions must be multiples of 4 and the "
        "matrices 16-byte aligned"};
    return cutlassCallRefusal(why, call.m, call.n, call.q, cutlassTf32Fits(call), device, sms);
}

}  // namespace

const char* cutlassTf32Gemm(const CutlassTf32Call& call, cudaStream_t s)
{
    if (call.config < -1 || call.config >= kConfigCount)
        return "CUTLASS TF32 GEMM: no such tile configuration";
    if (call.m <= 0 || call.q <= 0)
        return nullptr;
    int device = 0, sms = 0;
    if (const char* why = checkCall(call, device, sms))
        return why;
    int config = call.config;
    if (config < 0)
        config = call.bTransposed ? kMajorPick(call, device, sms, s) : 0;
    return runConfig(config, call, device, sms, s);
}

int cutlassTf32KMajorPick(const CutlassTf32Call& call, cudaStream_t s)
{
    int device = 0, sms = 0;
    if (call.m <= 0 || call.q <= 0 || checkCall(call, device, sms))
        return -1;
    return call.bTransposed ? kMajorPick(call, device, sms, s) : 0;  // B as it lies: the default
}

int cutlassTf32ConfigCount() { return kConfigCount; }

const char* cutlassTf32ConfigName(int config)
{
    return config >= 0 && config < kConfigCount ? kConfigs[config].name : "";
}

bool cutlassTf32ConfigRuns(int config, bool bTransposed)
{
    if (config < 0 || config >= kConfigCount)
        return false;
    return (bTransposed ? kConfigs[config].bTransposed : kConfigs[config].bAsItLies) != nullptr;
}

}  // namespace gigacheck::cuda
