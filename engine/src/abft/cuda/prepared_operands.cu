// prepareOperands and checksumProductsPrepared (prepared_operands.hpp). The sums follow the passes
// of abft_kernels.cu term by term (double accumulation, the same weights), so the verification's
// thresholds apply unchanged; only where each term is computed, and how often, differs.
#include "abft/cuda/prepared_operands.hpp"

#include "abft/cuda/checksums_16bit.hpp"
#include "abft/cuda/pass_tiles.cuh"
#include "core/cuda/check.hpp"
#include "gigacheck/tf32.hpp"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <algorithm>
#include <string>

namespace gigacheck::cuda {

using namespace passes;

PreparedOperands PreparedOperands::in(double* storage, Index depth, Index rows)
{
    PreparedOperands p;
    p.rB = storage;
    p.rowWeight = storage + depth;
    p.cA = storage + 2 * depth;
    p.colWeight = storage + 3 * depth;
    p.corner = storage + 4 * depth;
    p.depth = depth;
    if (rows > 0) {
        p.rowScale = storage + 4 * depth + 3;
        p.rowDotsAtEntry = reinterpret_cast<float*>(p.rowScale + rows);
        p.rows = rows;
    }
    return p;
}

namespace {

// ---- at entry ----------------------------------------------------------------------------------
// Column sums of A rounded to TF32 (and of its squares) into cA / aSq: thread t of a block owns the
// four columns 4t .. 4t + 3 of a strip of kStrip columns (a warp's loads are 512 contiguous bytes)
// over kEntryRows rows, then one atomic per column.
constexpr int kStrip = 1024;
constexpr Index kEntryRows = 256;

__global__ void __launch_bounds__(256) columnSumsKernel(const float* a, Index lda, Index rows, Index depth, double* cA,
                                                        double* aSq, bool vec)
{
    const Index k = Index(blockIdx.x) * kStrip + 4 * threadIdx.x;
    const Index r0 = Index(blockIdx.y) * kEntryRows, rEnd = min(r0 + kEntryRows, rows);
    double s[4] = {0, 0, 0, 0}, q[4] = {0, 0, 0, 0};
#pragma unroll 4
    for (Index i = r0; i < rEnd; ++i) {
        const float* row = a + i * lda;
        float x[4];
        if (vec && k + 4 <= depth) {
            const float4 v = __ldcs(reinterpret_cast<const float4*>(row + k));
            x[0] = v.x, x[1] = v.y, x[2] = v.z, x[3] = v.w;
        } else {
#pragma unroll
            for (int e = 0; e < 4; ++e)
                x[e] = k + e < depth ? row[k + e] : 0.0f;
        }
#pragma unroll
        for (int e = 0; e < 4; ++e) {
            const double v = double(roundToTf32(x[e]));
            s[e] += v;
            q[e] += v * v;
        }
    }
#pragma unroll
    for (int e = 0; e < 4; ++e)
        if (k + e < depth) {
            atomicAdd(cA + k + e, s[e]);
            atomicAdd(aSq + k + e, q[e]);
        }
}

// r_B and the row norms (rb[k * stride], rb[k * stride + 1]: B's checksum columns, which
// checksumBTransposed wrote, or checksumB16's vector), then the weights and the corner sums, as the A
// and B passes of abft_kernels.cu form them (input rounding on).
__global__ void __launch_bounds__(1024) finishKernel(const float* rb, Index stride, PreparedOperands p)
{
    __shared__ double part[3][32];
    double corner = 0, rowCorner = 0, colCorner = 0;
    for (Index k = threadIdx.x; k < p.depth; k += blockDim.x) {
        const double r = double(rb[k * stride]), norm = double(rb[k * stride + 1]);
        const double w = norm * norm + r * r;
        const double c = p.cA[k];
        const double u = p.colWeight[k] + 2.0 * c * c;  // colWeight held |a_k|^2 until now
        p.rB[k] = r;
        p.rowWeight[k] = w;
        p.colWeight[k] = u;
        corner += c * r;
        rowCorner += c * c * w;
        colCorner += u * r * r;
    }
    corner = warpSum(corner);
    rowCorner = warpSum(rowCorner);
    colCorner = warpSum(colCorner);
    const int lane = threadIdx.x % kWarp, warp = threadIdx.x / kWarp;
    if (lane == 0) {
        part[0][warp] = corner;
        part[1][warp] = rowCorner;
        part[2][warp] = colCorner;
    }
    __syncthreads();
    if (threadIdx.x < 3) {
        double sum = 0;
        for (int w = 0; w < int(blockDim.x / kWarp); ++w)
            sum += part[threadIdx.x][w];
        p.corner[threadIdx.x] = sum;
    }
}

// B^T's checksum rows (kChecksumRowsOfBt): r_B[k] split into three TF32 parts and a zero, exactly
// what the tensor cores multiply (each part has TF32's 11 significant bits; the remainders are exact
// in double).
__global__ void checksumRowsOfBtKernel(const double* rB, Index depth, float* rowsOfBt, Index ldbt)
{
    const Index k = Index(blockIdx.x) * blockDim.x + threadIdx.x;
    if (k >= depth)
        return;
    const double r = rB[k];
    const float big = roundToTf32(float(r));
    const double rest = r - double(big);
    const float middle = roundToTf32(float(rest));
    const float small = roundToTf32(float(rest - double(middle)));
    rowsOfBt[k] = big;
    rowsOfBt[ldbt + k] = middle;
    rowsOfBt[2 * ldbt + k] = small;
    rowsOfBt[3 * ldbt + k] = 0.0f;
}

static_assert(kChecksumPartsOf16Bit == kChecksumColumnsOf16BitB, "one way of splitting into parts");

// v in four BF16 parts, each the remainder of the ones before rounded (the remainders exact in double),
// then zeros up to kChecksumPartsOf16Bit: part p of v at out[p * stride].
__device__ void bf16PartsOf(double v, __nv_bfloat16* out, Index stride)
{
    for (int part = 0; part < 4; ++part) {
        const __nv_bfloat16 p = __float2bfloat16_rn(float(v));
        out[part * stride] = p;
        v -= double(__bfloat162float(p));
    }
    for (int zero = 4; zero < int(kChecksumPartsOf16Bit); ++zero)
        out[zero * stride] = __float2bfloat16_rn(0.0f);
}

// B's checksum columns for the 16-bit kernel (kChecksumColumnsOf16BitB): r_B[k] in parts.
__global__ void checksumColumnsOfBf16Kernel(const double* rB, Index depth, __nv_bfloat16* b, Index ld, Index cols)
{
    const Index k = Index(blockIdx.x) * blockDim.x + threadIdx.x;
    if (k < depth)
        bf16PartsOf(rB[k], b + k * ld + cols, 1);
}

// The side products' operands (prepare16BitChecksumParts), BF16: c_A's parts as 8 rows of depth, then
// r_B's as depth rows of 8; the first thread writes the scales (1: BF16 holds the parts as they are).
__global__ void checksumPartsOfBf16Kernel(const double* cA, const double* rB, Index depth, __nv_bfloat16* out,
                                          Index rBOffset, double* scales)
{
    const Index k = Index(blockIdx.x) * blockDim.x + threadIdx.x;
    if (k < 8)
        scales[k] = 1.0;
    if (k >= depth)
        return;
    bf16PartsOf(cA[k], out + k, depth);
    bf16PartsOf(rB[k], out + rBOffset + k * kChecksumPartsOf16Bit, 1);
}

// FP16: one block per vector (block 0 c_A, block 1 r_B), four rounds of: the largest remainder over
// the vector (the remainders exact in double: v minus the parts so far, each part times its scale),
// the power of two that takes it into [2^14, 2^15), the remainders at that scale rounded to FP16.
__global__ void __launch_bounds__(1024) checksumPartsOfF16Kernel(const double* cA, const double* rB, Index depth,
                                                                 __half* out, Index rBOffset, double* scales)
{
    const bool ofRB = blockIdx.x == 1;
    const double* v = ofRB ? rB : cA;
    // Part p of element k: c_A's at out[p * depth + k], r_B's at out[rBOffset + k * 8 + p].
    const auto at = [&](Index k, int p) -> __half& {
        return ofRB ? out[rBOffset + k * kChecksumPartsOf16Bit + p] : out[Index(p) * depth + k];
    };
    __shared__ double back[4];  // the factor taking part p back to v's scale
    __shared__ double warpMax[32];
    const auto remainder = [&](Index k, int parts) {
        double r = v[k];
        for (int p = 0; p < parts; ++p)
            r -= double(__half2float(at(k, p))) * back[p];
        return r;
    };
    for (int part = 0; part < 4; ++part) {
        double largest = 0;
        for (Index k = threadIdx.x; k < depth; k += blockDim.x)
            largest = fmax(largest, fabs(remainder(k, part)));
        for (int o = 16; o > 0; o >>= 1)
            largest = fmax(largest, __shfl_down_sync(0xffffffffu, largest, o));
        if (threadIdx.x % 32 == 0)
            warpMax[threadIdx.x / 32] = largest;
        __syncthreads();
        if (threadIdx.x == 0) {
            double m = 0;
            for (int w = 0; w < int(blockDim.x / 32); ++w)
                m = fmax(m, warpMax[w]);
            // Non-finite or zero: scale 1 (an inf stays inf, as BF16's parts keep it).
            const int e = m > 0 && isfinite(m) ? max(-1000, min(1000, 14 - ilogb(m))) : 0;
            back[part] = ldexp(1.0, -e);
        }
        __syncthreads();
        const double scale = 1.0 / back[part];  // a power of two: exact
        for (Index k = threadIdx.x; k < depth; k += blockDim.x)
            at(k, part) = __double2half(remainder(k, part) * scale);
        __syncthreads();  // the next round reads this part back
    }
    for (Index k = threadIdx.x; k < depth; k += blockDim.x)
        for (int zero = 4; zero < int(kChecksumPartsOf16Bit); ++zero)
            at(k, zero) = __float2half(0.0f);
    if (threadIdx.x < 4)
        scales[(ofRB ? 4 : 0) + threadIdx.x] = back[threadIdx.x];
}

// C's checksum row[j] and column[i] from the side products' parts (the four nonzero ones, largest
// first, each times its scale, added in double): row parts q x 8 and column parts 8 x m, both
// column-major; scales[0..3] c_A's parts', [4..7] r_B's.
__global__ void checksumsFromPartsKernel(const float* rowParts, const float* colParts, const double* scales, float* c,
                                         Index ldc, Index rows, Index cols)
{
    const Index t = Index(blockIdx.x) * blockDim.x + threadIdx.x;
    if (t < cols) {
        double s = 0;
        for (int part = 0; part < 4; ++part)
            s += double(rowParts[part * cols + t]) * scales[part];
        c[rows * ldc + t] = float(s);
    }
    if (t < rows) {
        double s = 0;
        for (int part = 0; part < 4; ++part)
            s += double(colParts[t * kChecksumPartsOf16Bit + part]) * scales[4 + part];
        c[t * ldc + cols] = float(s);
    }
}

// ---- per product -------------------------------------------------------------------------------
// C's checksum column and row, the scales and the epilogue's sums to zero; the corner cells from
// the prepared operands (they do not change between products of the same operands).
// rowScale / colScale (16-bit operands: prepared at entry; null: 0, the passes add them).
// colSumsEnd: the epilogue's column sums zeroed below it (cols + 1, or past B^T's checksum rows).
__global__ void resetKernel(float* c, Index ldc, Index rows, Index cols, AuxView aux, const double* corner,
                            const double* rowScale, const double* colScale, Index colSumsEnd)
{
    const Index t = Index(blockIdx.x) * blockDim.x + threadIdx.x;
    if (t < rows) {
        c[t * ldc + cols] = 0.0f;
        aux.rowScale()[t] = rowScale ? rowScale[t] : 0.0;
    } else if (t == rows) {
        c[rows * ldc + cols] = float(corner[0]);
        aux.rowScale()[rows] = corner[1];
    }
    if (t < cols) {
        c[rows * ldc + t] = 0.0f;
        aux.colScale()[t] = colScale ? colScale[t] : 0.0;
    } else if (t == cols) {
        aux.colScale()[cols] = corner[2];
    }
    if (t <= rows)
        aux.scratch0()[t] = 0;
    if (t < colSumsEnd)
        aux.scratch1()[t] = 0;
}

// One K-major operand whose rows are dotted with two vectors: out[row * outStride] += sum_k x_k v_k
// (C's checksum column for A, row for B^T) and scale[row] += sum_k x_k^2 s_k (the bound's scale),
// x rounded to TF32 as the kernel multiplies it.
struct RowDots {
    const float* x = nullptr;
    Index ld = 0, rows = 0;
    const double* v = nullptr;
    const double* s = nullptr;
    float* out = nullptr;
    Index outStride = 0;
    double* scale = nullptr;
    bool vec = false;
};

// Two shapes of the pass (resources/results/probes/row_dots_probe.cu, H200): whole rows per block
// read 4.3 TB/s at N = 16384 (96 % of a read-only stream) and 3.9 at 8192, but leave SMs idle below
// one block per SM (N = 4096: 2.4 TB/s); chunks of the inner dimension with atomics read 2.9 TB/s there.

// Whole rows: a block owns kWholeRows rows (kRowsPerWarp per warp), stages kStage entries of both
// vectors in shared memory per step, and writes each row's two sums once (no atomics).
constexpr int kRowsPerWarp = 8;
constexpr Index kWholeRows = kPassWarps * kRowsPerWarp;
constexpr int kStage = 1024;

__global__ void __launch_bounds__(kPassWarps * kWarp) wholeRowDotsKernel(RowDots sideA, RowDots sideB, Index depth)
{
    __shared__ double stagedV[kStage], stagedS[kStage];
    const RowDots d = blockIdx.y == 0 ? sideA : sideB;
    const Index r0 = Index(blockIdx.x) * kWholeRows;
    if (r0 >= d.rows)
        return;
    const int lane = threadIdx.x % kWarp, warp = threadIdx.x / kWarp;
    const Index first = r0 + warp * kRowsPerWarp;
    const float* row[kRowsPerWarp];
#pragma unroll
    for (int r = 0; r < kRowsPerWarp; ++r)  // rows past the end read the last row, never stored
        row[r] = d.x + min(first + r, d.rows - 1) * d.ld;
    double dot[kRowsPerWarp], sq[kRowsPerWarp];
#pragma unroll
    for (int r = 0; r < kRowsPerWarp; ++r)
        dot[r] = sq[r] = 0;
    for (Index k0 = 0; k0 < depth; k0 += kStage) {
        __syncthreads();
        for (int t = threadIdx.x; t < kStage; t += blockDim.x) {
            const Index k = k0 + t;
            stagedV[t] = k < depth ? d.v[k] : 0.0;
            stagedS[t] = k < depth ? d.s[k] : 0.0;
        }
        __syncthreads();
#pragma unroll 1
        for (int step = 0; step < kStage / (kWarp * 4); ++step) {
            const int local = 4 * lane + kWarp * 4 * step;
            const Index k = k0 + local;
            float x[kRowsPerWarp][4];
            if (d.vec && k + 4 <= depth) {
#pragma unroll
                for (int r = 0; r < kRowsPerWarp; ++r) {
                    const float4 q = __ldcs(reinterpret_cast<const float4*>(row[r] + k));
                    x[r][0] = q.x, x[r][1] = q.y, x[r][2] = q.z, x[r][3] = q.w;
                }
            } else {
#pragma unroll
                for (int r = 0; r < kRowsPerWarp; ++r)
#pragma unroll
                    for (int e = 0; e < 4; ++e)
                        x[r][e] = k + e < depth ? row[r][k + e] : 0.0f;
            }
#pragma unroll
            for (int e = 0; e < 4; ++e) {
                const double v = stagedV[local + e], w = stagedS[local + e];
#pragma unroll
                for (int r = 0; r < kRowsPerWarp; ++r) {
                    const double y = double(roundToTf32(x[r][e]));
                    dot[r] += y * v;
                    sq[r] += y * y * w;
                }
            }
        }
    }
#pragma unroll
    for (int r = 0; r < kRowsPerWarp; ++r) {
        const double dr = warpSum(dot[r]), sr = warpSum(sq[r]);
        if (lane == 0 && first + r < d.rows) {
            d.out[(first + r) * d.outStride] = float(dr);
            d.scale[first + r] = sr;
        }
    }
}

// Chunks: grid (chunks of the inner dimension, row tiles, 2); a lane keeps its 16 entries of both
// vectors in registers for all the rows of its tile and adds each row's partial sums by atomics.
// Two blocks per SM (128 registers, a few bytes spilled): twice the loads in flight, measured on an
// H200 at N = 4096 alone 2.1 -> 2.65 TB/s, and beside the GEMM that leaves 4 SMs idle its end 42 ->
// 29 us after the GEMM's. (The whole-rows kernel at two blocks lost: 3.75 -> 3.49 TB/s at 8192.)
constexpr int kVecs = 4;                              // float4 loads per lane and row of a chunk
constexpr int kChunk = kWarp * 4 * kVecs;             // 512 columns per block
constexpr int kGroup = 2;                             // rows per warp step, their loads in flight together
constexpr Index kTileRows = kPassWarps * kGroup * 8;  // 128 rows per block

__global__ void __launch_bounds__(kPassWarps * kWarp, 2) chunkRowDotsKernel(RowDots sideA, RowDots sideB, Index depth)
{
    const RowDots d = blockIdx.z == 0 ? sideA : sideB;
    const Index r0 = Index(blockIdx.y) * kTileRows;
    if (r0 >= d.rows)
        return;
    const int lane = threadIdx.x % kWarp, warp = threadIdx.x / kWarp;
    const Index k0 = Index(blockIdx.x) * kChunk;
    constexpr int E = 4 * kVecs;
    auto column = [&](int idx) { return k0 + Index(idx / 4) * (kWarp * 4) + lane * 4 + idx % 4; };
    double v[E], s[E];
#pragma unroll
    for (int idx = 0; idx < E; ++idx) {
        const Index k = column(idx);
        v[idx] = k < depth ? d.v[k] : 0.0;
        s[idx] = k < depth ? d.s[k] : 0.0;
    }
    const bool wholeVectors = d.vec && column(E - 1) < depth;
    const Index rEnd = min(r0 + kTileRows, d.rows);
    for (Index i = r0 + warp; i < rEnd; i += kPassWarps * kGroup) {
        float x[kGroup][E];
#pragma unroll
        for (int g = 0; g < kGroup; ++g) {
            const Index row = i + kPassWarps * g;
            const float* p = d.x + (row < rEnd ? row : i) * d.ld;
            if (wholeVectors) {
#pragma unroll
                for (int w = 0; w < kVecs; ++w) {
                    const float4 q = __ldcs(reinterpret_cast<const float4*>(p + column(4 * w)));
                    x[g][4 * w] = q.x, x[g][4 * w + 1] = q.y, x[g][4 * w + 2] = q.z, x[g][4 * w + 3] = q.w;
                }
            } else {
#pragma unroll
                for (int idx = 0; idx < E; ++idx)
                    x[g][idx] = column(idx) < depth ? p[column(idx)] : 0.0f;
            }
        }
        double dot[kGroup], sq[kGroup];
#pragma unroll
        for (int g = 0; g < kGroup; ++g) {
            dot[g] = sq[g] = 0;
#pragma unroll
            for (int idx = 0; idx < E; ++idx) {
                const double y = double(roundToTf32(x[g][idx]));
                dot[g] += y * v[idx];
                sq[g] += y * y * s[idx];
            }
            dot[g] = warpSum(dot[g]);
            sq[g] = warpSum(sq[g]);
        }
        if (lane == 0)
#pragma unroll
            for (int g = 0; g < kGroup; ++g) {
                const Index row = i + kPassWarps * g;
                if (row < rEnd) {
                    atomicAdd(d.out + row * d.outStride, float(dot[g]));
                    atomicAdd(d.scale + row, sq[g]);
                }
            }
    }
}

int multiprocessors()
{
    int device = 0, sms = 0;
    CUDA_CHECK(cudaGetDevice(&device));
    CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    return sms;
}

// The pass over the operands' rows in the shape that suits its length (a side of no rows takes no time).
void launchRowDots(const RowDots& sideA, const RowDots& sideB, Index depth, cudaStream_t s)
{
    const Index longest = std::max(sideA.rows, sideB.rows);
    if (2 * Index(blocksFor(longest, kWholeRows)) >= multiprocessors()) {
        // The reset zeroed what this kernel overwrites; the chunks below add into it.
        wholeRowDotsKernel<<<dim3(blocksFor(longest, kWholeRows), 2), kPassWarps * kWarp, 0, s>>>(sideA, sideB, depth);
    } else {
        const dim3 grid(blocksFor(depth, kChunk), blocksFor(longest, kTileRows), 2);
        chunkRowDotsKernel<<<grid, kPassWarps * kWarp, 0, s>>>(sideA, sideB, depth);
    }
    CUDA_CHECK_LAUNCH();
}

}  // namespace

void prepareOperands(const float* a, Index lda, Index rows, float* b, Index depth, Index cols, Index ldb, float* bt,
                     Index ldbt, const PreparedOperands& out, cudaStream_t s)
{
    if (out.depth != depth)
        throw BackendError("prepared operands: vectors of depth " + std::to_string(out.depth) + " for a product of depth " +
                           std::to_string(depth));
    checksumBTransposed(b, depth, cols, ldb, bt, ldbt, s);
    if (depth <= 0)
        return;
    CUDA_CHECK(cudaMemsetAsync(out.cA, 0, std::size_t(depth) * sizeof(double), s));
    CUDA_CHECK(cudaMemsetAsync(out.colWeight, 0, std::size_t(depth) * sizeof(double), s));
    if (rows > 0) {
        const bool vec = vectorizable(a, lda, 0, sizeof(float));
        columnSumsKernel<<<dim3(blocksFor(depth, kStrip), blocksFor(rows, kEntryRows)), 256, 0, s>>>(
            a, lda, rows, depth, out.cA, out.colWeight, vec);
        CUDA_CHECK_LAUNCH();
    }
    finishKernel<<<1, 1024, 0, s>>>(b + cols, ldb, out);
    CUDA_CHECK_LAUNCH();
    if (out.rows <= 0)
        return;
    if (out.rows != rows)
        throw BackendError("prepared operands: row scales for " + std::to_string(out.rows) + " rows of A, which has " +
                           std::to_string(rows));
    // For the checksum column by the kernel: r_B's parts under B^T, and A's row scales, taken here once
    // by the pass over A that a product would otherwise make.
    checksumRowsOfBtKernel<<<blocksFor(depth, 256), 256, 0, s>>>(out.rB, depth, bt + cols * ldbt, ldbt);
    CUDA_CHECK_LAUNCH();
    CUDA_CHECK(cudaMemsetAsync(out.rowScale, 0, std::size_t(rows) * sizeof(double), s));
    CUDA_CHECK(cudaMemsetAsync(out.rowDotsAtEntry, 0, std::size_t(rows) * sizeof(float), s));
    const RowDots sideA{a, lda, rows, out.rB, out.rowWeight, out.rowDotsAtEntry, 1, out.rowScale,
                        vectorizable(a, lda, 0, sizeof(float))};
    launchRowDots(sideA, RowDots{}, depth, s);
}

namespace {

void requireDepth(const PreparedOperands& p, Index depth)
{
    if (p.depth != depth)
        throw BackendError("prepared operands: vectors of depth " + std::to_string(p.depth) + " for a product of depth " +
                           std::to_string(depth));
}

}  // namespace

Prepared16BitOperands Prepared16BitOperands::in(double* storage, Index rows, Index depth, Index cols)
{
    Prepared16BitOperands p;
    p.vectors = PreparedOperands::in(storage, depth);
    p.rowScale = storage + PreparedOperands::doublesFor(depth);
    p.colScale = p.rowScale + rows;
    p.rows = rows;
    p.cols = cols;
    return p;
}

void prepare16BitOperands(InputFormat format, const void* a16, Index lda, Index rows, const void* b16, Index ldb,
                          Index depth, Index cols, float* rowChecksums, const Prepared16BitOperands& out, cudaStream_t s)
{
    const PreparedOperands& v = out.vectors;
    requireDepth(v, depth);
    if (out.rows != rows || out.cols != cols)
        throw BackendError("prepared 16-bit operands: scales for another shape");
    CUDA_CHECK(cudaMemsetAsync(out.rowScale, 0, std::size_t(rows + cols) * sizeof(double), s));
    if (depth <= 0)
        return;
    checksumB16(format, Operand16{b16, ldb, true}, depth, cols, RowChecksumsB{rowChecksums, 2}, s);
    CUDA_CHECK(cudaMemsetAsync(v.cA, 0, std::size_t(depth) * sizeof(double), s));
    CUDA_CHECK(cudaMemsetAsync(v.colWeight, 0, std::size_t(depth) * sizeof(double), s));
    // c_A and |a_k|^2: the column sums of A and of its squares.
    columnDots16(format, a16, lda, rows, depth, nullptr, nullptr, v.cA, v.colWeight, s);
    finishKernel<<<1, 1024, 0, s>>>(rowChecksums, 2, v);
    CUDA_CHECK_LAUNCH();
    // The scales: the squares of A's rows with the weights w, of B's columns with u.
    rowDots16(format, a16, lda, rows, depth, nullptr, v.rowWeight, nullptr, 0, out.rowScale, s);
    columnDots16(format, b16, ldb, depth, cols, nullptr, v.colWeight, static_cast<float*>(nullptr), out.colScale, s);
}

void resetPrepared16Checksums(float* c, Index ldc, Index rows, Index cols, AuxView aux,
                              const Prepared16BitOperands& prepared, cudaStream_t s, bool columnByKernel)
{
    if (prepared.rows != rows || prepared.cols != cols)
        throw BackendError("prepared 16-bit operands: scales for another shape");
    if (columnByKernel && aux.ld < cols + kChecksumColumnsOf16BitB)
        throw BackendError("prepared 16-bit operands: no room in Aux for the checksum column by the kernel");
    const Index colSumsEnd = cols + (columnByKernel ? kChecksumColumnsOf16BitB : 1);
    const Index cells = std::max(rows + 1, colSumsEnd);
    resetKernel<<<blocksFor(cells, 256), 256, 0, s>>>(c, ldc, rows, cols, aux, prepared.vectors.corner,
                                                       prepared.rowScale, prepared.colScale, colSumsEnd);
    CUDA_CHECK_LAUNCH();
}

void prepared16ChecksumDots(InputFormat format, const void* a16, Index lda, const void* b16, Index ldb, float* c,
                            Index ldc, Index rows, Index depth, Index cols, const Prepared16BitOperands& prepared,
                            cudaStream_t s, bool columnByKernel)
{
    const PreparedOperands& v = prepared.vectors;
    requireDepth(v, depth);
    if (depth <= 0)
        return;
    if (!columnByKernel)
        rowDots16(format, a16, lda, rows, depth, v.rB, nullptr, c + cols, ldc, nullptr, s);
    columnDots16(format, b16, ldb, depth, cols, v.cA, nullptr, c + rows * ldc, nullptr, s);
}

void prepare16BitChecksumColumns(const void* b16, Index ldb, Index depth, Index cols,
                                 const Prepared16BitOperands& prepared, void* out, Index ldOut, cudaStream_t s)
{
    requireDepth(prepared.vectors, depth);
    if (ldOut < cols + kChecksumColumnsOf16BitB)
        throw BackendError("prepared 16-bit operands: B's copy leaves no room for its checksum columns");
    if (depth <= 0)
        return;
    CUDA_CHECK(cudaMemcpy2DAsync(out, std::size_t(ldOut) * 2, b16, std::size_t(ldb) * 2, std::size_t(cols) * 2,
                                 std::size_t(depth), cudaMemcpyDeviceToDevice, s));
    checksumColumnsOfBf16Kernel<<<blocksFor(depth, 256), 256, 0, s>>>(prepared.vectors.rB, depth,
                                                                       static_cast<__nv_bfloat16*>(out), ldOut, cols);
    CUDA_CHECK_LAUNCH();
}

void prepare16BitChecksumParts(InputFormat format, const Prepared16BitOperands& prepared, Index depth, void* out,
                               cudaStream_t s)
{
    requireDepth(prepared.vectors, depth);
    if (format != InputFormat::Bf16 && format != InputFormat::F16)
        throw BackendError("checksum parts: BF16 or FP16 operands only");
    if (depth <= 0)
        return;
    double* scales = reinterpret_cast<double*>(static_cast<unsigned short*>(out) + partScalesOffset(depth));
    if (format == InputFormat::Bf16)
        checksumPartsOfBf16Kernel<<<blocksFor(std::max<Index>(depth, 8), 256), 256, 0, s>>>(
            prepared.vectors.cA, prepared.vectors.rB, depth, static_cast<__nv_bfloat16*>(out), rBPartsOffset(depth),
            scales);
    else
        checksumPartsOfF16Kernel<<<2, 1024, 0, s>>>(prepared.vectors.cA, prepared.vectors.rB, depth,
                                                   static_cast<__half*>(out), rBPartsOffset(depth), scales);
    CUDA_CHECK_LAUNCH();
}

void checksumsFromParts16(const float* parts, const double* scales, float* c, Index ldc, Index rows, Index cols,
                          cudaStream_t s)
{
    const Index cells = std::max(rows, cols);
    if (cells <= 0)
        return;
    checksumsFromPartsKernel<<<blocksFor(cells, 256), 256, 0, s>>>(parts, parts + columnPartsOffset(cols), scales, c,
                                                                    ldc, rows, cols);
    CUDA_CHECK_LAUNCH();
}

void checksumProductsPrepared16(InputFormat format, const void* a16, Index lda, const void* b16, Index ldb, float* c,
                                Index ldc, Index rows, Index depth, Index cols, AuxView aux,
                                const Prepared16BitOperands& prepared, cudaStream_t s)
{
    requireDepth(prepared.vectors, depth);
    resetPrepared16Checksums(c, ldc, rows, cols, aux, prepared, s);
    prepared16ChecksumDots(format, a16, lda, b16, ldb, c, ldc, rows, depth, cols, prepared, s);
}

void resetPreparedChecksums(float* c, Index ldc, Index rows, Index cols, AuxView aux, const PreparedOperands& prepared,
                            cudaStream_t s, bool columnByKernel)
{
    if (columnByKernel && (prepared.rows != rows || aux.ld < cols + kChecksumRowsOfBt))
        throw BackendError("prepared operands: no row scales of A or no room in Aux for the checksum column by the kernel");
    const Index colSumsEnd = cols + (columnByKernel ? kChecksumRowsOfBt : 1);
    const Index cells = std::max(rows + 1, colSumsEnd);
    resetKernel<<<blocksFor(cells, 256), 256, 0, s>>>(c, ldc, rows, cols, aux, prepared.corner,
                                                       columnByKernel ? prepared.rowScale : nullptr, nullptr,
                                                       colSumsEnd);
    CUDA_CHECK_LAUNCH();
}

void preparedChecksumDots(const float* a, Index lda, const float* bt, Index ldbt, float* c, Index ldc, Index rows,
                          Index depth, Index cols, AuxView aux, const PreparedOperands& prepared, cudaStream_t s,
                          bool columnByKernel)
{
    requireDepth(prepared, depth);
    if (depth <= 0 || (rows <= 0 && cols <= 0))
        return;
    RowDots sideA{a, lda, columnByKernel ? 0 : rows, prepared.rB, prepared.rowWeight, c + cols, ldc, aux.rowScale(),
                  vectorizable(a, lda, 0, sizeof(float))};
    RowDots sideB{bt, ldbt, cols, prepared.cA, prepared.colWeight, c + rows * ldc, 1, aux.colScale(),
                  vectorizable(bt, ldbt, 0, sizeof(float))};
    launchRowDots(sideA, sideB, depth, s);
}

void checksumProductsPrepared(const float* a, Index lda, const float* bt, Index ldbt, float* c, Index ldc, Index rows,
                              Index depth, Index cols, AuxView aux, const PreparedOperands& prepared, cudaStream_t s)
{
    requireDepth(prepared, depth);
    resetPreparedChecksums(c, ldc, rows, cols, aux, prepared, s);
    preparedChecksumDots(a, lda, bt, ldbt, c, ldc, rows, depth, cols, aux, prepared, s);
}

}  // namespace gigacheck::cuda
