// Probe: why the 16-bit prepared passes (abft/cuda/checksums_16bit.cu, rowDots16 / columnDots16) read
// 1.2-1.5 TB/s on an H200 where the TF32 ones read 3.4 -- about three elements per SM and clock in
// both. Is it the conversion of each element to double (cvt.f64.f32) for the FP64 accumulation?
// BF16 N x N, out = X v (rows) and X^T v (columns), v double. Variants, each against a read-only
// streaming sum of the same bytes:
//   cvt   the engine's kernels: each element converted by cvt.f64.f32, one DFMA per element;
//   bits  the same DFMAs, the element's double made by integer operations on its bits (exact for
//         normal values; a group of 8 with a zero, subnormal, inf or NaN takes the cvt path);
//   f32   FP32 accumulation, no double at all (a speed bound only, not accurate enough to keep).
// bits must equal cvt bit for bit (same values, same order of adds). Then the same kernels timed
// each right after a cuBLAS BF16 GEMM of N^3 (events between them), as in the engine's product,
// where a kernel trace put rowDots16 at 88.5 us and columnDots16 at 113 us at N = 8192.
// Build: nvcc -O3 -arch=sm_90 dots16_conversion_probe.cu -lcublas -o dots16_probe
#include "probe_util.hpp"

#include <cuda_bf16.h>

#include <cmath>

using Index = std::int64_t;
constexpr int kWarp = 32, kLane = 8, kWarps = 8, kRowsPerWarp = 4, kStage = 2048, kGroup = 4;

enum Mode { Cvt, Bits, F32 };

__device__ __forceinline__ double warpSum(double v)
{
#pragma unroll
    for (int o = 16; o > 0; o >>= 1)
        v += __shfl_xor_sync(0xffffffffu, v, o);
    return v;
}

// The 8 BF16 of one 16-byte load as the high halves of 32-bit words (FP32 bit patterns).
__device__ __forceinline__ void unpack(uint4 raw, unsigned (&f)[8])
{
    const unsigned w[4] = {raw.x, raw.y, raw.z, raw.w};
#pragma unroll
    for (int i = 0; i < 4; ++i) {
        f[2 * i] = w[i] << 16;
        f[2 * i + 1] = w[i] & 0xffff0000u;
    }
}

// True when each of the 8 has an exponent field in 1 .. 254 (a normal number).
__device__ __forceinline__ bool allNormal(const unsigned (&f)[8])
{
    bool ok = true;
#pragma unroll
    for (int e = 0; e < 8; ++e)
        ok &= ((f[e] & 0x7f800000u) - 0x00800000u) < 0x7f000000u;
    return ok;
}

// The double of a normal FP32 bit pattern whose low 13 mantissa bits are 0: high word only.
__device__ __forceinline__ double normalToDouble(unsigned f)
{
    const unsigned hi = (((f >> 3) & 0x0fffffffu) + 0x38000000u) | (f & 0x80000000u);
    return __hiloint2double(int(hi), 0);
}

template <Mode M>
__device__ __forceinline__ void toValues(uint4 raw, double (&y)[8], float (&yf)[8])
{
    unsigned f[8];
    unpack(raw, f);
    if (M == F32) {
#pragma unroll
        for (int e = 0; e < 8; ++e)
            yf[e] = __uint_as_float(f[e]);
    } else if (M == Bits && allNormal(f)) {
#pragma unroll
        for (int e = 0; e < 8; ++e)
            y[e] = normalToDouble(f[e]);
    } else {
#pragma unroll
        for (int e = 0; e < 8; ++e)
            y[e] = double(__uint_as_float(f[e]));
    }
}

