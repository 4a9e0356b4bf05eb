// Timing a CUTLASS kernel's configurations on the call's own shape, shared by the TF32 and 16-bit
// kernels' tuners (no CUTLASS header here).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <map>
#include <mutex>
#include <vector>

namespace gigacheck::cuda {

// Device memory freed on every path out of a tuning (null when it could not be had).
struct CutlassScratch {
    void* p = nullptr;
    explicit CutlassScratch(std::size_t bytes)
    {
        if (bytes && cudaMalloc(&p, bytes) != cudaSuccess) {
            (void)cudaGetLastError();
            p = nullptr;
        }
    }
    ~CutlassScratch()
    {
        if (p)
            cudaFree(p);
    }
    CutlassScratch(const CutlassScratch&) = delete;
    CutlassScratch& operator=(const CutlassScratch&) = delete;
};

inline constexpr int kCutlassTuneRounds = 3;

// With GIGACHECK_CUTLASS_TUNING_LOG set, one stderr line per tuning: the shape, every timed
// configuration's best time and the one kept -- how the device scripts see what a pick beat.
template <class NameOf>
void logCutlassTuning(const char* kernel, std::int64_t m, std::int64_t n, std::int64_t q, bool accumulate,
                      const std::vector<int>& candidates, const std::vector<double>& ms, int kept, NameOf nameOf)
{
    if (!std::getenv("GIGACHECK_CUTLASS_TUNING_LOG"))
        return;
    std::fprintf(stderr, "cutlass tuning: %s %lldx%lldx%lld%s:", kernel, static_cast<long long>(m),
                 static_cast<long long>(n), static_cast<long long>(q), accumulate ? " accumulating" : "");
    for (std::size_t i = 0; i < candidates.size() && i < ms.size(); ++i)
        std::fprintf(stderr, " [%s %.4f ms]", nameOf(candidates[i]), ms[i]);
    std::fprintf(stderr, " -> %s\n", nameOf(kept));
}

// Each of `count` configurations' best of kCutlassTuneRounds timed runs on s (one untimed run of
// each first: module load, shared-memory limit), the rounds interleaved so that one noisy timing
// cannot pick a slower configuration for the whole process (on an H200 the TF32 kernel ran at
// 94.6 % of cuBLAS at N = 16384 in one process and 101.5 % in the next with one timing each).
// run(i) issues configuration i on s and returns null, or why it cannot; <= 0: it did not run.
// Synchronizes s.
template <class Run>
std::vector<double> timeCutlassConfigs(int count, Run run, cudaStream_t s)
{
    std::vector<double> ms(std::size_t(count), -1.0);
    cudaEvent_t e0 = nullptr, e1 = nullptr;
    if (cudaEventCreate(&e0) != cudaSuccess || cudaEventCreate(&e1) != cudaSuccess) {
        (void)cudaGetLastError();
        if (e0)
            cudaEventDestroy(e0);
        return ms;
    }
    std::vector<bool> runs(std::size_t(count), true);
    for (int i = 0; i < count; ++i)
        runs[std::size_t(i)] = !run(i) && cudaStreamSynchronize(s) == cudaSuccess;
    for (int round = 0; round < kCutlassTuneRounds; ++round)
        for (int i = 0; i < count; ++i) {
            float t = 0;
            if (!runs[std::size_t(i)] || cudaEventRecord(e0, s) != cudaSuccess || run(i) ||
                cudaEventRecord(e1, s) != cudaSuccess || cudaEventSynchronize(e1) != cudaSuccess ||
                cudaEventElapsedTime(&t, e0, e1) != cudaSuccess)
                continue;
            double& best = ms[std::size_t(i)];
            if (best <= 0 || t < best)
                best = double(t);
        }
    (void)cudaGetLastError();  // a refused launch leaves nothing sticky; clear what it set
    cudaStreamSynchronize(s);  // before the caller frees its scratch
    cudaEventDestroy(e0);
    cudaEventDestroy(e1);
    return ms;
}

// A kernel's tuned configuration per key (device, shape, ...), kept for the process: tuned once,
// under the lock, so that two threads never time one shape at once.
template <class Key>
class CutlassPicks {
public:
    template <class Tune>
    int get(const Key& key, Tune tune)
    {
        std::lock_guard lock(mutex_);
        auto it = picks_.find(key);
        if (it == picks_.end())
            it = picks_.emplace(key, tune()).first;
        return it->second;
    }

private:
    std::mutex mutex_;
    std::map<Key, int> picks_;
};

}  // namespace gigacheck::cuda
