// A stand-alone probe (not built by CMake), kept so that anyone can rerun it on a GPU:
//   nvcc -O3 -arch=sm_90 tf32_beside_probe.cu -lcublas -o probe && ./probe [N ...]
// Issue 13 item 4 (TF32 ABFT at every size): what lever (1) of the blocked GEMM CUDA README could
// gain at most. Today the four ABFT passes of a TF32 product (B, A, B, C: four reads of an N x N
// FP32 matrix) run in series with the tensor-core GEMM. Lever (1) would run all but the first (the
// A pass, which rounds A before any GEMM reads it) beside GEMMs on a stream of the greatest
// priority. This probe times, against one cuBLAS TF32 GEMM of N^3 in the same process (median of
// 9, CUDA events):
//   serial:  the GEMM, then four reads of N^2 floats (the passes' traffic, no arithmetic);
//   beside:  the GEMM and the same four reads on a priority stream at once, in two shapes of read
//            kernel: "fit" (128 threads, few registers, no shared memory: fits on an SM beside
//            almost any GEMM CTA) and "wide" (256 threads holding 96 KiB of shared memory: one per
//            SM, beside nothing -- the passes' own footprint, 256 x 128 registers, does not fit
//            beside cuBLAS's SGEMM CTA either);
//   lever 1: one read in series (the A pass), then the GEMM with three reads beside it: the best
//            the column-block pipeline could reach if its passes cost nothing but their traffic.
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA %s line %d\n", cudaGetErrorString(e), __LINE__); exit(1); } } while (0)
#define BK(x) do { cublasStatus_t e = (x); if (e != CUBLAS_STATUS_SUCCESS) { printf("cuBLAS %d line %d\n", int(e), __LINE__); exit(1); } } while (0)

__global__ void fill(float* p, size_t n)
{
    for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x)
        p[i] = float((i * 2654435761u) % 1000) / 1000.f - 0.5f;
}

// Reads count float4s of each of the four matrices once; one float per block goes to out so the
// loads stay. wideSmem > 0: the block holds that much dynamic shared memory (one block per SM).
__global__ void readAll(const float4* m0, const float4* m1, const float4* m2, const float4* m3, int64_t count,
                        float* out)
{
    // Dynamic shared memory (wide) is reserved at launch, used or not: it limits the blocks per SM.
    const float4* ms[4] = {m0, m1, m2, m3};
    float s = 0;
    const int64_t stride = int64_t(gridDim.x) * blockDim.x;
    for (int k = 0; k < 4; ++k) {
        if (!ms[k])
            continue;
        for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < count; i += 4 * stride) {
            float4 v[4];
#pragma unroll
            for (int u = 0; u < 4; ++u)
                v[u] = i + u * stride < count ? ms[k][i + u * stride] : make_float4(0, 0, 0, 0);
#pragma unroll
            for (int u = 0; u < 4; ++u)
                s += v[u].x + v[u].y + v[u].z + v[u].w;
        }
    }
    if (s == 12345.f)
        out[blockIdx.x] = s;
}

struct Reads {
    int blocks, threads;
    size_t smem;
};

