// A stand-alone probe (not built by CMake), kept so that anyone can rerun it on a GPU:
//   nvcc -O3 -arch=sm_90 panel_gemm_algos_probe.cu -lcublasLt -lcublas -o probe && ./probe
// Issue 9 (online ABFT, FQ = 1): the panel products alone cost +2.3 % (8192^3) and +8.0 % (16384^3)
// over one SGEMM in kernel traces (two column blocks, b = 1024; resources/results/README.md). Is
// that cuBLAS's heuristic choice for the panel shape, or every kernel cuBLAS has? For the online
// family's panel product (row-major C[m x w] += A[m x b] B[b x w], beta = 1, the engine's leading
// dimensions: rows of B and C padded to 32 past w + 2) this times cublasSgemm's pick and every
// algorithm cublasLt's heuristic offers (up to 64), each the median of 7, against one m x m x m
// SGEMM; rows: the algorithm's id, tile, stages, split-K, its TFLOP/s and the rate ratio.
#include <cublasLt.h>
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA %s line %d\n", cudaGetErrorString(e), __LINE__); exit(1); } } while (0)
#define BK(x) do { cublasStatus_t e = (x); if (e != CUBLAS_STATUS_SUCCESS) { printf("cuBLAS %d line %d\n", int(e), __LINE__); exit(1); } } while (0)

__global__ void fill(float* p, size_t n, unsigned seed)
{
    for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x)
        p[i] = float(((i + seed) * 2654435761u) % 1000) / 1000.f - 0.5f;
}

template <class F> float medianMs(F&& f, int reps = 7)
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
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}

int main()
{
    cublasHandle_t h;
    BK(cublasCreate(&h));
    cublasLtHandle_t lt;
    BK(cublasLtCreate(&lt));
    size_t wsBytes = 64 << 20;
    void* ws = nullptr;
    CK(cudaMalloc(&ws, wsBytes));
    for (int64_t m : {int64_t(8192), int64_t(16384)}) {
        const int64_t b = 1024, w = m / 2, ldw = (w + 2 + 31) / 32 * 32;
        float *A, *B, *C;
        CK(cudaMalloc(&A, sizeof(float) * m * m));
        CK(cudaMalloc(&B, sizeof(float) * m * std::max(m, ldw)));
        CK(cudaMalloc(&C, sizeof(float) * m * std::max(m, ldw)));
        fill<<<1024, 256>>>(A, size_t(m * m), 1);
        fill<<<1024, 256>>>(B, size_t(m * std::max(m, ldw)), 2);
        fill<<<1024, 256>>>(C, size_t(m * std::max(m, ldw)), 3);
        const float one = 1.f, zero = 0.f;
        // Row-major C = A B is column-major C^T = B^T A^T: cublas(N, N, cols, rows, depth, B, A, C).
        const float full = medianMs([&] { BK(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, int(m), int(m), int(m), &one, B, int(m), A, int(m), &zero, C, int(m))); });
        const double fullTf = 2.0 * m * m * m / full / 1e9;
        printf("N = %lld: one SGEMM %lld^3 %.3f ms, %.1f TFLOP/s\n", (long long)m, (long long)m, full, fullTf);
        const double panelFlop = 2.0 * m * b * w;
        const float pick = medianMs([&] { BK(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, int(w), int(m), int(b), &one, B, int(ldw), A, int(m), &one, C, int(ldw))); });
        printf("  panel %lld x %lld x %lld (ldb = ldc = %lld, beta = 1), cublasSgemm's pick: %.3f ms, %.1f TFLOP/s (%.3f of the SGEMM's rate)\n",
               (long long)m, (long long)b, (long long)w, (long long)ldw, pick, panelFlop / pick / 1e9, panelFlop / pick / 1e9 / fullTf);
        cublasLtMatmulDesc_t op;
        BK(cublasLtMatmulDescCreate(&op, CUBLAS_COMPUTE_32F, CUDA_R_32F));
        cublasLtMatrixLayout_t lb, la, lc;
        BK(cublasLtMatrixLayoutCreate(&lb, CUDA_R_32F, w, b, ldw));
        BK(cublasLtMatrixLayoutCreate(&la, CUDA_R_32F, b, m, m));
        BK(cublasLtMatrixLayoutCreate(&lc, CUDA_R_32F, w, m, ldw));
        cublasLtMatmulPreference_t pref;
        BK(cublasLtMatmulPreferenceCreate(&pref));
        BK(cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &wsBytes, sizeof(wsBytes)));
        std::vector<cublasLtMatmulHeuristicResult_t> res(64);
        int found = 0;
        BK(cublasLtMatmulAlgoGetHeuristic(lt, op, lb, la, lc, lc, pref, int(res.size()), res.data(), &found));
        struct Row { int id, tile, stages, splitK; float ms; };
        std::vector<Row> rows;
        for (int r = 0; r < found; ++r) {
            if (res[r].state != CUBLAS_STATUS_SUCCESS)
                continue;
            int id = 0, tile = 0, stages = 0, splitK = 0;
            size_t got = 0;
            cublasLtMatmulAlgoConfigGetAttribute(&res[r].algo, CUBLASLT_ALGO_CONFIG_ID, &id, sizeof(id), &got);
            cublasLtMatmulAlgoConfigGetAttribute(&res[r].algo, CUBLASLT_ALGO_CONFIG_TILE_ID, &tile, sizeof(tile), &got);
            cublasLtMatmulAlgoConfigGetAttribute(&res[r].algo, CUBLASLT_ALGO_CONFIG_STAGES_ID, &stages, sizeof(stages), &got);
            cublasLtMatmulAlgoConfigGetAttribute(&res[r].algo, CUBLASLT_ALGO_CONFIG_SPLITK_NUM, &splitK, sizeof(splitK), &got);
            const float ms = medianMs([&] {
                BK(cublasLtMatmul(lt, op, &one, B, lb, A, la, &one, C, lc, C, lc, &res[r].algo, ws, wsBytes, 0));
            });
            rows.push_back({id, tile, stages, splitK, ms});
        }
        printf("  cublasLt heuristic: %d algorithms (heuristic order; rate ratio against the %lld^3 SGEMM)\n", found, (long long)m);
        for (std::size_t r = 0; r < rows.size(); ++r)
            printf("    #%-2zu algo %3d tile %3d stages %3d splitK %2d: %.3f ms, %.1f TFLOP/s, %.3f\n", r, rows[r].id, rows[r].tile,
                   rows[r].stages, rows[r].splitK, rows[r].ms, panelFlop / rows[r].ms / 1e9, panelFlop / rows[r].ms / 1e9 / fullTf);
        cublasLtMatmulPreferenceDestroy(pref);
        cublasLtMatrixLayoutDestroy(lb);
        cublasLtMatrixLayoutDestroy(la);
        cublasLtMatrixLayoutDestroy(lc);
        cublasLtMatmulDescDestroy(op);
        CK(cudaFree(A));
        CK(cudaFree(B));
        CK(cudaFree(C));
    }
    return 0;
}
