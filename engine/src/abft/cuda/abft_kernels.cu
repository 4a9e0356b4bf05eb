#include "abft/cuda/abft_device.hpp"
#include "abft/cuda/faulted_value.cuh"
#include "abft/cuda/pass_tiles.cuh"
#include "core/cuda/check.hpp"
#include "core/cuda/dependent_launch.cuh"
#include "gigacheck/locate_rule.hpp"
#include "gigacheck/input_rounding.hpp"

#include <cooperative_groups.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>

namespace gigacheck::cuda {

namespace {

using namespace passes;

// ---- 16-byte loads ------------------------------------------------------------------------------
// The passes are memory-bound: each lane reads 16 bytes at a time (float4 / double2), streaming
// (evict-first: nothing is reused from L2). Rows start 16-byte aligned when the leading dimension
// is a multiple of the vector width (the plan pads it to 32); otherwise `vec` is false and the
// same code reads element by element.
// The loads land in registers of the element type and are converted only where they are used:
// every load of a step is in flight before the first use (converting inside the load's branch
// made each load wait for the previous one: measured ~1.8 TB/s instead of ~4 for FP32).
template <class T> struct Vec;
template <> struct Vec<float> {
    static constexpr int n = 4;
    __device__ static void load(const float* p, float* v)
    {
        const float4 x = __ldcs(reinterpret_cast<const float4*>(p));
        v[0] = x.x;
        v[1] = x.y;
        v[2] = x.z;
        v[3] = x.w;
    }
};
template <> struct Vec<double> {
    static constexpr int n = 2;
    __device__ static void load(const double* p, double* v)
    {
        const double2 x = __ldcs(reinterpret_cast<const double2*>(p));
        v[0] = x.x;
        v[1] = x.y;
    }
};

// v[0 .. n) = row[first .. first + n); elements at or past `end` read as 0.
template <class T>
__device__ __forceinline__ void loadVec(const T* row, Index first, Index end, bool vec, T* v)
{
    constexpr int n = Vec<T>::n;
    if (vec && first + n <= end) {
        Vec<T>::load(row + first, v);
    } else {
#pragma unroll
        for (int e = 0; e < n; ++e)
            v[e] = first + e < end ? row[first + e] : T(0);
    }
}

// Lane layout of a warp over a strip of kWarp * E columns: vector v of lane l holds the columns
// v * kWarp * n + l * n + e (e < n), so every vector load of the warp is one contiguous 512 bytes.
template <class T>
__device__ __forceinline__ Index laneCol(int lane, int idx)
{
    constexpr int n = Vec<T>::n;
    return Index(idx / n) * (kWarp * n) + lane * n + idx % n;
}

// x[idx] = row[c0 + laneCol(lane, idx)], 0 at or past `end`. One branch for the whole lane, so
// that all E / n vector loads issue back to back.
template <class T, int E>
__device__ __forceinline__ void loadLane(const T* row, Index c0, Index end, int lane, bool vec, T (&x)[E])
{
    constexpr int n = Vec<T>::n;
    const Index first = c0 + lane * n;
    if (vec && first + Index(E / n - 1) * (kWarp * n) + n <= end) {
#pragma unroll
        for (int v = 0; v < E / n; ++v)
            Vec<T>::load(row + first + Index(v) * (kWarp * n), x + v * n);
    } else {
#pragma unroll
        for (int idx = 0; idx < E; ++idx) {
            const Index j = c0 + laneCol<T>(lane, idx);
            x[idx] = j < end ? row[j] : T(0);
        }
    }
}

// TF32 operands (gigacheck/tf32.hpp): x[idx] rounded to TF32 in registers and written back where
// loadLane read it, so the pass that reads an operand anyway leaves it as the TF32 GEMM will see
// it (one extra write, no extra read). Doubles are never rounded.
template <int E>
__device__ __forceinline__ void roundAndStoreLane(float* row, Index c0, Index end, int lane, bool vec, float (&x)[E],
                                                  InputFormat f)
{
    constexpr int n = Vec<float>::n;
#pragma unroll
    for (int idx = 0; idx < E; ++idx)
        x[idx] = roundToInput(x[idx], f);
    const Index first = c0 + lane * n;
    if (vec && first + Index(E / n - 1) * (kWarp * n) + n <= end) {
#pragma unroll
        for (int v = 0; v < E / n; ++v)
            *reinterpret_cast<float4*>(row + first + Index(v) * (kWarp * n)) =
                make_float4(x[v * n], x[v * n + 1], x[v * n + 2], x[v * n + 3]);
    } else {
#pragma unroll
        for (int idx = 0; idx < E; ++idx) {
            const Index j = c0 + laneCol<float>(lane, idx);
            if (j < end)
                row[j] = x[idx];
        }
    }
}

template <int E>
__device__ __forceinline__ void roundAndStoreLane(double*, Index, Index, int, bool, double (&)[E], InputFormat)
{
}

// A kernel that multiplies the rounded operand (abft/operand_rounding.hpp): x[idx] rounded to
// TF32 in registers only, memory untouched. Doubles are never rounded.
template <int E>
__device__ __forceinline__ void roundLane(float (&x)[E])
{
#pragma unroll
    for (int idx = 0; idx < E; ++idx)
        x[idx] = roundToTf32(x[idx]);
}

template <int E>
__device__ __forceinline__ void roundLane(double (&)[E])
{
}

__device__ __forceinline__ float roundedIfFloat(float x) { return roundToTf32(x); }
__device__ __forceinline__ double roundedIfFloat(double x) { return x; }

template <class T, int E>
__device__ __forceinline__ void zero(T (&x)[E])
{
#pragma unroll
    for (int e = 0; e < E; ++e)
        x[e] = T(0);
}

// Rows per block of the lean sums: about one block per SM over all strips (at least 128 rows).
// Measured at 8192^3 online FQ = 1 (two column blocks, kernel traces, H200): blocks of 1024 rows
// cost the run 0.31 ms less than blocks of 128 (2193 blocks, each holding a slot beside a GEMM CTA
// for a few microseconds: many more block starts and column atomics for the same bytes).
Index leanTileRows(unsigned strips, Index extent)
{
    int device = 0, sms = 0;
    CUDA_CHECK(cudaGetDevice(&device));
    CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    const Index perStrip = Index(sms) / Index(strips) > 0 ? Index(sms) / Index(strips) : 1;
    const Index rows = (extent + perStrip - 1) / perStrip;
    return rows > 128 ? rows : 128;
}

// ---- checksum column of B and its row norms (one pass over B, one warp per row) ------------------
//   b[k, cols] = r_B[k] = sum_{j<cols} b_kj
//   b[k, cols + 1] = sqrt(sum_{j<=cols} b_kj^2)   (checksum column included, as in abft.hpp's bound)
// The norm stays with the B block (the plan leaves room for it after r_B) because every block
// product that uses this B block needs it for its round-off bound; it is stored as a 2-norm so
// that it does not overflow the element type where the squares would.
// rounding (TF32, BF16, FP16): B_r is first rounded in place (the sums then follow the rounded values),
// or, roundedInRegisters, rounded as it is read and not written.
template <class T>
__global__ void rowSumsKernel(T* b, Index depth, Index cols, Index ldb, bool vec, OperandRounding rounding)
{
    constexpr int n = Vec<T>::n, E = 4 * n;  // 4 vectors per lane per step: 64 bytes in flight
    const Index k = Index(blockIdx.x) * (blockDim.x / kWarp) + threadIdx.x / kWarp;
    const int lane = threadIdx.x % kWarp;
    if (k >= depth)
        return;
    T* row = b + k * ldb;
    double s = 0, q = 0;
    for (Index c0 = 0; c0 < cols; c0 += kWarp * E) {
        T x[E];
        loadLane<T, E>(row, c0, cols, lane, vec, x);
        if (rounding.roundedInRegisters)
            roundLane<E>(x);
        else if (rounding.writesBack())
            roundAndStoreLane<E>(row, c0, cols, lane, vec, x, rounding.format);
#pragma unroll
        for (int e = 0; e < E; ++e) {
            const double v = double(x[e]);
            s += v;
            q += v * v;
        }
    }
    s = warpSum(s);
    q = warpSum(q);
    if (lane == 0) {
        const T r = T(s);
        b[k * ldb + cols] = r;
        b[k * ldb + cols + 1] = T(sqrt(q + double(r) * double(r)));
    }
}

// ---- checksum products and round-off bound (resetChecksumsKernel: pass_tiles.cuh) ------------
// Pass over A (rows i < rows, columns k0 .. k0 + kn), after checksumB of the B block:
//   C[i, cols]  += sum_k a_ik r_k                       (checksum column of C)
//   rowScale[i] += sum_k a_ik^2 w_k,  w_k = |b_k|^2 (+ r_k^2 with input rounding)
//   cA[k]  = sum_{i<rows} a_ik,  aSq[k] = sum_{i<rows} a_ik^2   (for the pass over B)
// The column checksum of A is computed here, in double, instead of in a pass of its own: this pass
// reads A anyway. Tile tileRows (kARows or twice, tileRowsFor) x (kWarp * kAElems) columns, 8 warps,
// each warp kAGroup rows at a time.
constexpr int kAElems = 8, kACols = kWarp * kAElems, kARows = 256;

// Several panels in one launch (panelChecksumIncrements): panel blockIdx.z starts `depth` further
// into A's columns and B's rows, and writes its outputs `lines` (checksum column / row), `bounds`
// (rowScale, colScale) and `scratch` (c_A, aSq) elements further on. All zero: one product.
struct PanelStep {
    Index depth = 0, lines = 0, bounds = 0, scratch = 0;
};

// column: C's checksum column (C[i, cols] = column[i * columnStride]).
template <class T>
__global__ void __launch_bounds__(256, 2)
    aPassKernel(T* a, Index lda, const T* b, Index ldb, T* column, Index columnStride, Index rows, Index k0, Index kn,
                Index cols, double* cA, double* aSq, double* rowScale, bool checksumWeight, bool vec, Index tileRows,
                OperandRounding rounding, PanelStep panel)
{
    __shared__ double colPart[2][kPassWarps][kACols];
    k0 += Index(blockIdx.z) * panel.depth;
    column += Index(blockIdx.z) * panel.lines;
    rowScale += Index(blockIdx.z) * panel.bounds;
    cA += Index(blockIdx.z) * panel.scratch;
    aSq += Index(blockIdx.z) * panel.scratch;
    const int lane = threadIdx.x % kWarp, warp = threadIdx.x / kWarp;
    const Index r0 = Index(blockIdx.y) * tileRows, c0 = Index(blockIdx.x) * kACols;
    double r[kAElems], w[kAElems], cs[kAElems], cq[kAElems];
#pragma unroll
    for (int e = 0; e < kAElems; ++e) {
        const Index k = c0 + laneCol<T>(lane, e);
        r[e] = w[e] = cs[e] = cq[e] = 0;
        if (k < kn) {
            const T* bk = b + (k0 + k) * ldb + cols;
            r[e] = double(bk[0]);
            const double norm = double(bk[1]);
            w[e] = norm * norm + (checksumWeight ? r[e] * r[e] : 0.0);
        }
    }
    const Index rEnd = min(r0 + tileRows, rows);
    constexpr int kAGroup = sizeof(T) == 4 ? 4 : 2;  // 64 bytes per lane in flight, no spills
    // kAGroup rows per warp step (rows i, i + 8, ...): all their loads in flight together.
    for (Index i = r0 + warp; i < rEnd; i += 8 * kAGroup) {
        T xr[kAGroup][kAElems];
#pragma unroll
        for (int g = 0; g < kAGroup; ++g) {
            if (i + 8 * g < rEnd)
                loadLane<T, kAElems>(a + (i + 8 * g) * lda + k0, c0, kn, lane, vec, xr[g]);
            else
                zero(xr[g]);
        }
        if (rounding.roundedInRegisters)  // the product's kernel rounds A itself: nothing written
#pragma unroll
            for (int g = 0; g < kAGroup; ++g)
                roundLane<kAElems>(xr[g]);
        else if (rounding.writesBack())  // after all loads of the step are in flight
#pragma unroll
            for (int g = 0; g < kAGroup; ++g)
                if (i + 8 * g < rEnd)
                    roundAndStoreLane<kAElems>(a + (i + 8 * g) * lda + k0, c0, kn, lane, vec, xr[g], rounding.format);
        addRowsOfA(xr, r, w, cs, cq, lane, i, rEnd, column, columnStride, Index(0), rowScale);
    }
    addColumnsOfA(colPart, cs, cq, warp, [lane](int e) { return laneCol<T>(lane, e); }, c0, kn, cA, aSq);
}

// Pass over B_r (rows k0 .. k0 + kn, columns j <= cols), after the pass over A:
//   C[rows, j]    += sum_k c_k b_kj          (checksum row of C; j = cols is the corner c_A r_B)
//   colScale[j]   += sum_k u_k b_kj^2,  u_k = |a_k|^2 + c_k^2 (+ c_k^2 with input rounding)
//   rowScale[rows] += sum_k c_k^2 w_k       (the checksum row's own bound, w_k as in the A pass)
// with |a_k|^2 = aSq[k] (rows i < rows) and c_k = cA[k]. roundB: B_r's main part (j < cols, not
// r_B) is rounded to TF32 as it is read (abft/operand_rounding.hpp). Blocks of kWarp lanes x 8 row
// lanes; a lane reads 16 bytes (n columns) of a row, tileRows (kBRows or twice, tileRowsFor) rows per block.
constexpr int kBRows = 512, kBGroup = 8;

// row: C's checksum row with the corner (C[rows, j] = row[j], j <= cols); cornerScale: rowScale[rows].
template <class T>
__global__ void __launch_bounds__(256, 2) bPassKernel(const T* b, Index ldb, T* row, Index k0, Index kn, Index cols,
                            const double* cA, const double* aSq, double* colScale, double* cornerScale,
                            bool checksumWeight, bool vec, Index tileRows, bool roundB, PanelStep panel)
{
    constexpr int n = Vec<T>::n;
    k0 += Index(blockIdx.z) * panel.depth;
    row += Index(blockIdx.z) * panel.lines;
    colScale += Index(blockIdx.z) * panel.bounds;
    cornerScale += Index(blockIdx.z) * panel.bounds;
    cA += Index(blockIdx.z) * panel.scratch;
    aSq += Index(blockIdx.z) * panel.scratch;
    __shared__ double pd[kPassWarps][kWarp * n], pq[kPassWarps][kWarp * n], pc[kPassWarps];
    const Index j0 = (Index(blockIdx.x) * kWarp + threadIdx.x) * n;
    const Index kStart = Index(blockIdx.y) * tileRows;
    const bool cornerLane = j0 <= cols && cols < j0 + n;
    double d[n], q[n], qc = 0;
#pragma unroll
    for (int e = 0; e < n; ++e)
        d[e] = q[e] = 0;
    if (j0 <= cols) {
        const Index kEnd = min(kStart + tileRows, kn);
        // kBGroup rows of this lane per step, all loads issued before the first use.
        for (Index k = kStart + threadIdx.y; k < kEnd; k += 8 * kBGroup) {
            T x[kBGroup][n], rk[kBGroup], nk[kBGroup];
            double ca[kBGroup], sq[kBGroup];
#pragma unroll
            for (int g = 0; g < kBGroup; ++g) {
                const Index kk = k + 8 * g;
                ca[g] = sq[g] = 0;
                rk[g] = nk[g] = T(0);
                if (kk < kEnd) {
                    const T* row = b + (k0 + kk) * ldb;
                    loadVec(row, j0, cols + 1, vec, x[g]);
                    ca[g] = cA[kk];
                    sq[g] = aSq[kk];
                    if (cornerLane) {
                        rk[g] = row[cols];
                        nk[g] = row[cols + 1];
                    }
                } else {
                    zero(x[g]);
                }
            }
#pragma unroll
            for (int g = 0; g < kBGroup; ++g) {
                const double u = sq[g] + ca[g] * ca[g] * (checksumWeight ? 2.0 : 1.0);
#pragma unroll
                for (int e = 0; e < n; ++e) {
                    if (roundB && j0 + e < cols)
                        x[g][e] = roundedIfFloat(x[g][e]);
                    const double v = double(x[g][e]);
                    d[e] += ca[g] * v;
                    q[e] += u * v * v;
                }
                if (cornerLane) {
                    const double r = double(rk[g]), norm = double(nk[g]);
                    qc += ca[g] * ca[g] * (norm * norm + (checksumWeight ? r * r : 0.0));
                }
            }
        }
    }
    addColumnsOfB(pd, pq, pc, d, q, qc, cornerLane, j0, Index(0), cols, row, Index(0), colScale, cornerScale);
}

// ---- verification ------------------------------------------------------------------------------
// One pass over the augmented C: rowSum[i] = sum_{j<cols} C[i,j] (i <= rows),
// colSum[j] = sum_{i<rows} C[i,j] (j <= cols). A block sums tileRows rows of a strip of kWarp * E
// columns, each warp two rows per step (i and i + warps); row sums meet in one atomic per row and
// strip, column sums in shared memory and one atomic per column and block. Two shapes of it below.

// One warp step of the sums: rows i and i2 (when `second`) of the strip at c0 into the lane's
// column accumulators and, through one atomic each, the row sums. inRow(e): the lane's element e
// is not the checksum column (which is not summed along its row).
template <class T, int E, class InRow>
__device__ __forceinline__ void sumRowPair(const T* c, Index rows, Index cols, Index ldc, Index c0, int lane, bool vec,
                                           Index i, Index i2, bool second, InRow inRow, double (&colAcc)[E],
                                           double* rowSum)
{
    T xr[E], yr[E];
    loadLane<T, E>(c + i * ldc, c0, cols + 1, lane, vec, xr);
    if (second)
        loadLane<T, E>(c + i2 * ldc, c0, cols + 1, lane, vec, yr);
    else
        zero(yr);
    double sx = 0, sy = 0;
#pragma unroll
    for (int e = 0; e < E; ++e) {
        const double x = double(xr[e]), y = double(yr[e]);
        if (inRow(e)) {
            sx += x;
            sy += y;
        }
        // The checksum row (i == rows) is not part of the column sums; it is always the last.
        colAcc[e] += (i < rows ? x : 0.0) + (i2 < rows ? y : 0.0);
    }
    sx = warpSum(sx);
    sy = warpSum(sy);
    if (lane == 0) {
        atomicAdd(rowSum + i, sx);
        if (second)
            atomicAdd(rowSum + i2, sy);
    }
}

// The block's column sums: each warp's accumulators through shared memory, one atomic per column.
template <class T, int E, int Warps>
__device__ __forceinline__ void addColumnSums(double (&colPart)[Warps][kWarp * E], const double (&colAcc)[E], int lane,
                                              int warp, Index c0, Index cols, double* colSum)
{
#pragma unroll
    for (int e = 0; e < E; ++e)
        colPart[warp][laneCol<T>(lane, e)] = colAcc[e];
    __syncthreads();
    for (int t = threadIdx.x; t < kWarp * E; t += blockDim.x) {
        const Index j = c0 + t;
        if (j > cols)
            continue;
        double s = 0;
        for (int w = 0; w < Warps; ++w)
            s += colPart[w][t];
        atomicAdd(colSum + j, s);
    }
}

// Wide, for a check that has the GPU: 8 warps, 16 elements per lane, tiles of tileRows (kSumRows or
// twice, tileRowsFor) rows; 16-byte loads.
constexpr int kSumElems = 16, kSumCols = kWarp * kSumElems, kSumRows = 128;
template <class T>
__global__ void __launch_bounds__(256, 2)
    fusedSumsKernel(const T* c, Index rows, Index cols, Index ldc, double* rowSum, double* colSum, bool vec,
                    Index tileRows)
{
    __shared__ double colPart[8][kSumCols];
    const int lane = threadIdx.x % kWarp, warp = threadIdx.x / kWarp;
    const Index r0 = Index(blockIdx.y) * tileRows, c0 = Index(blockIdx.x) * kSumCols;
    double colAcc[kSumElems];
    bool inRowSum[kSumElems];
#pragma unroll
    for (int e = 0; e < kSumElems; ++e) {
        colAcc[e] = 0;
        inRowSum[e] = c0 + laneCol<T>(lane, e) < cols;  // the checksum column is not summed
    }
    const Index rEnd = min(r0 + tileRows, rows + 1);
    for (Index i = r0 + warp; i < rEnd; i += 16)
        sumRowPair<T, kSumElems>(c, rows, cols, ldc, c0, lane, vec, i, i + 8, i + 8 < rEnd,
                                 [&](int e) { return inRowSum[e]; }, colAcc, rowSum);
    addColumnSums<T, kSumElems, 8>(colPart, colAcc, lane, warp, c0, cols, colSum);
}

// Lean, for a check beside another stream's GEMM (VerifyCall::besideGemm): few registers (<= 64 per
// thread at 128 threads, 8 KiB of loads in flight per block) so that a block fits on an SM next to
// a cuBLAS SGEMM CTA (256 threads x 202 registers) and starts at once, and about one tall block per
// SM (leanTileRows). The wide kernel's blocks do not fit there: each waited for a GEMM CTA to retire
// and then held its SM (kernel traces, online README "The check beside the other block's GEMM").
constexpr int kLeanVecs = 2, kLeanWarps = 4;
template <class T>
__global__ void __launch_bounds__(kLeanWarps * kWarp, 8)
    leanSumsKernel(const T* c, Index rows, Index cols, Index ldc, double* rowSum, double* colSum, bool vec, Index tileRows)
{
    constexpr int E = kLeanVecs * Vec<T>::n;
    __shared__ double colPart[kLeanWarps][kWarp * E];
    const int lane = threadIdx.x % kWarp, warp = threadIdx.x / kWarp;
    const Index r0 = Index(blockIdx.y) * tileRows, c0 = Index(blockIdx.x) * (kWarp * E);
    double colAcc[E];
    zero(colAcc);
    const Index rEnd = min(r0 + tileRows, rows + 1);
    for (Index i = r0 + warp; i < rEnd; i += 2 * kLeanWarps)
        sumRowPair<T, E>(c, rows, cols, ldc, c0, lane, vec, i, i + kLeanWarps, i + kLeanWarps < rEnd,
                         [&](int e) { return c0 + laneCol<T>(lane, e) < cols; }, colAcc, rowSum);
    addColumnSums<T, E, kLeanWarps>(colPart, colAcc, lane, warp, c0, cols, colSum);
}

// decideKernel reads C's checksum column, a row pitch apart: from one SM the check took 9 + 15-19 us
// per check at N = 8192 on an H200 (then two kernels), where markKernel reads the same cells from 33
// SMs in 2.7 us (one SM's outstanding misses bound them). On Hopper, after a fused-sums product, it
// runs as a cluster of kCheckCluster blocks, one per SM, that share the reading; each block notes
// into its own shared memory, then stores its notes into its slot of the first block's inbox, and
// after one cluster barrier the first block goes on alone (a first version's remote 64-bit atomics on
// the first block's threshold range lost updates: each block writes only its own slot). Elsewhere:
// one block.
constexpr int kCheckCluster = 8;

// One block's notes of its check lines, as the first block of the cluster receives them.
struct ClusterNotes {
    int rows, cols;                        // mismatches counted (may exceed kMaxListed)
    unsigned long long lo, hi, top;        // threshold range and largest clean ratio, as bit patterns
    double part[2];                        // kMarksHere: the block's sums of the stored checksums
    long long listR[kMaxListed], listC[kMaxListed];
    double resR[kMaxListed], resC[kMaxListed];
};

// A block's place in its cluster (rank 0 of 1 outside clusters).
struct ClusterPlace {
    unsigned rank = 0, ranks = 1;
    __device__ ClusterPlace()
    {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
        const cooperative_groups::cluster_group cluster = cooperative_groups::this_cluster();
        rank = cluster.block_rank();
        ranks = cluster.num_blocks();
#endif
    }
    // Block `r`'s copy of a shared variable of this block.
    template <class V>
    __device__ V* at(V* local, unsigned r) const
    {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
        if (ranks > 1)
            return cooperative_groups::this_cluster().map_shared_rank(local, r);
#endif
        return local;
    }
    // Every thread of every block of the cluster here, their shared-memory writes seen by all.
    __device__ void sync() const
    {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
        if (ranks > 1) {
            cooperative_groups::this_cluster().sync();
            return;
        }
#endif
        __syncthreads();
    }
    // A block with nothing to do: launched as a cluster, but compiled without clusters (code for an
    // architecture before sm_90 run on a Hopper GPU), every block but the first stands aside.
    __device__ bool idle() const { return ranks == 1 && blockIdx.x != 0; }
    // This thread's index among the cluster's threads, and their count.
    __device__ Index thread() const { return Index(rank) * blockDim.x + threadIdx.x; }
    __device__ Index threads() const { return Index(ranks) * blockDim.x; }
};

// Zeroes two accumulators in one launch of few-register blocks: beside a GEMM the driver's memset
// kernels waited for GEMM CTAs to retire (two per check and two per product's passes; the check's
// two took 0.1 ms of 16 checks at 8192^3 in the kernel traces). Measured against the memsets
// (results README, fourteenth session): online FQ = 1 at 8192^3 0.2-0.3 point faster.
__global__ void __launch_bounds__(128) zeroTwoKernel(double* x, Index nx, double* y, Index ny)
{
    const Index stride = Index(gridDim.x) * blockDim.x;
    for (Index t = Index(blockIdx.x) * blockDim.x + threadIdx.x; t < nx || t < ny; t += stride) {
        if (t < nx)
            x[t] = 0;
        if (t < ny)
            y[t] = 0;
    }
}

void zeroTwo(double* x, Index nx, double* y, Index ny, cudaStream_t s)
{
    zeroTwoKernel<<<32, 128, 0, s>>>(x, nx, y, ny);
    CUDA_CHECK_LAUNCH();
}

// A check that lies (VerifyCall::lieRow / lieCol): its threshold -1e300, the true one kept.
struct Lie {
    Index row = -1, col = -1;
    double* before = nullptr;
    __device__ double threshold(bool lies, double thr) const
    {
        if (!lies)
            return thr;
        if (before)
            *before = thr;
        return -1e300;
    }
    __device__ double tolerance(bool lies, double thr) const { return lies ? -1e300 : thr; }
};

// A control sum's mark: its residual when the check mismatches (> 0 or NaN), else
// -1 - residual / threshold (<= -1). Written so that NaN and inf mismatch, as in the host reference.
__device__ __forceinline__ double markOf(double control, double stored, double thr, double sumFactor)
{
    const double res = fabs(control - stored);
    // TF32: the part that follows the checked sum (abft.hpp); the smaller side, so that a fault
    // cannot raise its own threshold (fmin ignores a NaN side).
    if (sumFactor > 0)
        thr += sumFactor * fmin(fabs(control), fabs(stored));
    if (!(res <= thr))
        return res > 0 ? res : (isnan(res) ? res : 1e-300);
    return -1.0 - (thr > 0 ? res / thr : 0.0);
}

// In place: each control sum becomes its mark (checks whose sums a separate pass made).
template <class T>
__global__ void markKernel(const T* c, Index rows, Index cols, Index ldc, double* rowSum, double* colSum,
                           const double* rowScale, const double* colScale, double rowFactor, double colFactor,
                           double sumFactor, Lie lie)
{
    const Index t = Index(blockIdx.x) * blockDim.x + threadIdx.x;
    if (t <= rows)
        rowSum[t] = markOf(rowSum[t], double(c[t * ldc + cols]),
                           lie.threshold(t == lie.row, rowFactor * sqrt(rowScale[t])), sumFactor);
    if (t <= cols)
        colSum[t] = markOf(colSum[t], double(c[rows * ldc + t]),
                           lie.threshold(t == lie.col, colFactor * sqrt(colScale[t])), sumFactor);
}

__device__ __forceinline__ bool isMismatch(double v) { return !(v <= -1.0); }

__device__ void sortPairs(long long* idx, double* val, int n)
{
    for (int a = 1; a < n; ++a)
        for (int b = a; b > 0 && idx[b - 1] > idx[b]; --b) {
            const long long ti = idx[b];
            idx[b] = idx[b - 1];
            idx[b - 1] = ti;
            const double tv = val[b];
            val[b] = val[b - 1];
            val[b - 1] = tv;
        }
}

// The largest and next largest residual / threshold of one axis's clean checks, with the index
// of the largest (the one-axis rule of gigacheck/locate_rule.hpp).
struct TopTwo {
    double best, second;
    long long index;
};

__device__ __forceinline__ TopTwo mergeTop(TopTwo a, TopTwo b)
{
    // Ties keep the lower index as best, and the tie makes the pick ambiguous (second == best).
    const bool aFirst = a.best > b.best || (a.best == b.best && a.index <= b.index);
    const TopTwo& hi = aFirst ? a : b;
    const TopTwo& lo = aFirst ? b : a;
    return {hi.best, fmax(hi.second, lo.best), hi.index};
}

__device__ __forceinline__ unsigned long long bitsOf(double v) { return (unsigned long long)__double_as_longlong(v); }

// screenChecks' checks as decideKernel<float, true, true> reads them: each one's slots and the
// thresholds' factors verify would derive from its VerifyCall.
struct ScreenSlot {
    const float* lines;
    const double* bounds;
    double* sums;  // read only
    double rowFactor, colFactor, sumFactor;
    VerifyOut* out;
};
struct ScreenSlots {
    ScreenSlot at[kScreenedMax];
};

// One check line (row or column) of decideKernel, read by one thread: its threshold into the
// thread's reported range (bit patterns: NaN orders above inf); a mismatch listed with its mark
// (the first kMaxListed; count is the block's shared counter), a clean line's ratio kept.
__device__ __forceinline__ void noteCheckLine(long long line, double thr, double mark, unsigned long long& tMin,
                                              unsigned long long& tMax, unsigned long long& ratio, int& count,
                                              long long* list, double* marks)
{
    tMin = min(tMin, bitsOf(thr));
    tMax = max(tMax, bitsOf(thr));
    if (isMismatch(mark)) {
        const int slot = atomicAdd(&count, 1);
        if (slot < kMaxListed) {
            list[slot] = line;
            marks[slot] = mark;
        }
    } else {
        ratio = max(ratio, bitsOf(-1.0 - mark));
    }
}

// The checksum rebuild after a check (launchAfterCheck, a programmatic dependent) may be scheduled from
// here on: its blocks take the SMs the check leaves and wait in waitForPriorGrid until the check has
// finished and its writes are visible, so that their launch does not follow the check's end. A no-op
// where nothing follows as a programmatic dependent.
__device__ __forceinline__ void letDependentsLaunch()
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
}

// Launched as a programmatic dependent of the kernel before it (launchCheckKernel, launchAfterCheck): wait until that
// grid has finished and its writes are visible. A no-op for a kernel launched without the attribute.
__device__ __forceinline__ void waitForPriorGrid()
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}

