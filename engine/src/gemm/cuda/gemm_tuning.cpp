// See gemm_tuning.hpp. Row-major C[m x q] = A[m x n] B[n x q] is column-major C^T = B^T A^T, as in
// gemm.cu: cuBLASLt's "A" is our B (q x n, ldb) and its "B" our A (n x m, lda).
#include "gemm/cuda/gemm_tuning.hpp"

#include "gemm/cuda/tuning_choice.hpp"

#include "core/bench_filter.hpp"
#include "core/cuda/check.hpp"
#include "core/cuda/event_timing.hpp"

#include <cublasLt.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>
#include <tuple>
#include <vector>

namespace gigacheck::cuda {

namespace {

using Index = std::int64_t;

constexpr double kMinGain = 0.01;  // keep cuBLAS's pick unless a configuration is 1 % faster
constexpr int kCustomOptions = 4;  // custom options 0..3 (cuBLASLt lists up to 7 for some algorithms)

using Key = std::tuple<int, Index, Index, Index, Index, Index, Index, bool, int>;

struct Tuned {
    GemmTuning report;
    bool useLt = false;
    cublasLtHandle_t lt = nullptr;
    cublasLtMatmulDesc_t desc = nullptr;
    cublasLtMatrixLayout_t a = nullptr, b = nullptr, c = nullptr;  // cuBLASLt's A (our B), B (our A), C
    cublasLtMatmulAlgo_t algo{};
    ~Tuned()
    {
        for (cublasLtMatrixLayout_t l : {a, b, c})
            if (l)
                cublasLtMatrixLayoutDestroy(l);
        if (desc)
            cublasLtMatmulDescDestroy(desc);
    }
};

std::mutex gMutex;
std::map<Key, std::unique_ptr<Tuned>> gTuned;
std::map<int, cublasLtHandle_t> gHandles;  // one per device, kept for the process

int currentDevice()
{
    int d = 0;
    CUDA_CHECK(cudaGetDevice(&d));
    return d;
}

// The operands' common address alignment (up to 256 bytes): a panel at an odd column offset is
// less aligned than the first, and cuBLASLt's kernels have minimum alignments of their own.
int alignmentOf(const GemmCall& g)
{
    const auto bits = reinterpret_cast<std::uintptr_t>(g.a) | reinterpret_cast<std::uintptr_t>(g.b) |
                      reinterpret_cast<std::uintptr_t>(g.c) | std::uintptr_t(256);
    return int(bits & (~bits + 1));  // the lowest set bit
}

Key keyOf(const GemmCall& g, int device)
{
    return {device, g.m, g.n, g.q, g.lda, g.ldb, g.ldc, g.accumulate, alignmentOf(g)};
}

bool tunable(const GemmCall& g)
{
    return g.variant == GemmVariant::Cublas && g.precision == Precision::F32 && g.m > 0 && g.n > 0 && g.q > 0 &&
           !std::getenv("GIGACHECK_NO_GEMM_TUNING");
}

cublasLtHandle_t ltHandle(int device)
{
    auto it = gHandles.find(device);
    if (it != gHandles.end())
        return it->second;
    cublasLtHandle_t h = nullptr;
    CUBLAS_CHECK(cublasLtCreate(&h));
    gHandles[device] = h;
    return h;
}

cublasStatus_t runLt(const Tuned& t, const cublasLtMatmulAlgo_t& algo, const GemmCall& g, cudaStream_t s)
{
    const float alpha = 1.0f, beta = g.accumulate ? 1.0f : 0.0f;
    return cublasLtMatmul(t.lt, t.desc, &alpha, g.b, t.a, g.a, t.b, &beta, g.c, t.c, g.c, t.c, &algo, nullptr, 0, s);
}

template <class T> std::vector<T> capList(const cublasLtMatmulAlgo_t& algo, cublasLtMatmulAlgoCapAttributes_t attr)
{
    std::size_t bytes = 0;
    if (cublasLtMatmulAlgoCapGetAttribute(&algo, attr, nullptr, 0, &bytes) != CUBLAS_STATUS_SUCCESS || bytes < sizeof(T))
        return {};
    std::vector<T> v(bytes / sizeof(T));
    cublasLtMatmulAlgoCapGetAttribute(&algo, attr, v.data(), bytes, &bytes);
    return v;
}

std::int32_t capInt(const cublasLtMatmulAlgo_t& algo, cublasLtMatmulAlgoCapAttributes_t attr)
{
    std::int32_t v = 0;
    std::size_t got = 0;
    cublasLtMatmulAlgoCapGetAttribute(&algo, attr, &v, sizeof(v), &got);
    return v;
}

struct Candidate {
    cublasLtMatmulAlgo_t algo;
    std::string name;
    double ms = 0;
    std::uint32_t tile = CUBLASLT_MATMUL_TILE_UNDEFINED;
};

// GIGACHECK_GEMM_TUNING_TILES=20,24: only these cuBLASLt tile ids (measurements of what a tile
// choice does beside the checks; unset: every tile).
bool tileAllowed(std::uint32_t tile)
{
    const std::vector<std::string> tiles = bench::envList("GIGACHECK_GEMM_TUNING_TILES");
    return tiles.empty() || std::find(tiles.begin(), tiles.end(), std::to_string(tile)) != tiles.end();
}

// Every configuration cuBLASLt accepts for the shape without workspace and without split-K.
std::vector<Candidate> candidates(const Tuned& t)
{
    constexpr cudaDataType_t f = CUDA_R_32F;
    int ids[128];
    int count = 0;
    if (cublasLtMatmulAlgoGetIds(t.lt, CUBLAS_COMPUTE_32F, f, f, f, f, f, 128, ids, &count) != CUBLAS_STATUS_SUCCESS)
        return {};
    std::vector<Candidate> out;
    for (int i = 0; i < count; ++i) {
        cublasLtMatmulAlgo_t algo;
        if (cublasLtMatmulAlgoInit(t.lt, CUBLAS_COMPUTE_32F, f, f, f, f, f, ids[i], &algo) != CUBLAS_STATUS_SUCCESS)
            continue;
        std::vector<std::uint32_t> tiles = capList<std::uint32_t>(algo, CUBLASLT_ALGO_CAP_TILE_IDS);
        std::vector<std::uint32_t> stages = capList<std::uint32_t>(algo, CUBLASLT_ALGO_CAP_STAGES_IDS);
        if (tiles.empty())
            tiles.push_back(CUBLASLT_MATMUL_TILE_UNDEFINED);
        if (stages.empty())
            stages.push_back(CUBLASLT_MATMUL_STAGES_UNDEFINED);
        const std::uint32_t swizzles = capInt(algo, CUBLASLT_ALGO_CAP_CTA_SWIZZLING_SUPPORT) ? 2 : 1;
        const std::uint32_t options = std::uint32_t(std::clamp(capInt(algo, CUBLASLT_ALGO_CAP_CUSTOM_OPTION_MAX) + 1, 1, kCustomOptions));
        for (std::uint32_t tile : tiles) {
            if (!tileAllowed(tile))
                continue;
            for (std::uint32_t stage : stages)
                for (std::uint32_t swizzle = 0; swizzle < swizzles; ++swizzle)
                    for (std::uint32_t option = 0; option < options; ++option) {
                        Candidate c{algo, {}, 0, tile};
                        const std::int32_t splitK = 1;
                        cublasLtMatmulAlgoConfigSetAttribute(&c.algo, CUBLASLT_ALGO_CONFIG_TILE_ID, &tile, sizeof(tile));
                        cublasLtMatmulAlgoConfigSetAttribute(&c.algo, CUBLASLT_ALGO_CONFIG_STAGES_ID, &stage, sizeof(stage));
                        cublasLtMatmulAlgoConfigSetAttribute(&c.algo, CUBLASLT_ALGO_CONFIG_SPLITK_NUM, &splitK, sizeof(splitK));
                        cublasLtMatmulAlgoConfigSetAttribute(&c.algo, CUBLASLT_ALGO_CONFIG_CTA_SWIZZLING, &swizzle, sizeof(swizzle));
                        cublasLtMatmulAlgoConfigSetAttribute(&c.algo, CUBLASLT_ALGO_CONFIG_CUSTOM_OPTION, &option, sizeof(option));
                        cublasLtMatmulHeuristicResult_t check{};
                        if (cublasLtMatmulAlgoCheck(t.lt, t.desc, t.a, t.b, t.c, t.c, &c.algo, &check) != CUBLAS_STATUS_SUCCESS ||
                            check.workspaceSize != 0)
                            continue;
                        c.name = "cuBLASLt algo " + std::to_string(ids[i]) + ", tile " + std::to_string(tile) + ", stages " +
                                 std::to_string(stage) + ", swizzle " + std::to_string(swizzle) + ", option " +
                                 std::to_string(option);
                        out.push_back(c);
                    }
        }
    }
    return out;
}

// Median ms of the configuration, or a negative number when cuBLASLt refuses to run it.
double timeCandidate(const Tuned& t, const Candidate& c, const GemmCall& g, cudaStream_t s, int reps)
{
    bool ran = true;
    const double ms = timeMs(s, reps, [&] {
        if (ran && runLt(t, c.algo, g, s) != CUBLAS_STATUS_SUCCESS)
            ran = false;
    });
    return ran ? ms : -1.0;
}

void describe(Tuned& t, const GemmCall& g, int device)
{
    t.lt = ltHandle(device);
    CUBLAS_CHECK(cublasLtMatmulDescCreate(&t.desc, CUBLAS_COMPUTE_32F, CUDA_R_32F));
    CUBLAS_CHECK(cublasLtMatrixLayoutCreate(&t.a, CUDA_R_32F, std::uint64_t(g.q), std::uint64_t(g.n), g.ldb));
    CUBLAS_CHECK(cublasLtMatrixLayoutCreate(&t.b, CUDA_R_32F, std::uint64_t(g.n), std::uint64_t(g.m), g.lda));
    CUBLAS_CHECK(cublasLtMatrixLayoutCreate(&t.c, CUDA_R_32F, std::uint64_t(g.q), std::uint64_t(g.m), g.ldc));
}

std::unique_ptr<Tuned> tune(const GemmCall& g, cublasHandle_t handle, cudaStream_t s, int device, const TuningOptions& o);

// A product too long to time every configuration on (e.g. online's merged steps at 16384: 40-80 ms
// each) borrows the configuration kept for the same product at a depth whose pick takes half the
// limit (tuned here if it was not yet: on the call's own buffers, which the caller allows to be
// overwritten), and keeps it only if it is faster than cuBLAS's pick on the real depth too: the
// tile and stage choice follows the output's extent, not the depth. Called with gMutex held.
void borrowFromShorterDepth(Tuned& t, const GemmCall& g, cublasHandle_t handle, cudaStream_t s, int device,
                            const TuningOptions& o)
{
    GemmCall shorter = g;
    shorter.n = std::max<Index>(1, Index(double(g.n) * o.longestMs / (2.0 * t.report.libraryMs)) / 256 * 256);
    if (shorter.n >= g.n)
        return;
    auto& donor = gTuned[keyOf(shorter, device)];
    if (!donor)
        donor = tune(shorter, handle, s, device, o);
    if (!donor->useLt)
        return;
    describe(t, g, device);
    const Candidate c{donor->algo, donor->report.kept, 0};
    cublasLtMatmulHeuristicResult_t check{};
    if (cublasLtMatmulAlgoCheck(t.lt, t.desc, t.a, t.b, t.c, t.c, &c.algo, &check) != CUBLAS_STATUS_SUCCESS ||
        check.workspaceSize != 0)
        return;
    const double ms = timeCandidate(t, c, g, s, 3);
    (void)cudaGetLastError();
    t.report.configurations = 1;
    if (ms > 0 && (o.keepFastest || ms < t.report.libraryMs * (1.0 - kMinGain))) {
        t.useLt = true;
        t.algo = c.algo;
        t.report.bestMs = ms;
        t.report.kept = c.name + " (kept at depth " + std::to_string(shorter.n) + ")";
    }
}

std::unique_ptr<Tuned> tune(const GemmCall& g, cublasHandle_t handle, cudaStream_t s, int device, const TuningOptions& o)
{
    auto t = std::make_unique<Tuned>();
    t->report.tried = true;
    t->report.kept = "cuBLAS's pick";
    GemmCall library = g;
    library.tuned = false;
    const auto libraryMs = [&] { return timeMs(s, 3, [&] { gemm(library, handle, s); }); };
    t->report.libraryMs = t->report.bestMs = libraryMs();
    if (t->report.libraryMs > o.longestMs) {
        borrowFromShorterDepth(*t, g, handle, s, device, o);
        CUDA_CHECK(cudaStreamSynchronize(s));
        return t;
    }
    describe(*t, g, device);

    std::vector<Candidate> all = candidates(*t);
    for (Candidate& c : all)
        c.ms = timeCandidate(*t, c, g, s, 1);
    (void)cudaGetLastError();  // a refused configuration leaves nothing sticky; clear what it set
    all.erase(std::remove_if(all.begin(), all.end(), [](const Candidate& c) { return c.ms < 0; }), all.end());
    t->report.configurations = int(all.size());
    const auto isPreferred = [&](const Candidate& c) {
        return std::find(o.preferredTiles.begin(), o.preferredTiles.end(), c.tile) != o.preferredTiles.end();
    };
    std::sort(all.begin(), all.end(), [](const Candidate& x, const Candidate& y) { return x.ms < y.ms; });
    // The finals: the 3 fastest, and the fastest of a preferred tile if it is not among them.
    const auto preferredFirst = std::find_if(all.begin(), all.end(), isPreferred);
    if (preferredFirst != all.end() && preferredFirst - all.begin() >= 3)
        std::iter_swap(all.begin() + 3, preferredFirst);
    all.resize(std::min<std::size_t>(all.size(), 4));
    std::vector<double> ms;
    std::vector<bool> preferred;
    for (Candidate& c : all) {
        c.ms = timeCandidate(*t, c, g, s, 3);
        ms.push_back(c.ms);
        preferred.push_back(isPreferred(c));
    }
    t->report.libraryMs = std::min(t->report.libraryMs, libraryMs());  // the pick's best of two medians
    t->report.bestMs = t->report.libraryMs;
    const int chosen = chooseConfiguration(ms, preferred, o.preferWithin);
    const int fastest = chooseConfiguration(ms, {}, 0.0);
    if (chosen >= 0 && (o.keepFastest || all[std::size_t(chosen)].ms < t->report.libraryMs * (1.0 - kMinGain))) {
        const Candidate& c = all[std::size_t(chosen)];
        t->useLt = true;
        t->algo = c.algo;
        t->report.bestMs = c.ms;
        t->report.kept = c.name;
        if (chosen != fastest) {
            char note[96];
            std::snprintf(note, sizeof note, " (preferred tile; %.3f ms for the fastest alone)", all[std::size_t(fastest)].ms);
            t->report.kept += note;
        }
    }
    CUDA_CHECK(cudaStreamSynchronize(s));
    return t;
}

}  // namespace

GemmTuning tuneGemm(const GemmCall& g, cublasHandle_t handle, cudaStream_t s, const TuningOptions& options)
{
    if (!tunable(g))
        return {};
    const int device = currentDevice();
    std::lock_guard lock(gMutex);
    auto& slot = gTuned[keyOf(g, device)];
    if (!slot)
        slot = tune(g, handle, s, device, options);
    return slot->report;
}

bool runTunedGemm(const GemmCall& g, cudaStream_t s)
{
    if (!tunable(g))
        return false;
    const Tuned* t = nullptr;
    {
        std::lock_guard lock(gMutex);
        auto it = gTuned.find(keyOf(g, currentDevice()));
        if (it == gTuned.end() || !it->second->useLt)
            return false;
        t = it->second.get();
    }
    // Refused after all (it was tuned on these extents and this alignment): cuBLAS's pick instead.
    return runLt(*t, t->algo, g, s) == CUBLAS_STATUS_SUCCESS;
}

void forgetGemmTunings()
{
    std::lock_guard lock(gMutex);
    gTuned.clear();
    gHandles.clear();  // invalid after a reset; not destroyed
}

}  // namespace gigacheck::cuda
