#include "cuda/abft_device.hpp"
#include "cuda/check.hpp"

namespace gigacheck::cuda {

namespace {

constexpr int kWarp = 32;

__device__ __forceinline__ double warpSum(double v)
{
#pragma unroll
    for (int o = 16; o > 0; o >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, o);
    return v;
}

unsigned blocksFor(Index n, Index per) { return unsigned((n + per - 1) / per); }

// Column reductions use blocks of 32 columns x 8 row lanes over chunks of kChunk rows, whose
// partial sums meet in atomics: enough blocks in flight to stream at full bandwidth.
constexpr int kChunk = 256;

// ---- checksum row of A: c_A[k] = sum_{i<rows} a_ik -----------------------------------------------
template <class T>
__global__ void columnSumsKernel(T* a, Index rows, Index depth, Index lda)
{
    __shared__ double part[8][kWarp];
    const Index k = Index(blockIdx.x) * kWarp + threadIdx.x;
    const Index r0 = Index(blockIdx.y) * kChunk;
    double s = 0;
    if (k < depth) {
        const Index rEnd = min(r0 + kChunk, rows);
        for (Index r = r0 + threadIdx.y; r < rEnd; r += 8)
            s += double(a[r * lda + k]);
    }
    part[threadIdx.y][threadIdx.x] = s;
    __syncthreads();
    if (threadIdx.y == 0 && k < depth) {
        for (int y = 1; y < 8; ++y)
            s += part[y][threadIdx.x];
        atomicAdd(a + rows * lda + k, T(s));
    }
}

// ---- checksum column of B: r_B[k] = sum_{j<cols} b_kj, one warp per row ---------------------------
template <class T>
__global__ void rowSumsKernel(T* b, Index depth, Index cols, Index ldb)
{
    const Index k = Index(blockIdx.x) * (blockDim.x / kWarp) + threadIdx.x / kWarp;
    const int lane = threadIdx.x % kWarp;
    if (k >= depth)
        return;
    const T* row = b + k * ldb;
    double s = 0;
    for (Index j = lane; j < cols; j += kWarp)
        s += double(row[j]);
    s = warpSum(s);
    if (lane == 0)
        b[k * ldb + cols] = T(s);
}

// ---- checksum products and round-off bound ----------------------------------------------------
template <class T>
__global__ void resetChecksumsKernel(T* c, Index rows, Index cols, Index ldc, double* rowScale, double* colScale)
{
    const Index t = Index(blockIdx.x) * blockDim.x + threadIdx.x;
    if (t <= rows) {
        c[t * ldc + cols] = T(0);
        rowScale[t] = 0;
    }
    if (t <= cols) {
        if (t < cols)
            c[rows * ldc + t] = T(0);
        colScale[t] = 0;
    }
}

// bNorm[k - k0] = sum_{j<=cols} b_kj^2 (checksum column included), one warp per row.
template <class T>
__global__ void rowNormsKernel(const T* b, Index k0, Index kn, Index cols, Index ldb, double* bNorm)
{
    const Index k = Index(blockIdx.x) * (blockDim.x / kWarp) + threadIdx.x / kWarp;
    const int lane = threadIdx.x % kWarp;
    if (k >= kn)
        return;
    const T* row = b + (k0 + k) * ldb;
    double q = 0;
    for (Index j = lane; j <= cols; j += kWarp) {
        const double v = double(row[j]);
        q += v * v;
    }
    q = warpSum(q);
    if (lane == 0)
        bNorm[k] = q;
}

// One pass over A_c (rows i <= rows, columns k0 .. k0+kn): row reductions
//   C[i, cols] += sum_k a_ik r_B[k],  rowScale[i] += sum_k a_ik^2 bNorm[k]
// and the column reduction aNorm[k] = sum_{i<=rows} a_ik^2. Tile 64 rows x 256 columns, 8 warps.
constexpr int kTileRows = 64, kTileCols = 256, kColsPerLane = kTileCols / kWarp;

template <class T>
__global__ void rowPassKernel(const T* a, Index lda, const T* b, Index ldb, T* c, Index ldc, Index rows, Index k0,
                              Index kn, Index cols, const double* bNorm, double* rowScale, double* aNorm,
                              double checksumWeight)
{
    __shared__ double colPart[8][kTileCols];
    const int lane = threadIdx.x % kWarp, warp = threadIdx.x / kWarp;
    const Index r0 = Index(blockIdx.y) * kTileRows, c0 = Index(blockIdx.x) * kTileCols;
    double rB[kColsPerLane], nB[kColsPerLane], colAcc[kColsPerLane];
#pragma unroll
    for (int e = 0; e < kColsPerLane; ++e) {
        const Index k = c0 + e * kWarp + lane;
        rB[e] = k < kn ? double(b[(k0 + k) * ldb + cols]) : 0.0;
        nB[e] = k < kn ? bNorm[k] : 0.0;
        colAcc[e] = 0;
    }
    for (int r = warp; r < kTileRows; r += 8) {
        const Index i = r0 + r;
        if (i > rows)
            break;
        double dot = 0, sq = 0;
#pragma unroll
        for (int e = 0; e < kColsPerLane; ++e) {
            const Index k = c0 + e * kWarp + lane;
            if (k < kn) {
                const double v = double(a[i * lda + k0 + k]);
                dot += v * rB[e];
                sq += v * v * (checksumWeight > 0 ? nB[e] + rB[e] * rB[e] : nB[e]);
                colAcc[e] += v * v;
            }
        }
        dot = warpSum(dot);
        sq = warpSum(sq);
        if (lane == 0) {
            atomicAdd(c + i * ldc + cols, T(dot));
            atomicAdd(rowScale + i, sq);
        }
    }
#pragma unroll
    for (int e = 0; e < kColsPerLane; ++e)
        colPart[warp][e * kWarp + lane] = colAcc[e];
    __syncthreads();
    for (int t = threadIdx.x; t < kTileCols; t += blockDim.x) {
        const Index k = c0 + t;
        if (k >= kn)
            continue;
        double s = 0;
        for (int w = 0; w < 8; ++w)
            s += colPart[w][t];
        atomicAdd(aNorm + k, s);
    }
}

// One pass over B_r (rows k0 .. k0+kn, columns j <= cols):
//   C[rows, j] += sum_k c_A[k] b_kj (j < cols; the corner belongs to the row pass),
//   colScale[j] += sum_k aNorm[k] b_kj^2.
template <class T>
__global__ void colPassKernel(const T* a, Index lda, const T* b, Index ldb, T* c, Index ldc, Index rows, Index k0,
                              Index kn, Index cols, const double* aNorm, double* colScale, double checksumWeight)
{
    __shared__ double pd[8][kWarp], pq[8][kWarp];
    const Index j = Index(blockIdx.x) * kWarp + threadIdx.x;
    const Index kStart = Index(blockIdx.y) * kChunk;
    const T* cA = a + rows * lda + k0;
    double d = 0, q = 0;
    if (j <= cols) {
        const Index kEnd = min(kStart + kChunk, kn);
        for (Index k = kStart + threadIdx.y; k < kEnd; k += 8) {
            const double v = double(b[(k0 + k) * ldb + j]);
            const double ca = double(cA[k]);
            d += ca * v;
            q += (checksumWeight > 0 ? aNorm[k] + ca * ca : aNorm[k]) * v * v;
        }
    }
    pd[threadIdx.y][threadIdx.x] = d;
    pq[threadIdx.y][threadIdx.x] = q;
    __syncthreads();
    if (threadIdx.y == 0 && j <= cols) {
        for (int y = 1; y < 8; ++y) {
            d += pd[y][threadIdx.x];
            q += pq[y][threadIdx.x];
        }
        if (j < cols)
            atomicAdd(c + rows * ldc + j, T(d));
        atomicAdd(colScale + j, q);
    }
}

// ---- verification ------------------------------------------------------------------------------
// One pass over the augmented C: rowSum[i] = sum_{j<cols} C[i,j] (i <= rows),
// colSum[j] = sum_{i<rows} C[i,j] (j <= cols). Tiles of 128 rows x 512 columns keep the
// partial-sum atomics few: 64 x 256 tiles measured 1.6-1.9 TB/s for FP32 on an H200.
constexpr int kSumRows = 128, kSumCols = 512, kSumPerLane = kSumCols / kWarp;
template <class T>
__global__ void fusedSumsKernel(const T* c, Index rows, Index cols, Index ldc, double* rowSum, double* colSum)
{
    __shared__ double colPart[8][kSumCols];
    const int lane = threadIdx.x % kWarp, warp = threadIdx.x / kWarp;
    const Index r0 = Index(blockIdx.y) * kSumRows, c0 = Index(blockIdx.x) * kSumCols;
    double colAcc[kSumPerLane];
#pragma unroll
    for (int e = 0; e < kSumPerLane; ++e)
        colAcc[e] = 0;
    for (int r = warp; r < kSumRows; r += 8) {
        const Index i = r0 + r;
        if (i > rows)
            break;
        double rowAcc = 0;
#pragma unroll
        for (int e = 0; e < kSumPerLane; ++e) {
            const Index j = c0 + e * kWarp + lane;
            if (j <= cols) {
                const double v = double(c[i * ldc + j]);
                if (j < cols)
                    rowAcc += v;
                if (i < rows)
                    colAcc[e] += v;
            }
        }
        rowAcc = warpSum(rowAcc);
        if (lane == 0)
            atomicAdd(rowSum + i, rowAcc);
    }
#pragma unroll
    for (int e = 0; e < kSumPerLane; ++e)
        colPart[warp][e * kWarp + lane] = colAcc[e];
    __syncthreads();
    for (int t = threadIdx.x; t < kSumCols; t += blockDim.x) {
        const Index j = c0 + t;
        if (j > cols)
            continue;
        double s = 0;
        for (int w = 0; w < 8; ++w)
            s += colPart[w][t];
        atomicAdd(colSum + j, s);
    }
}

// In place: a control sum becomes its residual when the check mismatches (> 0 or NaN), else
// -1 - residual / threshold (<= -1). Written so that NaN and inf mismatch, as in the host reference.
template <class T>
__global__ void markKernel(const T* c, Index rows, Index cols, Index ldc, double* rowSum, double* colSum,
                           const double* rowScale, const double* colScale, double rowFactor, double colFactor,
                           double sumFactor)
{
    const Index t = Index(blockIdx.x) * blockDim.x + threadIdx.x;
    auto mark = [sumFactor](double control, double stored, double thr) {
        const double res = fabs(control - stored);
        // TF32: the part that follows the checked sum (abft.hpp); the smaller side, so that a
        // fault cannot raise its own threshold (fmin ignores a NaN side).
        if (sumFactor > 0)
            thr += sumFactor * fmin(fabs(control), fabs(stored));
        if (!(res <= thr))
            return res > 0 ? res : (isnan(res) ? res : 1e-300);
        return -1.0 - (thr > 0 ? res / thr : 0.0);
    };
    if (t <= rows)
        rowSum[t] = mark(rowSum[t], double(c[t * ldc + cols]), rowFactor * sqrt(rowScale[t]));
    if (t <= cols)
        colSum[t] = mark(colSum[t], double(c[rows * ldc + t]), colFactor * sqrt(colScale[t]));
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

__device__ __forceinline__ unsigned long long bitsOf(double v) { return (unsigned long long)__double_as_longlong(v); }

// One block: collect mismatches, decide as the host reference does (abft/verify.cpp), correct each
// located cell from its line's checksum minus the sum of the other cells (exact even when the
// faulty value is inf), and write the verdict into pinned host memory.
template <class T>
__global__ void __launch_bounds__(1024) decideKernel(T* c, Index rows, Index cols, Index ldc, AuxView aux,
                                                      double rowFactor, double colFactor, double sumFactor,
                                                      VerifyOut* out)
{
    __shared__ int nr, nc, nCorr, recompute, verdict;
    __shared__ long long listR[kMaxListed], listC[kMaxListed];
    __shared__ double resR[kMaxListed], resC[kMaxListed];
    __shared__ long long corrR[kMaxListed], corrC[kMaxListed];
    __shared__ int dir[kMaxListed];
    __shared__ double before[kMaxListed], after[kMaxListed];
    __shared__ unsigned long long maxRatio, minThr, maxThr;
    const int tid = threadIdx.x;
    if (tid == 0) {
        nr = nc = nCorr = recompute = 0;
        verdict = kClean;
        maxRatio = 0;
        minThr = bitsOf(__longlong_as_double(0x7ff0000000000000LL));
        maxThr = 0;
    }
    __syncthreads();
    const double* rowMark = aux.scratch0();
    const double* colMark = aux.scratch1();
    for (Index i = tid; i <= rows; i += blockDim.x) {
        // Reported range only: the sum part uses the stored checksum (the control sums are spent).
        const double thr = rowFactor * sqrt(aux.rowScale()[i]) + sumFactor * fabs(double(c[i * ldc + cols]));
        atomicMin(&minThr, bitsOf(thr));
        atomicMax(&maxThr, bitsOf(thr));
        const double v = rowMark[i];
        if (isMismatch(v)) {
            const int slot = atomicAdd(&nr, 1);
            if (slot < kMaxListed) {
                listR[slot] = i;
                resR[slot] = v;
            }
        } else {
            atomicMax(&maxRatio, bitsOf(-1.0 - v));
        }
    }
    for (Index j = tid; j <= cols; j += blockDim.x) {
        const double thr = colFactor * sqrt(aux.colScale()[j]) + sumFactor * fabs(double(c[rows * ldc + j]));
        atomicMin(&minThr, bitsOf(thr));
        atomicMax(&maxThr, bitsOf(thr));
        const double v = colMark[j];
        if (isMismatch(v)) {
            const int slot = atomicAdd(&nc, 1);
            if (slot < kMaxListed) {
                listC[slot] = j;
                resC[slot] = v;
            }
        } else {
            atomicMax(&maxRatio, bitsOf(-1.0 - v));
        }
    }
    __syncthreads();

    if (tid == 0) {
        sortPairs(listR, resR, min(nr, kMaxListed));
        sortPairs(listC, resC, min(nc, kMaxListed));
        if (nr == 0 && nc == 0) {
            verdict = kClean;
        } else if ((nr > 1 && nc > 1) || nr > kMaxListed || nc > kMaxListed) {
            verdict = kUncorrectable;  // non-collinear (or too many to list): C untouched
        } else if (nr == 0 || nc == 0) {
            // One axis only: harmless when it is the checksum row / column, else not locatable.
            const bool onlyChecksum = (nc == 0 && nr == 1 && listR[0] == rows) || (nr == 0 && nc == 1 && listC[0] == cols);
            verdict = onlyChecksum ? kCorrected : kUncorrectable;
            recompute = onlyChecksum ? 1 : 0;
        } else {
            // Row-collinear or single (one mismatching row): fixed from the column checks;
            // column-collinear: from the row checks. Checksum cells are rebuilt afterwards.
            const bool fromColumns = nr == 1;
            int n = 0;
            for (int pass = 0; pass < 2; ++pass)
                for (int x = 0; x < nr; ++x)
                    for (int y = 0; y < nc; ++y) {
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

    // One warp per correction.
    const int lane = tid % kWarp, warp = tid / kWarp, warps = blockDim.x / kWarp;
    for (int n = warp; n < nCorr; n += warps) {
        const Index r = corrR[n], cc = corrC[n];
        T* cell = c + r * ldc + cc;
        if (dir[n] == 2) {
            if (lane == 0)
                before[n] = double(*cell);
            continue;
        }
        const bool fromColumn = dir[n] == 1;
        const Index extent = fromColumn ? rows : cols;
        const Index skip = fromColumn ? r : cc;
        double s = 0;
        for (Index e = lane; e < extent; e += kWarp)
            if (e != skip)
                s += double(fromColumn ? c[e * ldc + cc] : c[r * ldc + e]);
        s = warpSum(s);
        if (lane == 0) {
            const double target = double(fromColumn ? c[rows * ldc + cc] : c[r * ldc + cols]);
            before[n] = double(*cell);
            *cell = T(target - s);
            after[n] = double(*cell);
        }
    }
    __syncthreads();

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
    if (tid == 0) {
        out->verdict = verdict;
        out->rowCount = nr;
        out->colCount = nc;
        out->correctionCount = nCorr;
        out->recomputed = recompute;
        out->maxCleanRatio = __longlong_as_double((long long)maxRatio);
        out->minThreshold = __longlong_as_double((long long)minThr);
        out->maxThreshold = __longlong_as_double((long long)maxThr);
        aux.scratch0()[0] = recompute;  // flag for the recompute kernels (the marks are consumed)
    }
}

// Rebuild the checksum row (j < cols), then the checksum column (i <= rows, corner included),
// only when decideKernel raised the flag.
template <class T>
__global__ void recomputeRowKernel(T* c, Index rows, Index cols, Index ldc, const double* flag)
{
    const Index j = Index(blockIdx.x) * blockDim.x + threadIdx.x;
    if (*flag == 0 || j >= cols)
        return;
    double s = 0;
    for (Index i = 0; i < rows; ++i)
        s += double(c[i * ldc + j]);
    c[rows * ldc + j] = T(s);
}

template <class T>
__global__ void recomputeColKernel(T* c, Index rows, Index cols, Index ldc, const double* flag)
{
    const Index i = Index(blockIdx.x) * (blockDim.x / kWarp) + threadIdx.x / kWarp;
    const int lane = threadIdx.x % kWarp;
    if (*flag == 0 || i > rows)
        return;
    double s = 0;
    for (Index j = lane; j < cols; j += kWarp)
        s += double(c[i * ldc + j]);
    s = warpSum(s);
    if (lane == 0)
        c[i * ldc + cols] = T(s);
}

template <class T>
__global__ void finishChecksumCellsKernel(const T* c, Index ldc, const double* flag, VerifyOut* out)
{
    if (*flag == 0)
        return;
    for (int n = 0; n < out->correctionCount; ++n)
        if (out->direction[n] == 2)
            out->after[n] = double(c[out->corrRow[n] * ldc + out->corrCol[n]]);
}

// ---- fault injection ---------------------------------------------------------------------------
constexpr int kInjectBatch = 16;
struct InjectBatch {
    int count;
    DeviceInjection items[kInjectBatch];
};

__device__ __forceinline__ float flipBit(float v, int bit) { return __uint_as_float(__float_as_uint(v) ^ (1u << bit)); }
__device__ __forceinline__ double flipBit(double v, int bit)
{
    return __longlong_as_double(__double_as_longlong(v) ^ (1LL << bit));
}

template <class T>
__global__ void injectKernel(T* c, Index ldc, InjectBatch batch, double* beforeAfter)
{
    for (int e = 0; e < batch.count; ++e) {  // in order: two faults on one cell compose
        const DeviceInjection& inj = batch.items[e];
        T* cell = c + inj.row * ldc + inj.col;
        const T before = *cell;
        // FP32 deltas add in float, FP64 in double, as the host's applyFault does.
        const T after = inj.bitFlip ? flipBit(before, inj.bit) : T(before + T(inj.delta));
        *cell = after;
        beforeAfter[2 * e] = double(before);
        beforeAfter[2 * e + 1] = double(after);
    }
}

// ---- typed launchers ---------------------------------------------------------------------------
template <class T>
void checksumAImpl(T* a, Index rows, Index depth, Index lda, cudaStream_t s)
{
    CUDA_CHECK(cudaMemsetAsync(a + rows * lda, 0, sizeof(T) * std::size_t(depth), s));
    if (rows > 0 && depth > 0) {
        columnSumsKernel<T><<<dim3(blocksFor(depth, kWarp), blocksFor(rows, kChunk)), dim3(kWarp, 8), 0, s>>>(a, rows,
                                                                                                           depth, lda);
        CUDA_CHECK_LAUNCH();
    }
}

template <class T>
void checksumBImpl(T* b, Index depth, Index cols, Index ldb, cudaStream_t s)
{
    if (depth <= 0)
        return;
    rowSumsKernel<T><<<blocksFor(depth, 8), 256, 0, s>>>(b, depth, cols, ldb);
    CUDA_CHECK_LAUNCH();
}

template <class T>
void checksumProductsImpl(const T* a, Index lda, const T* b, Index ldb, T* c, Index ldc, Index rows, Index depth,
                          Index cols, AuxView aux, bool accumulate, bool inputRounding, cudaStream_t s)
{
    const double checksumWeight = inputRounding ? 1.0 : 0.0;  // TF32: rowScale + rowChecksumScale
    if (!accumulate) {
        resetChecksumsKernel<T><<<blocksFor((rows > cols ? rows : cols) + 1, 256), 256, 0, s>>>(
            c, rows, cols, ldc, aux.rowScale(), aux.colScale());
        CUDA_CHECK_LAUNCH();
    }
    // The per-k norms live in the two scratch rows of Aux, so the inner dimension goes in chunks
    // of aux.ld; each chunk still reads its part of A and B once.
    for (Index k0 = 0; k0 < depth; k0 += aux.ld) {
        const Index kn = depth - k0 < aux.ld ? depth - k0 : aux.ld;
        rowNormsKernel<T><<<blocksFor(kn, 8), 256, 0, s>>>(b, k0, kn, cols, ldb, aux.scratch0());
        CUDA_CHECK_LAUNCH();
        CUDA_CHECK(cudaMemsetAsync(aux.scratch1(), 0, sizeof(double) * std::size_t(kn), s));
        rowPassKernel<T><<<dim3(blocksFor(kn, kTileCols), blocksFor(rows + 1, kTileRows)), 256, 0, s>>>(
            a, lda, b, ldb, c, ldc, rows, k0, kn, cols, aux.scratch0(), aux.rowScale(), aux.scratch1(), checksumWeight);
        CUDA_CHECK_LAUNCH();
        colPassKernel<T><<<dim3(blocksFor(cols + 1, kWarp), blocksFor(kn, kChunk)), dim3(kWarp, 8), 0, s>>>(
            a, lda, b, ldb, c, ldc, rows, k0, kn, cols, aux.scratch1(), aux.colScale(), checksumWeight);
        CUDA_CHECK_LAUNCH();
    }
}

template <class T>
void verifyImpl(const VerifyCall& v, VerifyOut* hostOut, cudaStream_t s)
{
    T* c = static_cast<T*>(v.c);
    const Index rows = v.rows, cols = v.cols, ldc = v.ldc;
    const AuxView aux = v.aux;
    CUDA_CHECK(cudaMemsetAsync(aux.scratch0(), 0, sizeof(double) * std::size_t(rows + 1), s));
    CUDA_CHECK(cudaMemsetAsync(aux.scratch1(), 0, sizeof(double) * std::size_t(cols + 1), s));
    fusedSumsKernel<T><<<dim3(blocksFor(cols + 1, kSumCols), blocksFor(rows + 1, kSumRows)), 256, 0, s>>>(
        c, rows, cols, ldc, aux.scratch0(), aux.scratch1());
    CUDA_CHECK_LAUNCH();
    // Thresholds of abft.hpp: t = lambda u (depth + extent + 2) sqrt(scale); with TF32 inputs
    // (uInput > 0) plus lambda 2 sqrt(2) uI sqrt(scale) (scale then includes the checksum scales)
    // and 4 uI |checked sum|.
    const double inputPart = 2.0 * sqrt(2.0) * v.uInput;
    const double rowFactor = v.lambda * (v.u * double(v.depth + cols + 2) + inputPart);
    const double colFactor = v.lambda * (v.u * double(v.depth + rows + 2) + inputPart);
    const double sumFactor = 4.0 * v.uInput;
    const Index n = (rows > cols ? rows : cols) + 1;
    markKernel<T><<<blocksFor(n, 256), 256, 0, s>>>(c, rows, cols, ldc, aux.scratch0(), aux.scratch1(),
                                                    aux.rowScale(), aux.colScale(), rowFactor, colFactor, sumFactor);
    CUDA_CHECK_LAUNCH();
    decideKernel<T><<<1, 1024, 0, s>>>(c, rows, cols, ldc, aux, rowFactor, colFactor, sumFactor, hostOut);
    CUDA_CHECK_LAUNCH();
    recomputeRowKernel<T><<<blocksFor(cols, 256), 256, 0, s>>>(c, rows, cols, ldc, aux.scratch0());
    CUDA_CHECK_LAUNCH();
    recomputeColKernel<T><<<blocksFor(rows + 1, 8), 256, 0, s>>>(c, rows, cols, ldc, aux.scratch0());
    CUDA_CHECK_LAUNCH();
    finishChecksumCellsKernel<T><<<1, 1, 0, s>>>(c, ldc, aux.scratch0(), hostOut);
    CUDA_CHECK_LAUNCH();
}

template <class T>
void injectImpl(T* c, Index ldc, const DeviceInjection* items, int count, double* beforeAfter, cudaStream_t s)
{
    for (int first = 0; first < count; first += kInjectBatch) {
        InjectBatch batch{};
        batch.count = count - first < kInjectBatch ? count - first : kInjectBatch;
        for (int e = 0; e < batch.count; ++e)
            batch.items[e] = items[first + e];
        injectKernel<T><<<1, 1, 0, s>>>(c, ldc, batch, beforeAfter + 2 * first);
        CUDA_CHECK_LAUNCH();
    }
}

}  // namespace

void checksumA(Precision p, void* a, Index rows, Index depth, Index lda, cudaStream_t s)
{
    if (p == Precision::F64)
        checksumAImpl(static_cast<double*>(a), rows, depth, lda, s);
    else
        checksumAImpl(static_cast<float*>(a), rows, depth, lda, s);
}

void checksumB(Precision p, void* b, Index depth, Index cols, Index ldb, cudaStream_t s)
{
    if (p == Precision::F64)
        checksumBImpl(static_cast<double*>(b), depth, cols, ldb, s);
    else
        checksumBImpl(static_cast<float*>(b), depth, cols, ldb, s);
}

void checksumProducts(Precision p, const void* a, Index lda, const void* b, Index ldb, void* c, Index ldc, Index rows,
                      Index depth, Index cols, AuxView aux, bool accumulate, cudaStream_t s, bool inputRounding)
{
    if (p == Precision::F64)
        checksumProductsImpl(static_cast<const double*>(a), lda, static_cast<const double*>(b), ldb,
                             static_cast<double*>(c), ldc, rows, depth, cols, aux, accumulate, inputRounding, s);
    else
        checksumProductsImpl(static_cast<const float*>(a), lda, static_cast<const float*>(b), ldb,
                             static_cast<float*>(c), ldc, rows, depth, cols, aux, accumulate, inputRounding, s);
}

void verify(const VerifyCall& call, VerifyOut* hostOut, cudaStream_t s)
{
    if (call.precision == Precision::F64)
        verifyImpl<double>(call, hostOut, s);
    else
        verifyImpl<float>(call, hostOut, s);
}

void inject(Precision p, void* c, Index ldc, const DeviceInjection* items, int count, double* beforeAfter,
            cudaStream_t s)
{
    if (p == Precision::F64)
        injectImpl(static_cast<double*>(c), ldc, items, count, beforeAfter, s);
    else
        injectImpl(static_cast<float*>(c), ldc, items, count, beforeAfter, s);
}

}  // namespace gigacheck::cuda