// One block: collect mismatches, decide as the host reference does (abft/verify.cpp), correct each
// located cell from its line's checksum minus the sum of the other cells (exact even when the
// faulty value is inf), and write the verdict into pinned host memory. kMarksHere (the sums came
// from the product's epilogue): the augmentation's two sums and the marks are made here, in the
// scan of the check lines, instead of by two kernels before (one launch per check, not three).
// cellsFrom.a set (VerifyCall::cellsFrom): a located cell is its dot product over the operands instead.
//
// kScreen (screenChecks, with kMarksHere): cluster y checks screen.at[y] from that check's slots
// (ScreenedCheck) instead of C's cells and aux, writes no marks, and ends after the scan: a clean
// verdict reported as above, or kScreenedMismatch for the caller to check that step in full.
template <class T, bool kMarksHere, bool kScreen = false>
__global__ void __launch_bounds__(1024) decideKernel(T* c, Index rows, Index cols, Index ldc, AuxView aux,
                                                      double rowFactor, double colFactor, double sumFactor,
                                                      VerifyOut* out, Lie lie, CellOperands cellsFrom,
                                                      LaterSums later, const double* rebuildFrom,
                                                      ScreenSlots screen)
{
    static_assert(!kScreen || kMarksHere, "a screen makes its marks in the scan");
    waitForPriorGrid();  // before any read: the kernel before it may still be finishing
    // The check's lines: the stored checksums (C's checksum column, a row pitch apart, and its
    // checksum row with the corner after it), their round-off scales and the control sums
    // (kMarksHere: C's line sums, kept as they are for a rebuild of the checksums; else their marks,
    // markKernel's).
    const double* rowScale;
    const double* colScale;
    const T* rowStored;
    Index rowPitch;
    const T* colStored;
    double* rowControl;
    double* colControl;
    if constexpr (kScreen) {  // c and aux are null: nothing is formed from them
        const ScreenSlot& at = screen.at[blockIdx.y];
        rowScale = at.bounds;
        colScale = at.bounds + rows + 1;
        rowStored = at.lines;
        rowPitch = 1;
        colStored = at.lines + rows;
        rowControl = at.sums;
        colControl = at.sums + rows;
        rowFactor = at.rowFactor;
        colFactor = at.colFactor;
        sumFactor = at.sumFactor;
        out = at.out;
    } else {
        rowScale = aux.rowScale();
        colScale = aux.colScale();
        rowStored = c + cols;
        rowPitch = ldc;
        colStored = c + rows * ldc;
        rowControl = aux.scratch0();
        colControl = aux.scratch1();
    }
    __shared__ int nr, nc, nCorr, recompute, verdict;
    __shared__ long long listR[kMaxListed], listC[kMaxListed];
    __shared__ double resR[kMaxListed], resC[kMaxListed];
    __shared__ long long corrR[kMaxListed], corrC[kMaxListed];
    __shared__ int dir[kMaxListed];
    __shared__ double before[kMaxListed], after[kMaxListed];
    __shared__ unsigned long long maxRatio, minThr, maxThr;
    __shared__ TopTwo warpTop[32];
    __shared__ int locatedByLargest;  // 1: row located, column picked; 2: the reverse
    __shared__ long long locatedIndex;
    const int tid = threadIdx.x;
    letDependentsLaunch();
    // The scan of the check lines is shared by the cluster's blocks (kCheckCluster); the first block
    // gathers their notes and alone goes on to decide and correct.
    const ClusterPlace place;
    if (place.idle())
        return;
    if (tid == 0) {
        nr = nc = nCorr = recompute = locatedByLargest = 0;
        verdict = kClean;
        maxRatio = 0;
        minThr = bitsOf(__longlong_as_double(0x7ff0000000000000LL));
        maxThr = 0;
    }
    __syncthreads();
    // kMarksHere: the last line of each axis (the checksum row's and column's own checks) needs the
    // sum of the other axis's stored checksums, which the scan below reads anyway: each thread adds
    // the ones it reads, and the first block marks those two lines once the cluster's parts are in.
    // Their operands are fetched first, while the scan runs.
    __shared__ double lastLine[3];  // C's corner cell, rowScale[rows], colScale[cols]
    __shared__ double lastMark[2];  // the two last lines' marks (row, column)
    __shared__ double warpPart[2][32];
    if (kMarksHere && place.rank == 0 && tid == kWarp) {
        lastLine[0] = double(colStored[cols]);
        lastLine[1] = rowScale[rows];
        lastLine[2] = colScale[cols];
    }
    // Threshold range and largest clean ratio: kept per thread, then one shared atomic per warp
    // (per-element atomics on one shared word serialize 32-fold and cost tens of microseconds).
    // On bit patterns as before (NaN thresholds order above inf), so the reported range is unchanged.
    unsigned long long tMin = bitsOf(__longlong_as_double(0x7ff0000000000000LL)), tMax = 0, ratio = 0;
    // Reported range only: the sum part uses the stored checksum (the control sums are spent). The
    // loads of a few lines first, then their notes: C's checksum column is read a row pitch apart,
    // and one line at a time the scan took 21 us per check at N = 8192 on an H200. Four lines (not
    // eight) keep the block of 1024 within its 64 registers a thread; two when the marks are made
    // here (three spilled), which the cluster's 8192 threads cover up to N = 16384 in two rounds.
    constexpr int kDecideLinesInFlight = kMarksHere ? 2 : 4;
    const auto noteLines = [&](Index extent, const double* scale, const T* stored, Index pitch, double* marks,
                               Index lieLine, double factor, int& count, long long* list, double* residuals,
                               Index first, Index step) {
        const Index last = kMarksHere ? extent - 1 : extent;  // kMarksHere: the last line comes later
        double storedSum = 0;
        for (Index x0 = first; x0 <= last; x0 += kDecideLinesInFlight * step) {
            double sc[kDecideLinesInFlight], st[kDecideLinesInFlight], mk[kDecideLinesInFlight];
#pragma unroll
            for (int u = 0; u < kDecideLinesInFlight; ++u) {
                const Index x = x0 + Index(u) * step;
                const bool in = x <= last;
                sc[u] = in ? scale[x] : 0.0;
                st[u] = in ? double(stored[x * pitch]) : 0.0;
                mk[u] = in ? marks[x] : -1.0;  // kMarksHere: the control sum
            }
#pragma unroll
            for (int u = 0; u < kDecideLinesInFlight; ++u) {
                const Index x = x0 + Index(u) * step;
                if (x > last)
                    continue;
                if constexpr (kMarksHere) {  // not stored: the one-axis rule makes again the few it reads
                    storedSum += st[u];
                    mk[u] = markOf(mk[u], st[u], lie.threshold(x == lieLine, factor * sqrt(sc[u])), sumFactor);
                }
                noteCheckLine(x, factor * sqrt(sc[u]) + sumFactor * fabs(st[u]), mk[u], tMin, tMax, ratio, count, list,
                              residuals);
            }
        }
        return storedSum;
    };
    // The row checks read C's checksum column, whose sum is the column checks' last control sum;
    // the column checks read the checksum row, the row checks' last. The first half of the threads
    // takes the rows, the second the columns, so that both axes' loads are in flight together (one
    // after the other, a thread waited for two memory round trips where N allows one). Halves of
    // whole warps (blocks of a multiple of 64 threads): no warp takes both.
    const Index half = place.threads() / 2;
    const bool rowHalf = place.thread() < half;
    double colLast = 0, rowLast = 0;
    if (rowHalf)
        colLast = noteLines(rows, rowScale, rowStored, rowPitch, rowControl, lie.row, rowFactor, nr, listR, resR,
                            place.thread(), half);
    else
        rowLast = noteLines(cols, colScale, colStored, 1, colControl, lie.col, colFactor, nc, listC, resC,
                            place.thread() - half, place.threads() - half);
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) {
        tMin = min(tMin, __shfl_down_sync(0xffffffffu, tMin, o));
        tMax = max(tMax, __shfl_down_sync(0xffffffffu, tMax, o));
        ratio = max(ratio, __shfl_down_sync(0xffffffffu, ratio, o));
        if constexpr (kMarksHere) {
            rowLast += __shfl_down_sync(0xffffffffu, rowLast, o);
            colLast += __shfl_down_sync(0xffffffffu, colLast, o);
        }
    }
    if (tid % kWarp == 0) {
        atomicMin(&minThr, tMin);
        atomicMax(&maxThr, tMax);
        atomicMax(&maxRatio, ratio);
        if constexpr (kMarksHere) {
            warpPart[0][tid / kWarp] = rowLast;
            warpPart[1][tid / kWarp] = colLast;
        }
    }
    __syncthreads();  // the block's notes complete: counts, lists, ranges, the warps' parts
    double rowTotal = 0, colTotal = 0;  // kMarksHere: the block's parts, then (first block) the cluster's
    if (kMarksHere && tid == 0)
        for (int w = 0; w < int(blockDim.x / kWarp); ++w) {  // the warps in order: the same sums every run
            rowTotal += warpPart[0][w];
            colTotal += warpPart[1][w];
        }
    if (place.ranks > 1) {
        // Every other block stores its notes into its own slot of the first block's inbox (plain
        // remote stores, no atomics), and one cluster barrier makes them visible there; then the others
        // leave, and no block reads another's memory. (Reading the others' notes after the barrier
        // needed a second one to keep them alive; in a probe on an H100 a cluster's two barriers cost
        // 1.4 us, probes/check_launch_probe.cu.)
        __shared__ ClusterNotes inbox[kCheckCluster];
        if (place.rank != 0) {
            ClusterNotes* slot = place.at(inbox, 0) + place.rank;
            if (tid == 0) {
                slot->rows = nr;
                slot->cols = nc;
                slot->lo = minThr;
                slot->hi = maxThr;
                slot->top = maxRatio;
                slot->part[0] = rowTotal;
                slot->part[1] = colTotal;
            }
            if (tid < min(nr, kMaxListed)) {
                slot->listR[tid] = listR[tid];
                slot->resR[tid] = resR[tid];
            } else if (tid >= kMaxListed && tid - kMaxListed < min(nc, kMaxListed)) {
                slot->listC[tid - kMaxListed] = listC[tid - kMaxListed];
                slot->resC[tid - kMaxListed] = resC[tid - kMaxListed];
            }
        }
        place.sync();
        if (place.rank != 0)
            return;
        if (tid < kWarp) {
            // Lane b takes block b's counts, ranges and parts; the first thread then appends the
            // others' lists after this block's own, in rank order (counts in full, lists to kMaxListed).
            const unsigned b = unsigned(tid);
            const bool other = b >= 1 && b < place.ranks;
            unsigned long long lo = other ? inbox[b].lo : ~0ull;
            unsigned long long hi = other ? inbox[b].hi : 0ull;
            unsigned long long top = other ? inbox[b].top : 0ull;
            const double rowPart = other ? inbox[b].part[0] : rowTotal;
            const double colPart = other ? inbox[b].part[1] : colTotal;
#pragma unroll
            for (int o = 16; o > 0; o >>= 1) {
                lo = min(lo, __shfl_down_sync(0xffffffffu, lo, o));
                hi = max(hi, __shfl_down_sync(0xffffffffu, hi, o));
                top = max(top, __shfl_down_sync(0xffffffffu, top, o));
            }
            rowTotal = colTotal = 0;
            if constexpr (kMarksHere)
                for (unsigned r = 0; r < place.ranks; ++r) {  // in rank order: the same sums every run
                    rowTotal += __shfl_sync(0xffffffffu, rowPart, int(r));
                    colTotal += __shfl_sync(0xffffffffu, colPart, int(r));
                }
            if (tid == 0) {
                minThr = min(minThr, lo);
                maxThr = max(maxThr, hi);
                maxRatio = max(maxRatio, top);
                int storedR = min(nr, kMaxListed), storedC = min(nc, kMaxListed);
                for (unsigned r = 1; r < place.ranks; ++r) {
                    const ClusterNotes& n = inbox[r];
                    for (int i = 0; i < min(n.rows, kMaxListed) && storedR < kMaxListed; ++i, ++storedR) {
                        listR[storedR] = n.listR[i];
                        resR[storedR] = n.resR[i];
                    }
                    for (int i = 0; i < min(n.cols, kMaxListed) && storedC < kMaxListed; ++i, ++storedC) {
                        listC[storedC] = n.listC[i];
                        resC[storedC] = n.resC[i];
                    }
                    nr += n.rows;
                    nc += n.cols;
                }
            }
        }
    }
    if (kMarksHere && tid == 0) {
        // The two last lines: the checksum row's check (control: the checksum row's sum) and the
        // checksum column's, both against C's corner cell.
        unsigned long long lo = minThr, hi = maxThr, top = maxRatio;
        const double corner = lastLine[0];
        const double rowLastMark =
            markOf(rowTotal, corner, lie.threshold(rows == lie.row, rowFactor * sqrt(lastLine[1])), sumFactor);
        const double colLastMark =
            markOf(colTotal, corner, lie.threshold(cols == lie.col, colFactor * sqrt(lastLine[2])), sumFactor);
        lastMark[0] = rowLastMark;
        lastMark[1] = colLastMark;
        noteCheckLine(rows, rowFactor * sqrt(lastLine[1]) + sumFactor * fabs(corner), rowLastMark, lo, hi, top, nr,
                      listR, resR);
        noteCheckLine(cols, colFactor * sqrt(lastLine[2]) + sumFactor * fabs(corner), colLastMark, lo, hi, top, nc,
                      listC, resC);
        minThr = lo;
        maxThr = hi;
        maxRatio = top;
    }
    __syncthreads();

    // The verdict's scalars and the rebuild's flag; the lists are written beside them below.
    const auto report = [&] {
        out->verdict = verdict;
        out->rowCount = nr;
        out->colCount = nc;
        out->correctionCount = nCorr;
        out->recomputed = recompute;
        out->locatedByLargestResidual = locatedByLargest != 0 ? 1 : 0;
        out->maxCleanRatio = __longlong_as_double((long long)maxRatio);
        out->minThreshold = __longlong_as_double((long long)minThr);
        out->maxThreshold = __longlong_as_double((long long)maxThr);
        if constexpr (!kMarksHere) {
            aux.scratch0()[0] = recompute;  // flag for recomputeChecksumsKernel (the marks are consumed)
            aux.scratch1()[0] = 0;          // its count of finished blocks
        }
    };
    if constexpr (kScreen) {
        if (tid == 0) {
            if (nr == 0 && nc == 0)
                report();
            else
                out->verdict = kScreenedMismatch;
        }
        return;
    }
    // Clean (the common case): nothing to locate, list or correct.
    if (nr == 0 && nc == 0) {
        if (tid == 0)
            report();
        return;
    }

    // The whole block sums a line of C for a correction: a line of C is up to tens of thousands of
    // cells, and a column's are a row pitch apart; one warp walking it waited on each load in turn
    // (measured on an H200: a corrected fault cost the check ~0.35 ms at N = 16384, 0.08 ms at 4096).
    // The sum of the line through (r, cc) without that cell goes into linePart (a part per warp), the
    // line's checksum and the cell into checksumAndCell; the caller's barrier makes them visible.
    const int lane = tid % kWarp, warp = tid / kWarp, warps = blockDim.x / kWarp;
    __shared__ double linePart[32];
    __shared__ double checksumAndCell[2];
    const auto sumLine = [&](bool fromColumn, Index r, Index cc) {
        const Index extent = fromColumn ? rows : cols;
        const Index skip = fromColumn ? r : cc;
        // The line's checksum and the cell itself are read beside the line's sum (by threads the sum
        // gives no more work than the others), not after it one load at a time by the first thread.
        if (tid == warps * kWarp - 1)
            checksumAndCell[0] = double(fromColumn ? c[rows * ldc + cc] : c[r * ldc + cols]);
        if (tid == warps * kWarp - 2)
            checksumAndCell[1] = double(c[r * ldc + cc]);
        // Four of the line's cells a thread loaded before any is added, so that their loads are in
        // flight together (written as one loop, ptxas reused a register for them and waited on each
        // pair in turn). On its own this moved no measured time (the fault path's cost was its cold
        // code, hence the short path below); kept as the same sums in the same order.
        double s = 0;
        for (Index e0 = tid; e0 < extent; e0 += 4 * Index(blockDim.x)) {
            T cells[4];
#pragma unroll
            for (int u = 0; u < 4; ++u) {
                const Index e = e0 + Index(u) * blockDim.x;
                cells[u] = e < extent && e != skip ? (fromColumn ? c[e * ldc + cc] : c[r * ldc + e]) : T(0);
            }
#pragma unroll
            for (int u = 0; u < 4; ++u)
                s += double(cells[u]);
        }
        s = warpSum(s);
        if (lane == 0)
            linePart[warp] = s;
    };
    // One mismatching row and one mismatching column, both in C's main part (a single fault): that
    // cell, corrected here in one short stretch of code -- the row summed, the cell corrected, the
    // verdict written -- because the general path's code is cold when a fault comes (it runs only
    // then), and the block waited on the fetch of each of its stretches (Nsight Compute on an H100:
    // instruction fetch was the largest part of what a corrected fault added to the check). With it
    // the check with one fault took 13.3 us instead of 18.5 on an H100 at 4096 (BF16; 8.2 clean).
    // From the row's checksum, not the column's as the general path would: a row is contiguous, a
    // column a sector per cell, a row pitch apart, and one SM took 4.3 us to sum a column of 4096.
    if (nr == 1 && nc == 1 && listR[0] < rows && listC[0] < cols && !cellsFrom.a) {
        const Index r = listR[0], cc = listC[0];
        sumLine(false, r, cc);
        __syncthreads();
        if (tid == 0) {
            double line = 0;
            for (int w = 0; w < warps; ++w)
                line += linePart[w];
            const T corrected = T(checksumAndCell[0] - line);
            c[r * ldc + cc] = corrected;
            before[0] = checksumAndCell[1];
            after[0] = double(corrected);
            verdict = kCorrected;
            nCorr = 1;
            out->rows[0] = r;
            out->rowResidual[0] = resR[0];
            out->cols[0] = cc;
            out->colResidual[0] = resC[0];
            out->direction[0] = 0;  // from the row's checksum
            out->corrRow[0] = r;
            out->corrCol[0] = cc;
            out->before[0] = before[0];
            out->after[0] = after[0];
            report();
        }
        if (later.sums) {  // as after the general path's corrections, below
            __syncthreads();
            const double change = after[0] - before[0];
            for (int step = tid; step < later.steps; step += blockDim.x) {
                double* sums = later.sums + Index(step) * (rows + cols);
                sums[r] += change;
                sums[rows + cc] += change;
            }
        }
        return;
    }

    // One mismatch on one axis only: the other axis's largest and next largest residual /
    // threshold (its marks are all clean, -1 - ratio), for the one-axis rule.
    const int oneAxis = (nr == 1 && nc == 0) ? 1 : (nr == 0 && nc == 1) ? 2 : 0;  // 1: look at columns
    if (oneAxis != 0) {
        const bool ofColumns = oneAxis == 1;
        const Index extent = ofColumns ? cols : rows;
        // Line x's mark: kMarksHere, made again from its sum as the scan made it (the scan stores
        // none, so that the sums stay for a rebuild); else markKernel's.
        const auto markAt = [&](Index x) -> double {
            if constexpr (kMarksHere) {
                if (x == extent)
                    return lastMark[ofColumns ? 1 : 0];
                const double thr = ofColumns ? colFactor * sqrt(colScale[x]) : rowFactor * sqrt(rowScale[x]);
                return markOf(ofColumns ? colControl[x] : rowControl[x],
                              ofColumns ? double(colStored[x]) : double(rowStored[x * rowPitch]),
                              lie.tolerance(x == (ofColumns ? lie.col : lie.row), thr), sumFactor);
            } else {
                return ofColumns ? colControl[x] : rowControl[x];
            }
        };
        TopTwo top{0.0, 0.0, -1};
        for (Index x = tid; x <= extent; x += blockDim.x) {
            const double mark = markAt(x);
            if (!isMismatch(mark))
                top = mergeTop(top, TopTwo{-1.0 - mark, 0.0, (long long)x});
        }
#pragma unroll
        for (int o = 16; o > 0; o >>= 1) {
            const TopTwo other{__shfl_down_sync(0xffffffffu, top.best, o),
                               __shfl_down_sync(0xffffffffu, top.second, o),
                               __shfl_down_sync(0xffffffffu, top.index, o)};
            top = mergeTop(top, other);
        }
        if (tid % kWarp == 0)
            warpTop[tid / kWarp] = top;
    }
    __syncthreads();

    if (tid == 0) {
        sortPairs(listR, resR, min(nr, kMaxListed));
        if (oneAxis != 0) {
            TopTwo top{0.0, 0.0, -1};
            for (int w = 0; w < int(blockDim.x / kWarp); ++w)
                top = mergeTop(top, warpTop[w]);
            // Tolerances as on the host (abft/verify.cpp): threshold with the TF32 sum part of the
            // stored checksum.
            const auto rowTolerance = [&](Index i) {
                return lie.tolerance(i == lie.row,
                                     rowFactor * sqrt(aux.rowScale()[i]) + sumFactor * fabs(double(c[i * ldc + cols])));
            };
            const auto colTolerance = [&](Index j) {
                return lie.tolerance(j == lie.col,
                                     colFactor * sqrt(aux.colScale()[j]) + sumFactor * fabs(double(c[rows * ldc + j])));
            };
            if (top.index >= 0) {
                const bool rowsOnly = oneAxis == 1;
                const double residual = rowsOnly ? resR[0] : resC[0];
                const double tolerance = rowsOnly ? rowTolerance(listR[0]) : colTolerance(listC[0]);
                const double otherTolerance = rowsOnly ? colTolerance(top.index) : rowTolerance(top.index);
                if (locatesOnOtherAxis(residual, tolerance, top.best, top.second, otherTolerance)) {
                    locatedByLargest = rowsOnly ? 1 : 2;
                    locatedIndex = top.index;
                }
            }
        }
        sortPairs(listC, resC, min(nc, kMaxListed));
        if (nr == 0 && nc == 0) {
            verdict = kClean;
        } else if ((nr > 1 && nc > 1) || nr > kMaxListed || nc > kMaxListed) {
            verdict = kUncorrectable;  // non-collinear (or too many to list): C untouched
        } else if ((nr == 0 || nc == 0) && !locatedByLargest) {
            // One axis only and not located: harmless when it is the checksum row / column, else
            // the cell cannot be found here (the run's repair pass recomputes on the host).
            const bool onlyChecksum = (nc == 0 && nr == 1 && listR[0] == rows) || (nr == 0 && nc == 1 && listC[0] == cols);
            verdict = onlyChecksum ? kCorrected : kUncorrectable;
            recompute = onlyChecksum ? 1 : 0;
        } else {
            // The located lists: the mismatches, one axis completed by the one-axis rule. The
            // reported lists (out->rows / cols) stay the mismatches.
            // Slot 0 of the empty list is free: only the first nr / nc entries are reported.
            if (locatedByLargest == 1)
                listC[0] = locatedIndex;
            else if (locatedByLargest == 2)
                listR[0] = locatedIndex;
            const int lr = locatedByLargest == 2 ? 1 : nr, lc = locatedByLargest == 1 ? 1 : nc;
            // Row-collinear or single (one mismatching row): fixed from the column checks;
            // column-collinear: from the row checks. Checksum cells are rebuilt afterwards.
            const bool fromColumns = lr == 1;
            int n = 0;
            for (int pass = 0; pass < 2; ++pass)
                for (int x = 0; x < lr; ++x)
                    for (int y = 0; y < lc; ++y) {
                        const long long r = listR[x], cc = listC[y];
                        const bool checksumCell = r == rows || cc == cols;
                        if (checksumCell != (pass == 1) || n >= kMaxListed)
                            continue;
                        corrR[n] = r;
                        corrC[n] = cc;
                        dir[n] = checksumCell ? 2 : (fromColumns ? 1 : 0);
                        recompute |= checksumCell ? 1 : 0;
                        ++n;
                    }
            nCorr = n;
            verdict = kCorrected;
        }
    }
    __syncthreads();

    for (int n = 0; n < nCorr; ++n) {
        const Index r = corrR[n], cc = corrC[n];
        T* cell = c + r * ldc + cc;
        if (dir[n] == 2) {  // a checksum cell: rebuilt below (kMarksHere) or by recomputeChecksumsKernel
            if (tid == 0)
                before[n] = double(*cell);
            continue;
        }
        if (cellsFrom.a) {
            // C holds more than the checked product (the online family's step-sums kernel): the cell
            // computed again from A's row and B^T's row, as multiplied (rounded to TF32).
            double dot = 0;
#pragma unroll 4  // the loads of four rounds in flight, not one round trip after another
            for (Index k = tid; k < cellsFrom.depth; k += blockDim.x)
                dot += double(roundToTf32(cellsFrom.a[r * cellsFrom.lda + k])) *
                       double(roundToTf32(cellsFrom.bt[cc * cellsFrom.ldbt + k]));
            dot = warpSum(dot);
            if (lane == 0)
                linePart[warp] = dot;
            __syncthreads();
            if (tid == 0) {
                double cell0 = 0;
                for (int w = 0; w < warps; ++w)
                    cell0 += linePart[w];
                before[n] = double(*cell);
                const T corrected = T(cell0);
                *cell = corrected;
                after[n] = double(corrected);  // not read back: a store then a load of one cell waits a round trip
            }
            __syncthreads();
            continue;
        }
        sumLine(dir[n] == 1, r, cc);
        __syncthreads();
        if (tid == 0) {
            double line = 0;
            for (int w = 0; w < warps; ++w)
                line += linePart[w];
            before[n] = checksumAndCell[1];
            const T corrected = T(checksumAndCell[0] - line);
            *cell = corrected;
            after[n] = double(corrected);  // not read back from C (a round trip while the block waits)
        }
        __syncthreads();
    }

    // kMarksHere: the checksum row and column rebuilt here after a fault in a checksum cell, from the
    // sums the check compared (C's as checked, or rebuildFrom), plus this check's corrections,
    // instead of by recomputeChecksumsKernel after the check: that kernel's launch, empty after a
    // clean check, ended 1.2 us after the check (kernel trace, H100, BF16 at 4096).
    if constexpr (kMarksHere) {
        if (recompute) {
            __syncthreads();  // the checksum cells' values before the rebuild (before[n]) read
            const double* rowFrom = rebuildFrom ? rebuildFrom : rowControl;
            const double* colFrom = rebuildFrom ? rebuildFrom + rows : colControl;
            const auto correctedIn = [&](bool row, Index at) {
                double change = 0;
                for (int n = 0; n < nCorr; ++n)
                    if (dir[n] != 2 && (row ? corrR[n] : corrC[n]) == at)
                        change += after[n] - before[n];
                return change;
            };
            double corner = 0;
            for (Index j = tid; j < cols; j += blockDim.x) {
                const T cell = T(colFrom[j] + correctedIn(false, j));
                c[rows * ldc + j] = cell;
                corner += double(cell);
            }
            for (Index i = tid; i < rows; i += blockDim.x)
                c[i * ldc + cols] = T(rowFrom[i] + correctedIn(true, i));
            corner = warpSum(corner);
            if (lane == 0)
                linePart[warp] = corner;
            __syncthreads();
            if (tid == 0) {
                double sum = 0;
                for (int w = 0; w < warps; ++w)
                    sum += linePart[w];
                c[rows * ldc + cols] = T(sum);
                for (int n = 0; n < nCorr; ++n)
                    if (dir[n] == 2)
                        after[n] = double(c[corrR[n] * ldc + corrC[n]]);
            }
            __syncthreads();
        }
    }

    // The corrections carried into the later steps' sums (VerifyCall::later), in the order they were
    // made. Here, not in a kernel after the check: that one read them back from the pinned verdict,
    // a round trip over the host link per field (7.4 us at N = 8192 on an H100).
    if (later.sums)
        for (int n = 0; n < nCorr; ++n) {
            if (dir[n] == 2)  // a checksum cell: not in C's sums
                continue;
            const double change = after[n] - before[n];
            for (int step = tid; step < later.steps; step += blockDim.x) {
                double* sums = later.sums + Index(step) * (rows + cols);
                sums[corrR[n]] += change;
                sums[rows + corrC[n]] += change;
            }
        }

    const int listedR = min(nr, kMaxListed), listedC = min(nc, kMaxListed);
    for (int x = tid; x < kMaxListed; x += blockDim.x) {
        if (x < listedR) {
            out->rows[x] = listR[x];
            out->rowResidual[x] = resR[x];
        }
        if (x < listedC) {
            out->cols[x] = listC[x];
            out->colResidual[x] = resC[x];
        }
        if (x < nCorr) {
            out->direction[x] = dir[x];
            out->corrRow[x] = corrR[x];
            out->corrCol[x] = corrC[x];
            out->before[x] = before[x];
            out->after[x] = after[x];
        }
    }
    if (tid == 0)
        report();
}

