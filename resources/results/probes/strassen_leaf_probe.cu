// Issue 10: why a Strassen leaf GEMM in place (a quadrant of a 16384^2 matrix, ld 16384, beta = 1)
// runs slower than the same GEMM on its own (ld = its size, beta = 0), and whether another
// cuBLASLt algorithm (no workspace) runs it faster. Every time a median of 5 in this process.
// nvcc -std=c++20 -O2 -arch=sm_90 strassen_leaf_probe.cu -lcublas -lcublasLt
#include <cublasLt.h>
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CK(x) do { auto e_ = (x); if (int(e_) != 0) { std::printf("error %d at line %d\n", int(e_), __LINE__); std::exit(1); } } while (0)

template <class T> __global__ void fillKernel(T* p, size_t count, unsigned seed)
{
    for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += size_t(gridDim.x) * blockDim.x) {
        unsigned x = unsigned(i) * 2654435761u ^ seed;
        x ^= x >> 13; x *= 0x5bd1e995u; x ^= x >> 15;
        p[i] = T(double(x) / 2147483648.0 - 1.0);
    }
}

template <class F> double medianMs(F f, int reps = 5)
{
    cudaEvent_t a, b;
    cudaEventCreate(&a); cudaEventCreate(&b);
    f();
    cudaDeviceSynchronize();
    std::vector<float> t;
    for (int r = 0; r < reps; ++r) {
        cudaEventRecord(a); f(); cudaEventRecord(b); cudaEventSynchronize(b);
        float ms; cudaEventElapsedTime(&ms, a, b); t.push_back(ms);
    }
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}

template <class T> void gemm(cublasHandle_t h, int n, const T* a, int lda, const T* b, int ldb, T* c, int ldc, T alpha, T beta)
{
    if constexpr (sizeof(T) == 8)
        CK(cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &alpha, b, ldb, a, lda, &beta, c, ldc));
    else
        CK(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &alpha, b, ldb, a, lda, &beta, c, ldc));
}

template <class T> void leafCase(const char* type, int big, int leaf, bool workspace)
{
    const size_t count = size_t(big) * big;
    T *A, *B, *C;
    CK(cudaMalloc(&A, count * sizeof(T))); CK(cudaMalloc(&B, count * sizeof(T))); CK(cudaMalloc(&C, count * sizeof(T)));
    fillKernel<T><<<1024, 256>>>(A, count, 1); fillKernel<T><<<1024, 256>>>(B, count, 2); fillKernel<T><<<1024, 256>>>(C, count, 3);
    cublasHandle_t h;
    CK(cublasCreate(&h));
    if (!workspace) CK(cublasSetWorkspace(h, nullptr, 0));
    const double full = medianMs([&] { gemm<T>(h, big, A, big, B, big, C, big, T(1), T(0)); });
    const double flopsLeaf = 2.0 * leaf * double(leaf) * leaf;
    auto report = [&](const char* what, double ms) {
        std::printf("%s N=%d leaf=%d ws=%d %-44s %8.3f ms  %6.1f TFLOP/s  x(full/%d)=%.3f\n", type, big, leaf, int(workspace), what, ms,
                    flopsLeaf / ms * 1e-9, int((double(big) / leaf) * (double(big) / leaf) * (double(big) / leaf)),
                    ms * ((double(big) / leaf) * (double(big) / leaf) * (double(big) / leaf)) / full);
    };
    report("full N^3 (reference), beta 0", full);
    report("leaf contiguous ld=leaf, beta 0", medianMs([&] { gemm<T>(h, leaf, A, leaf, B, leaf, C, leaf, T(1), T(0)); }));
    report("leaf contiguous ld=leaf, beta 1", medianMs([&] { gemm<T>(h, leaf, A, leaf, B, leaf, C, leaf, T(1), T(1)); }));
    report("leaf quadrant ld=N, beta 0", medianMs([&] { gemm<T>(h, leaf, A, big, B, big, C, big, T(1), T(0)); }));
    report("leaf quadrant ld=N, beta 1", medianMs([&] { gemm<T>(h, leaf, A, big, B, big, C, big, T(1), T(1)); }));
    report("leaf off-diag quadrants ld=N, beta 1, alpha -1", medianMs([&] {
               gemm<T>(h, leaf, A + leaf, big, B + size_t(leaf) * big, big, C + size_t(leaf) * big + leaf, big, T(-1), T(1));
           }));
    // ld = N + 64 elements: does a non-power-of-two pitch change it? (needs the padded buffer: reuse A with fewer rows)
    const int padded = big + 64;
    if (size_t(leaf) * padded <= count)
        report("leaf ld=N+64, beta 1", medianMs([&] { gemm<T>(h, leaf, A, padded, B, padded, C, padded, T(1), T(1)); }));

    // cuBLASLt: every heuristic algorithm for the quadrant case (ld = N, beta 1), no workspace.
    cublasLtHandle_t lt;
    CK(cublasLtCreate(&lt));
    const cudaDataType dt = sizeof(T) == 8 ? CUDA_R_64F : CUDA_R_32F;
    const cublasComputeType_t ct = sizeof(T) == 8 ? CUBLAS_COMPUTE_64F : CUBLAS_COMPUTE_32F;
    cublasLtMatmulDesc_t desc;
    CK(cublasLtMatmulDescCreate(&desc, ct, dt));
    cublasLtMatrixLayout_t la, lb, lc;
    CK(cublasLtMatrixLayoutCreate(&la, dt, leaf, leaf, big));
    CK(cublasLtMatrixLayoutCreate(&lb, dt, leaf, leaf, big));
    CK(cublasLtMatrixLayoutCreate(&lc, dt, leaf, leaf, big));
    cublasLtMatmulPreference_t pref;
    CK(cublasLtMatmulPreferenceCreate(&pref));
    size_t wsBytes = workspace ? (size_t(32) << 20) : 0;
    void* ws = nullptr;
    if (wsBytes) CK(cudaMalloc(&ws, wsBytes));
    CK(cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &wsBytes, sizeof(wsBytes)));
    cublasLtMatmulHeuristicResult_t results[16];
    int found = 0;
    CK(cublasLtMatmulAlgoGetHeuristic(lt, desc, lb, la, lc, lc, pref, 16, results, &found));
    const T one = 1;
    for (int i = 0; i < found; ++i) {
        char label[64];
        std::snprintf(label, sizeof label, "Lt heuristic #%d (ws %zu), ld=N beta 1", i, results[i].workspaceSize);
        report(label, medianMs([&] {
                   CK(cublasLtMatmul(lt, desc, &one, B, lb, A, la, &one, C, lc, C, lc, &results[i].algo, ws, wsBytes, 0));
               }));
    }
    cublasLtMatmulPreferenceDestroy(pref);
    cublasLtMatrixLayoutDestroy(la); cublasLtMatrixLayoutDestroy(lb); cublasLtMatrixLayoutDestroy(lc);
    cublasLtMatmulDescDestroy(desc);
    cublasLtDestroy(lt);
    if (ws) cudaFree(ws);
    cublasDestroy(h);
    cudaFree(A); cudaFree(B); cudaFree(C);
}

int main()
{
    cudaDeviceProp p;
    cudaGetDeviceProperties(&p, 0);
    std::printf("device %s\n", p.name);
    for (bool ws : {false, true}) {
        leafCase<double>("f64", 16384, 8192, ws);
        leafCase<double>("f64", 16384, 4096, ws);
    }
    leafCase<float>("f32", 16384, 4096, false);
    leafCase<float>("f32", 16384, 2048, false);
    return 0;
}
