#include "abft/cuda/checksums_16bit.hpp"

#include "abft/cuda/pass_tiles.cuh"
#include "core/cuda/check.hpp"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <algorithm>
#include <cstdint>

namespace gigacheck::cuda {

namespace {

using namespace passes;

constexpr int kLane = 8;  // elements per lane and load: 16 bytes of 16-bit data, 32 of FP32

// ---- the 16-bit formats --------------------------------------------------------------------------
// A 16-bit value is handled as its bit pattern in an unsigned (so that 8 of them unpack from one
// 16-byte load without going through local memory).
template <class H> struct Format16;
template <> struct Format16<__nv_bfloat16> {
    __device__ static unsigned bitsOf(float x) { return __bfloat16_as_ushort(__float2bfloat16_rn(x)); }
    __device__ static float valueOf(unsigned bits) { return __uint_as_float(bits << 16); }
};
template <> struct Format16<__half> {
    __device__ static unsigned bitsOf(float x) { return __half_as_ushort(__float2half_rn(x)); }
    __device__ static float valueOf(unsigned bits) { return __half2float(__ushort_as_half((unsigned short)bits)); }
};

// x[0 .. 8) = row[first .. first + 8) as the GEMM multiplies them (0 at or past `end`), and h the
// bits of the same values in 16 bits. An FP32 source is rounded to nearest even (as
// gigacheck/input_rounding.hpp and the conversion to 16 bits do); all loads stream (nothing is
// reused from L2).
template <class H>
__device__ __forceinline__ void load8(const float* row, Index first, Index end, bool vec, float (&x)[kLane],
                                      unsigned (&h)[kLane])
{
    if (vec && first + kLane <= end) {
        const float4 lo = __ldcs(reinterpret_cast<const float4*>(row + first));
        const float4 hi = __ldcs(reinterpret_cast<const float4*>(row + first + 4));
        x[0] = lo.x, x[1] = lo.y, x[2] = lo.z, x[3] = lo.w;
        x[4] = hi.x, x[5] = hi.y, x[6] = hi.z, x[7] = hi.w;
    } else {
#pragma unroll
        for (int e = 0; e < kLane; ++e)
            x[e] = first + e < end ? row[first + e] : 0.0f;
    }
#pragma unroll
    for (int e = 0; e < kLane; ++e) {
        h[e] = Format16<H>::bitsOf(x[e]);
        x[e] = Format16<H>::valueOf(h[e]);
    }
}

template <class H>
__device__ __forceinline__ void load8(const H* row, Index first, Index end, bool vec, float (&x)[kLane],
                                      unsigned (&h)[kLane])
{
    const unsigned short* bits = reinterpret_cast<const unsigned short*>(row);
    if (vec && first + kLane <= end) {
        const uint4 raw = __ldcs(reinterpret_cast<const uint4*>(bits + first));
        const unsigned words[4] = {raw.x, raw.y, raw.z, raw.w};
#pragma unroll
        for (int w = 0; w < 4; ++w) {
            h[2 * w] = words[w] & 0xffffu;
            h[2 * w + 1] = words[w] >> 16;
        }
    } else {
#pragma unroll
        for (int e = 0; e < kLane; ++e)
            h[e] = first + e < end ? unsigned(bits[first + e]) : 0u;
    }
#pragma unroll
    for (int e = 0; e < kLane; ++e)
        x[e] = Format16<H>::valueOf(h[e]);
}

// One lane's 8 elements as loaded (16 bytes of 16-bit data, 32 of FP32), before any is used.
template <class S> struct Raw8 {
    uint4 bits;
};
template <> struct Raw8<float> {
    float4 lo, hi;
};

template <class S>
__device__ __forceinline__ Raw8<S> loadRaw8(const S* row, Index first)
{
    return {__ldcs(reinterpret_cast<const uint4*>(row + first))};
}
template <>
__device__ __forceinline__ Raw8<float> loadRaw8(const float* row, Index first)
{
    return {__ldcs(reinterpret_cast<const float4*>(row + first)), __ldcs(reinterpret_cast<const float4*>(row + first + 4))};
}

// x and h of load8 from what loadRaw8 read (all zero: 0).
template <class H>
__device__ __forceinline__ void unpackRaw8(const Raw8<H>& raw, float (&x)[kLane], unsigned (&h)[kLane])
{
    const unsigned words[4] = {raw.bits.x, raw.bits.y, raw.bits.z, raw.bits.w};
#pragma unroll
    for (int w = 0; w < 4; ++w) {
        h[2 * w] = words[w] & 0xffffu;
        h[2 * w + 1] = words[w] >> 16;
    }
#pragma unroll
    for (int e = 0; e < kLane; ++e)
        x[e] = Format16<H>::valueOf(h[e]);
}
template <class H>
__device__ __forceinline__ void unpackRaw8(const Raw8<float>& raw, float (&x)[kLane], unsigned (&h)[kLane])
{
    const float v[kLane] = {raw.lo.x, raw.lo.y, raw.lo.z, raw.lo.w, raw.hi.x, raw.hi.y, raw.hi.z, raw.hi.w};
#pragma unroll
    for (int e = 0; e < kLane; ++e) {
        h[e] = Format16<H>::bitsOf(v[e]);
        x[e] = Format16<H>::valueOf(h[e]);
    }
}

// Elements [first, first + 8) of G rows at once (row[g]; in[g] false: past the end, read as 0), as
// load8 gives them. When each lane's 8 are one whole vector load (`whole`), every row's load is
// issued before any is used: with a load8 per row, each behind its own branch, each load was waited
// for before the next was issued -- one load in flight per lane, and the prepared passes read
// 1.2-1.5 TB/s on an H200 where the same loop with its loads issued together reads 3.4 (probe
// dots16_conversion_probe.cu).
template <class H, class S, int G>
__device__ __forceinline__ void loadRows8(const S* const (&row)[G], const bool (&in)[G], Index first, Index end,
                                          bool whole, float (&x)[G][kLane], unsigned (&h)[G][kLane])
{
    if (whole) {
        Raw8<S> raw[G];
#pragma unroll
        for (int g = 0; g < G; ++g)
            raw[g] = in[g] ? loadRaw8(row[g], first) : Raw8<S>{};
#pragma unroll
        for (int g = 0; g < G; ++g)
            unpackRaw8<H>(raw[g], x[g], h[g]);
    } else {
#pragma unroll
        for (int g = 0; g < G; ++g)
            load8<H>(row[g], first, in[g] ? end : first, false, x[g], h[g]);
    }
}

// The 16-bit copy's row[first .. first + 8) = h (elements at or past `end` not written).
template <class H>
__device__ __forceinline__ void store8(H* row, Index first, Index end, bool vec, const unsigned (&h)[kLane])
{
    unsigned short* bits = reinterpret_cast<unsigned short*>(row);
    if (vec && first + kLane <= end) {
        *reinterpret_cast<uint4*>(bits + first) =
            make_uint4(h[0] | (h[1] << 16), h[2] | (h[3] << 16), h[4] | (h[5] << 16), h[6] | (h[7] << 16));
    } else {
#pragma unroll
        for (int e = 0; e < kLane; ++e)
            if (first + e < end)
                bits[first + e] = (unsigned short)h[e];
    }
}

// ---- B's checksum column and row norms (one warp per row of B) ------------------------------------
template <class S, class H>
__global__ void rowSums16Kernel(const S* b, Index ldb, Index depth, Index cols, bool vec, RowChecksumsB out)
{
    const Index k = Index(blockIdx.x) * (blockDim.x / kWarp) + threadIdx.x / kWarp;
    const int lane = threadIdx.x % kWarp;
    if (k >= depth)
        return;
    const S* row = b + k * ldb;
    double s = 0, q = 0;
    for (Index c0 = Index(lane) * kLane; c0 < cols; c0 += kWarp * kLane) {
        float x[kLane];
        unsigned h[kLane];
        load8<H>(row, c0, cols, vec, x, h);
#pragma unroll
        for (int e = 0; e < kLane; ++e) {
            s += double(x[e]);
            q += double(x[e]) * double(x[e]);
        }
    }
    s = warpSum(s);
    q = warpSum(q);
    if (lane == 0) {
        const float r = float(s);  // as checksumB keeps it: in B's element type
        out.rb[k * out.stride] = r;
        out.rb[k * out.stride + 1] = float(sqrt(q + double(r) * double(r)));
    }
}

// ---- pass over A (rows i < rows, columns k0 .. k0 + kn) -------------------------------------------
//   C[i, cols] += sum_k a_ik r_k,  rowScale[i] += sum_k a_ik^2 (|b_k|^2 + r_k^2),
//   cA[k] = sum_i a_ik,  aSq[k] = sum_i a_ik^2.
// A tile is tileRows x kACols; 8 warps, each kAGroup rows at a time, a lane 8 consecutive columns.
constexpr int kACols = kWarp * kLane, kARows = 256, kAGroup = 2;

template <class S, class H>
__global__ void __launch_bounds__(256, 2)
    aPass16Kernel(const S* a, Index lda, RowChecksumsB rowChecksums, float* c, Index ldc, Index rows, Index k0, Index kn,
                  Index cols, double* cA, double* aSq, double* rowScale, bool vec, H* a16, Index ld16, bool vec16,
                  Index tileRows)
{
    __shared__ double colPart[2][kPassWarps][kACols];
    const int lane = threadIdx.x % kWarp, warp = threadIdx.x / kWarp;
    const Index r0 = Index(blockIdx.y) * tileRows, c0 = Index(blockIdx.x) * kACols + lane * kLane;
    double r[kLane], w[kLane], cs[kLane], cq[kLane];
#pragma unroll
    for (int e = 0; e < kLane; ++e) {
        r[e] = w[e] = cs[e] = cq[e] = 0;
        if (c0 + e < kn) {
            const float* rk = rowChecksums.rb + (k0 + c0 + e) * rowChecksums.stride;
            r[e] = double(rk[0]);
            w[e] = double(rk[1]) * double(rk[1]) + r[e] * r[e];
        }
    }
    const Index rEnd = min(r0 + tileRows, rows);
    const bool whole = vec && c0 + kLane <= kn;  // a lane's 8 columns in whole vector loads
    for (Index i = r0 + warp; i < rEnd; i += 8 * kAGroup) {
        float x[kAGroup][kLane];
        unsigned h[kAGroup][kLane];
        const S* rowG[kAGroup];
        bool in[kAGroup];
#pragma unroll
        for (int g = 0; g < kAGroup; ++g) {
            in[g] = i + 8 * g < rEnd;
            rowG[g] = a + (i + 8 * g) * lda + k0;
        }
        loadRows8<H>(rowG, in, c0, kn, whole, x, h);
        if (a16)
#pragma unroll
            for (int g = 0; g < kAGroup; ++g)
                if (i + 8 * g < rEnd)
                    store8(a16 + (i + 8 * g) * ld16 + k0, c0, kn, vec16, h[g]);
        addRowsOfA(x, r, w, cs, cq, lane, i, rEnd, c, ldc, cols, rowScale);
    }
    addColumnsOfA(colPart, cs, cq, warp, [lane](int e) { return lane * kLane + e; }, Index(blockIdx.x) * kACols, kn, cA,
                  aSq);
}

// ---- pass over B_r (rows k0 .. k0 + kn, columns j <= cols; column cols is r_B) ----------------------
//   C[rows, j] += sum_k c_k b_kj,  colScale[j] += sum_k (|a_k|^2 + 2 c_k^2) b_kj^2,
//   rowScale[rows] += sum_k c_k^2 (|b_k|^2 + r_k^2).
// Blocks of kWarp lanes x 8 row lanes, a lane 8 consecutive columns, kBGroup rows in flight.
constexpr int kBRows = 512, kBGroup = 2;

template <class S, class H>
__global__ void __launch_bounds__(256, 2)
    bPass16Kernel(const S* b, Index ldb, RowChecksumsB rowChecksums, float* c, Index ldc, Index rows, Index k0, Index kn,
                  Index cols, const double* cA, const double* aSq, double* colScale, double* rowScale, bool vec, H* b16,
                  bool vec16, Index tileRows)
{
    __shared__ double pd[kPassWarps][kWarp * kLane], pq[kPassWarps][kWarp * kLane], pc[kPassWarps];
    const Index j0 = (Index(blockIdx.x) * kWarp + threadIdx.x) * kLane;
    const Index kStart = Index(blockIdx.y) * tileRows;
    const bool cornerLane = j0 <= cols && cols < j0 + kLane;
    double d[kLane], q[kLane], qc = 0;
#pragma unroll
    for (int e = 0; e < kLane; ++e)
        d[e] = q[e] = 0;
    if (j0 <= cols) {
        const Index kEnd = min(kStart + tileRows, kn);
        const bool whole = vec && j0 + kLane <= cols;  // a lane's 8 columns in whole vector loads
        for (Index k = kStart + threadIdx.y; k < kEnd; k += 8 * kBGroup) {
            float x[kBGroup][kLane], rk[kBGroup], nk[kBGroup];
            unsigned h[kBGroup][kLane];
            double ca[kBGroup], sq[kBGroup];
            const S* rowG[kBGroup];
            bool in[kBGroup];
#pragma unroll
            for (int g = 0; g < kBGroup; ++g) {
                const Index kk = k + 8 * g;
                in[g] = kk < kEnd;
                rowG[g] = b + (k0 + kk) * ldb;
            }
            loadRows8<H>(rowG, in, j0, cols, whole, x, h);
#pragma unroll
            for (int g = 0; g < kBGroup; ++g) {
                const Index kk = k + 8 * g;
                ca[g] = sq[g] = 0;
                rk[g] = nk[g] = 0.0f;
                if (in[g]) {
                    ca[g] = cA[kk];
                    sq[g] = aSq[kk];
                    if (cornerLane) {
                        const float* r = rowChecksums.rb + (k0 + kk) * rowChecksums.stride;
                        rk[g] = r[0];
                        nk[g] = r[1];
                    }
                }
            }
            if (b16)
#pragma unroll
                for (int g = 0; g < kBGroup; ++g)
                    if (k + 8 * g < kEnd)
                        store8(b16 + (k0 + k + 8 * g) * cols, j0, cols, vec16, h[g]);
#pragma unroll
            for (int g = 0; g < kBGroup; ++g) {
                const double u = sq[g] + 2.0 * ca[g] * ca[g];
#pragma unroll
                for (int e = 0; e < kLane; ++e) {
                    // Column cols of B_r is r_B, as it lies (not rounded); load8 read it as 0.
                    const double v = cornerLane && j0 + e == cols ? double(rk[g]) : double(x[g][e]);
                    d[e] += ca[g] * v;
                    q[e] += u * v * v;
                }
                if (cornerLane) {
                    const double r = double(rk[g]), norm = double(nk[g]);
                    qc += ca[g] * ca[g] * (norm * norm + r * r);
                }
            }
        }
    }
    addColumnsOfB(pd, pq, pc, d, q, qc, cornerLane, j0, rows, cols, c, ldc, colScale, rowScale);
}

// ---- the passes of operands prepared at entry -----------------------------------------------------
// Row dots, whole rows: a warp owns kDotRows rows and walks its block's span of the inner dimension
// 256 columns a step (a lane 8 of them, one 16-byte load per row), v and w staged in shared memory
// for the block's warps; a lane keeps its partial sums over the whole span and the warp reduces them
// once per row at the end (reducing a row after every 512 columns, the chunked shape the TF32 pass
// uses below one block per SM, spent its time in the shuffles: 1.3 TB/s on an H200 at 8192). Spans:
// the inner dimension is split only as far as it takes to give the grid four blocks per SM, the
// spans' sums meeting by atomics.
constexpr int kDotRows = 4;                               // rows per warp, their loads in flight together
constexpr Index kDotBlockRows = kPassWarps * kDotRows;    // 32 rows per block
constexpr int kDotStep = kWarp * kLane;                   // 256 columns per step
// Entries of v and w staged at a time, and the spans' unit: 1024 lets a depth of 4096 make four spans
// (2048 made two: two blocks an SM at 4096, the grid the pass over B ran at 61 % of an H100's bandwidth).
constexpr int kDotStage = 1024;

// The inner dimension's spans (whole stages each) for `rowBlocks` blocks of rows.
Index dotSpans(Index rowBlocks, Index depth)
{
    int device = 0, sms = 0;
    CUDA_CHECK(cudaGetDevice(&device));
    CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    const Index stages = Index(blocksFor(depth, kDotStage));
    const Index wanted = Index(blocksFor(4 * Index(sms), rowBlocks));
    return std::max<Index>(1, std::min(stages, wanted));
}

// Dot: out (the products with v); Sq: scale (the squares with w): what a launch asks for.
template <class H, bool Dot, bool Sq>
__global__ void __launch_bounds__(kPassWarps * kWarp)
    rowDots16Kernel(const H* x, Index ld, Index rows, Index depth, const double* v, const double* w, float* out,
                    Index outStride, double* scale, bool vec, Index stagesPerSpan)
{
    __shared__ double stagedV[kDotStage], stagedW[kDotStage];
    const int lane = threadIdx.x % kWarp, warp = threadIdx.x / kWarp;
    const Index first = Index(blockIdx.x) * kDotBlockRows + Index(warp) * kDotRows;
    const Index kBegin = Index(blockIdx.y) * stagesPerSpan * kDotStage;
    const Index kEnd = min(kBegin + stagesPerSpan * kDotStage, depth);
    const H* row[kDotRows];
    bool allRows[kDotRows];
#pragma unroll
    for (int r = 0; r < kDotRows; ++r) {  // rows past the end read the last row, never stored
        row[r] = x + min(first + r, rows - 1) * ld;
        allRows[r] = true;
    }
    // Two partial sums per row and quantity (even and odd elements): independent chains of adds.
    double dot[kDotRows][2], sq[kDotRows][2];
#pragma unroll
    for (int r = 0; r < kDotRows; ++r)
        dot[r][0] = dot[r][1] = sq[r][0] = sq[r][1] = 0;
    for (Index k0 = kBegin; k0 < kEnd; k0 += kDotStage) {
        __syncthreads();
        for (int t = threadIdx.x; t < kDotStage; t += blockDim.x) {
            const Index k = k0 + t;
            if (Dot)
                stagedV[t] = k < kEnd ? v[k] : 0.0;
            if (Sq)
                stagedW[t] = k < kEnd ? w[k] : 0.0;
        }
        __syncthreads();
        const Index stageEnd = min(k0 + kDotStage, kEnd);
#pragma unroll 1
        for (Index k = k0 + lane * kLane; k < stageEnd; k += kDotStep) {
            float xs[kDotRows][kLane];
            unsigned bits[kDotRows][kLane];
            loadRows8<H>(row, allRows, k, stageEnd, vec && k + kLane <= stageEnd, xs, bits);
            const int local = int(k - k0);
#pragma unroll
            for (int e = 0; e < kLane; ++e) {
                const double ve = Dot ? stagedV[local + e] : 0.0, we = Sq ? stagedW[local + e] : 0.0;
#pragma unroll
                for (int r = 0; r < kDotRows; ++r) {
                    const double y = double(xs[r][e]);
                    if (Dot)
                        dot[r][e % 2] += y * ve;
                    if (Sq)
                        sq[r][e % 2] += y * y * we;
                }
            }
        }
    }
#pragma unroll
    for (int r = 0; r < kDotRows; ++r) {
        const double d = Dot ? warpSum(dot[r][0] + dot[r][1]) : 0.0, q = Sq ? warpSum(sq[r][0] + sq[r][1]) : 0.0;
        if (lane == 0 && first + r < rows) {
            if (Dot)
                atomicAdd(out + (first + r) * outStride, float(d));
            if (Sq)
                atomicAdd(scale + first + r, q);
        }
    }
}

// Column dots: blocks of kWarp lanes x kPassWarps row lanes, a lane 8 consecutive columns,
// kColumnGroup rows in flight; the row lanes' sums meet in shared memory, then one atomic per column
// and block. A block's rows are as many as still give the grid four blocks per SM (the reduction at
// its end is paid once per block: 256-row blocks read 1.0 TB/s on an H200 at 8192). v and w null: 1.
// Chunks are whole units of rows; 64, not 256, so that a depth of 4096 gives 32 chunks, not 16: the
// pass over B at 4096 ran two blocks an SM at 61 % of the H100's bandwidth (17 us for 33.5 MB of BF16).
constexpr Index kColumnChunkUnit = 64;
constexpr int kColumnGroup = 4;

Index columnChunkRows(Index strips, Index depth)
{
    int device = 0, sms = 0;
    CUDA_CHECK(cudaGetDevice(&device));
    CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    const Index units = Index(blocksFor(depth, kColumnChunkUnit));
    const Index chunks = std::max<Index>(1, std::min(units, Index(blocksFor(4 * Index(sms), strips))));
    return Index(blocksFor(units, chunks)) * kColumnChunkUnit;
}

template <class H, class Out, bool Dot, bool Sq>
__global__ void __launch_bounds__(kPassWarps * kWarp)
    columnDots16Kernel(const H* x, Index ld, Index depth, Index cols, const double* v, const double* w, Out* out,
                       double* scale, bool vec, Index chunkRows)
{
    __shared__ double pd[kPassWarps][kWarp * kLane], pq[kPassWarps][kWarp * kLane];
    const Index j0 = (Index(blockIdx.x) * kWarp + threadIdx.x) * kLane;
    const Index kStart = Index(blockIdx.y) * chunkRows, kEnd = min(kStart + chunkRows, depth);
    double d[kLane], q[kLane];
#pragma unroll
    for (int e = 0; e < kLane; ++e)
        d[e] = q[e] = 0;
    const bool whole = vec && j0 + kLane <= cols;  // a lane's 8 columns in one vector load
    if (j0 < cols) {
        for (Index k = kStart + threadIdx.y; k < kEnd; k += kPassWarps * kColumnGroup) {
            float xs[kColumnGroup][kLane];
            unsigned bits[kColumnGroup][kLane];
            double vg[kColumnGroup], wg[kColumnGroup];
            const H* rowG[kColumnGroup];
            bool in[kColumnGroup];
#pragma unroll
            for (int g = 0; g < kColumnGroup; ++g) {
                const Index kk = k + kPassWarps * g;
                in[g] = kk < kEnd;
                rowG[g] = x + kk * ld;
                vg[g] = !in[g] ? 0.0 : v ? v[kk] : 1.0;
                wg[g] = !in[g] ? 0.0 : w ? w[kk] : 1.0;
            }
            loadRows8<H>(rowG, in, j0, cols, whole, xs, bits);
#pragma unroll
            for (int g = 0; g < kColumnGroup; ++g)
#pragma unroll
                for (int e = 0; e < kLane; ++e) {
                    const double y = double(xs[g][e]);
                    if (Dot)
                        d[e] += vg[g] * y;
                    if (Sq)
                        q[e] += wg[g] * y * y;
                }
        }
    }
#pragma unroll
    for (int e = 0; e < kLane; ++e) {
        pd[threadIdx.y][threadIdx.x * kLane + e] = d[e];
        pq[threadIdx.y][threadIdx.x * kLane + e] = q[e];
    }
    __syncthreads();
    if (threadIdx.y == 0 && j0 < cols)
#pragma unroll
        for (int e = 0; e < kLane; ++e) {
            const Index j = j0 + e;
            if (j >= cols)
                break;
            double sd = 0, sq = 0;
            for (int y = 0; y < kPassWarps; ++y) {
                sd += pd[y][threadIdx.x * kLane + e];
                sq += pq[y][threadIdx.x * kLane + e];
            }
            if (Dot)
                atomicAdd(out + j, Out(sd));
            if (Sq)
                atomicAdd(scale + j, sq);
        }
}

template <class H, bool Dot, bool Sq>
void rowDots16Launch(const H* x, Index ld, Index rows, Index depth, const double* v, const double* w, float* out,
                     Index outStride, double* scale, cudaStream_t s)
{
    const unsigned rowBlocks = blocksFor(rows, kDotBlockRows);
    const Index spans = dotSpans(rowBlocks, depth);
    const Index stagesPerSpan = Index(blocksFor(Index(blocksFor(depth, kDotStage)), spans));
    rowDots16Kernel<H, Dot, Sq><<<dim3(rowBlocks, blocksFor(depth, stagesPerSpan * kDotStage)), kPassWarps * kWarp, 0, s>>>(
        x, ld, rows, depth, v, w, out, outStride, scale, vectorizable(x, ld, 0, sizeof(H)), stagesPerSpan);
    CUDA_CHECK_LAUNCH();
}

// out null: no dots; scale null: no squares.
template <class H>
void rowDots16Of(const void* x, Index ld, Index rows, Index depth, const double* v, const double* w, float* out,
                 Index outStride, double* scale, cudaStream_t s)
{
    const H* xh = static_cast<const H*>(x);
    if (out && scale)
        rowDots16Launch<H, true, true>(xh, ld, rows, depth, v, w, out, outStride, scale, s);
    else if (out)
        rowDots16Launch<H, true, false>(xh, ld, rows, depth, v, w, out, outStride, scale, s);
    else if (scale)
        rowDots16Launch<H, false, true>(xh, ld, rows, depth, v, w, out, outStride, scale, s);
}

template <class H, class Out, bool Dot, bool Sq>
void columnDots16Launch(const H* x, Index ld, Index depth, Index cols, const double* v, const double* w, Out* out,
                        double* scale, cudaStream_t s)
{
    const unsigned strips = blocksFor(cols, kWarp * kLane);
    const Index chunkRows = columnChunkRows(strips, depth);
    columnDots16Kernel<H, Out, Dot, Sq><<<dim3(strips, blocksFor(depth, chunkRows)), dim3(kWarp, kPassWarps), 0, s>>>(
        x, ld, depth, cols, v, w, out, scale, vectorizable(x, ld, 0, sizeof(H)), chunkRows);
    CUDA_CHECK_LAUNCH();
}

// out null: no dots; scale null: no squares.
template <class H, class Out>
void columnDots16Of(const void* x, Index ld, Index depth, Index cols, const double* v, const double* w, Out* out,
                    double* scale, cudaStream_t s)
{
    const H* xh = static_cast<const H*>(x);
    if (out && scale)
        columnDots16Launch<H, Out, true, true>(xh, ld, depth, cols, v, w, out, scale, s);
    else if (out)
        columnDots16Launch<H, Out, true, false>(xh, ld, depth, cols, v, w, out, scale, s);
    else if (scale)
        columnDots16Launch<H, Out, false, true>(xh, ld, depth, cols, v, w, out, scale, s);
}

template <class S, class H>
void checksumB16Impl(const S* b, Index ldb, Index depth, Index cols, RowChecksumsB out, cudaStream_t s)
{
    rowSums16Kernel<S, H><<<blocksFor(depth, 8), 256, 0, s>>>(b, ldb, depth, cols, vectorizable(b, ldb, 0, sizeof(S)),
                                                              out);
    CUDA_CHECK_LAUNCH();
}

template <class S, class H>
void checksumProducts16Impl(const S* a, Index lda, const S* b, Index ldb, RowChecksumsB rowChecksums, float* c,
                            Index ldc, Index rows, Index depth, Index cols, AuxView aux, bool accumulate, H* a16,
                            H* b16, cudaStream_t s)
{
    if (!accumulate) {
        resetChecksumsKernel<float><<<blocksFor((rows > cols ? rows : cols) + 1, 256), 256, 0, s>>>(
            c, rows, cols, ldc, aux.rowScale(), aux.colScale());
        CUDA_CHECK_LAUNCH();
    }
    const bool vecA = vectorizable(a, lda, aux.ld, sizeof(S)), vecB = vectorizable(b, ldb, 0, sizeof(S));
    const bool vecA16 = a16 && vectorizable(a16, depth, aux.ld, 2), vecB16 = b16 && vectorizable(b16, cols, 0, 2);
    // c_A and the column norms of A live in Aux's two scratch rows: the inner dimension goes in
    // chunks of aux.ld, each chunk's part of A and B read once.
    for (Index k0 = 0; k0 < depth; k0 += aux.ld) {
        const Index kn = depth - k0 < aux.ld ? depth - k0 : aux.ld;
        CUDA_CHECK(cudaMemsetAsync(aux.scratch0(), 0, std::size_t(kn) * sizeof(double), s));
        CUDA_CHECK(cudaMemsetAsync(aux.scratch1(), 0, std::size_t(kn) * sizeof(double), s));
        if (rows > 0) {
            const unsigned tiles = blocksFor(kn, kACols);
            const Index tileRows = tileRowsFor(kARows, tiles, rows);
            aPass16Kernel<S, H><<<dim3(tiles, blocksFor(rows, tileRows)), 256, 0, s>>>(
                a, lda, rowChecksums, c, ldc, rows, k0, kn, cols, aux.scratch0(), aux.scratch1(), aux.rowScale(), vecA,
                a16, depth, vecA16, tileRows);
            CUDA_CHECK_LAUNCH();
        }
        const unsigned strips = blocksFor(cols + 1, kWarp * kLane);
        const Index tileRows = tileRowsFor(kBRows, strips, kn);
        bPass16Kernel<S, H><<<dim3(strips, blocksFor(kn, tileRows)), dim3(kWarp, 8), 0, s>>>(
            b, ldb, rowChecksums, c, ldc, rows, k0, kn, cols, aux.scratch0(), aux.scratch1(), aux.colScale(),
            aux.rowScale(), vecB, b16, vecB16, tileRows);
        CUDA_CHECK_LAUNCH();
    }
}

template <class H>
void checksumB16Of(Operand16 b, Index depth, Index cols, RowChecksumsB out, cudaStream_t s)
{
    if (b.is16Bit)
        checksumB16Impl<H, H>(static_cast<const H*>(b.data), b.ld, depth, cols, out, s);
    else
        checksumB16Impl<float, H>(static_cast<const float*>(b.data), b.ld, depth, cols, out, s);
}

template <class H>
void checksumProducts16Of(Operand16 a, Operand16 b, RowChecksumsB rowChecksums, float* c, Index ldc, Index rows,
                          Index depth, Index cols, AuxView aux, bool accumulate, void* a16, void* b16, cudaStream_t s)
{
    if (a.is16Bit != b.is16Bit)
        throw BackendError("checksumProducts16: A and B must both be FP32 or both 16-bit");
    if (a.is16Bit)
        checksumProducts16Impl<H, H>(static_cast<const H*>(a.data), a.ld, static_cast<const H*>(b.data), b.ld,
                                     rowChecksums, c, ldc, rows, depth, cols, aux, accumulate, nullptr, nullptr, s);
    else
        checksumProducts16Impl<float, H>(static_cast<const float*>(a.data), a.ld, static_cast<const float*>(b.data),
                                         b.ld, rowChecksums, c, ldc, rows, depth, cols, aux, accumulate,
                                         static_cast<H*>(a16), static_cast<H*>(b16), s);
}

void require16Bit(InputFormat format)
{
    if (format != InputFormat::Bf16 && format != InputFormat::F16)
        throw BackendError("16-bit checksum passes: the input format must be BF16 or FP16");
}

template <class Out>
void columnDots16Dispatch(InputFormat format, const void* x, Index ld, Index depth, Index cols, const double* v,
                          const double* w, Out* out, double* scale, cudaStream_t s)
{
    require16Bit(format);
    if (depth <= 0 || cols <= 0)
        return;
    if (format == InputFormat::Bf16)
        columnDots16Of<__nv_bfloat16, Out>(x, ld, depth, cols, v, w, out, scale, s);
    else
        columnDots16Of<__half, Out>(x, ld, depth, cols, v, w, out, scale, s);
}

}  // namespace

void rowDots16(InputFormat format, const void* x, Index ld, Index rows, Index depth, const double* v, const double* w,
               float* out, Index outStride, double* scale, cudaStream_t s)
{
    require16Bit(format);
    if (depth <= 0 || rows <= 0)
        return;
    if (format == InputFormat::Bf16)
        rowDots16Of<__nv_bfloat16>(x, ld, rows, depth, v, w, out, outStride, scale, s);
    else
        rowDots16Of<__half>(x, ld, rows, depth, v, w, out, outStride, scale, s);
}

void columnDots16(InputFormat format, const void* x, Index ld, Index depth, Index cols, const double* v,
                  const double* w, float* out, double* scale, cudaStream_t s)
{
    columnDots16Dispatch(format, x, ld, depth, cols, v, w, out, scale, s);
}

void columnDots16(InputFormat format, const void* x, Index ld, Index depth, Index cols, const double* v,
                  const double* w, double* out, double* scale, cudaStream_t s)
{
    columnDots16Dispatch(format, x, ld, depth, cols, v, w, out, scale, s);
}

void checksumB16(InputFormat format, Operand16 b, Index depth, Index cols, RowChecksumsB out, cudaStream_t s)
{
    require16Bit(format);
    if (depth <= 0)
        return;
    if (format == InputFormat::Bf16)
        checksumB16Of<__nv_bfloat16>(b, depth, cols, out, s);
    else
        checksumB16Of<__half>(b, depth, cols, out, s);
}

void checksumProducts16(InputFormat format, Operand16 a, Operand16 b, RowChecksumsB rowChecksums, float* c, Index ldc,
                        Index rows, Index depth, Index cols, AuxView aux, bool accumulate, void* a16, void* b16,
                        cudaStream_t s)
{
    require16Bit(format);
    if (format == InputFormat::Bf16)
        checksumProducts16Of<__nv_bfloat16>(a, b, rowChecksums, c, ldc, rows, depth, cols, aux, accumulate, a16, b16, s);
    else
        checksumProducts16Of<__half>(a, b, rowChecksums, c, ldc, rows, depth, cols, aux, accumulate, a16, b16, s);
}

}  // namespace gigacheck::cuda