// After a check whose sums a pass made (decideKernel<T, false>), only when it raised the flag: rebuild
// the checksum row (j < cols, one thread a column) and column (i < rows, one warp a row) from C, then
// the corner from the rebuilt row, and report the checksum cells' new values. The last block to
// finish (counted in `done`, which decideKernel zeroed) takes the corner and the report: a clean
// check pays one empty launch, not three. (A check of sums from the product rebuilds them itself.)
template <class T>
__global__ void __launch_bounds__(256) recomputeChecksumsKernel(T* c, Index rows, Index cols, Index ldc,
                                                               const double* flag, double* done, unsigned rowBlocks,
                                                               VerifyOut* out)
{
    waitForPriorGrid();
    if (*flag == 0)
        return;
    if (blockIdx.x < rowBlocks) {
        const Index j = Index(blockIdx.x) * blockDim.x + threadIdx.x;
        if (j < cols) {
            double s = 0;
            for (Index i = 0; i < rows; ++i)
                s += double(c[i * ldc + j]);
            c[rows * ldc + j] = T(s);
        }
    } else {
        const Index i = Index(blockIdx.x - rowBlocks) * (blockDim.x / kWarp) + threadIdx.x / kWarp;
        const int lane = threadIdx.x % kWarp;
        if (i < rows) {  // the same for the whole warp
            double s = 0;
            for (Index j = lane; j < cols; j += kWarp)
                s += double(c[i * ldc + j]);
            s = warpSum(s);
            if (lane == 0)
                c[i * ldc + cols] = T(s);
        }
    }
    __shared__ bool last;
    __shared__ double part[256 / kWarp];
    __threadfence();  // this block's cells before its count
    __syncthreads();
    if (threadIdx.x == 0)
        last = atomicAdd(done, 1.0) == double(gridDim.x - 1);
    __syncthreads();
    if (!last)
        return;
    __threadfence();
    double s = 0;
    for (Index j = threadIdx.x; j < cols; j += blockDim.x)
        s += double(__ldcg(c + rows * ldc + j));  // from L2: other blocks wrote them
    s = warpSum(s);
    if (threadIdx.x % kWarp == 0)
        part[threadIdx.x / kWarp] = s;
    __syncthreads();
    if (threadIdx.x != 0)
        return;
    double corner = 0;
    for (int w = 0; w < int(blockDim.x / kWarp); ++w)
        corner += part[w];
    c[rows * ldc + cols] = T(corner);
    for (int n = 0; n < out->correctionCount; ++n)
        if (out->direction[n] == 2)
            out->after[n] = double(__ldcg(c + out->corrRow[n] * ldc + out->corrCol[n]));
}

