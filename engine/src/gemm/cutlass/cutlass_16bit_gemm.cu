// The CUTLASS 16-bit kernels' configurations and the choice among them (cutlass_16bit_gemm.hpp).
// No CUTLASS header here: the kernels are instantiated in cutlass_bf16_tiles.cu and
// cutlass_f16_tiles.cu (cutlass_16bit_kernel.cuh); this file lists, dispatches and times them.
#include "gemm/cutlass/cutlass_16bit_gemm.hpp"

#include "gemm/cutlass/cutlass_16bit_runners.hpp"
#include "gemm/cutlass/cutlass_tuning.hpp"
#include "gemm/cutlass/kmajor_choice.hpp"

#include <tuple>
#include <vector>

namespace gigacheck::cuda {

namespace {

using namespace cutlass_16bit;

struct Config16 {
    const char* name;
    Runner16 bf16;
    Runner16 f16;
    int maxSwizzle = 1;
    int clusterCtas = 2;
};

// The first entry is the default (the one BF16 tile the online family's panels ran before there
// was a choice); the swizzled ones reuse an instantiation, free to build.
const Config16 kConfigs[] = {
    {"128x256x64 c2x1", &runBf16c2x1, &runF16c2x1},
    {"128x256x64 c2x1 swizzle 2", &runBf16c2x1, &runF16c2x1, 2},
    {"128x256x64 c2x1 swizzle 4", &runBf16c2x1, &runF16c2x1, 4},
    {"128x256x64 c2x1 swizzle 8", &runBf16c2x1, &runF16c2x1, 8},
    {"128x256x64 c1x2", &runBf16c1x2, &runF16c1x2},
    {"128x256x64 c1x2 swizzle 4", &runBf16c1x2, &runF16c1x2, 4},
};
constexpr int kConfigCount = int(sizeof(kConfigs) / sizeof(kConfigs[0]));

const char* runConfig(int config, const Cutlass16BitCall& call, int device, int sms, cudaStream_t s)
{
    const Config16& c = kConfigs[config];
    const Runner16 run = call.type == Cutlass16BitType::F16 ? c.f16 : c.bf16;
    const int used = call.leavesIdleSms ? cutlassSmsKeepingRounds(call.m, call.q, sms, c.clusterCtas) : sms;
    return run(call, CutlassLaunch{device, used, c.maxSwizzle}, s);
}

// Times every configuration on the call's shape into scratch sums (and a scratch C when the call
// accumulates: its C is an input); the kept one's index, the default when scratch cannot be had.
int tune(const Cutlass16BitCall& call, int device, int sms, cudaStream_t s)
{
    Cutlass16BitCall trial = call;
    trial.afterLaunch = nullptr;  // the caller's work follows its own kernel only
    trial.fault = {};              // nor a fault asked of it
    CutlassScratch sums(call.rowSums || call.colSums ? std::size_t(call.m + call.q) * sizeof(double) : 0);
    CutlassScratch c(call.accumulate ? std::size_t(call.m) * std::size_t(call.ldc) * sizeof(float) : 0);
    if (((call.rowSums || call.colSums) && !sums.p) || (call.accumulate && !c.p))
        return 0;
    if (call.rowSums)
        trial.rowSums = static_cast<double*>(sums.p);
    if (call.colSums)
        trial.colSums = static_cast<double*>(sums.p) + call.m;
    if (call.accumulate)
        trial.c = static_cast<float*>(c.p);
    // From 8192 in every extent the swizzled ones only, as for TF32 (kmajor_choice.hpp): on the H200
    // the unswizzled BF16 pick ran at 97.3 / 98.7 % of cuBLAS at 16384, the swizzled ones at 100.5-102 %.
    std::vector<int> candidates;
    for (int i = 0; i < kConfigCount; ++i)
        if (cutlassTimesConfig(call.m, call.n, call.q, kConfigs[i].maxSwizzle > 1))
            candidates.push_back(i);
    const std::vector<double> ms = timeCutlassConfigs(
        int(candidates.size()), [&](int i) { return runConfig(candidates[std::size_t(i)], trial, device, sms, s); }, s);
    const int kept = candidates[std::size_t(keptCutlassKMajorConfig(ms))];
    logCutlassTuning(call.type == Cutlass16BitType::F16 ? "FP16" : "BF16", call.m, call.n, call.q, call.accumulate,
                     candidates, ms, kept, [](int i) { return kConfigs[i].name; });
    return kept;
}

CutlassPicks<std::tuple<int, Cutlass16BitType, std::int64_t, std::int64_t, std::int64_t, bool>> gPicks;

int pick(const Cutlass16BitCall& call, int device, int sms, cudaStream_t s)
{
    if (!cutlassTunesKMajor(call.m, call.n, call.q))
        return 0;
    return gPicks.get(std::make_tuple(device, call.type, call.m, call.n, call.q, call.accumulate),
                      [&] { return tune(call, device, sms, s); });
}

// Null when the call can run here (device, sms set), else why not.
const char* checkCall(const Cutlass16BitCall& call, int& device, int& sms)
{
    static const CutlassDeviceRefusals why{
        "CUTLASS 16-bit GEMM: no current CUDA device",
        "CUTLASS 16-bit GEMM: needs a GPU of compute capability 9.0 (Hopper: H100, H200); the kernel is built for "
        "sm_90a only",
        "CUTLASS 16-bit GEMM: an extent beyond 2^31",
        "CUTLASS 16-bit GEMM: n, q and the leading dimensions must be whole 16 bytes and the matrices 16-byte aligned"};
    return cutlassCallRefusal(why, call.m, call.n, call.q, cutlass16BitFits(call), device, sms);
}

}  // namespace

bool cutlass16BitRuns()
{
    int device = 0;
    return cudaGetDevice(&device) == cudaSuccess && cutlassHopperSmCount(device) > 0;
}

const char* cutlass16BitGemm(const Cutlass16BitCall& call, cudaStream_t s)
{
    if (call.config < -1 || call.config >= kConfigCount)
        return "CUTLASS 16-bit GEMM: no such tile configuration";
    if (call.m <= 0 || call.q <= 0)
        return nullptr;
    int device = 0, sms = 0;
    if (const char* why = checkCall(call, device, sms))
        return why;
    return runConfig(call.config < 0 ? pick(call, device, sms, s) : call.config, call, device, sms, s);
}

int cutlass16BitPick(const Cutlass16BitCall& call, cudaStream_t s)
{
    int device = 0, sms = 0;
    if (call.m <= 0 || call.q <= 0 || checkCall(call, device, sms))
        return -1;
    return pick(call, device, sms, s);
}

int cutlass16BitConfigCount() { return kConfigCount; }

const char* cutlass16BitConfigName(int config)
{
    return config >= 0 && config < kConfigCount ? kConfigs[config].name : "";
}

}  // namespace gigacheck::cuda
