// A stand-alone probe (not built by CMake), kept so that anyone can rerun it on a GPU:
//   nvcc -O3 -arch=sm_90 panel_gemm_search_probe.cu -lcublasLt -lcublas -o probe && ./probe
// Issue 9 (online ABFT, FQ = 1): the panel products cost +2.3 % (8192^3) and +8.0 % (16384^3) over
// one SGEMM, and cuBLASLt's heuristic offered only 4 algorithms for the panel shape
// (panel_gemm_algos_probe). This probe searches every configuration cuBLASLt accepts for the
// online family's panel product (row-major C[m x w] += A[m x b] B[b x w], beta = 1, b = 1024,
// w = m / 2, rows of B and C padded to 32 past w + 2): every algorithm id, tile, stage count,
// CTA swizzle and custom option (split-K 1), timed (median of 3, the best 8 again with 9) against
// one m x m x m cublasSgemm. Then the engine's pattern: two column blocks on two streams, m / b
// steps each, with cublasSgemm's pick and with the search's best, against the same SGEMM.
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

template <class T> std::vector<T> capList(const cublasLtMatmulAlgo_t& algo, cublasLtMatmulAlgoCapAttributes_t attr)
{
    size_t bytes = 0;
    if (cublasLtMatmulAlgoCapGetAttribute(&algo, attr, nullptr, 0, &bytes) != CUBLAS_STATUS_SUCCESS || bytes == 0)
        return {};
    std::vector<T> v(bytes / sizeof(T));
    cublasLtMatmulAlgoCapGetAttribute(&algo, attr, v.data(), bytes, &bytes);
    return v;
}

template <class T> T capValue(const cublasLtMatmulAlgo_t& algo, cublasLtMatmulAlgoCapAttributes_t attr)
{
    T v{};
    size_t got = 0;
    cublasLtMatmulAlgoCapGetAttribute(&algo, attr, &v, sizeof(v), &got);
    return v;
}

struct Config {
    cublasLtMatmulAlgo_t algo;
    int id, tile, stages, swizzle, custom;
    float ms;
};