// ---- fault injection ---------------------------------------------------------------------------
constexpr int kInjectBatch = 16;
struct InjectBatch {
    int count;
    DeviceInjection items[kInjectBatch];
};

template <class T>
__global__ void injectKernel(T* c, Index ldc, InjectBatch batch, double* beforeAfter, ProductSums sums)
{
    for (int e = 0; e < batch.count; ++e) {  // in order: two faults on one cell compose
        const DeviceInjection& inj = batch.items[e];
        T* cell = c + inj.row * ldc + inj.col;
        const T before = *cell;
        const T after = faulted(before, inj);
        *cell = after;
        if (sums.rowSum && inj.row < sums.rows && inj.col < sums.cols) {
            const double change = double(after) - double(before);
            sums.rowSum[inj.row] += change;
            sums.colSum[inj.col] += change;
        }
        beforeAfter[2 * e] = double(before);
        beforeAfter[2 * e + 1] = double(after);
    }
}

// The correction write of cell (inj.row, inj.col) hit, when the verification corrected it.
template <class T>
__global__ void injectIntoCorrectionKernel(T* c, Index ldc, const VerifyOut* out, DeviceInjection inj,
                                           double* beforeAfterApplied)
{
    beforeAfterApplied[2] = 0.0;
    for (int n = 0; n < out->correctionCount && n < kMaxListed; ++n)
        if (out->direction[n] != 2 && out->corrRow[n] == inj.row && out->corrCol[n] == inj.col) {
            T* cell = c + inj.row * ldc + inj.col;
            const T before = *cell;
            *cell = faulted(before, inj);
            beforeAfterApplied[0] = double(before);
            beforeAfterApplied[1] = double(*cell);
            beforeAfterApplied[2] = 1.0;
            return;
        }
}

