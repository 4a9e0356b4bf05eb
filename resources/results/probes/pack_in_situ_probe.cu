// A stand-alone probe (not built by CMake), kept so that anyone can rerun it on a GPU:
//   nvcc -O3 -arch=sm_90 -std=c++20 -Iengine/include -Iengine/src resources/results/probes/pack_in_situ_probe.cu \
//     engine/src/families/blocked_gemm/staging/pack_rows.cpp -lcublas -o /tmp/pp && /tmp/pp
// Issue 13 (predicted within 10 %): calibratePacking (7021471) packs a sample of the run's loads
// alone on the host and scales the table's pack rate by that against the table's pattern. On the
// H200 it found 14.5-17.5 GB/s (x0.46-0.63) while the same runs packed at 20-24.5 GB/s
// (GIGACHECK_STAGING_STATS), so packed predictions came out 16-68 % slow. Which condition of the
// calibration makes its packing slower than the run's? The same loads (16384^2 FP32 host matrix,
// pinned with cudaHostAlloc as the engine does) packed with the engine's packRows:
//   A  the calibration today: each load cut to 1/15 of 256 MiB, one contiguous pageable scratch;
//   B  the same sample into 3 pinned slots, reused (the run's HostStaging: kSlots of the largest);
//   C  the same sample into 3 pageable slots, reused;
//   D  the whole loads into 3 pinned slots (the run without its copies);
//   E  D with each slot copied to the device after packing and an SGEMM beside (the run);
//   R  measureHostPackGBs, the table's pattern.
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include "families/blocked_gemm/staging/pack_rows.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define CK(x) do { cudaError_t err_ = (x); if (err_ != cudaSuccess) { printf("CUDA %s line %d\n", cudaGetErrorString(err_), __LINE__); exit(1); } } while (0)

using gigacheck::PackJob;
using gigacheck::packRows;

struct Load { const char* src; long rows, rowBytes; };

static double now()
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

static const long N = 16384, pitch = N * 4;

// The loads of a blocked schedule with C cut mb x nb and the common dimension qb, A then B per step.
static std::vector<Load> scheduleLoads(const char* a, const char* b, int mb, int nb, int qb)
{
    std::vector<Load> out;
    const long bm = (N + mb - 1) / mb, bn = (N + nb - 1) / nb, bq = (N + qb - 1) / qb;
    for (int i = 0; i < mb; ++i)
        for (int j = 0; j < nb; ++j)
            for (int k = 0; k < qb; ++k) {
                out.push_back({a + (i * bm) * pitch + k * bq * 4, std::min(bm, N - i * bm), std::min(bq, N - k * bq) * 4});
                out.push_back({b + (k * bq) * pitch + j * bn * 4, std::min(bq, N - k * bq), std::min(bn, N - j * bn) * 4});
            }
    return out;
}

// calibratePacking's sample: up to 15 distinct loads evenly spaced, each cut to 256 MiB / sampled.
static std::vector<Load> sampleOf(std::vector<Load> loads)
{
    std::vector<Load> distinct;
    for (const Load& l : loads) {
        bool seen = false;
        for (const Load& d : distinct)
            seen = seen || (d.src == l.src && d.rows == l.rows && d.rowBytes == l.rowBytes);
        if (!seen)
            distinct.push_back(l);
    }
    const size_t stride = (distinct.size() + 14) / 15, sampled = (distinct.size() + stride - 1) / stride;
    const double per = double(256 << 20) / double(sampled);
    std::vector<Load> out;
    for (size_t i = 0; i < distinct.size(); i += stride) {
        Load l = distinct[i];
        l.rows = std::clamp(long(per / double(l.rowBytes)), 1L, l.rows);
        out.push_back(l);
    }
    return out;
}

static double bytesOf(const std::vector<Load>& loads)
{
    double s = 0;
    for (const Load& l : loads)
        s += double(l.rows) * double(l.rowBytes);
    return s;
}

// Packs the loads in order, each into slots[i % slots] (or one after another in `contiguous`); GB/s
// of the faster of two passes.
static double packRate(const std::vector<Load>& loads, std::vector<char*> slots, char* contiguous)
{
    double best = 0;
    for (int pass = 0; pass < 2; ++pass) {
        const double t0 = now();
        char* next = contiguous;
        for (size_t i = 0; i < loads.size(); ++i) {
            char* dst = contiguous ? next : slots[i % slots.size()];
            packRows({loads[i].src, dst, loads[i].rows, loads[i].rowBytes, pitch, loads[i].rowBytes});
            next += loads[i].rows * loads[i].rowBytes;
        }
        best = std::max(best, bytesOf(loads) / (now() - t0) / 1e9);
    }
    return best;
}

