// A stand-alone probe (not built by CMake): the measurements behind two design decisions, kept so
// that anyone can rerun them on a GPU.
//   nvcc -O3 -arch=sm_90 online_panels_transpose_probe.cu -lcublas -o probe && ./probe [transpose|online]
// transpose: out-of-place float4 transposes through a padded shared tile, R x C input elements
//   per block, blocks walked along rows or down columns, plain or streaming (__stcs) stores, each
//   checked and timed against a device-to-device copy of the same bytes (issue 11: the `padded`
//   kernel's 64 x 64 / column-walk / streaming choice).
// online: the costs inside online ABFT's overhead over one N^3 SGEMM (issue 9): S = N / 1024 panel
//   GEMMs with beta = 1 (aligned and with the augmented shapes), one read of C after every step,
//   C in two column halves on two streams (joined after every step, or free with their own
//   checksums), C in row bands.
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <algorithm>
#include <cstdio>
#include <cstdint>
#include <string>
#include <vector>

#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA %s line %d\n", cudaGetErrorString(e), __LINE__); exit(1);} } while (0)
#define BK(x) do { cublasStatus_t e = (x); if (e != CUBLAS_STATUS_SUCCESS) { printf("cublas %d line %d\n", int(e), __LINE__); exit(1);} } while (0)

template <class F> float timeIt(F f, int reps = 5)
{
    cudaEvent_t a, b;
    cudaEventCreate(&a);
    cudaEventCreate(&b);
    f();
    CK(cudaDeviceSynchronize());
    std::vector<float> t;
    for (int i = 0; i < reps; ++i) {
        cudaEventRecord(a);
        f();
        cudaEventRecord(b);
        cudaEventSynchronize(b);
        float ms;
        cudaEventElapsedTime(&ms, a, b);
        t.push_back(ms);
    }
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}

__global__ void fill(float* p, size_t n) { for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) p[i] = float((i * 2654435761u) % 1000) / 1000.f - 0.5f; }

// One read of an m x w block of C (ld): row sums, a warp per row, float4 (the check's traffic).
__global__ void rowSums(const float* c, int64_t m, int64_t w, int64_t ld, float* out)
{
    const int lane = threadIdx.x & 31;
    for (int64_t r = (blockIdx.x * int64_t(blockDim.x) + threadIdx.x) / 32; r < m; r += int64_t(gridDim.x) * blockDim.x / 32) {
        const float4* p = reinterpret_cast<const float4*>(c + r * ld);
        float s = 0;
        for (int64_t i = lane; i < w / 4; i += 32) { float4 v = p[i]; s += v.x + v.y + v.z + v.w; }
        for (int o = 16; o; o >>= 1) s += __shfl_xor_sync(~0u, s, o);
        if (lane == 0) out[r] = s;
    }
}