// c_A[k] hit: its change times row k of B_r added to C's checksum row (one block).
template <class T>
__global__ void __launch_bounds__(256) injectIntoEncodingAKernel(const T* a, Index lda, Index rows, const T* b,
                                                                 Index ldb, T* c, Index ldc, Index cols,
                                                                 DeviceInjection inj, double* beforeAfter)
{
    __shared__ double change;
    if (threadIdx.x == 0) {
        const Index k = inj.row;
        double sum = 0;
        for (Index i = 0; i < rows; ++i)
            sum += double(a[i * lda + k]);
        const T before = T(sum);
        const T after = faulted(before, inj);
        beforeAfter[0] = double(before);
        beforeAfter[1] = double(after);
        change = double(after) - double(before);
    }
    __syncthreads();
    for (Index j = threadIdx.x; j <= cols; j += blockDim.x)
        c[rows * ldc + j] = T(double(c[rows * ldc + j]) + change * double(b[inj.row * ldb + j]));
}

// ---- typed launchers ---------------------------------------------------------------------------
template <class T>
void checksumBImpl(T* b, Index depth, Index cols, Index ldb, OperandRounding rounding, cudaStream_t s)
{
    if (depth <= 0)
        return;
    rowSumsKernel<T><<<blocksFor(depth, 8), 256, 0, s>>>(b, depth, cols, ldb, vectorizable(b, ldb, 0, sizeof(T)),
                                                         rounding);
    CUDA_CHECK_LAUNCH();
}

