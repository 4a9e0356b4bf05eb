// Probe: how fast can the prepared 16-bit product's pass over B (abft/cuda/checksums_16bit.cu,
// columnDots16Kernel with dots only: out[j] += sum_k v_k b_kj, v double, out float) read B? In a
// kernel trace at 4096 (BF16, H100) it runs ~20 us, 15 of them after the GEMM, 17 us alone: ~2 TB/s,
// two blocks of 256 an SM (99 registers). Variants of the same kernel (same arithmetic, same order of
// adds within a lane; the block's row lanes meet in shared memory, one atomic per column and block):
//   G      rows in flight per lane (16-byte loads issued before any is used)
//   minB   __launch_bounds__ minimum blocks per SM (caps the registers)
//   pre    the next group's loads issued before the current group's arithmetic
//   unit/T the depth is cut into chunks of `unit` rows so that the grid has about T blocks an SM
// each timed alone (median of 31, events, queued behind a hold of the stream so that no launch
// latency is timed) and right after a cuBLAS BF16 GEMM of the same size on the
// same stream (the product's case: B partly in L2), against a read-only kernel over the same bytes.
// Build: nvcc -O3 -std=c++17 -arch=sm_90a column_dots_probe.cu -lcublas -o column_dots_probe
#include "probe_util.hpp"

#include <cuda_bf16.h>

#include <cmath>

using Index = std::int64_t;
constexpr int kWarp = 32, kLane = 8, kRowLanes = 8;

__device__ __forceinline__ void unpack(uint4 raw, float (&y)[8])
{
    const unsigned w[4] = {raw.x, raw.y, raw.z, raw.w};
#pragma unroll
    for (int i = 0; i < 4; ++i) {
        y[2 * i] = __uint_as_float(w[i] << 16);
        y[2 * i + 1] = __uint_as_float(w[i] & 0xffff0000u);
    }
}

template <int G>
__device__ __forceinline__ void loadGroup(const __nv_bfloat16* x, Index ld, Index k, Index kEnd, Index j0,
                                          const double* v, uint4 (&raw)[G], double (&vg)[G])
{
#pragma unroll
    for (int g = 0; g < G; ++g) {
        const Index kk = k + kRowLanes * g;
        const bool in = kk < kEnd;
        raw[g] = in ? __ldcs(reinterpret_cast<const uint4*>(x + kk * ld + j0)) : make_uint4(0, 0, 0, 0);
        vg[g] = in ? v[kk] : 0.0;
    }
}

template <int G>
__device__ __forceinline__ void addGroup(const uint4 (&raw)[G], const double (&vg)[G], double (&d)[kLane])
{
#pragma unroll
    for (int g = 0; g < G; ++g) {
        float y[8];
        unpack(raw[g], y);
#pragma unroll
        for (int e = 0; e < kLane; ++e)
            d[e] += vg[g] * double(y[e]);
    }
}