// Row dots as rowDots16Kernel: a warp owns 4 rows, a lane 8 columns per step, v staged in shared
// memory, a span of the inner dimension per blockIdx.y, one atomic per row and span.
template <Mode M>
__global__ void __launch_bounds__(kWarps * kWarp) rowDots(const __nv_bfloat16* x, Index n, const double* v, double* out,
                                                         Index stagesPerSpan)
{
    __shared__ double stagedV[kStage];
    __shared__ float stagedF[kStage];
    const int lane = threadIdx.x % kWarp, warp = threadIdx.x / kWarp;
    const Index first = Index(blockIdx.x) * kWarps * kRowsPerWarp + warp * kRowsPerWarp;
    const Index kBegin = Index(blockIdx.y) * stagesPerSpan * kStage, kEnd = min(kBegin + stagesPerSpan * kStage, n);
    double dot[kRowsPerWarp][2] = {};
    float dotF[kRowsPerWarp][2] = {};
    for (Index k0 = kBegin; k0 < kEnd; k0 += kStage) {
        __syncthreads();
        for (int t = threadIdx.x; t < kStage; t += blockDim.x) {
            stagedV[t] = v[k0 + t];
            stagedF[t] = float(v[k0 + t]);
        }
        __syncthreads();
#pragma unroll 1
        for (Index k = k0 + lane * kLane; k < k0 + kStage; k += kWarp * kLane) {
            uint4 raw[kRowsPerWarp];
#pragma unroll
            for (int r = 0; r < kRowsPerWarp; ++r)
                raw[r] = __ldcs(reinterpret_cast<const uint4*>(x + (first + r) * n + k));
            const int local = int(k - k0);
#pragma unroll
            for (int r = 0; r < kRowsPerWarp; ++r) {
                double y[8];
                float yf[8];
                toValues<M>(raw[r], y, yf);
#pragma unroll
                for (int e = 0; e < 8; ++e) {
                    if (M == F32)
                        dotF[r][e % 2] += yf[e] * stagedF[local + e];
                    else
                        dot[r][e % 2] += y[e] * stagedV[local + e];
                }
            }
        }
    }
#pragma unroll
    for (int r = 0; r < kRowsPerWarp; ++r) {
        const double d = warpSum(M == F32 ? double(dotF[r][0]) + double(dotF[r][1]) : dot[r][0] + dot[r][1]);
        if (lane == 0)
            atomicAdd(out + first + r, d);
    }
}

// Column dots as columnDots16Kernel: blocks of 32 lanes x 8 row lanes, a lane 8 columns, 4 rows
// in flight, the row lanes meeting in shared memory, one atomic per column and block.
template <Mode M>
__global__ void __launch_bounds__(kWarps * kWarp) columnDots(const __nv_bfloat16* x, Index n, const double* v,
                                                            double* out, Index chunkRows)
{
    __shared__ double part[kWarps][kWarp * kLane];
    const Index j0 = (Index(blockIdx.x) * kWarp + threadIdx.x) * kLane;
    const Index kStart = Index(blockIdx.y) * chunkRows, kEnd = min(kStart + chunkRows, n);
    double d[8] = {};
    float df[8] = {};
    for (Index k = kStart + threadIdx.y; k < kEnd; k += kWarps * kGroup) {
        uint4 raw[kGroup];
        double vg[kGroup];
#pragma unroll
        for (int g = 0; g < kGroup; ++g) {
            const Index kk = k + kWarps * g;
            raw[g] = kk < kEnd ? __ldcs(reinterpret_cast<const uint4*>(x + kk * n + j0)) : make_uint4(0, 0, 0, 0);
            vg[g] = kk < kEnd ? v[kk] : 0.0;
        }
#pragma unroll
        for (int g = 0; g < kGroup; ++g) {
            double y[8];
            float yf[8];
            toValues<M>(raw[g], y, yf);
#pragma unroll
            for (int e = 0; e < 8; ++e) {
                if (M == F32)
                    df[e] += float(vg[g]) * yf[e];
                else
                    d[e] += vg[g] * y[e];
            }
        }
    }
#pragma unroll
    for (int e = 0; e < 8; ++e)
        part[threadIdx.y][threadIdx.x * kLane + e] = M == F32 ? double(df[e]) : d[e];
    __syncthreads();
    if (threadIdx.y == 0)
#pragma unroll
        for (int e = 0; e < 8; ++e) {
            double s = 0;
            for (int y = 0; y < kWarps; ++y)
                s += part[y][threadIdx.x * kLane + e];
            atomicAdd(out + j0 + e, s);
        }
}

__global__ void readSum(const uint4* x, Index n4, unsigned* out)
{
    unsigned s = 0;
    for (Index i = blockIdx.x * Index(blockDim.x) + threadIdx.x; i < n4; i += Index(gridDim.x) * blockDim.x) {
        const uint4 r = __ldcs(x + i);
        s ^= r.x ^ r.y ^ r.z ^ r.w;
    }
    if (s == 0x12345678u)
        *out = s;
}

