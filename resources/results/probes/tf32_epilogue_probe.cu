// A stand-alone probe (not built by CMake), kept so that anyone can rerun it on a GPU:
//   nvcc -O3 -arch=sm_90 tf32_epilogue_probe.cu -lcublasLt -lcublas -o probe && ./probe
// Issue 13 ("TF32 ABFT at every size"): can cuBLAS itself fold a checksum of C into the TF32
// GEMM that writes C? cuBLASLt's only epilogue that reduces the output D is the bias gradient of
// DRELU_BGRAD / DGELU_BGRAD (sum of D over its columns, i.e. a checksum vector of C); BGRADA /
// BGRADB reduce the inputs over k, which no ABFT checksum needs. DRELU_BGRAD multiplies D by a
// ReLU mask first: with an all-ones bit mask (1 bit per element of D, 1/32 of C's bytes) D stays
// A*B and the bias gradient is the checksum. This probe asks the heuristic for such an algorithm
// with TF32 compute and FP32 data, times it against the plain TF32 GEMM (the same cuBLASLt call
// without epilogue, and cublasSgemm in TF32 mode) and checks the vector against an FP64 sum.
#include <cublasLt.h>
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA %s line %d\n", cudaGetErrorString(e), __LINE__); exit(1); } } while (0)
#define LT(x) do { cublasStatus_t s = (x); if (s != CUBLAS_STATUS_SUCCESS) { printf("cuBLAS status %d line %d\n", int(s), __LINE__); exit(1); } } while (0)

__global__ void fill(float* p, size_t n, unsigned seed)
{
    for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
        unsigned x = unsigned(i) * 2654435761u ^ seed;
        x ^= x >> 13; x *= 0x5bd1e995u; x ^= x >> 15;
        p[i] = float(x & 0xffff) / 65536.0f - 0.5f;
    }
}

// Column-major D (m x n): the FP64 sum of each row over its n columns.
__global__ void rowSums(const float* d, int m, int n, double* out)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= m) return;
    double s = 0;
    for (int j = 0; j < n; ++j) s += d[size_t(j) * m + i];
    out[i] = s;
}

struct Timer {
    cudaEvent_t a, b;
    Timer() { CK(cudaEventCreate(&a)); CK(cudaEventCreate(&b)); }
    template <class F> float median(F f, int reps = 9)
    {
        f();
        CK(cudaDeviceSynchronize());
        std::vector<float> t;
        for (int r = 0; r < reps; ++r) {
            CK(cudaEventRecord(a));
            f();
            CK(cudaEventRecord(b));
            CK(cudaEventSynchronize(b));
            float ms;
            CK(cudaEventElapsedTime(&ms, a, b));
            t.push_back(ms);
        }
        std::sort(t.begin(), t.end());
        return t[t.size() / 2];
    }
};