int main(int argc, char** argv)
{
    std::vector<int64_t> sizes;
    for (int i = 1; i < argc; ++i)
        sizes.push_back(std::atoll(argv[i]));
    if (sizes.empty())
        sizes = {4096, 8192, 16384};
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    const int sms = prop.multiProcessorCount;
    printf("device: %s, %d SMs\n", prop.name, sms);
    constexpr size_t kWideSmem = 96 << 10;
    CK(cudaFuncSetAttribute(readAll, cudaFuncAttributeMaxDynamicSharedMemorySize, int(kWideSmem)));
    const Reads fit{sms, 128, 0}, wide{sms, 256, kWideSmem}, alone{sms * 4, 256, 0};

    int lo = 0, hi = 0;
    CK(cudaDeviceGetStreamPriorityRange(&lo, &hi));
    cudaStream_t s, side;
    CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    CK(cudaStreamCreateWithPriority(&side, cudaStreamNonBlocking, hi));
    cublasHandle_t h;
    BK(cublasCreate(&h));
    BK(cublasSetMathMode(h, CUBLAS_TF32_TENSOR_OP_MATH));
    BK(cublasSetStream(h, s));
    cudaEvent_t t0, t1, fork, join;
    CK(cudaEventCreate(&t0));
    CK(cudaEventCreate(&t1));
    CK(cudaEventCreateWithFlags(&fork, cudaEventDisableTiming));
    CK(cudaEventCreateWithFlags(&join, cudaEventDisableTiming));
    float* sink;
    CK(cudaMalloc(&sink, 1 << 20));

    printf("%-6s %9s %9s %8s %8s %8s %10s %10s\n", "N", "GEMM ms", "reads ms", "serial", "fit", "wide",
           "lever1 fit", "lever1 wide");
    for (int64_t n : sizes) {
        const size_t elems = size_t(n) * size_t(n);
        float *a, *b, *c;
        CK(cudaMalloc(&a, elems * 4));
        CK(cudaMalloc(&b, elems * 4));
        CK(cudaMalloc(&c, elems * 4));
        for (float* p : {a, b, c})
            fill<<<1024, 256, 0, s>>>(p, elems);
        const float one = 1, zero = 0;
        const int64_t count = int64_t(elems / 4);
        const float4 *A = reinterpret_cast<const float4*>(a), *B = reinterpret_cast<const float4*>(b),
                     *C = reinterpret_cast<const float4*>(c);
        auto gemm = [&] { BK(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, int(n), int(n), int(n), &one, a, int(n), b, int(n), &zero, c, int(n))); };
        auto reads = [&](cudaStream_t on, const Reads& r, const float4* m0, const float4* m1, const float4* m2,
                         const float4* m3) {
            readAll<<<r.blocks, r.threads, r.smem, on>>>(m0, m1, m2, m3, count, sink);
            CK(cudaGetLastError());
        };
        // Each case from t0 on s to t1 on s (the side stream joined first).
        auto time = [&](auto&& body) {
            std::vector<float> ms;
            for (int rep = 0; rep < 10; ++rep) {
                CK(cudaEventRecord(t0, s));
                body();
                CK(cudaEventRecord(t1, s));
                CK(cudaEventSynchronize(t1));
                float x = 0;
                CK(cudaEventElapsedTime(&x, t0, t1));
                if (rep > 0)
                    ms.push_back(x);
            }
            std::sort(ms.begin(), ms.end());
            return double(ms[ms.size() / 2]);
        };
        auto beside = [&](const Reads& r, const float4* m0, const float4* m1, const float4* m2, const float4* m3) {
            CK(cudaEventRecord(fork, s));
            gemm();
            CK(cudaStreamWaitEvent(side, fork, 0));
            reads(side, r, m0, m1, m2, m3);
            CK(cudaEventRecord(join, side));
            CK(cudaStreamWaitEvent(s, join, 0));
        };
        const double g = time(gemm);
        const double r = time([&] { reads(s, alone, B, A, B, C); });
        const double serial = time([&] { gemm(); reads(s, alone, B, A, B, C); });
        const double fitBeside = time([&] { beside(fit, B, A, B, C); });
        const double wideBeside = time([&] { beside(wide, B, A, B, C); });
        const double lever1Fit = time([&] { reads(s, alone, A, nullptr, nullptr, nullptr); beside(fit, B, B, C, nullptr); });
        const double lever1Wide = time([&] { reads(s, alone, A, nullptr, nullptr, nullptr); beside(wide, B, B, C, nullptr); });
        auto pct = [&](double x) { return 100.0 * (x / g - 1.0); };
        printf("%-6lld %9.3f %9.3f %7.1f%% %7.1f%% %7.1f%% %9.1f%% %9.1f%%\n", (long long)n, g, r, pct(serial),
               pct(fitBeside), pct(wideBeside), pct(lever1Fit), pct(lever1Wide));
        CK(cudaFree(a));
        CK(cudaFree(b));
        CK(cudaFree(c));
    }
    printf("reads: 4 x N^2 floats (the TF32 ABFT passes' traffic B, A, B, C); percentages against the GEMM alone\n");
    return 0;
}
