// prepareOperands and checksumProductsPrepared (prepared_operands.hpp). The sums follow the passes
// of abft_kernels.cu term by term (double accumulation, the same weights), so the verification's
// thresholds apply unchanged; only where each term is computed, and how often, differs.
#include "abft/cuda/prepared_operands.hpp"

#include "abft/cuda/pass_tiles.cuh"
#include "core/cuda/check.hpp"
#include "gigacheck/tf32.hpp"

#include <algorithm>
#include <string>

namespace gigacheck::cuda {

using namespace passes;

PreparedOperands PreparedOperands::in(double* storage, Index depth)
{
    PreparedOperands p;
    p.rB = storage;
    p.rowWeight = storage + depth;
    p.cA = storage + 2 * depth;
    p.colWeight = storage + 3 * depth;
    p.corner = storage + 4 * depth;
    p.claimed = reinterpret_cast<unsigned long long*>(storage + 4 * depth + 3);
    p.gemmDone = reinterpret_cast<unsigned*>(storage + 4 * depth + 4);
    p.depth = depth;
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

// r_B and the row norms from B's checksum columns (checksumBTransposed wrote them), then the weights
// and the corner sums, as the A and B passes of abft_kernels.cu form them (input rounding on).
__global__ void __launch_bounds__(1024) finishKernel(const float* b, Index ldb, Index cols, PreparedOperands p)
{
    __shared__ double part[3][32];
    double corner = 0, rowCorner = 0, colCorner = 0;
    for (Index k = threadIdx.x; k < p.depth; k += blockDim.x) {
        const double r = double(b[k * ldb + cols]), norm = double(b[k * ldb + cols + 1]);
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

// ---- per product -------------------------------------------------------------------------------
// C's checksum column and row, the scales and the epilogue's sums to zero; the corner cells from
// the prepared operands (they do not change between products of the same operands).
__global__ void resetKernel(float* c, Index ldc, Index rows, Index cols, AuxView aux, const double* corner,
                            unsigned long long* claimed, unsigned* gemmDone)
{
    const Index t = Index(blockIdx.x) * blockDim.x + threadIdx.x;
    if (t == 0) {
        *claimed = 0;
        *gemmDone = 0;
    }
    if (t < rows) {
        c[t * ldc + cols] = 0.0f;
        aux.rowScale()[t] = 0;
    } else if (t == rows) {
        c[rows * ldc + cols] = float(corner[0]);
        aux.rowScale()[rows] = corner[1];
    }
    if (t < cols) {
        c[rows * ldc + t] = 0.0f;
        aux.colScale()[t] = 0;
    } else if (t == cols) {
        aux.colScale()[cols] = corner[2];
    }
    if (t <= rows)
        aux.scratch0()[t] = 0;
    if (t <= cols)
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

// Four entries from k of each of a warp's rows first .. first + kRowsPerWarp - 1 (float4 where whole
// and aligned); rows past the end read the last row, never stored.
__device__ __forceinline__ void loadStep(const RowDots& d, Index first, Index k, Index kEnd, float (&x)[kRowsPerWarp][4])
{
#pragma unroll
    for (int r = 0; r < kRowsPerWarp; ++r) {
        const float* p = d.x + min(first + r, d.rows - 1) * d.ld + k;
        if (d.vec && k + 4 <= kEnd) {
            const float4 q = __ldcs(reinterpret_cast<const float4*>(p));
            x[r][0] = q.x, x[r][1] = q.y, x[r][2] = q.z, x[r][3] = q.w;
        } else {
#pragma unroll
            for (int e = 0; e < 4; ++e)
                x[r][e] = k + e < kEnd ? p[e] : 0.0f;
        }
    }
}

// The loaded entries (at `local` in the staged vectors) into the rows' two sums.
__device__ __forceinline__ void addStep(const float (&x)[kRowsPerWarp][4], const double* stagedV, const double* stagedS,
                                        int local, double (&dot)[kRowsPerWarp], double (&sq)[kRowsPerWarp])
{
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

// The rows r0 .. r0 + Warps * kRowsPerWarp - 1 of d over the inner range [kBegin, kEnd): their sums
// written (whole rows) or added by atomics (a chunk of them). Prefetch: the next step's loads in
// flight while this step's are summed (twice the bytes in flight per SM, which a few SMs beside a
// GEMM are short of).
template <int Warps, bool Prefetch, bool Atomic>
__device__ __forceinline__ void rowDots(const RowDots d, Index r0, Index kBegin, Index kEnd, double* stagedV,
                                        double* stagedS)
{
    if (r0 >= d.rows)  // uniform over the block
        return;
    const int lane = threadIdx.x % kWarp, warp = threadIdx.x / kWarp;
    const Index first = r0 + warp * kRowsPerWarp;
    double dot[kRowsPerWarp], sq[kRowsPerWarp];
#pragma unroll
    for (int r = 0; r < kRowsPerWarp; ++r)
        dot[r] = sq[r] = 0;
    constexpr int kSteps = kStage / (kWarp * 4);
    for (Index k0 = kBegin; k0 < kEnd; k0 += kStage) {
        __syncthreads();
        for (int t = threadIdx.x; t < kStage; t += Warps * kWarp) {
            const Index k = k0 + t;
            stagedV[t] = k < kEnd ? d.v[k] : 0.0;
            stagedS[t] = k < kEnd ? d.s[k] : 0.0;
        }
        __syncthreads();
        if constexpr (Prefetch) {
            float even[kRowsPerWarp][4], odd[kRowsPerWarp][4];
            loadStep(d, first, k0 + 4 * lane, kEnd, even);
#pragma unroll
            for (int step = 0; step < kSteps; step += 2) {
                const int local = 4 * lane + kWarp * 4 * step;
                loadStep(d, first, k0 + local + kWarp * 4, kEnd, odd);
                addStep(even, stagedV, stagedS, local, dot, sq);
                if (step + 2 < kSteps)
                    loadStep(d, first, k0 + local + 2 * kWarp * 4, kEnd, even);
                addStep(odd, stagedV, stagedS, local + kWarp * 4, dot, sq);
            }
        } else {
#pragma unroll 1
            for (int step = 0; step < kSteps; ++step) {
                const int local = 4 * lane + kWarp * 4 * step;
                const Index k = k0 + local;
                float x[kRowsPerWarp][4];
#pragma unroll
                for (int r = 0; r < kRowsPerWarp; ++r) {
                    const float* p = d.x + min(first + r, d.rows - 1) * d.ld + k;
                    if (d.vec && k + 4 <= kEnd) {
                        const float4 q = __ldcs(reinterpret_cast<const float4*>(p));
                        x[r][0] = q.x, x[r][1] = q.y, x[r][2] = q.z, x[r][3] = q.w;
                    } else {
#pragma unroll
                        for (int e = 0; e < 4; ++e)
                            x[r][e] = k + e < kEnd ? p[e] : 0.0f;
                    }
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
    }
#pragma unroll
    for (int r = 0; r < kRowsPerWarp; ++r) {
        const double dr = warpSum(dot[r]), sr = warpSum(sq[r]);
        if (lane == 0 && first + r < d.rows) {
            if constexpr (Atomic) {
                atomicAdd(d.out + (first + r) * d.outStride, float(dr));
                atomicAdd(d.scale + first + r, sr);
            } else {
                d.out[(first + r) * d.outStride] = float(dr);
                d.scale[first + r] = sr;
            }
        }
    }
}

__global__ void __launch_bounds__(kPassWarps * kWarp) wholeRowDotsKernel(RowDots sideA, RowDots sideB, Index depth)
{
    __shared__ double stagedV[kStage], stagedS[kStage];
    rowDots<kPassWarps, false, false>(blockIdx.y == 0 ? sideA : sideB, Index(blockIdx.x) * kWholeRows, 0, depth, stagedV,
                                  stagedS);
}

// Beside a GEMM that leaves a few multiprocessors free (rowDotsPreparedBeside): one block per free
// SM (8 warps, each with two steps of 8 rows' float4 loads in flight) claims items -- 128 rows of
// one operand over one kStage chunk of the inner dimension, added by atomics -- from `claimed` until
// none is left or the GEMM has ended (`gemmDone`, set by rowDotsPreparedAfter); then blocks on every
// SM share what is left (stopAtGemmEnd false), in items small enough to spread over all of them.
constexpr int kBesideWarps = 8;
constexpr Index kBesideRows = kBesideWarps * kRowsPerWarp;

__global__ void __launch_bounds__(kBesideWarps * kWarp, 1)
    besideRowDotsKernel(RowDots sideA, RowDots sideB, Index depth, unsigned long long* claimed,
                        const unsigned* gemmDone, bool stopAtGemmEnd)
{
    __shared__ double stagedV[kStage], stagedS[kStage];
    __shared__ unsigned long long item;
    const Index chunks = (depth + kStage - 1) / kStage;
    const Index itemsA = (sideA.rows + kBesideRows - 1) / kBesideRows * chunks;
    const Index items = itemsA + (sideB.rows + kBesideRows - 1) / kBesideRows * chunks;
    for (;;) {
        __syncthreads();  // the last item's staged vectors and `item` read by every thread
        if (threadIdx.x == 0)
            item = stopAtGemmEnd && *static_cast<const volatile unsigned*>(gemmDone) ? items
                                                                                      : atomicAdd(claimed, 1ull);
        __syncthreads();
        const Index it = Index(item);
        if (it >= items)
            return;
        const bool onA = it < itemsA;
        const Index local = onA ? it : it - itemsA;
        const Index k0 = (local % chunks) * kStage;
        rowDots<kBesideWarps, true, true>(onA ? sideA : sideB, (local / chunks) * kBesideRows, k0,
                                          min(k0 + kStage, depth), stagedV, stagedS);
    }
}

__global__ void markGemmDone(unsigned* gemmDone) { *gemmDone = 1; }

// Chunks: grid (chunks of the inner dimension, row tiles, 2); a lane keeps its 16 entries of both
// vectors in registers for all the rows of its tile and adds each row's partial sums by atomics.
constexpr int kVecs = 4;                              // float4 loads per lane and row of a chunk
constexpr int kChunk = kWarp * 4 * kVecs;             // 512 columns per block
constexpr int kGroup = 2;                             // rows per warp step, their loads in flight together
constexpr Index kTileRows = kPassWarps * kGroup * 8;  // 128 rows per block

__global__ void __launch_bounds__(kPassWarps * kWarp) chunkRowDotsKernel(RowDots sideA, RowDots sideB, Index depth)
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

void checkDepth(const PreparedOperands& prepared, Index depth)
{
    if (prepared.depth != depth)
        throw BackendError("prepared operands: vectors of depth " + std::to_string(prepared.depth) +
                           " for a product of depth " + std::to_string(depth));
}

RowDots sideAOf(const float* a, Index lda, Index rows, float* c, Index ldc, Index cols, AuxView aux,
                const PreparedOperands& prepared)
{
    return RowDots{a, lda, rows, prepared.rB, prepared.rowWeight, c + cols, ldc, aux.rowScale(),
                   vectorizable(a, lda, 0, sizeof(float))};
}

RowDots sideBOf(const float* bt, Index ldbt, Index cols, float* c, Index ldc, Index rows, AuxView aux,
                const PreparedOperands& prepared)
{
    return RowDots{bt, ldbt, cols, prepared.cA, prepared.colWeight, c + rows * ldc, 1, aux.colScale(),
                   vectorizable(bt, ldbt, 0, sizeof(float))};
}

}  // namespace

void prepareOperands(const float* a, Index lda, Index rows, float* b, Index depth, Index cols, Index ldb, float* bt,
                     Index ldbt, const PreparedOperands& out, cudaStream_t s)
{
    checkDepth(out, depth);
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
    finishKernel<<<1, 1024, 0, s>>>(b, ldb, cols, out);
    CUDA_CHECK_LAUNCH();
}


void resetForProductPrepared(float* c, Index ldc, Index rows, Index depth, Index cols, AuxView aux,
                             const PreparedOperands& prepared, cudaStream_t s)
{
    checkDepth(prepared, depth);
    const Index cells = std::max(rows, cols) + 1;
    resetKernel<<<blocksFor(cells, 256), 256, 0, s>>>(c, ldc, rows, cols, aux, prepared.corner, prepared.claimed,
                                                       prepared.gemmDone);
    CUDA_CHECK_LAUNCH();
}

void checksumProductsPrepared(const float* a, Index lda, const float* bt, Index ldbt, float* c, Index ldc, Index rows,
                              Index depth, Index cols, AuxView aux, const PreparedOperands& prepared, cudaStream_t s)
{
    resetForProductPrepared(c, ldc, rows, depth, cols, aux, prepared, s);
    if (depth <= 0 || (rows <= 0 && cols <= 0))
        return;
    const RowDots sideA = sideAOf(a, lda, rows, c, ldc, cols, aux, prepared);
    const RowDots sideB = sideBOf(bt, ldbt, cols, c, ldc, rows, aux, prepared);
    const Index longest = std::max(rows, cols);
    if (2 * Index(blocksFor(longest, kWholeRows)) >= multiprocessors()) {
        // The reset above zeroed what this kernel overwrites; the chunks below add into it.
        wholeRowDotsKernel<<<dim3(blocksFor(longest, kWholeRows), 2), kPassWarps * kWarp, 0, s>>>(sideA, sideB, depth);
    } else {
        const dim3 grid(blocksFor(depth, kChunk), blocksFor(longest, kTileRows), 2);
        chunkRowDotsKernel<<<grid, kPassWarps * kWarp, 0, s>>>(sideA, sideB, depth);
    }
    CUDA_CHECK_LAUNCH();
}

void rowDotsPreparedBeside(const float* a, Index lda, const float* bt, Index ldbt, float* c, Index ldc, Index rows,
                           Index depth, Index cols, AuxView aux, const PreparedOperands& prepared, int blocks,
                           cudaStream_t s)
{
    checkDepth(prepared, depth);
    if (depth <= 0 || (rows <= 0 && cols <= 0) || blocks <= 0)
        return;
    besideRowDotsKernel<<<blocks, kBesideWarps * kWarp, 0, s>>>(sideAOf(a, lda, rows, c, ldc, cols, aux, prepared),
                                                                 sideBOf(bt, ldbt, cols, c, ldc, rows, aux, prepared), depth,
                                                                 prepared.claimed, prepared.gemmDone, true);
    CUDA_CHECK_LAUNCH();
}

void rowDotsPreparedAfter(const float* a, Index lda, const float* bt, Index ldbt, float* c, Index ldc, Index rows,
                          Index depth, Index cols, AuxView aux, const PreparedOperands& prepared, cudaStream_t s)
{
    checkDepth(prepared, depth);
    markGemmDone<<<1, 1, 0, s>>>(prepared.gemmDone);
    CUDA_CHECK_LAUNCH();
    if (depth <= 0 || (rows <= 0 && cols <= 0))
        return;
    besideRowDotsKernel<<<multiprocessors(), kBesideWarps * kWarp, 0, s>>>(
        sideAOf(a, lda, rows, c, ldc, cols, aux, prepared), sideBOf(bt, ldbt, cols, c, ldc, rows, aux, prepared), depth,
        prepared.claimed, prepared.gemmDone, false);
    CUDA_CHECK_LAUNCH();
}

}  // namespace gigacheck::cuda
