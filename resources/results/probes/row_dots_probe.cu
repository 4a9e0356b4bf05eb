// Probe: the per-product pass of the fused product on prepared operands (abft/cuda/prepared_operands.cu):
// each row of A and of B^T (N x N floats, rounded to TF32 in registers) dotted with two double
// vectors. Variants, against a device copy and a read-only streaming sum of the same bytes:
//   chunks   the engine's first kernel: 512-column chunks, 128-row tiles, vectors in registers,
//            one float and one double atomic per row and chunk;
//   rows<R>  a block owns 8 R whole rows (R per warp), stages 1024 entries of both vectors in shared
//            memory per step, and writes each row's sums once (no atomics).
// Build: nvcc -O3 -arch=sm_90 -I ../../../engine/include row_dots_probe.cu -o row_dots_probe
#include "probe_util.hpp"

#include "gigacheck/tf32.hpp"

#include <cmath>

using Index = std::int64_t;
using gigacheck::roundToTf32;

struct Side {
    const float* x;
    Index ld, rows;
    const double* v;
    const double* s;
    float* out;
    Index outStride;
    double* scale;
};

__device__ __forceinline__ double warpSum(double v)
{
#pragma unroll
    for (int o = 16; o > 0; o >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, o);
    return v;
}

// ---- chunks (as committed) ----
constexpr int kVecs = 4, kChunk = 32 * 4 * kVecs, kGroup = 2;
constexpr Index kTileRows = 8 * kGroup * 8;

__global__ void __launch_bounds__(256) chunksKernel(Side sa, Side sb, Index depth)
{
    const Side d = blockIdx.z == 0 ? sa : sb;
    const Index r0 = Index(blockIdx.y) * kTileRows;
    if (r0 >= d.rows)
        return;
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    const Index k0 = Index(blockIdx.x) * kChunk;
    constexpr int E = 4 * kVecs;
    auto column = [&](int idx) { return k0 + Index(idx / 4) * 128 + lane * 4 + idx % 4; };
    double v[E], s[E];
#pragma unroll
    for (int idx = 0; idx < E; ++idx) {
        const Index k = column(idx);
        v[idx] = k < depth ? d.v[k] : 0.0;
        s[idx] = k < depth ? d.s[k] : 0.0;
    }
    const Index rEnd = min(r0 + kTileRows, d.rows);
    for (Index i = r0 + warp; i < rEnd; i += 8 * kGroup) {
        float x[kGroup][E];
#pragma unroll
        for (int g = 0; g < kGroup; ++g) {
            const Index row = i + 8 * g;
            const float* p = d.x + (row < rEnd ? row : i) * d.ld;
#pragma unroll
            for (int w = 0; w < kVecs; ++w) {
                const float4 q = __ldcs(reinterpret_cast<const float4*>(p + column(4 * w)));
                x[g][4 * w] = q.x, x[g][4 * w + 1] = q.y, x[g][4 * w + 2] = q.z, x[g][4 * w + 3] = q.w;
            }
        }
#pragma unroll
        for (int g = 0; g < kGroup; ++g) {
            double dot = 0, sq = 0;
#pragma unroll
            for (int idx = 0; idx < E; ++idx) {
                const double y = double(roundToTf32(x[g][idx]));
                dot += y * v[idx];
                sq += y * y * s[idx];
            }
            dot = warpSum(dot);
            sq = warpSum(sq);
            const Index row = i + 8 * g;
            if (lane == 0 && row < rEnd) {
                atomicAdd(d.out + row * d.outStride, float(dot));
                atomicAdd(d.scale + row, sq);
            }
        }
    }
}

// ---- rows<R>: whole rows per block, vectors staged in shared memory ----
constexpr int kStage = 1024;

template <int R, int U>
__global__ void __launch_bounds__(256) rowsKernel(Side sa, Side sb, Index depth)
{
    __shared__ double sv[kStage], ss[kStage];
    const Side d = blockIdx.y == 0 ? sa : sb;
    const Index r0 = Index(blockIdx.x) * (8 * R);
    if (r0 >= d.rows)
        return;
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    const Index base = r0 + warp * R;
    const float* rowPtr[R];
#pragma unroll
    for (int r = 0; r < R; ++r)
        rowPtr[r] = d.x + min(base + r, d.rows - 1) * d.ld;
    double dot[R], sq[R];
#pragma unroll
    for (int r = 0; r < R; ++r)
        dot[r] = sq[r] = 0;
    for (Index k0 = 0; k0 < depth; k0 += kStage) {
        __syncthreads();
        for (int t = threadIdx.x; t < kStage; t += 256) {
            const Index k = k0 + t;
            sv[t] = k < depth ? d.v[k] : 0.0;
            ss[t] = k < depth ? d.s[k] : 0.0;
        }
        __syncthreads();
#pragma unroll U
        for (int w = 0; w < kStage / 128; ++w) {
            const int local = 4 * lane + 128 * w;
            const Index k = k0 + local;
            float4 x[R];
            if (k + 4 <= depth) {
#pragma unroll
                for (int r = 0; r < R; ++r)
                    x[r] = __ldcs(reinterpret_cast<const float4*>(rowPtr[r] + k));
            } else {
#pragma unroll
                for (int r = 0; r < R; ++r) {
                    x[r].x = k < depth ? rowPtr[r][k] : 0.f;
                    x[r].y = k + 1 < depth ? rowPtr[r][k + 1] : 0.f;
                    x[r].z = k + 2 < depth ? rowPtr[r][k + 2] : 0.f;
                    x[r].w = k + 3 < depth ? rowPtr[r][k + 3] : 0.f;
                }
            }
            const double v0 = sv[local], v1 = sv[local + 1], v2 = sv[local + 2], v3 = sv[local + 3];
            const double s0 = ss[local], s1 = ss[local + 1], s2 = ss[local + 2], s3 = ss[local + 3];
#pragma unroll
            for (int r = 0; r < R; ++r) {
                const double y0 = roundToTf32(x[r].x), y1 = roundToTf32(x[r].y), y2 = roundToTf32(x[r].z),
                             y3 = roundToTf32(x[r].w);
                dot[r] += y0 * v0 + y1 * v1 + y2 * v2 + y3 * v3;
                sq[r] += y0 * y0 * s0 + y1 * y1 * s1 + y2 * y2 * s2 + y3 * y3 * s3;
            }
        }
    }
#pragma unroll
    for (int r = 0; r < R; ++r) {
        const double a = warpSum(dot[r]), b = warpSum(sq[r]);
        if (lane == 0 && base + r < d.rows) {
            d.out[(base + r) * d.outStride] = float(a);
            d.scale[base + r] = b;
        }
    }
}

