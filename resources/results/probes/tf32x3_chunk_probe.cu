// Probe: does tf32x3's error against SGEMM grow with the depth because each TF32 cuBLAS product
// accumulates the whole depth on the tensor cores? The big x big product (the only one whose
// accumulation error matters: the small terms are 2^-11 of it) is run in depth chunks of kc,
// each added to C by cuBLAS's FP32 epilogue (beta = 1), for kc = whole depth, 4096 ... 256.
// Error against an FP64 cuBLAS product of the same inputs: max and RMS over every cell of
// |C - C_ref| / (|A| |B|)_ij; times: median of 5 CUDA-event timings, SGEMM in the same process.
// Build: nvcc -O2 -arch=sm_90 tf32x3_chunk_probe.cu -lcublas -o probe
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { std::printf("CUDA %s at %d\n", cudaGetErrorString(e), __LINE__); std::exit(1); } } while (0)
#define CB(x) do { cublasStatus_t e = (x); if (e != CUBLAS_STATUS_SUCCESS) { std::printf("cuBLAS %d at %d\n", int(e), __LINE__); std::exit(1); } } while (0)

__device__ float tf32Nearest(float x)
{
    unsigned u = __float_as_uint(x);
    if ((u & 0x7f800000u) == 0x7f800000u) return x;
    u += 0xfffu + ((u >> 13) & 1u);
    return __uint_as_float(u & 0xffffe000u);
}

__global__ void fillKernel(float* x, long n, unsigned seed)
{
    for (long i = blockIdx.x * long(blockDim.x) + threadIdx.x; i < n; i += long(gridDim.x) * blockDim.x) {
        unsigned h = unsigned(i) * 2654435761u ^ seed * 0x9e3779b9u;
        h ^= h >> 16; h *= 0x7feb352du; h ^= h >> 15; h *= 0x846ca68bu; h ^= h >> 16;
        x[i] = float(h) / 4294967296.0f * 2.0f - 1.0f;
    }
}

__global__ void splitKernel(const float* x, float* big, float* small, double* xd, double* xa, long n)
{
    for (long i = blockIdx.x * long(blockDim.x) + threadIdx.x; i < n; i += long(gridDim.x) * blockDim.x) {
        const float b = tf32Nearest(x[i]);
        big[i] = b;
        small[i] = tf32Nearest(x[i] - b);
        xd[i] = x[i];
        xa[i] = fabs(double(x[i]));
    }
}

__global__ void errorKernel(const float* c, const double* ref, const double* mag, long n, double* maxOut, double* sqOut)
{
    double mx = 0, sq = 0;
    for (long i = blockIdx.x * long(blockDim.x) + threadIdx.x; i < n; i += long(gridDim.x) * blockDim.x) {
        const double r = fabs(double(c[i]) - ref[i]) / fmax(mag[i], 1e-300);
        mx = fmax(mx, r);
        sq += r * r;
    }
    for (int o = 16; o > 0; o >>= 1) {
        mx = fmax(mx, __shfl_down_sync(0xffffffffu, mx, o));
        sq += __shfl_down_sync(0xffffffffu, sq, o);
    }
    if (threadIdx.x % 32 == 0) {
        atomicAdd(sqOut, sq);
        unsigned long long* m = reinterpret_cast<unsigned long long*>(maxOut);
        unsigned long long old = *m;
        while (__longlong_as_double(old) < mx) {
            const unsigned long long prev = atomicCAS(m, old, __double_as_longlong(mx));
            if (prev == old) break;
            old = prev;
        }
    }
}

// Row-major C (n x n) = X Y: column-major C^T = Y^T X^T; depth slice [k0, k0 + kc).
void tf32Slice(cublasHandle_t h, const float* x, const float* y, float* c, int n, int k0, int kc, float beta)
{
    const float one = 1.0f;
    CB(cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, kc, &one, y + long(k0) * n, CUDA_R_32F, n, x + k0, CUDA_R_32F, n,
                    &beta, c, CUDA_R_32F, n, CUBLAS_COMPUTE_32F_FAST_TF32, CUBLAS_GEMM_DEFAULT));
}