void online(cublasHandle_t h, int N)
{
    const int b = 1024, S = N / b;
    const size_t ldP = N + 32;
    float *A, *B, *C;
    CK(cudaMalloc(&A, (N + 32) * ldP * 4));
    CK(cudaMalloc(&B, (N + 32) * ldP * 4));
    CK(cudaMalloc(&C, (N + 32) * ldP * 4));
    fill<<<1024, 256>>>(A, (N + 32) * ldP);
    fill<<<1024, 256>>>(B, (N + 32) * ldP);
    fill<<<1024, 256>>>(C, (N + 32) * ldP);
    const float one = 1, zero = 0;
    // row-major C = A B is col-major C^T = B^T A^T
    auto gemm = [&](int m, int q, int k, const float* a, int lda, const float* bb, int ldb, float* c, int ldc, bool acc) {
        BK(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, q, m, k, &one, bb, ldb, a, lda, acc ? &one : &zero, c, ldc));
    };
    float plain = timeIt([&] { gemm(N, N, N, A, N, B, N, C, N, false); });
    auto panels = [&](int rows, int cols, int lda, int ldb, int ldc) {
        return timeIt([&] {
            for (int j = 0; j < S; ++j)
                gemm(rows, cols, b, A + size_t(j) * b, lda, B + size_t(j) * b * ldb, ldb, C, ldc, j > 0);
        });
    };
    float aligned = panels(N, N, N, N, N);
    float current = panels(N + 1, N + 1, N, N + 2, N + 1);
    float padded = panels(N + 1, N + 1, N, int(ldP), int(ldP));
    float padded32 = panels(N + 32, N + 32, N, int(ldP), int(ldP));
    float copy = timeIt([&] { CK(cudaMemcpyAsync(B, C, size_t(N) * N * 4, cudaMemcpyDeviceToDevice)); });
    float* sums;
    CK(cudaMalloc(&sums, size_t(N) * 8));
    cudaStream_t s0 = 0, s1, s2;
    CK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
    CK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
    cublasHandle_t h2;
    BK(cublasCreate(&h2));
    cudaEvent_t e0, e1, e2;
    cudaEventCreateWithFlags(&e0, cudaEventDisableTiming);
    cudaEventCreateWithFlags(&e1, cudaEventDisableTiming);
    cudaEventCreateWithFlags(&e2, cudaEventDisableTiming);
    auto gemmOn = [&](cublasHandle_t hh, cudaStream_t st, int m, int q, int k, const float* a, int lda, const float* bb, int ldb, float* c, int ldc, bool acc) {
        BK(cublasSetStream(hh, st));
        BK(cublasSgemm(hh, CUBLAS_OP_N, CUBLAS_OP_N, q, m, k, &one, bb, ldb, a, lda, acc ? &one : &zero, c, ldc));
    };
    // sequential, a check (one read of C) after every step
    float seqCheck = timeIt([&] {
        for (int j = 0; j < S; ++j) {
            gemmOn(h, s0, N, N, b, A + size_t(j) * b, N, B + size_t(j) * b * N, N, C, N, j > 0);
            rowSums<<<1056, 256, 0, s0>>>(C, N, N, N, sums);
        }
    });
    // column halves on two streams; sync = join after every step; check = each half read after its step
    auto halves = [&](bool sync, bool check, int fq = 1) {
        return timeIt([&] {
            cudaEventRecord(e0, s0);
            cudaStreamWaitEvent(s1, e0);
            cudaStreamWaitEvent(s2, e0);
            for (int j = 0; j < S; ++j) {
                for (int hf = 0; hf < 2; ++hf) {
                    cudaStream_t st = hf ? s2 : s1;
                    gemmOn(hf ? h2 : h, st, N, N / 2, b, A + size_t(j) * b, N, B + size_t(j) * b * N + hf * N / 2, N, C + hf * N / 2, N, j > 0);
                    if (check && (j + 1) % fq == 0) rowSums<<<528, 256, 0, st>>>(C + hf * N / 2, N, N / 2, N, sums);
                }
                if (sync) {
                    cudaEventRecord(e1, s1); cudaEventRecord(e2, s2);
                    cudaStreamWaitEvent(s1, e2); cudaStreamWaitEvent(s2, e1);
                }
            }
            cudaEventRecord(e1, s1); cudaEventRecord(e2, s2);
            cudaStreamWaitEvent(s0, e1); cudaStreamWaitEvent(s0, e2);
        });
    };
    float h2free = halves(false, false), h2sync = halves(true, false), h2check = halves(true, true);
    float h2freeCheck = halves(false, true), h2freeCheck4 = halves(false, true, 4);
    float seqCheck4 = timeIt([&] {
        for (int j = 0; j < S; ++j) {
            gemmOn(h, s0, N, N, b, A + size_t(j) * b, N, B + size_t(j) * b * N, N, C, N, j > 0);
            if ((j + 1) % 4 == 0) rowSums<<<1056, 256, 0, s0>>>(C, N, N, N, sums);
        }
    });
    printf("online N=%d: two column blocks, each its own checksums, no join: fq=1 %.1f%%, fq=4 %.1f%% | one block + check fq=4 %.1f%%\n",
           N, 100 * (h2freeCheck / plain - 1), 100 * (h2freeCheck4 / plain - 1), 100 * (seqCheck4 / plain - 1));
    // row bands: every step of one band, then the next (C's band stays in L2 between its steps)
    auto banded = [&](int rows) {
        return timeIt([&] {
            for (int r0 = 0; r0 < N; r0 += rows)
                for (int j = 0; j < S; ++j)
                    gemmOn(h, s0, rows, N, b, A + size_t(r0) * N + size_t(j) * b, N, B + size_t(j) * b * N, N, C + size_t(r0) * N, N, j > 0);
        });
    };
    float band512 = banded(512), band1024 = banded(1024), band2048 = banded(2048);
    printf("online N=%d: seq+check/step %.1f%% | halves free %.1f%% | halves joined/step %.1f%% | halves joined+check %.1f%% | bands 512 %.1f%% 1024 %.1f%% 2048 %.1f%%\n",
           N, 100 * (seqCheck / plain - 1), 100 * (h2free / plain - 1), 100 * (h2sync / plain - 1), 100 * (h2check / plain - 1),
           100 * (band512 / plain - 1), 100 * (band1024 / plain - 1), 100 * (band2048 / plain - 1));
    BK(cublasSetStream(h, 0));
    printf("online N=%d b=%d: plain %.3f ms | panels aligned %.3f (%.1f%%) | current ld(b=N+2,c=N+1) %.3f (%.1f%%) | "
           "padded ld %.3f (%.1f%%) | padded ld, (N+32)^2 %.3f (%.1f%%) | copy of C %.3f ms = %.0f GB/s\n",
           N, b, plain, aligned, 100 * (aligned / plain - 1), current, 100 * (current / plain - 1), padded,
           100 * (padded / plain - 1), padded32, 100 * (padded32 / plain - 1), copy, 2.0 * N * N * 4 / copy / 1e6);
    cudaFree(A);
    cudaFree(B);
    cudaFree(C);
}