__global__ void readSum(const float4* p, size_t n4, float* out)
{
    float s = 0;
    for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n4; i += size_t(gridDim.x) * blockDim.x) {
        const float4 x = __ldcs(p + i);
        s += x.x + x.y + x.z + x.w;
    }
    if (s == 12345.f)
        *out = s;
}

int main()
{
    int sms = 0;
    CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    printf("# %s, row dots over A and B^T (2 N^2 floats), median of 15 (CUDA events)\n", prop.name);
    for (Index n : {4096, 8192, 16384}) {
        const size_t elems = size_t(n) * size_t(n);
        float *x = nullptr, *copy = nullptr, *outs = nullptr;
        double *vec = nullptr, *scales = nullptr;
        CK(cudaMalloc(&x, 2 * elems * 4));
        CK(cudaMalloc(&copy, 2 * elems * 4));
        CK(cudaMalloc(&vec, 4 * size_t(n) * 8));
        CK(cudaMalloc(&outs, 2 * size_t(n) * 4));
        CK(cudaMalloc(&scales, 2 * size_t(n) * 8));
        fill<<<1024, 256>>>(x, 2 * elems, 1);
        std::vector<double> hv(4 * size_t(n));
        for (size_t i = 0; i < hv.size(); ++i)
            hv[i] = 1.0 + double(i % 97) / 97.0;
        CK(cudaMemcpy(vec, hv.data(), hv.size() * 8, cudaMemcpyHostToDevice));
        Side sa{x, n, n, vec, vec + n, outs, 1, scales};
        Side sb{x + elems, n, n, vec + 2 * n, vec + 3 * n, outs + n, 1, scales + n};
        auto zero = [&] {
            CK(cudaMemsetAsync(outs, 0, 2 * size_t(n) * 4));
            CK(cudaMemsetAsync(scales, 0, 2 * size_t(n) * 8));
        };
        const float copyMs = medianMs([&] { CK(cudaMemcpyAsync(copy, x, 2 * elems * 4, cudaMemcpyDeviceToDevice)); }, 15);
        const float readMs = medianMs([&] { readSum<<<sms * 8, 256>>>(reinterpret_cast<const float4*>(x), elems / 2, outs); }, 15);
        const double gb = 2.0 * elems * 4 / 1e9;
        printf("N %lld: copy (read + write) %.4f ms = %.0f GB/s read; read-only sum %.4f ms = %.0f GB/s\n", (long long)n,
               copyMs, gb / copyMs * 1e3, readMs, gb / readMs * 1e3);
        std::vector<float> ref(2 * size_t(n)), got(2 * size_t(n));
        auto run = [&](const char* name, auto launch) {
            zero();
            launch();
            CK(cudaDeviceSynchronize());
            CK(cudaMemcpy(got.data(), outs, got.size() * 4, cudaMemcpyDeviceToHost));
            if (ref[0] == 0.f)
                ref = got;
            double worst = 0;
            for (size_t i = 0; i < got.size(); ++i)
                worst = std::max(worst, std::fabs(double(got[i]) - ref[i]) / (std::fabs(double(ref[i])) + 1e-30));
            const float ms = medianMs([&] { zero(); launch(); }, 15);
            printf("  %-12s %.4f ms = %.0f GB/s (%.1f%% of read-only), max rel diff to chunks %.2e\n", name, ms,
                   gb / ms * 1e3, 100.0 * readMs / ms, worst);
        };
        const dim3 chunkGrid(unsigned((n + kChunk - 1) / kChunk), unsigned((n + kTileRows - 1) / kTileRows), 2);
        run("chunks", [&] { chunksKernel<<<chunkGrid, 256>>>(sa, sb, n); });
        run("rows<2,2>", [&] { rowsKernel<2, 2><<<dim3(unsigned((n + 15) / 16), 2), 256>>>(sa, sb, n); });
        run("rows<4,2>", [&] { rowsKernel<4, 2><<<dim3(unsigned((n + 31) / 32), 2), 256>>>(sa, sb, n); });
        run("rows<4,4>", [&] { rowsKernel<4, 4><<<dim3(unsigned((n + 31) / 32), 2), 256>>>(sa, sb, n); });
        run("rows<8,1>", [&] { rowsKernel<8, 1><<<dim3(unsigned((n + 63) / 64), 2), 256>>>(sa, sb, n); });
        run("rows<8,2>", [&] { rowsKernel<8, 2><<<dim3(unsigned((n + 63) / 64), 2), 256>>>(sa, sb, n); });
        CK(cudaFree(x));
        CK(cudaFree(copy));
        CK(cudaFree(vec));
        CK(cudaFree(outs));
        CK(cudaFree(scales));
    }
    return 0;
}