int main()
{
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    printf("device %s, cuBLASLt %zu\n", prop.name, cublasLtGetVersion());
    cublasLtHandle_t lt;
    LT(cublasLtCreate(&lt));
    cublasHandle_t h;
    LT(cublasCreate(&h));
    LT(cublasSetMathMode(h, CUBLAS_TF32_TENSOR_OP_MATH));
    const size_t workspaceBytes = 64 << 20;
    void* workspace;
    CK(cudaMalloc(&workspace, workspaceBytes));
    Timer timer;
    for (int n : {4096, 8192, 16384}) {
        float *a, *b, *d, *bgrad;
        unsigned char* mask;
        double* ref;
        const size_t nn = size_t(n) * n;
        CK(cudaMalloc(&a, nn * 4)); CK(cudaMalloc(&b, nn * 4)); CK(cudaMalloc(&d, nn * 4));
        CK(cudaMalloc(&bgrad, n * 4)); CK(cudaMalloc(&ref, n * 8));
        CK(cudaMalloc(&mask, nn / 8));
        CK(cudaMemset(mask, 0xff, nn / 8));
        fill<<<1024, 256>>>(a, nn, 1); fill<<<1024, 256>>>(b, nn, 2);
        const float one = 1, zero = 0;
        const float sgemm = timer.median([&] { LT(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, a, n, b, n, &zero, d, n)); });

        auto trial = [&](cublasLtEpilogue_t epi, const char* name, bool withWorkspace) {
            cublasLtMatmulDesc_t desc;
            LT(cublasLtMatmulDescCreate(&desc, CUBLAS_COMPUTE_32F_FAST_TF32, CUDA_R_32F));
            LT(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_EPILOGUE, &epi, sizeof epi));
            if (epi != CUBLASLT_EPILOGUE_DEFAULT) {
                LT(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &bgrad, sizeof bgrad));
            }
            if (epi == CUBLASLT_EPILOGUE_DRELU_BGRAD) {
                const int64_t ld = n;  // elements; divisible by 128
                LT(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_POINTER, &mask, sizeof mask));
                LT(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_LD, &ld, sizeof ld));
            }
            cublasLtMatrixLayout_t la, lb, ld;
            LT(cublasLtMatrixLayoutCreate(&la, CUDA_R_32F, n, n, n));
            LT(cublasLtMatrixLayoutCreate(&lb, CUDA_R_32F, n, n, n));
            LT(cublasLtMatrixLayoutCreate(&ld, CUDA_R_32F, n, n, n));
            cublasLtMatmulPreference_t pref;
            LT(cublasLtMatmulPreferenceCreate(&pref));
            const size_t ws = withWorkspace ? workspaceBytes : 0;
            LT(cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &ws, sizeof ws));
            cublasLtMatmulHeuristicResult_t res[8];
            int found = 0;
            const cublasStatus_t st = cublasLtMatmulAlgoGetHeuristic(lt, desc, la, lb, ld, ld, pref, 8, res, &found);
            if (st != CUBLAS_STATUS_SUCCESS || found == 0) {
                printf("N=%5d %-14s workspace %-3s: no algorithm (status %d, found %d)\n", n, name, withWorkspace ? "yes" : "no", int(st), found);
            } else {
                float best = 1e30f;
                int bestI = 0;
                for (int i = 0; i < found; ++i) {
                    const float t = timer.median([&] {
                        LT(cublasLtMatmul(lt, desc, &one, a, la, b, lb, &zero, d, ld, d, ld, &res[i].algo, workspace, ws, 0));
                    }, 5);
                    if (t < best) { best = t; bestI = i; }
                }
                double err = -1;
                if (epi == CUBLASLT_EPILOGUE_DRELU_BGRAD) {
                    LT(cublasLtMatmul(lt, desc, &one, a, la, b, lb, &zero, d, ld, d, ld, &res[bestI].algo, workspace, ws, 0));
                    rowSums<<<(n + 255) / 256, 256>>>(d, n, n, ref);
                    std::vector<float> got(n);
                    std::vector<double> want(n);
                    CK(cudaMemcpy(got.data(), bgrad, n * 4, cudaMemcpyDeviceToHost));
                    CK(cudaMemcpy(want.data(), ref, n * 8, cudaMemcpyDeviceToHost));
                    err = 0;
                    double scale = 0;
                    for (int i = 0; i < n; ++i) { err = std::max(err, std::fabs(got[i] - want[i])); scale = std::max(scale, std::fabs(want[i])); }
                    err /= scale;
                }
                printf("N=%5d %-14s workspace %-3s: %d algorithms, best %.3f ms = %.2f%% of cublasSgemm TF32 (%.3f ms)%s",
                       n, name, withWorkspace ? "yes" : "no", found, best, 100.0 * best / sgemm, sgemm,
                       err >= 0 ? "" : "\n");
                if (err >= 0) printf("; checksum vs FP64 sum of D: max rel %.2e\n", err);
            }
            cublasLtMatmulPreferenceDestroy(pref);
            cublasLtMatrixLayoutDestroy(la); cublasLtMatrixLayoutDestroy(lb); cublasLtMatrixLayoutDestroy(ld);
            cublasLtMatmulDescDestroy(desc);
        };
        for (bool w : {false, true}) {
            trial(CUBLASLT_EPILOGUE_DEFAULT, "plain", w);
            trial(CUBLASLT_EPILOGUE_DRELU_BGRAD, "drelu_bgrad", w);
            trial(CUBLASLT_EPILOGUE_BGRADA, "bgrada", w);
        }
        cudaFree(a); cudaFree(b); cudaFree(d); cudaFree(bgrad); cudaFree(ref); cudaFree(mask);
    }
    return 0;
}
