// Shared by the stand-alone probes that include it (fused_add_check_probe.cu, panel_stagger_probe.cu):
// error checks, a deterministic fill, a median timer, and cuBLASLt's algorithm 55 (the engine's panel
// GEMMs) with a chosen tile, for row-major C (+)= A B. Header-only: each probe still builds with one
// nvcc line from this folder.
#pragma once

#include <cublasLt.h>
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CK(x) do { cudaError_t err_ = (x); if (err_ != cudaSuccess) { printf("CUDA %s line %d\n", cudaGetErrorString(err_), __LINE__); exit(1); } } while (0)
#define BK(x) do { cublasStatus_t st_ = (x); if (st_ != CUBLAS_STATUS_SUCCESS) { printf("cuBLAS %d line %d\n", int(st_), __LINE__); exit(1); } } while (0)

__global__ void fill(float* p, size_t n, unsigned seed)
{
    for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x)
        p[i] = float(((i + seed) * 2654435761u) % 1000) / 1000.f - 0.5f;
}

// Median of reps runs of f (after one untimed), timed by events on the legacy stream.
template <class F> float medianMs(F&& f, int reps)
{
    cudaEvent_t a, b;
    CK(cudaEventCreate(&a));
    CK(cudaEventCreate(&b));
    f();
    CK(cudaDeviceSynchronize());
    std::vector<float> t;
    for (int r = 0; r < reps; ++r) {
        CK(cudaEventRecord(a));
        f();
        CK(cudaEventRecord(b));
        CK(cudaEventSynchronize(b));
        float ms = 0;
        CK(cudaEventElapsedTime(&ms, a, b));
        t.push_back(ms);
    }
    CK(cudaEventDestroy(a));
    CK(cudaEventDestroy(b));
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}

struct Lt {
    cublasLtHandle_t h;
    cublasLtMatmulDesc_t op;
    cublasLtMatrixLayout_t lb, la, lc;
    cublasLtMatmulAlgo_t algo;
};

// C[m x w] (+)= A[m x k] B[k x w], row-major, as column-major B^T A^T; algorithm 55 with `tile`.
inline Lt makeLt(cublasLtHandle_t h, int64_t m, int64_t k, int64_t w, int64_t lda, int64_t ldb, int64_t ldc,
                 uint32_t tile, uint32_t swizzle = 1)
{
    Lt l;
    l.h = h;
    BK(cublasLtMatmulDescCreate(&l.op, CUBLAS_COMPUTE_32F, CUDA_R_32F));
    BK(cublasLtMatrixLayoutCreate(&l.lb, CUDA_R_32F, w, k, ldb));
    BK(cublasLtMatrixLayoutCreate(&l.la, CUDA_R_32F, k, m, lda));
    BK(cublasLtMatrixLayoutCreate(&l.lc, CUDA_R_32F, w, m, ldc));
    BK(cublasLtMatmulAlgoInit(h, CUBLAS_COMPUTE_32F, CUDA_R_32F, CUDA_R_32F, CUDA_R_32F, CUDA_R_32F, CUDA_R_32F, 55, &l.algo));
    const uint32_t stages = 31, custom = 0;
    const int32_t splitK = 1;
    cublasLtMatmulAlgoConfigSetAttribute(&l.algo, CUBLASLT_ALGO_CONFIG_TILE_ID, &tile, sizeof(tile));
    cublasLtMatmulAlgoConfigSetAttribute(&l.algo, CUBLASLT_ALGO_CONFIG_STAGES_ID, &stages, sizeof(stages));
    cublasLtMatmulAlgoConfigSetAttribute(&l.algo, CUBLASLT_ALGO_CONFIG_SPLITK_NUM, &splitK, sizeof(splitK));
    cublasLtMatmulAlgoConfigSetAttribute(&l.algo, CUBLASLT_ALGO_CONFIG_CTA_SWIZZLING, &swizzle, sizeof(swizzle));
    cublasLtMatmulAlgoConfigSetAttribute(&l.algo, CUBLASLT_ALGO_CONFIG_CUSTOM_OPTION, &custom, sizeof(custom));
    cublasLtMatmulHeuristicResult_t check{};
    BK(cublasLtMatmulAlgoCheck(h, l.op, l.lb, l.la, l.lc, l.lc, &l.algo, &check));
    return l;
}

inline void ltMatmul(const Lt& l, const float* a, const float* b, float* c, float beta, cudaStream_t s)
{
    const float one = 1.f;
    BK(cublasLtMatmul(l.h, l.op, &one, b, l.lb, a, l.la, &beta, c, l.lc, c, l.lc, &l.algo, nullptr, 0, s));
}