template <int G, int MinB, bool Pre>
__global__ void __launch_bounds__(kRowLanes * kWarp, MinB)
    columnDots(const __nv_bfloat16* x, Index ld, Index depth, Index cols, const double* v, float* out, Index chunkRows)
{
    __shared__ double pd[kRowLanes][kWarp * kLane];
    const Index j0 = (Index(blockIdx.x) * kWarp + threadIdx.x) * kLane;
    const Index kStart = Index(blockIdx.y) * chunkRows, kEnd = min(kStart + chunkRows, depth);
    double d[kLane];
#pragma unroll
    for (int e = 0; e < kLane; ++e)
        d[e] = 0;
    constexpr Index step = kRowLanes * G;
    if (j0 < cols) {
        if (Pre) {
            uint4 raw[G];
            double vg[G];
            Index k = kStart + threadIdx.y;
            if (k < kEnd)
                loadGroup<G>(x, ld, k, kEnd, j0, v, raw, vg);
            for (; k < kEnd; k += step) {
                uint4 next[G];
                double vn[G];
                if (k + step < kEnd)
                    loadGroup<G>(x, ld, k + step, kEnd, j0, v, next, vn);
                addGroup<G>(raw, vg, d);
#pragma unroll
                for (int g = 0; g < G; ++g)
                    raw[g] = next[g], vg[g] = vn[g];
            }
        } else {
            for (Index k = kStart + threadIdx.y; k < kEnd; k += step) {
                uint4 raw[G];
                double vg[G];
                loadGroup<G>(x, ld, k, kEnd, j0, v, raw, vg);
                addGroup<G>(raw, vg, d);
            }
        }
    }
#pragma unroll
    for (int e = 0; e < kLane; ++e)
        pd[threadIdx.y][threadIdx.x * kLane + e] = d[e];
    __syncthreads();
    if (threadIdx.y == 0 && j0 < cols)
#pragma unroll
        for (int e = 0; e < kLane; ++e) {
            double s = 0;
            for (int y = 0; y < kRowLanes; ++y)
                s += pd[y][threadIdx.x * kLane + e];
            atomicAdd(out + j0 + e, float(s));
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

// Holds the stream while the host queues what is timed after it (no launch latency in the timing).
__global__ void holdStream(unsigned ns)
{
    for (unsigned t = 0; t < ns; t += 1000)
        __nanosleep(1000);
}

__global__ void toBf16(const float* f, __nv_bfloat16* h, Index n)
{
    for (Index i = blockIdx.x * Index(blockDim.x) + threadIdx.x; i < n; i += Index(gridDim.x) * blockDim.x)
        h[i] = __float2bfloat16_rn(f[i]);
}

struct Variant {
    const char* name;
    void (*launch)(dim3, const __nv_bfloat16*, Index, const double*, float*, Index, cudaStream_t);
    int unit, perSm;
};

template <int G, int MinB, bool Pre>
void launchVariant(dim3 grid, const __nv_bfloat16* x, Index n, const double* v, float* out, Index chunkRows, cudaStream_t s)
{
    columnDots<G, MinB, Pre><<<grid, dim3(kWarp, kRowLanes), 0, s>>>(x, n, n, n, v, out, chunkRows);
}

template <int G, int MinB, bool Pre>
int registersOf()
{
    cudaFuncAttributes a{};
    CK(cudaFuncGetAttributes(&a, columnDots<G, MinB, Pre>));
    return a.numRegs;
}

int main()
{
    cudaDeviceProp prop{};
    CK(cudaGetDeviceProperties(&prop, 0));
    const int sms = prop.multiProcessorCount;
    printf("# %s (%d SMs), BF16 column dots out[j] += sum_k v_k x_kj (v double, out float), medians of 31\n", prop.name,
           sms);
    const Variant variants[] = {
        {"engine G4 minB1 u64 T4", launchVariant<4, 1, false>, 64, 4},
        {"G4 minB3 u64 T4", launchVariant<4, 3, false>, 64, 4},
        {"G4 minB4 u64 T4", launchVariant<4, 4, false>, 64, 4},
        {"G8 minB2 u64 T4", launchVariant<8, 2, false>, 64, 4},
        {"G8 minB3 u64 T4", launchVariant<8, 3, false>, 64, 4},
        {"G8 minB2 u64 T8", launchVariant<8, 2, false>, 64, 8},
        {"G8 minB3 u64 T8", launchVariant<8, 3, false>, 64, 8},
        {"G4 pre minB2 u64 T4", launchVariant<4, 2, true>, 64, 4},
        {"G4 pre minB3 u64 T8", launchVariant<4, 3, true>, 64, 8},
        {"G8 minB2 u32 T8", launchVariant<8, 2, false>, 32, 8},
        {"G8 minB3 u32 T16", launchVariant<8, 3, false>, 32, 16},
        {"G2 minB4 u32 T8", launchVariant<2, 4, false>, 32, 8},
    };
    const int regs[] = {registersOf<4, 1, false>(), registersOf<4, 3, false>(), registersOf<4, 4, false>(),
                        registersOf<8, 2, false>(), registersOf<8, 3, false>(), registersOf<8, 2, false>(),
                        registersOf<8, 3, false>(), registersOf<4, 2, true>(),  registersOf<4, 3, true>(),
                        registersOf<8, 2, false>(), registersOf<8, 3, false>(), registersOf<2, 4, false>()};
    cublasHandle_t h;
    BK(cublasCreate(&h));
    cudaStream_t s;
    CK(cudaStreamCreate(&s));
    for (Index n : {Index(4096), Index(8192)}) {
        const Index elems = n * n;
        float *f, *out, *c;
        __nv_bfloat16 *x, *a;
        double* v;
        unsigned* sink;
        CK(cudaMalloc(&f, elems * 4));
        CK(cudaMalloc(&c, elems * 4));
        CK(cudaMalloc(&x, elems * 2));
        CK(cudaMalloc(&a, elems * 2));
        CK(cudaMalloc(&v, n * 8));
        CK(cudaMalloc(&out, n * 4));
        CK(cudaMalloc(&sink, 4));
        fill<<<sms * 8, 256>>>(f, elems, 7);
        toBf16<<<sms * 8, 256>>>(f, x, elems);
        fill<<<sms * 8, 256>>>(f, elems, 11);
        toBf16<<<sms * 8, 256>>>(f, a, elems);
        std::vector<double> hv(n);
        for (Index k = 0; k < n; ++k)
            hv[k] = std::sin(double(k)) * 3.0 + 0.1;
        CK(cudaMemcpy(v, hv.data(), n * 8, cudaMemcpyHostToDevice));
        CK(cudaDeviceSynchronize());
        cudaEvent_t ev[3];
        for (auto& e : ev)
            CK(cudaEventCreate(&e));
        // Median of 31 runs of pass alone, each queued behind a 50 us hold of the stream.
        auto alone = [&](auto pass) {
            std::vector<float> t;
            for (int rep = 0; rep < 32; ++rep) {
                holdStream<<<1, 1, 0, s>>>(50000);
                CK(cudaEventRecord(ev[1], s));
                pass();
                CK(cudaEventRecord(ev[2], s));
                CK(cudaEventSynchronize(ev[2]));
                float ms = 0;
                CK(cudaEventElapsedTime(&ms, ev[1], ev[2]));
                if (rep > 0)
                    t.push_back(ms);
            }
            std::sort(t.begin(), t.end());
            return t[t.size() / 2];
        };
        const float readMs = alone([&] { readSum<<<sms * 8, 256, 0, s>>>(reinterpret_cast<const uint4*>(x), elems / 8, sink); });
        printf("N %lld: read-only %.2f us = %.0f GB/s\n", (long long)n, readMs * 1e3, elems * 2 / readMs / 1e6);
        const float one = 1.f, zero = 0.f;
        auto gemm = [&] {
            BK(cublasSetStream(h, s));
            BK(cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, int(n), int(n), int(n), &one, x, CUDA_R_16BF, int(n), a,
                            CUDA_R_16BF, int(n), &zero, c, CUDA_R_32F, int(n), CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
        };
        auto afterGemm = [&](auto pass) {
            std::vector<float> t;
            for (int rep = 0; rep < 32; ++rep) {
                CK(cudaEventRecord(ev[0], s));
                gemm();
                CK(cudaEventRecord(ev[1], s));
                pass();
                CK(cudaEventRecord(ev[2], s));
                CK(cudaEventSynchronize(ev[2]));
                float ms = 0;
                CK(cudaEventElapsedTime(&ms, ev[1], ev[2]));
                if (rep > 0)
                    t.push_back(ms);
            }
            std::sort(t.begin(), t.end());
            return t[t.size() / 2];
        };
        const float readAfter = afterGemm([&] { readSum<<<sms * 8, 256, 0, s>>>(reinterpret_cast<const uint4*>(x), elems / 8, sink); });
        printf("  read-only after a GEMM %.2f us\n", readAfter * 1e3);
        std::vector<float> ref(n), got(n);
        const Index strips = n / (kWarp * kLane);
        int i = 0;
        for (const Variant& var : variants) {
            const Index units = (n + var.unit - 1) / var.unit;
            const Index chunks = std::max<Index>(1, std::min<Index>(units, (Index(var.perSm) * sms + strips - 1) / strips));
            const Index chunkRows = (units + chunks - 1) / chunks * var.unit;
            const dim3 grid(unsigned(strips), unsigned((n + chunkRows - 1) / chunkRows));
            auto run = [&] { var.launch(grid, x, n, v, out, chunkRows, s); };
            const float aloneMs = alone(run);
            const float after = afterGemm(run);
            CK(cudaMemset(out, 0, n * 4));
            run();
            CK(cudaMemcpy(got.data(), out, n * 4, cudaMemcpyDeviceToHost));
            if (i == 0)
                ref = got;
            double diff = 0;
            for (Index j = 0; j < n; ++j)
                diff = std::max(diff, std::fabs(double(got[j]) - ref[j]) / std::max(1e-30, std::fabs(double(ref[j]))));
            printf("  %-24s %3d regs, grid %4u x %3u (%4lld rows): alone %6.2f us (%4.0f GB/s, %5.1f%% of read-only), after a GEMM %6.2f us, max rel diff %.1e\n",
                   var.name, regs[i], grid.x, grid.y, (long long)chunkRows, aloneMs * 1e3, elems * 2 / aloneMs / 1e6,
                   100.0 * readMs / aloneMs, after * 1e3, diff);
            ++i;
        }
        for (auto& e : ev)
            CK(cudaEventDestroy(e));
        CK(cudaFree(f));
        CK(cudaFree(c));
        CK(cudaFree(x));
        CK(cudaFree(a));
        CK(cudaFree(v));
        CK(cudaFree(out));
        CK(cudaFree(sink));
    }
    BK(cublasDestroy(h));
    return 0;
}