template <class T>
void checksumProductsImpl(T* a, Index lda, const T* b, Index ldb, T* c, Index ldc, Index rows, Index depth,
                          Index cols, AuxView aux, bool accumulate, bool inputRounding, OperandRounding roundA, cudaStream_t s)
{
    const bool checksumWeight = inputRounding;  // TF32: rowScale + rowChecksumScale (abft.hpp)
    if (!accumulate) {
        resetChecksumsKernel<T><<<blocksFor((rows > cols ? rows : cols) + 1, 256), 256, 0, s>>>(
            c, rows, cols, ldc, aux.rowScale(), aux.colScale());
        CUDA_CHECK_LAUNCH();
    }
    const bool vecA = vectorizable(a, lda, aux.ld, sizeof(T)), vecB = vectorizable(b, ldb, 0, sizeof(T));
    // c_A and the column norms of A live in the two scratch rows of Aux, so the inner dimension
    // goes in chunks of aux.ld; each chunk still reads its part of A and B once.
    for (Index k0 = 0; k0 < depth; k0 += aux.ld) {
        const Index kn = depth - k0 < aux.ld ? depth - k0 : aux.ld;
        zeroTwo(aux.scratch0(), kn, aux.scratch1(), kn, s);
        if (rows > 0) {
            const unsigned tiles = blocksFor(kn, kACols);
            const Index tileRows = tileRowsFor(kARows, tiles, rows);
            aPassKernel<T><<<dim3(tiles, blocksFor(rows, tileRows)), 256, 0, s>>>(
                a, lda, b, ldb, c + cols, ldc, rows, k0, kn, cols, aux.scratch0(), aux.scratch1(), aux.rowScale(),
                checksumWeight, vecA, tileRows, roundA, PanelStep{});
            CUDA_CHECK_LAUNCH();
        }
        constexpr int n = Vec<T>::n;
        const unsigned strips = blocksFor(cols + 1, kWarp * n);
        const Index tileRows = tileRowsFor(kBRows, strips, kn);
        bPassKernel<T><<<dim3(strips, blocksFor(kn, tileRows)), dim3(kWarp, 8), 0, s>>>(
            b, ldb, c + rows * ldc, k0, kn, cols, aux.scratch0(), aux.scratch1(), aux.colScale(), aux.rowScale() + rows,
            checksumWeight, vecB, tileRows, roundA.roundedInRegisters, PanelStep{});
        CUDA_CHECK_LAUNCH();
    }
}