__global__ void toBf16(const float* f, __nv_bfloat16* h, Index n)
{
    for (Index i = blockIdx.x * Index(blockDim.x) + threadIdx.x; i < n; i += Index(gridDim.x) * blockDim.x)
        h[i] = __float2bfloat16_rn(f[i]);
}

int main()
{
    cudaDeviceProp prop{};
    CK(cudaGetDeviceProperties(&prop, 0));
    const int sms = prop.multiProcessorCount;
    int clockKHz = 0;
    CK(cudaDeviceGetAttribute(&clockKHz, cudaDevAttrClockRate, 0));
    printf("# %s, BF16 row / column dots with a double vector, median of 15 (CUDA events)\n", prop.name);
    for (Index n : {Index(4096), Index(8192), Index(16384)}) {
        const Index elems = n * n;
        float* f;
        __nv_bfloat16* x;
        double *v, *out, *ref;
        unsigned* sink;
        CK(cudaMalloc(&f, elems * 4));
        CK(cudaMalloc(&x, elems * 2));
        CK(cudaMalloc(&v, n * 8));
        CK(cudaMalloc(&out, n * 8));
        CK(cudaMalloc(&ref, n * 8));
        CK(cudaMalloc(&sink, 4));
        fill<<<sms * 8, 256>>>(f, elems, 7);
        toBf16<<<sms * 8, 256>>>(f, x, elems);
        std::vector<double> hv(n);
        for (Index k = 0; k < n; ++k)
            hv[k] = std::sin(double(k)) * 3.0 + 0.1;
        CK(cudaMemcpy(v, hv.data(), n * 8, cudaMemcpyHostToDevice));
        // A few elements the bit path must hand to cvt: a subnormal, an inf is left out (it would
        // make every sum inf and the comparison empty).
        const __nv_bfloat16 sub = __float2bfloat16_rn(3e-39f);
        CK(cudaMemcpy(x + 17, &sub, 2, cudaMemcpyHostToDevice));
        CK(cudaMemcpy(x + n * 5 + 3, &sub, 2, cudaMemcpyHostToDevice));
        CK(cudaDeviceSynchronize());
        const float readMs = medianMs([&] { readSum<<<sms * 8, 256>>>(reinterpret_cast<const uint4*>(x), elems / 8, sink); }, 15);
        printf("N %lld: read-only %.4f ms = %.0f GB/s\n", (long long)n, readMs, elems * 2 / readMs / 1e6);
        const Index rowBlocks = n / (kWarps * kRowsPerWarp);
        const Index stages = n / kStage;
        const Index spans = std::max<Index>(1, std::min<Index>(stages, (4 * sms + rowBlocks - 1) / rowBlocks));
        const Index stagesPerSpan = (stages + spans - 1) / spans;
        const Index strips = n / (kWarp * kLane);
        const Index units = n / 256, chunks = std::max<Index>(1, std::min<Index>(units, (4 * sms + strips - 1) / strips));
        const Index chunkRows = (units + chunks - 1) / chunks * 256;
        std::vector<double> hr(n), ho(n);
        auto report = [&](const char* name, auto launch, bool reference) {
            const float ms = medianMs([&] { CK(cudaMemsetAsync(out, 0, n * 8)); launch(); }, 15);
            CK(cudaMemsetAsync(out, 0, n * 8));
            launch();
            CK(cudaMemcpy(ho.data(), out, n * 8, cudaMemcpyDeviceToHost));
            if (reference)
                hr = ho;
            double diff = 0;
            for (Index i = 0; i < n; ++i)
                diff = std::max(diff, std::fabs(ho[i] - hr[i]) / std::max(1e-300, std::fabs(hr[i])));
            printf("  %-12s %.4f ms = %5.0f GB/s (%5.1f%% of read-only), %.2f elements per SM and clock at %d MHz, max rel diff to cvt %.2e\n",
                   name, ms, elems * 2 / ms / 1e6, 100.0 * readMs / ms, elems / (ms * 1e-3) / sms / (clockKHz * 1e3),
                   clockKHz / 1000, diff);
        };
        const dim3 rowGrid(unsigned(rowBlocks), unsigned((stages + stagesPerSpan - 1) / stagesPerSpan));
        const dim3 colGrid(unsigned(strips), unsigned((n + chunkRows - 1) / chunkRows));
        report("rows cvt", [&] { rowDots<Cvt><<<rowGrid, kWarps * kWarp>>>(x, n, v, out, stagesPerSpan); }, true);
        report("rows bits", [&] { rowDots<Bits><<<rowGrid, kWarps * kWarp>>>(x, n, v, out, stagesPerSpan); }, false);
        report("rows f32", [&] { rowDots<F32><<<rowGrid, kWarps * kWarp>>>(x, n, v, out, stagesPerSpan); }, false);
        report("cols cvt", [&] { columnDots<Cvt><<<colGrid, dim3(kWarp, kWarps)>>>(x, n, v, out, chunkRows); }, true);
        report("cols bits", [&] { columnDots<Bits><<<colGrid, dim3(kWarp, kWarps)>>>(x, n, v, out, chunkRows); }, false);
        report("cols f32", [&] { columnDots<F32><<<colGrid, dim3(kWarp, kWarps)>>>(x, n, v, out, chunkRows); }, false);
        // After a GEMM: C = A B in BF16 (A = B = x), then the row dots, then the column dots.
        if (n >= 8192) {
            cublasHandle_t h;
            BK(cublasCreate(&h));
            float* c;
            CK(cudaMalloc(&c, elems * 4));
            cudaEvent_t ev[4];
            for (auto& e : ev)
                CK(cudaEventCreate(&e));
            const float one = 1.f, zero = 0.f;
            auto gemm = [&] {
                BK(cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, int(n), int(n), int(n), &one, x, CUDA_R_16BF, int(n), x,
                                CUDA_R_16BF, int(n), &zero, c, CUDA_R_32F, int(n), CUBLAS_COMPUTE_32F,
                                CUBLAS_GEMM_DEFAULT));
            };
            auto after = [&](const char* name, auto rows, auto cols) {
                std::vector<float> g, r, k;
                for (int rep = 0; rep < 16; ++rep) {
                    CK(cudaEventRecord(ev[0]));
                    gemm();
                    CK(cudaEventRecord(ev[1]));
                    rows();
                    CK(cudaEventRecord(ev[2]));
                    cols();
                    CK(cudaEventRecord(ev[3]));
                    CK(cudaEventSynchronize(ev[3]));
                    float a = 0, b = 0, d = 0;
                    CK(cudaEventElapsedTime(&a, ev[0], ev[1]));
                    CK(cudaEventElapsedTime(&b, ev[1], ev[2]));
                    CK(cudaEventElapsedTime(&d, ev[2], ev[3]));
                    if (rep > 0)
                        g.push_back(a), r.push_back(b), k.push_back(d);
                }
                std::sort(g.begin(), g.end());
                std::sort(r.begin(), r.end());
                std::sort(k.begin(), k.end());
                printf("  after a BF16 GEMM (%.3f ms): %-5s rows %.4f ms (%.0f GB/s), cols %.4f ms (%.0f GB/s)\n", g[7], name,
                       r[7], elems * 2 / r[7] / 1e6, k[7], elems * 2 / k[7] / 1e6);
            };
            after("cvt", [&] { rowDots<Cvt><<<rowGrid, kWarps * kWarp>>>(x, n, v, out, stagesPerSpan); },
                  [&] { columnDots<Cvt><<<colGrid, dim3(kWarp, kWarps)>>>(x, n, v, out, chunkRows); });
            after("bits", [&] { rowDots<Bits><<<rowGrid, kWarps * kWarp>>>(x, n, v, out, stagesPerSpan); },
                  [&] { columnDots<Bits><<<colGrid, dim3(kWarp, kWarps)>>>(x, n, v, out, chunkRows); });
            after("f32", [&] { rowDots<F32><<<rowGrid, kWarps * kWarp>>>(x, n, v, out, stagesPerSpan); },
                  [&] { columnDots<F32><<<colGrid, dim3(kWarp, kWarps)>>>(x, n, v, out, chunkRows); });
            after("read", [&] { readSum<<<sms * 8, 256>>>(reinterpret_cast<const uint4*>(x), elems / 8, sink); },
                  [&] { readSum<<<sms * 8, 256>>>(reinterpret_cast<const uint4*>(x), elems / 8, sink); });
            for (auto& e : ev)
                CK(cudaEventDestroy(e));
            CK(cudaFree(c));
            BK(cublasDestroy(h));
        }
        CK(cudaFree(f));
        CK(cudaFree(x));
        CK(cudaFree(v));
        CK(cudaFree(out));
        CK(cudaFree(ref));
        CK(cudaFree(sink));
    }
    return 0;
}
