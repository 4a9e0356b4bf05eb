// Probe: the prepared BF16 product's two checksum products on the SMs its GEMM leaves idle. At 4096
// the CUTLASS kernel's 512 tiles take 4 rounds on 128 SMs as on 132, so 4 SMs are free for the GEMM's
// ~180 us. The double-precision passes are too slow there (idle_sm_pass_probe.cu: ~9 elements an SM
// and clock, 230-260 us for each matrix on 4 SMs). On the tensor cores, with the vectors split into
// four BF16 parts (as the kernel's checksum column takes r_B today), the two products are
//   P B  (8 x 4096 x 4096: c_A's parts and four zero rows, times B) -> C's checksum row,
//   A R  (4096 x 8 x 4096: A times r_B's parts and four zero columns) -> C's checksum column,
// each reading one 33.5 MB operand. cuBLASLt BF16 (FP32 accumulation), every algorithm its heuristic
// offers (with CUBLASLT_MATMUL_DESC_SM_COUNT_TARGET = the free SMs), timed:
//   alone on the whole GPU, and beside a stand-in for the GEMM: a kernel of `busy` blocks that hold
//   one SM each (200 KB of shared memory, every register) for 600 us, so that the products get the other SMs only.
// Also the error of the parts' sum against a double host reference, beside a double pass's.
// Build: nvcc -O3 -std=c++17 -arch=sm_90a side_products_probe.cu -lcublasLt -lcublas -o side_products_probe
#include "probe_util.hpp"

#include <cuda_bf16.h>

#include <cmath>
#include <cstring>

using Index = std::int64_t;
constexpr int kHoldSmem = 200 * 1024;

__global__ void holdStream(unsigned ns)
{
    for (unsigned t = 0; t < ns; t += 1000)
        __nanosleep(1000);
}

// `busy` blocks, one an SM, each holding 200 KB of shared memory and the whole register file (1024
// threads, 64 registers each) for `ns`: the GEMM's CTAs, so that nothing else fits beside them.
__global__ void __launch_bounds__(1024, 1) holdSms(unsigned ns, float* sink)
{
    extern __shared__ unsigned char hold[];
    float acc[60];
#pragma unroll
    for (int i = 0; i < 60; ++i)
        acc[i] = float(threadIdx.x + i);
    for (unsigned t = 0; t < ns; t += 1000) {
        __nanosleep(1000);
#pragma unroll
        for (int i = 0; i < 60; ++i)
            acc[i] = acc[i] * 0.999f + float(i);
    }
    float s = 0;
#pragma unroll
    for (int i = 0; i < 60; ++i)
        s += acc[i];
    if (s == 1.2345f || hold[threadIdx.x] == 0xff)
        *sink = s;
}

__global__ void toBf16(const float* f, __nv_bfloat16* h, Index n)
{
    for (Index i = blockIdx.x * Index(blockDim.x) + threadIdx.x; i < n; i += Index(gridDim.x) * blockDim.x)
        h[i] = __float2bfloat16_rn(f[i]);
}

float bf(unsigned short u)
{
    const unsigned w = unsigned(u) << 16;
    float f;
    std::memcpy(&f, &w, 4);
    return f;
}
unsigned short toBf(float f)
{
    unsigned w;
    std::memcpy(&w, &f, 4);
    w += 0x7fffu + ((w >> 16) & 1u);  // round to nearest even (finite values)
    return (unsigned short)(w >> 16);
}

struct Product {
    cublasLtMatmulDesc_t op;
    cublasLtMatrixLayout_t la, lb, lc;
    std::vector<cublasLtMatmulHeuristicResult_t> algos;
};

// Column-major D (m x n) = A (m x k) B (k x n), BF16 in, FP32 out.
Product makeProduct(cublasLtHandle_t h, int m, int n, int k, int lda, int ldb, int ldc, int smTarget, size_t workspace)
{
    Product p;
    BK(cublasLtMatmulDescCreate(&p.op, CUBLAS_COMPUTE_32F, CUDA_R_32F));
    if (smTarget > 0)
        BK(cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_SM_COUNT_TARGET, &smTarget, sizeof(smTarget)));
    BK(cublasLtMatrixLayoutCreate(&p.la, CUDA_R_16BF, m, k, lda));
    BK(cublasLtMatrixLayoutCreate(&p.lb, CUDA_R_16BF, k, n, ldb));
    BK(cublasLtMatrixLayoutCreate(&p.lc, CUDA_R_32F, m, n, ldc));
    cublasLtMatmulPreference_t pref;
    BK(cublasLtMatmulPreferenceCreate(&pref));
    BK(cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &workspace, sizeof(workspace)));
    p.algos.resize(8);
    int found = 0;
    BK(cublasLtMatmulAlgoGetHeuristic(h, p.op, p.la, p.lb, p.lc, p.lc, pref, 8, p.algos.data(), &found));
    p.algos.resize(found);
    BK(cublasLtMatmulPreferenceDestroy(pref));
    return p;
}