int main()
{
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    printf("device: %s, %d SMs\n", prop.name, prop.multiProcessorCount);
    cublasHandle_t h;
    BK(cublasCreate(&h));
    cublasLtHandle_t lt;
    BK(cublasLtCreate(&lt));
    size_t wsBytes = 64 << 20;
    void* ws = nullptr;
    void* ws1 = nullptr;  // the second stream's, in the two-block pattern
    CK(cudaMalloc(&ws, wsBytes));
    CK(cudaMalloc(&ws1, wsBytes));
    for (int64_t m : {int64_t(8192), int64_t(16384)}) {
        const int64_t b = 1024, w = m / 2, ldw = (w + 2 + 31) / 32 * 32;
        float *A, *B, *C, *C1;
        CK(cudaMalloc(&A, sizeof(float) * m * m));
        CK(cudaMalloc(&B, sizeof(float) * m * std::max(m, ldw)));
        CK(cudaMalloc(&C, sizeof(float) * m * std::max(m, ldw)));
        CK(cudaMalloc(&C1, sizeof(float) * m * ldw));
        fill<<<1024, 256>>>(A, size_t(m * m), 1);
        fill<<<1024, 256>>>(B, size_t(m * std::max(m, ldw)), 2);
        fill<<<1024, 256>>>(C, size_t(m * std::max(m, ldw)), 3);
        fill<<<1024, 256>>>(C1, size_t(m * ldw), 4);
        const float one = 1.f, zero = 0.f;
        auto fullGemm = [&] { BK(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, int(m), int(m), int(m), &one, B, int(m), A, int(m), &zero, C, int(m))); };
        const float full = medianMs(fullGemm, 7);
        const double fullTf = 2.0 * m * m * m / full / 1e9;
        printf("\nN = %lld: one SGEMM %lld^3 %.3f ms, %.1f TFLOP/s\n", (long long)m, (long long)m, full, fullTf);
        const double panelFlop = 2.0 * m * b * w;
        const float pick = medianMs([&] { BK(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, int(w), int(m), int(b), &one, B, int(ldw), A, int(m), &one, C, int(ldw))); }, 7);
        printf("  panel %lld x %lld x %lld, cublasSgemm's pick: %.3f ms, %.3f of the SGEMM's rate\n", (long long)m, (long long)b,
               (long long)w, pick, panelFlop / pick / 1e9 / fullTf);

        cublasLtMatmulDesc_t op;
        BK(cublasLtMatmulDescCreate(&op, CUBLAS_COMPUTE_32F, CUDA_R_32F));
        cublasLtMatrixLayout_t lb, la, lc;
        BK(cublasLtMatrixLayoutCreate(&lb, CUDA_R_32F, w, b, ldw));
        BK(cublasLtMatrixLayoutCreate(&la, CUDA_R_32F, b, m, m));
        BK(cublasLtMatrixLayoutCreate(&lc, CUDA_R_32F, w, m, ldw));
        int ids[256];
        int nIds = 0;
        BK(cublasLtMatmulAlgoGetIds(lt, CUBLAS_COMPUTE_32F, CUDA_R_32F, CUDA_R_32F, CUDA_R_32F, CUDA_R_32F, CUDA_R_32F, 256, ids, &nIds));
        printf("  cuBLASLt lists %d algorithm ids for FP32 / compute 32F\n", nIds);
        std::vector<Config> found;
        int tried = 0, accepted = 0;
        for (int a = 0; a < nIds; ++a) {
            cublasLtMatmulAlgo_t algo;
            if (cublasLtMatmulAlgoInit(lt, CUBLAS_COMPUTE_32F, CUDA_R_32F, CUDA_R_32F, CUDA_R_32F, CUDA_R_32F, CUDA_R_32F, ids[a], &algo)
                != CUBLAS_STATUS_SUCCESS)
                continue;
            auto tiles = capList<uint32_t>(algo, CUBLASLT_ALGO_CAP_TILE_IDS);
            if (tiles.empty())
                tiles.push_back(CUBLASLT_MATMUL_TILE_UNDEFINED);
            auto stages = capList<uint32_t>(algo, CUBLASLT_ALGO_CAP_STAGES_IDS);
            if (stages.empty())
                stages.push_back(CUBLASLT_MATMUL_STAGES_UNDEFINED);
            const int swizzleMax = capValue<int32_t>(algo, CUBLASLT_ALGO_CAP_CTA_SWIZZLING_SUPPORT) ? 1 : 0;
            const int customMax = std::min(capValue<int32_t>(algo, CUBLASLT_ALGO_CAP_CUSTOM_OPTION_MAX), 3);
            for (uint32_t tile : tiles)
                for (uint32_t st : stages)
                    for (uint32_t sw = 0; sw <= uint32_t(swizzleMax); ++sw)
                        for (uint32_t cu = 0; cu <= uint32_t(customMax); ++cu) {
                            cublasLtMatmulAlgo_t cfg = algo;
                            const int32_t splitK = 1;
                            cublasLtMatmulAlgoConfigSetAttribute(&cfg, CUBLASLT_ALGO_CONFIG_TILE_ID, &tile, sizeof(tile));
                            cublasLtMatmulAlgoConfigSetAttribute(&cfg, CUBLASLT_ALGO_CONFIG_STAGES_ID, &st, sizeof(st));
                            cublasLtMatmulAlgoConfigSetAttribute(&cfg, CUBLASLT_ALGO_CONFIG_SPLITK_NUM, &splitK, sizeof(splitK));
                            cublasLtMatmulAlgoConfigSetAttribute(&cfg, CUBLASLT_ALGO_CONFIG_CTA_SWIZZLING, &sw, sizeof(sw));
                            cublasLtMatmulAlgoConfigSetAttribute(&cfg, CUBLASLT_ALGO_CONFIG_CUSTOM_OPTION, &cu, sizeof(cu));
                            cublasLtMatmulHeuristicResult_t check{};
                            ++tried;
                            if (cublasLtMatmulAlgoCheck(lt, op, lb, la, lc, lc, &cfg, &check) != CUBLAS_STATUS_SUCCESS
                                || check.workspaceSize > wsBytes)
                                continue;
                            ++accepted;
                            if (accepted > 600)
                                continue;
                            cudaGetLastError();
                            bool ok = true;
                            const float ms = medianMs([&] {
                                if (cublasLtMatmul(lt, op, &one, B, lb, A, la, &one, C, lc, C, lc, &cfg, ws, wsBytes, 0) != CUBLAS_STATUS_SUCCESS)
                                    ok = false;
                            }, 3);
                            if (ok)
                                found.push_back({cfg, ids[a], int(tile), int(st), int(sw), int(cu), ms});
                        }
        }
        std::sort(found.begin(), found.end(), [](const Config& x, const Config& y) { return x.ms < y.ms; });
        printf("  searched %d configurations, %d accepted, %zu timed; the best 8 (median of 9):\n", tried, accepted, found.size());
        for (std::size_t r = 0; r < std::min<std::size_t>(8, found.size()); ++r) {
            Config& c = found[r];
            c.ms = medianMs([&] { BK(cublasLtMatmul(lt, op, &one, B, lb, A, la, &one, C, lc, C, lc, &c.algo, ws, wsBytes, 0)); }, 9);
            printf("    algo %3d tile %3d stages %3d swizzle %d custom %d: %.3f ms, %.3f of the SGEMM's rate\n", c.id, c.tile, c.stages,
                   c.swizzle, c.custom, c.ms, panelFlop / c.ms / 1e9 / fullTf);
        }
        std::sort(found.begin(), found.begin() + std::min<std::size_t>(8, found.size()),
                  [](const Config& x, const Config& y) { return x.ms < y.ms; });

        // The engine's pattern: two column blocks (C and C1), each on its own stream, m / b steps.
        cudaStream_t s[2];
        CK(cudaStreamCreateWithFlags(&s[0], cudaStreamNonBlocking));
        CK(cudaStreamCreateWithFlags(&s[1], cudaStreamNonBlocking));
        cublasHandle_t hs[2];
        for (int k = 0; k < 2; ++k) {
            BK(cublasCreate(&hs[k]));
            BK(cublasSetStream(hs[k], s[k]));
        }
        cudaEvent_t fork, joined;
        CK(cudaEventCreateWithFlags(&fork, cudaEventDisableTiming));
        CK(cudaEventCreateWithFlags(&joined, cudaEventDisableTiming));
        const int steps = int(m / b);
        auto pattern = [&](const Config* lt_cfg) {
            CK(cudaEventRecord(fork, 0));
            for (int k = 0; k < 2; ++k)
                CK(cudaStreamWaitEvent(s[k], fork));
            for (int j = 0; j < steps; ++j)
                for (int k = 0; k < 2; ++k) {
                    float* cb = k == 0 ? C : C1;
                    const float* bp = B + size_t(j) * b * ldw;
                    const float* ap = A + size_t(j) * b;
                    if (lt_cfg)
                        BK(cublasLtMatmul(lt, op, &one, bp, lb, ap, la, &one, cb, lc, cb, lc, &lt_cfg->algo, k == 0 ? ws : ws1, wsBytes, s[k]));
                    else
                        BK(cublasSgemm(hs[k], CUBLAS_OP_N, CUBLAS_OP_N, int(w), int(m), int(b), &one, bp, int(ldw), ap, int(m), &one, cb, int(ldw)));
                }
            for (int k = 0; k < 2; ++k) {
                CK(cudaEventRecord(joined, s[k]));
                CK(cudaStreamWaitEvent(0, joined));
            }
        };
        for (int round = 0; round < 2; ++round) {
            const float ref = medianMs(fullGemm, 5);
            const float p0 = medianMs([&] { pattern(nullptr); }, 5);
            printf("  two column blocks, %d steps each, cublasSgemm's pick: %.3f ms, +%.2f %% over the SGEMM (%.3f ms)\n", steps, p0,
                   100.0 * (p0 / ref - 1.0), ref);
            for (std::size_t r = 0; r < std::min<std::size_t>(3, found.size()); ++r) {
                {
                    const float p1 = medianMs([&] { pattern(&found[r]); }, 5);
                    printf("  two column blocks with search #%zu (algo %d tile %d stages %d swizzle %d custom %d): %.3f ms, +%.2f %%\n", r,
                           found[r].id, found[r].tile, found[r].stages, found[r].swizzle, found[r].custom, p1, 100.0 * (p1 / ref - 1.0));
                }
            }
        }
        for (int k = 0; k < 2; ++k) {
            cublasDestroy(hs[k]);
            cudaStreamDestroy(s[k]);
        }
        cublasLtMatrixLayoutDestroy(lb);
        cublasLtMatrixLayoutDestroy(la);
        cublasLtMatrixLayoutDestroy(lc);
        cublasLtMatmulDescDestroy(op);
        CK(cudaFree(A));
        CK(cudaFree(B));
        CK(cudaFree(C));
        CK(cudaFree(C1));
    }
    return 0;
}