template <class T>
void sumsOfCImpl(const T* c, Index rows, Index cols, Index ldc, double* rowSum, double* colSum, bool besideGemm,
                 cudaStream_t s)
{
    zeroTwo(rowSum, rows + 1, colSum, cols + 1, s);
    const bool vec = vectorizable(c, ldc, 0, sizeof(T));
    if (besideGemm) {
        const unsigned strips = blocksFor(cols + 1, kWarp * kLeanVecs * Vec<T>::n);
        const Index tileRows = leanTileRows(strips, rows + 1);
        leanSumsKernel<T><<<dim3(strips, blocksFor(rows + 1, tileRows)), kLeanWarps * kWarp, 0, s>>>(
            c, rows, cols, ldc, rowSum, colSum, vec, tileRows);
    } else {
        const unsigned tiles = blocksFor(cols + 1, kSumCols);
        const Index tileRows = tileRowsFor(kSumRows, tiles, rows + 1);
        fusedSumsKernel<T><<<dim3(tiles, blocksFor(rows + 1, tileRows)), 256, 0, s>>>(c, rows, cols, ldc, rowSum,
                                                                                      colSum, vec, tileRows);
    }
    CUDA_CHECK_LAUNCH();
}

// Whether the current device launches clusters (Hopper and later), asked once per device.
bool launchesClusters()
{
    constexpr int kMaxDevices = 64;
    static int cached[kMaxDevices] = {};  // 0: not asked, 1: yes, -1: no
    int device = 0;
    if (cudaGetDevice(&device) != cudaSuccess || device < 0 || device >= kMaxDevices) {
        (void)cudaGetLastError();
        return false;
    }
    if (cached[device] == 0) {
        int yes = 0;
        if (cudaDeviceGetAttribute(&yes, cudaDevAttrClusterLaunch, device) != cudaSuccess) {
            (void)cudaGetLastError();
            yes = 0;
        }
        cached[device] = yes ? 1 : -1;
    }
    return cached[device] > 0;
}

// A check kernel of 1024 threads: with asCluster, a cluster of kCheckCluster blocks where the device
// launches clusters (one block if the launch is refused); else one block. The checks of fused-sums
// products take the cluster (measured on an H200 at N = 8192: decide 19.0 -> 12.9 us and the
// augmentation's sums 8.9 -> 6.3 us as two kernels; one kernel doing both, 14.7-15.5 us); the others
// keep one block, as measured for the online family's FP32 runs, where a first cluster version
// seemed to wait for free SMs beside the GEMMs (resources/results/README.md).
// `checks` clusters (blocks) side by side in y: screenChecks.
template <class... Params, class... Args>
void launchCheckKernel(bool asCluster, unsigned checks, void (*kernel)(Params...), cudaStream_t s, Args... args)
{
    if (asCluster && launchesClusters()) {
        cudaLaunchConfig_t config{};
        config.gridDim = dim3(kCheckCluster, checks);
        config.blockDim = dim3(1024);
        config.stream = s;
        cudaLaunchAttribute attrs[2];
        attrs[0].id = cudaLaunchAttributeClusterDimension;
        attrs[0].val.clusterDim.x = kCheckCluster;
        attrs[0].val.clusterDim.y = 1;
        attrs[0].val.clusterDim.z = 1;
        // A programmatic dependent of the kernel before it (the pass finishing C's sums, an injection):
        // the cluster is placed while that kernel's blocks end, not after; decideKernel waits for that
        // kernel before its first read. Without the attribute where a device refuses it.
        attrs[1].id = cudaLaunchAttributeProgrammaticStreamSerialization;
        attrs[1].val.programmaticStreamSerializationAllowed = 1;
        config.attrs = attrs;
        for (unsigned n = 2; n >= 1; --n) {
            config.numAttrs = n;
            if (cudaLaunchKernelEx(&config, kernel, Params(args)...) == cudaSuccess)
                return;
            (void)cudaGetLastError();
        }
    }
    kernel<<<dim3(1, checks), 1024, 0, s>>>(Params(args)...);
    CUDA_CHECK_LAUNCH();
}

// The rebuild after a check (256 threads a block): on Hopper as a programmatic dependent launch, whose
// setup overlaps the check's end (the kernel waits for it in waitForPriorGrid). A clean check's empty
// rebuild then cost 1.2 us less after it (resources/results/probes/check_launch_probe.cu, H100).
template <class... Params, class... Args>
void launchAfterCheck(dim3 grid, void (*kernel)(Params...), cudaStream_t s, Args... args)
{
    if (launchesClusters()) {
        launchAsDependent(grid, dim3(256), kernel, s, args...);
        return;
    }
    kernel<<<grid, 256, 0, s>>>(Params(args)...);
    CUDA_CHECK_LAUNCH();
}

// Thresholds of abft.hpp: t = lambda u (depth + extent + 2) sqrt(scale); with TF32 inputs
// (uInput > 0) plus lambda 2 sqrt(2) uI sqrt(scale) (scale then includes the checksum scales)
// and 4 uI |checked sum|.
struct CheckFactors {
    double row, col, sum;
};
CheckFactors checkFactorsOf(const VerifyCall& v)
{
    const double inputPart = 2.0 * sqrt(2.0) * v.uInput;
    return {v.lambda * (v.u * double(v.depth + v.cols + 2) + inputPart),
            v.lambda * (v.u * double(v.depth + v.rows + 2) + inputPart), 4.0 * v.uInput + v.truncationSumFactor};
}