int main()
{
    cudaDeviceProp prop{};
    CK(cudaGetDeviceProperties(&prop, 0));
    const int sms = prop.multiProcessorCount;
    const Index n = 4096, elems = n * n;
    printf("# %s (%d SMs): the checksum products P B and A R (BF16, FP32 out) by cuBLASLt, N = %lld\n", prop.name, sms,
           (long long)n);
    float* f;
    __nv_bfloat16 *x, *pParts, *rParts;
    float *outRow, *outCol;
    void* workspace;
    const size_t wsBytes = 32 << 20;
    CK(cudaMalloc(&f, elems * 4));
    CK(cudaMalloc(&x, elems * 2));
    CK(cudaMalloc(&pParts, 8 * n * 2));
    CK(cudaMalloc(&rParts, 8 * n * 2));
    CK(cudaMalloc(&outRow, 8 * n * 4));
    CK(cudaMalloc(&outCol, 8 * n * 4));
    CK(cudaMalloc(&workspace, wsBytes));
    fill<<<sms * 8, 256>>>(f, elems, 7);
    toBf16<<<sms * 8, 256>>>(f, x, elems);
    CK(cudaDeviceSynchronize());
    // The same matrix serves as A and B (row-major); its column sums c and row sums r as vectors.
    std::vector<unsigned short> hx(elems);
    CK(cudaMemcpy(hx.data(), x, elems * 2, cudaMemcpyDeviceToHost));
    std::vector<double> c(n, 0.0), r(n, 0.0);
    for (Index i = 0; i < n; ++i)
        for (Index j = 0; j < n; ++j) {
            const double v = bf(hx[i * n + j]);
            c[j] += v;
            r[i] += v;
        }
    // P: 8 rows x n (row-major), c's four parts then zeros; R: n rows x 8 (row-major), r's parts.
    std::vector<unsigned short> hp(8 * n, 0), hr(8 * n, 0);
    for (Index k = 0; k < n; ++k) {
        double restC = c[k], restR = r[k];
        for (int part = 0; part < 4; ++part) {
            hp[part * n + k] = toBf(float(restC));
            restC -= bf(hp[part * n + k]);
            hr[k * 8 + part] = toBf(float(restR));
            restR -= bf(hr[k * 8 + part]);
        }
    }
    CK(cudaMemcpy(pParts, hp.data(), hp.size() * 2, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(rParts, hr.data(), hr.size() * 2, cudaMemcpyHostToDevice));
    // Host references: (c B)[j] = sum_k c_k x_kj, (A r)[i] = sum_k x_ik r_k.
    std::vector<double> rowRef(n, 0.0), colRef(n, 0.0), scaleRow(n, 0.0), scaleCol(n, 0.0);
    for (Index k = 0; k < n; ++k)
        for (Index j = 0; j < n; ++j) {
            const double v = bf(hx[k * n + j]);
            rowRef[j] += c[k] * v;
            scaleRow[j] += std::fabs(c[k] * v);
            colRef[k] += v * r[j];
            scaleCol[k] += std::fabs(v * r[j]);
        }
    cublasLtHandle_t h;
    BK(cublasLtCreate(&h));
    cudaStream_t main, side;
    int lo = 0, hi = 0;
    CK(cudaDeviceGetStreamPriorityRange(&lo, &hi));
    CK(cudaStreamCreateWithPriority(&main, cudaStreamNonBlocking, hi));
    CK(cudaStreamCreateWithPriority(&side, cudaStreamNonBlocking, lo));
    CK(cudaFuncSetAttribute(holdSms, cudaFuncAttributeMaxDynamicSharedMemorySize, kHoldSmem));
    cudaEvent_t e1, e2;
    CK(cudaEventCreate(&e1));
    CK(cudaEventCreate(&e2));
    const float one = 1.f, zero = 0.f;
    // Row-major out (8 x n) = P (8 x n) x (n x n): column-major out^T (n x 8) = X^T (n x n) P^T (n x 8).
    // Row-major out (n x 8) = X (n x n) R (n x 8): column-major out^T (8 x n) = R^T (8 x n) X^T (n x n).
    for (int idle : {4, 8, sms}) {
        const int target = idle == sms ? 0 : idle;
        Product pb = makeProduct(h, int(n), 8, int(n), int(n), int(n), int(n), target, wsBytes);
        Product ar = makeProduct(h, 8, int(n), int(n), 8, int(n), 8, target, wsBytes);
        const int busy = sms - idle;
        printf("%d free SMs (%d held for 600 us), SM count target %d\n", idle, busy, target);
        auto timeIt = [&](auto product) {
            std::vector<float> t;
            for (int rep = 0; rep < 16; ++rep) {
                // The held SMs first (for longer than the products take), then the products.
                if (busy > 0)
                    holdSms<<<busy, 1024, kHoldSmem, main>>>(600000, outRow);
                holdStream<<<1, 1, 0, side>>>(20000);
                CK(cudaEventRecord(e1, side));
                product();
                CK(cudaEventRecord(e2, side));
                CK(cudaDeviceSynchronize());
                float ms = 0;
                CK(cudaEventElapsedTime(&ms, e1, e2));
                if (rep > 0)
                    t.push_back(ms);
            }
            std::sort(t.begin(), t.end());
            return t[t.size() / 2] * 1e3f;
        };
        // Each algorithm as offered, and again with its cluster forced to 1 x 1 (a cluster needs free
        // SMs side by side; the GEMM leaves single ones).
        auto tryAll = [&](const char* name, Product& p, const __nv_bfloat16* a, const __nv_bfloat16* b, float* out) {
            float best = 1e30f;
            int bestI = -1;
            const size_t offered = p.algos.size();
            for (size_t i = 0; i < offered; ++i) {
                cublasLtMatmulHeuristicResult_t one1 = p.algos[i];
                uint16_t shape = 0;
                size_t written = 0;
                cublasLtMatmulAlgoConfigGetAttribute(&one1.algo, CUBLASLT_ALGO_CONFIG_CLUSTER_SHAPE_ID, &shape,
                                                     sizeof(shape), &written);
                if (shape != CUBLASLT_CLUSTER_SHAPE_1x1x1) {
                    const uint16_t single = CUBLASLT_CLUSTER_SHAPE_1x1x1;
                    cublasLtMatmulAlgoConfigSetAttribute(&one1.algo, CUBLASLT_ALGO_CONFIG_CLUSTER_SHAPE_ID, &single,
                                                         sizeof(single));
                    cublasLtMatmulHeuristicResult_t check{};
                    if (cublasLtMatmulAlgoCheck(h, p.op, p.la, p.lb, p.lc, p.lc, &one1.algo, &check) ==
                            CUBLAS_STATUS_SUCCESS &&
                        check.workspaceSize <= wsBytes)
                        p.algos.push_back(one1);
                }
                printf("  %s algo %zu: cluster shape id %u\n", name, i, unsigned(shape));
            }
            for (size_t i = 0; i < p.algos.size(); ++i) {
                const float us = timeIt([&] {
                    BK(cublasLtMatmul(h, p.op, &one, a, p.la, b, p.lb, &zero, out, p.lc, out, p.lc, &p.algos[i].algo,
                                      workspace, wsBytes, side));
                });
                printf("  %s algo %zu%s: %7.1f us (%5.1f GB/s an SM of the free ones)\n", name, i,
                       i >= offered ? " (cluster 1x1)" : "", us, elems * 2 / (us * 1e-6) / idle / 1e9);
                if (us < best)
                    best = us, bestI = int(i);
            }
            return bestI;
        };
        const int iPb = tryAll("P B", pb, x, pParts, outRow);
        const int iAr = tryAll("A R", ar, rParts, x, outCol);
        // Both, one after the other on the side stream (as the product would run them).
        if (iPb >= 0 && iAr >= 0) {
            const float us = timeIt([&] {
                BK(cublasLtMatmul(h, pb.op, &one, x, pb.la, pParts, pb.lb, &zero, outRow, pb.lc, outRow, pb.lc,
                                  &pb.algos[iPb].algo, workspace, wsBytes, side));
                BK(cublasLtMatmul(h, ar.op, &one, rParts, ar.la, x, ar.lb, &zero, outCol, ar.lc, outCol, ar.lc,
                                  &ar.algos[iAr].algo, workspace, wsBytes, side));
            });
            printf("  both (best algos): %7.1f us\n", us);
        }
        if (idle == sms) {
            // Accuracy of the parts' sums against the host's double products.
            std::vector<float> row(8 * n), col(8 * n);
            CK(cudaMemcpy(row.data(), outRow, row.size() * 4, cudaMemcpyDeviceToHost));
            CK(cudaMemcpy(col.data(), outCol, col.size() * 4, cudaMemcpyDeviceToHost));
            double worstRow = 0, worstCol = 0;
            for (Index j = 0; j < n; ++j) {
                double sr = 0, sc = 0;
                for (int part = 0; part < 4; ++part) {
                    sr += row[part * n + j];  // out^T is n x 8 column-major: part p at p * n + j
                    sc += col[j * 8 + part];  // out^T is 8 x n column-major: part p at j * 8 + p
                }
                worstRow = std::max(worstRow, std::fabs(sr - rowRef[j]) / scaleRow[j]);
                worstCol = std::max(worstCol, std::fabs(sc - colRef[j]) / scaleCol[j]);
            }
            printf("  largest |parts' sum - double| / sum |terms|: P B %.2e, A R %.2e (FP32 unit roundoff 6.0e-08)\n",
                   worstRow, worstCol);
        }
    }
    return 0;
}