// ---- transpose, out of place, float4 through a padded shared tile: R input rows x C input columns per block
template <class V> __device__ __forceinline__ float comp(const V& v, int k) { return k == 0 ? v.x : k == 1 ? v.y : k == 2 ? v.z : v.w; }
__device__ __forceinline__ void setComp(float4& v, int k, float e) { if (k == 0) v.x = e; else if (k == 1) v.y = e; else if (k == 2) v.z = e; else v.w = e; }

template <int R, int C, bool ROWFAST, bool STREAM, bool LDCS = false>
__global__ void __launch_bounds__(256) tr(const float* __restrict__ in, float* __restrict__ out, int64_t m, int64_t n, int64_t bpr, int64_t bpc)
{
    __shared__ float tile[R][C + 1];
    constexpr int L = C / 4, P = 32 / L, LO = R / 4, PO = 32 / LO;
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    int64_t br, bc;
    if (ROWFAST) { br = blockIdx.x / bpr; bc = blockIdx.x % bpr; } else { bc = blockIdx.x / bpc; br = blockIdx.x % bpc; }
    const int64_t r0 = br * R, c0 = bc * C;
    constexpr int NL = R * C / 4 / 256;
    float4 v[NL];
    {
        const int t = lane % L, h = lane / L;
#pragma unroll
        for (int k = 0; k < NL; ++k) {
            const int rr = (warp + 8 * k) * P + h;
            v[k] = LDCS ? __ldcs(reinterpret_cast<const float4*>(in + (r0 + rr) * n + c0 + 4 * t)) : __ldg(reinterpret_cast<const float4*>(in + (r0 + rr) * n + c0 + 4 * t));
        }
        const int rot = ((t >> 3) * (32 / L)) & 3;
#pragma unroll
        for (int k = 0; k < NL; ++k) {
            const int rr = (warp + 8 * k) * P + h;
#pragma unroll
            for (int e = 0; e < 4; ++e) {
                const int w = (e + rot) & 3;
                tile[rr][4 * t + w] = comp(v[k], w);
            }
        }
    }
    __syncthreads();
    const int l = lane % LO, q = lane / LO, rot = ((l >> 3) * (32 / LO)) & 3;
    constexpr int NS = R * C / 4 / 256;
#pragma unroll
    for (int k = 0; k < NS; ++k) {
        const int cl = (warp + 8 * k) * PO + q;
        float4 o;
#pragma unroll
        for (int e = 0; e < 4; ++e) {
            const int w = (e + rot) & 3;
            setComp(o, w, tile[4 * l + w][cl]);
        }
        float4* dst = reinterpret_cast<float4*>(out + (c0 + cl) * m + r0 + 4 * l);
        if (STREAM) __stcs(dst, o); else *dst = o;
    }
}