template <class T>
void verifyImpl(const VerifyCall& v, VerifyOut* hostOut, cudaStream_t s)
{
    T* c = static_cast<T*>(v.c);
    const Index rows = v.rows, cols = v.cols, ldc = v.ldc;
    const AuxView aux = v.aux;
    const CheckFactors f = checkFactorsOf(v);
    const double rowFactor = f.row, colFactor = f.col, sumFactor = f.sum;
    const Lie lie{v.lieRow, v.lieCol, v.lieThreshold};
    if (v.sumsFromProduct) {
        // The epilogue summed C's main part: the rest of the check, a rebuild of faulty checksums
        // included, is one cluster kernel.
        launchCheckKernel(true, 1, decideKernel<T, true>, s, c, rows, cols, ldc, aux, rowFactor, colFactor, sumFactor,
                          hostOut, lie, v.cellsFrom, v.later, v.recomputeFrom, ScreenSlots{});
        return;
    }
    sumsOfCImpl<T>(c, rows, cols, ldc, aux.scratch0(), aux.scratch1(), v.besideGemm, s);
    const Index n = (rows > cols ? rows : cols) + 1;
    markKernel<T><<<blocksFor(n, 256), 256, 0, s>>>(c, rows, cols, ldc, aux.scratch0(), aux.scratch1(),
                                                    aux.rowScale(), aux.colScale(), rowFactor, colFactor, sumFactor,
                                                    lie);
    CUDA_CHECK_LAUNCH();
    launchCheckKernel(false, 1, decideKernel<T, false>, s, c, rows, cols, ldc, aux, rowFactor, colFactor, sumFactor,
                      hostOut, lie, CellOperands{}, LaterSums{}, static_cast<const double*>(nullptr), ScreenSlots{});
    const unsigned rowBlocks = blocksFor(cols, 256);
    const unsigned colBlocks = blocksFor(rows, 256 / kWarp);
    launchAfterCheck(dim3(rowBlocks + colBlocks > 0 ? rowBlocks + colBlocks : 1), recomputeChecksumsKernel<T>, s, c, rows,
                     cols, ldc, (const double*)aux.scratch0(), aux.scratch1(), rowBlocks, hostOut);
}

template <class T>
void injectImpl(T* c, Index ldc, const DeviceInjection* items, int count, double* beforeAfter, cudaStream_t s,
                ProductSums sums)
{
    for (int first = 0; first < count; first += kInjectBatch) {
        InjectBatch batch{};
        batch.count = count - first < kInjectBatch ? count - first : kInjectBatch;
        for (int e = 0; e < batch.count; ++e)
            batch.items[e] = items[first + e];
        injectKernel<T><<<1, 1, 0, s>>>(c, ldc, batch, beforeAfter + 2 * first, sums);
        CUDA_CHECK_LAUNCH();
    }
}

// B's row norms sit in column cols + 1 (plan/buffer_layout.hpp leaves the room).
void requireNormRoom(Index cols, Index ldb)
{
    if (ldb < cols + 2)
        throw BackendError("CUDA ABFT: B's leading dimension " + std::to_string(ldb) +
                           " leaves no room for the row norms after its checksum column (needs " +
                           std::to_string(cols + 2) + ")");
}

}  // namespace

void checksumB(Precision p, void* b, Index depth, Index cols, Index ldb, cudaStream_t s, OperandRounding rounding)
{
    requireNormRoom(cols, ldb);
    if (p == Precision::F64)
        checksumBImpl(static_cast<double*>(b), depth, cols, ldb, InputFormat::F32, s);
    else
        checksumBImpl(static_cast<float*>(b), depth, cols, ldb, rounding, s);
}

void checksumProducts(Precision p, void* a, Index lda, const void* b, Index ldb, void* c, Index ldc, Index rows,
                      Index depth, Index cols, AuxView aux, bool accumulate, cudaStream_t s, bool inputRounding,
                      OperandRounding roundA)
{
    requireNormRoom(cols, ldb);
    if (p == Precision::F64)
        checksumProductsImpl(static_cast<double*>(a), lda, static_cast<const double*>(b), ldb,
                             static_cast<double*>(c), ldc, rows, depth, cols, aux, accumulate, inputRounding, InputFormat::F32, s);
    else
        checksumProductsImpl(static_cast<float*>(a), lda, static_cast<const float*>(b), ldb,
                             static_cast<float*>(c), ldc, rows, depth, cols, aux, accumulate, inputRounding, roundA, s);
}

void panelChecksumIncrements(const float* a, Index lda, const float* b, Index ldb, Index rows, Index depth, Index cols,
                             int panels, const PanelIncrements& out, cudaStream_t s, bool inputRounding,
                             OperandRounding roundA)
{
    requireNormRoom(cols, ldb);
    if (roundA.writesBack())
        throw BackendError("CUDA ABFT: the panels' checksum passes round in registers only");
    if (panels <= 0 || rows <= 0 || depth <= 0 || cols <= 0)
        return;
    if (out.ldLines < rows + cols + 1 || out.ldBounds < rows + cols + 2 || out.ldScratch < 2 * depth)
        throw BackendError("CUDA ABFT: the panels' checksum slots are too short for " + std::to_string(rows) + " x " +
                           std::to_string(cols));
    const PanelStep panel{depth, out.ldLines, out.ldBounds, out.ldScratch};
    const bool vecA = vectorizable(a, lda, depth, sizeof(float)), vecB = vectorizable(b, ldb, 0, sizeof(float));
    const unsigned tiles = blocksFor(depth, kACols);
    const Index aRows = tileRowsFor(kARows, tiles * unsigned(panels), rows);
    aPassKernel<float><<<dim3(tiles, blocksFor(rows, aRows), unsigned(panels)), 256, 0, s>>>(
        const_cast<float*>(a), lda, b, ldb, out.lines, 1, rows, 0, depth, cols, out.scratch, out.scratch + depth,
        out.bounds, inputRounding, vecA, aRows, roundA, panel);
    CUDA_CHECK_LAUNCH();
    const unsigned strips = blocksFor(cols + 1, kWarp * Vec<float>::n);
    const Index bRows = tileRowsFor(kBRows, strips * unsigned(panels), depth);
    bPassKernel<float><<<dim3(strips, blocksFor(depth, bRows), unsigned(panels)), dim3(kWarp, 8), 0, s>>>(
        b, ldb, out.lines + rows, 0, depth, cols, out.scratch, out.scratch + depth, out.bounds + rows + 1,
        out.bounds + rows, inputRounding, vecB, bRows, roundA.roundedInRegisters, panel);
    CUDA_CHECK_LAUNCH();
}

void verify(const VerifyCall& call, VerifyOut* hostOut, cudaStream_t s)
{
    if (call.precision == Precision::F64)
        verifyImpl<double>(call, hostOut, s);
    else
        verifyImpl<float>(call, hostOut, s);
}

void screenChecks(const ScreenedCheck* checks, int count, cudaStream_t s)
{
    if (count <= 0)
        return;
    if (count > kScreenedMax)
        throw BackendError("CUDA ABFT: at most " + std::to_string(kScreenedMax) + " checks screened at once");
    ScreenSlots slots{};
    const VerifyCall& first = checks[0].call;
    for (int n = 0; n < count; ++n) {
        const ScreenedCheck& x = checks[n];
        if (x.call.precision != Precision::F32 || !x.call.sumsFromProduct || x.call.rows != first.rows ||
            x.call.cols != first.cols || x.call.lieRow >= 0 || x.call.lieCol >= 0 || !x.lines || !x.bounds ||
            !x.sums || !x.out)
            throw BackendError("CUDA ABFT: a screened check must be an FP32 check of sums from the product, of "
                               "one shape with the others, that does not lie, with every slot given");
        const CheckFactors f = checkFactorsOf(x.call);
        slots.at[n] = ScreenSlot{x.lines, x.bounds, x.sums, f.row, f.col, f.sum, x.out};
    }
    // c, ldc and aux are not read: each cluster takes its check's slots.
    launchCheckKernel(true, unsigned(count), decideKernel<float, true, true>, s, static_cast<float*>(nullptr),
                      first.rows, first.cols, Index(0), AuxView{}, 0.0, 0.0, 0.0, static_cast<VerifyOut*>(nullptr),
                      Lie{}, CellOperands{}, LaterSums{}, static_cast<const double*>(nullptr), slots);
}

void sumsOfC(Precision p, const void* c, Index rows, Index cols, Index ldc, double* rowSum, double* colSum,
             bool besideGemm, cudaStream_t s)
{
    if (p == Precision::F64)
        sumsOfCImpl(static_cast<const double*>(c), rows, cols, ldc, rowSum, colSum, besideGemm, s);
    else
        sumsOfCImpl(static_cast<const float*>(c), rows, cols, ldc, rowSum, colSum, besideGemm, s);
}

void inject(Precision p, void* c, Index ldc, const DeviceInjection* items, int count, double* beforeAfter,
            cudaStream_t s, ProductSums productSums)
{
    if (p == Precision::F64)
        injectImpl(static_cast<double*>(c), ldc, items, count, beforeAfter, s, productSums);
    else
        injectImpl(static_cast<float*>(c), ldc, items, count, beforeAfter, s, productSums);
}

void injectIntoCorrection(Precision p, void* c, Index ldc, const VerifyOut* out, const DeviceInjection& item,
                          double* beforeAfterApplied, cudaStream_t s)
{
    if (p == Precision::F64)
        injectIntoCorrectionKernel<double><<<1, 1, 0, s>>>(static_cast<double*>(c), ldc, out, item, beforeAfterApplied);
    else
        injectIntoCorrectionKernel<float><<<1, 1, 0, s>>>(static_cast<float*>(c), ldc, out, item, beforeAfterApplied);
    CUDA_CHECK_LAUNCH();
}

void injectIntoEncodingA(Precision p, const void* a, Index lda, Index rows, const void* b, Index ldb, void* c,
                         Index ldc, Index cols, const DeviceInjection& item, double* beforeAfter, cudaStream_t s)
{
    if (p == Precision::F64)
        injectIntoEncodingAKernel<double><<<1, 256, 0, s>>>(static_cast<const double*>(a), lda, rows,
                                                            static_cast<const double*>(b), ldb, static_cast<double*>(c),
                                                            ldc, cols, item, beforeAfter);
    else
        injectIntoEncodingAKernel<float><<<1, 256, 0, s>>>(static_cast<const float*>(a), lda, rows,
                                                           static_cast<const float*>(b), ldb, static_cast<float*>(c),
                                                           ldc, cols, item, beforeAfter);
    CUDA_CHECK_LAUNCH();
}

void zeroProductSums(AuxView aux, Index rows, Index cols, cudaStream_t s)
{
    zeroTwo(aux.scratch0(), rows + 1, aux.scratch1(), cols + 1, s);
}

}  // namespace gigacheck::cuda