int main(int argc, char** argv)
{
    cudaDeviceProp p;
    CK(cudaGetDeviceProperties(&p, 0));
    std::printf("device %s\n", p.name);
    std::vector<int> sizes = {4096, 8192, 16384};
    if (argc > 1) sizes = {std::atoi(argv[1])};
    cublasHandle_t h;
    CB(cublasCreate(&h));
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    for (int n : sizes) {
        const long nn = long(n) * n;
        float *a, *b, *c, *ab, *as, *bb, *bs;
        double *ad, *bd, *aa, *ba, *ref, *mag, *stats;
        CK(cudaMalloc(&a, nn * 4)); CK(cudaMalloc(&b, nn * 4)); CK(cudaMalloc(&c, nn * 4));
        CK(cudaMalloc(&ab, nn * 4)); CK(cudaMalloc(&as, nn * 4)); CK(cudaMalloc(&bb, nn * 4)); CK(cudaMalloc(&bs, nn * 4));
        CK(cudaMalloc(&ad, nn * 8)); CK(cudaMalloc(&bd, nn * 8)); CK(cudaMalloc(&aa, nn * 8)); CK(cudaMalloc(&ba, nn * 8));
        CK(cudaMalloc(&ref, nn * 8)); CK(cudaMalloc(&mag, nn * 8)); CK(cudaMalloc(&stats, 16));
        fillKernel<<<1024, 256>>>(a, nn, 31);
        fillKernel<<<1024, 256>>>(b, nn, 32);
        splitKernel<<<1024, 256>>>(a, ab, as, ad, aa, nn);
        splitKernel<<<1024, 256>>>(b, bb, bs, bd, ba, nn);
        const double one = 1.0, zero = 0.0;
        CB(cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, bd, n, ad, n, &zero, ref, n));
        CB(cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, ba, n, aa, n, &zero, mag, n));
        CK(cudaFree(ad)); CK(cudaFree(bd)); CK(cudaFree(aa)); CK(cudaFree(ba));
        auto errorOf = [&](double& mx, double& rms) {
            CK(cudaMemset(stats, 0, 16));
            errorKernel<<<2048, 256>>>(c, ref, mag, nn, stats, stats + 1);
            double hs[2];
            CK(cudaMemcpy(hs, stats, 16, cudaMemcpyDeviceToHost));
            mx = hs[0];
            rms = std::sqrt(hs[1] / double(nn));
        };
        auto timeOf = [&](auto run) {
            run();
            std::vector<float> ms;
            for (int r = 0; r < 5; ++r) {
                CK(cudaEventRecord(e0));
                run();
                CK(cudaEventRecord(e1));
                CK(cudaEventSynchronize(e1));
                float t;
                CK(cudaEventElapsedTime(&t, e0, e1));
                ms.push_back(t);
            }
            std::sort(ms.begin(), ms.end());
            return ms[2];
        };
        const auto sgemm = [&] {
            const float o = 1.0f, z = 0.0f;
            CB(cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &o, b, CUDA_R_32F, n, a, CUDA_R_32F, n, &z, c,
                            CUDA_R_32F, n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
        };
        const float sgemmMs = timeOf(sgemm);
        double sMax, sRms;
        errorOf(sMax, sRms);
        std::printf("n %d  SGEMM %.3f ms  max %.3e  rms %.3e\n", n, sgemmMs, sMax, sRms);
        const auto tf32 = [&] { tf32Slice(h, a, b, c, n, 0, n, 0.0f); };
        const float tf32Ms = timeOf(tf32);
        double tMax, tRms;
        errorOf(tMax, tRms);
        std::printf("n %d  TF32  %.3f ms  max %.3e  rms %.3e\n", n, tf32Ms, tMax, tRms);
        std::printf("%6s %8s %10s %10s %10s %10s %10s\n", "n", "kc", "ms", "x SGEMM", "max err", "x SGEMM", "rms x SGEMM");
        for (int kc : {0, 4096, 2048, 1024, 512, 256, 128}) {
            const int chunk = kc == 0 || kc > n ? n : kc;
            if (kc > n) continue;
            for (int order = 0; order < 2; ++order) {
                // order 0: small terms first, then big x big in chunks (as gemm_tf32x3.cu, chunked);
                // order 1: per chunk all three products (small first), so each chunk's sum of the
                // three is added to C once.
                const auto run = [&] {
                    if (order == 0) {
                        tf32Slice(h, ab, bs, c, n, 0, n, 0.0f);
                        tf32Slice(h, as, bb, c, n, 0, n, 1.0f);
                        for (int k0 = 0; k0 < n; k0 += chunk)
                            tf32Slice(h, ab, bb, c, n, k0, std::min(chunk, n - k0), 1.0f);
                    } else {
                        for (int k0 = 0; k0 < n; k0 += chunk) {
                            const int kk = std::min(chunk, n - k0);
                            tf32Slice(h, ab, bs, c, n, k0, kk, k0 == 0 ? 0.0f : 1.0f);
                            tf32Slice(h, as, bb, c, n, k0, kk, 1.0f);
                            tf32Slice(h, ab, bb, c, n, k0, kk, 1.0f);
                        }
                    }
                };
                if (order == 1 && chunk == n) continue;
                const float ms = timeOf(run);
                double mx, rms;
                errorOf(mx, rms);
                std::printf("%6d %6d%s %10.3f %10.3f %10.3e %10.2f %10.2f\n", n, chunk, order ? "*" : " ", ms, ms / sgemmMs,
                            mx, mx / sMax, rms / sRms);
            }
        }
        CK(cudaFree(a)); CK(cudaFree(b)); CK(cudaFree(c)); CK(cudaFree(ab)); CK(cudaFree(as)); CK(cudaFree(bb));
        CK(cudaFree(bs)); CK(cudaFree(ref)); CK(cudaFree(mag)); CK(cudaFree(stats));
    }
    std::printf("* = all three products per chunk\n");
    return 0;
}