template <int R, int C, bool ROWFAST, bool STREAM, bool LDCS = false> float runTr(const float* in, float* out, int64_t m, int64_t n)
{
    const int64_t bpr = n / C, bpc = m / R;
    return timeIt([&] { tr<R, C, ROWFAST, STREAM, LDCS><<<unsigned(bpr * bpc), 256>>>(in, out, m, n, bpr, bpc); }, 11);
}

__global__ void check(const float* in, const float* out, int64_t m, int64_t n, unsigned* bad)
{
    for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < m * n; i += int64_t(gridDim.x) * blockDim.x) {
        const int64_t r = i / n, c = i % n;
        if (out[c * m + r] != in[i]) atomicAdd(bad, 1u);
    }
}

void transposeBench(cublasHandle_t h, int64_t m, int64_t n)
{
    float *in, *out;
    unsigned* bad;
    CK(cudaMalloc(&in, m * n * 4));
    CK(cudaMalloc(&out, m * n * 4));
    CK(cudaMallocManaged(&bad, 4));
    fill<<<1024, 256>>>(in, m * n);
    const float copy = timeIt([&] { CK(cudaMemcpyAsync(out, in, m * n * 4, cudaMemcpyDeviceToDevice)); }, 11);
    const float one = 1, zero = 0;
    const float geam = timeIt([&] { BK(cublasSgeam(h, CUBLAS_OP_T, CUBLAS_OP_N, int(m), int(n), &one, in, int(n), &zero, out, int(m), out, int(m))); }, 11);
    printf("transpose %lldx%lld: copy %.4f ms, geam %.1f%%\n", (long long)m, (long long)n, copy, 100 * copy / geam);
    auto report = [&](const char* name, float t) {
        *bad = 0;
        check<<<1024, 256>>>(in, out, m, n, bad);
        CK(cudaDeviceSynchronize());
        printf("  %-28s %.4f ms  %.1f%% of copy  bad=%u\n", name, t, 100 * copy / t, *bad);
    };
    report("32x128 rowfast", runTr<32, 128, true, false>(in, out, m, n));
    report("32x128 colfast", runTr<32, 128, false, false>(in, out, m, n));
    report("32x128 rowfast stcs", runTr<32, 128, true, true>(in, out, m, n));
    report("64x64 rowfast", runTr<64, 64, true, false>(in, out, m, n));
    report("64x64 colfast", runTr<64, 64, false, false>(in, out, m, n));
    report("64x64 rowfast stcs", runTr<64, 64, true, true>(in, out, m, n));
    report("64x64 colfast stcs", runTr<64, 64, false, true>(in, out, m, n));
    report("64x64 rowfast stcs ldcs", runTr<64, 64, true, true, true>(in, out, m, n));
    report("128x32 rowfast stcs", runTr<128, 32, true, true>(in, out, m, n));
    report("128x64 rowfast stcs", runTr<128, 64, true, true>(in, out, m, n));
    report("64x32 rowfast stcs", runTr<64, 32, true, true>(in, out, m, n));
    report("32x64 rowfast stcs", runTr<32, 64, true, true>(in, out, m, n));
    report("32x32 rowfast stcs", runTr<32, 32, true, true>(in, out, m, n));
    CK(cudaMemcpy(out, in, 4, cudaMemcpyDeviceToDevice));
    cudaFree(in);
    cudaFree(out);
}

int main(int argc, char** argv)
{
    const std::string what = argc > 1 ? argv[1] : "all";
    cudaDeviceProp p;
    cudaGetDeviceProperties(&p, 0);
    printf("device %s\n", p.name);
    cublasHandle_t h;
    BK(cublasCreate(&h));

    if (what == "all" || what == "transpose") {
        transposeBench(h, 16384, 16384);
        transposeBench(h, 8192, 8192);
        transposeBench(h, 16384, 8192);
    }
    if (what == "all" || what == "online") {
        online(h, 8192);
        online(h, 16384);
    }
    return 0;
}