// E: the run's pipeline: pack into slot k once its previous copy is done, copy it, an SGEMM beside.
static double packRateInRun(const std::vector<Load>& loads, std::vector<char*> slots, cublasHandle_t h, float* g,
                            char* device)
{
    cudaStream_t copy, gemm;
    CK(cudaStreamCreateWithFlags(&copy, cudaStreamNonBlocking));
    CK(cudaStreamCreateWithFlags(&gemm, cudaStreamNonBlocking));
    cublasSetStream(h, gemm);
    std::vector<cudaEvent_t> copied(slots.size());
    for (auto& ev : copied)
        CK(cudaEventCreateWithFlags(&ev, cudaEventDisableTiming));
    const float one = 1, zero = 0;
    const int n = 8192;
    double packSeconds = 0;
    for (size_t i = 0; i < loads.size(); ++i) {
        if (i % 2 == 0)  // a product per A/B pair, as in s1-s4
            cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, g, n, g + size_t(n) * n, n, &zero, g + 2 * size_t(n) * n, n);
        const size_t k = i % slots.size();
        CK(cudaEventSynchronize(copied[k]));
        const double t0 = now();
        packRows({loads[i].src, slots[k], loads[i].rows, loads[i].rowBytes, pitch, loads[i].rowBytes});
        packSeconds += now() - t0;
        CK(cudaMemcpyAsync(device, slots[k], size_t(loads[i].rows * loads[i].rowBytes), cudaMemcpyHostToDevice, copy));
        CK(cudaEventRecord(copied[k], copy));
    }
    CK(cudaDeviceSynchronize());
    for (auto& e : copied)
        cudaEventDestroy(e);
    cudaStreamDestroy(copy);
    cudaStreamDestroy(gemm);
    return bytesOf(loads) / packSeconds / 1e9;
}

int main()
{
    char *a = nullptr, *b = nullptr;
    CK(cudaHostAlloc(&a, size_t(N) * pitch, cudaHostAllocDefault));
    CK(cudaHostAlloc(&b, size_t(N) * pitch, cudaHostAllocDefault));
    for (long i = 0; i < N * N; ++i) {
        reinterpret_cast<float*>(a)[i] = float(i % 1000) * 1e-3f;
        reinterpret_cast<float*>(b)[i] = float(i % 997) * 1e-3f;
    }
    cublasHandle_t h;
    cublasCreate(&h);
    float* g = nullptr;
    CK(cudaMalloc(&g, 3 * size_t(8192) * 8192 * 4));
    CK(cudaMemset(g, 0, 3 * size_t(8192) * 8192 * 4));
    char* device = nullptr;
    CK(cudaMalloc(&device, size_t(256) << 20));

    printf("R  the table's pattern (measureHostPackGBs): %.1f GB/s\n", gigacheck::measureHostPackGBs());
    struct Case { const char* name; int mb, nb, qb; };
    const Case cases[] = {{"s1 3x5x3", 3, 5, 3}, {"s2 3x10x3", 3, 10, 3}, {"s3 5x5x5", 5, 5, 5}};
    printf("%-12s %-44s %8s\n", "schedule", "case", "GB/s");
    for (const Case& c : cases) {
        const std::vector<Load> loads = scheduleLoads(a, b, c.mb, c.nb, c.qb);
        const std::vector<Load> sample = sampleOf(loads);
        long largest = 0, largestSample = 0;
        for (const Load& l : loads)
            largest = std::max(largest, l.rows * l.rowBytes);
        for (const Load& l : sample)
            largestSample = std::max(largestSample, l.rows * l.rowBytes);
        std::vector<char> scratch(size_t(bytesOf(sample)));
        std::vector<char*> pinnedSlots(3), pageSlots(3);
        std::vector<std::vector<char>> pageable(3, std::vector<char>(size_t(largestSample)));
        for (int k = 0; k < 3; ++k) {
            CK(cudaHostAlloc(&pinnedSlots[size_t(k)], size_t(largest), cudaHostAllocDefault));
            std::memset(pinnedSlots[size_t(k)], 0, size_t(largest));
            pageSlots[size_t(k)] = pageable[size_t(k)].data();
        }
        printf("%-12s %-44s %8.1f\n", c.name, "A sample, contiguous pageable (today)", packRate(sample, {}, scratch.data()));
        printf("%-12s %-44s %8.1f\n", c.name, "B sample, 3 pinned slots", packRate(sample, pinnedSlots, nullptr));
        printf("%-12s %-44s %8.1f\n", c.name, "C sample, 3 pageable slots", packRate(sample, pageSlots, nullptr));
        printf("%-12s %-44s %8.1f\n", c.name, "A' sample, contiguous pageable (again)", packRate(sample, {}, scratch.data()));
        printf("%-12s %-44s %8.1f\n", c.name, "D whole loads, 3 pinned slots", packRate(loads, pinnedSlots, nullptr));
        printf("%-12s %-44s %8.1f\n", c.name, "E whole loads, pinned, copies + SGEMM beside", packRateInRun(loads, pinnedSlots, h, g, device));
        for (char* p : pinnedSlots)
            cudaFreeHost(p);
    }
    printf("R  the table's pattern again: %.1f GB/s\n", gigacheck::measureHostPackGBs());
    printf("%s\n", cudaGetErrorString(cudaGetLastError()));
    return 0;
}
