// The online family's host-checked path on the device: input sums in the host's order, weighted
// checksums of the inputs, the round-off bound of a panel, the weighted residuals of C_f
// (weighted_sums.hpp).
#include "families/online_abft/cuda/weighted_sums.hpp"

#include "core/cuda/check.hpp"

#include "gigacheck/weighted_checksums.hpp"

namespace gigacheck::online_abft::cuda {

namespace {

constexpr int kTile = 32;      // rows of a row-reduction block, columns per shared tile
constexpr int kTileRows = 8;   // threadIdx.y extent
constexpr Index kChunk = 256;  // rows per block of a chunked column reduction

Index blocks(Index n, Index per) { return (n + per - 1) / per; }

// Weight t of index x; null weights: the plain sum (w = 1, and 1.0 * v is v exactly).
__device__ __forceinline__ double weightOf(const double* weights, Index wld, int t, Index x)
{
    return weights ? weights[t * wld + x] : 1.0;
}

// ---- sums in the host's order ------------------------------------------------------------------

// Row r: s_t = sum_j w_t(j) x(r, j), j in order, as the host's loops (plainSums: s += v;
// weightedRowChecksums: s += w * v), no contraction into an FMA. A block takes 32 rows, loads
// them 32 columns at a time through shared memory (coalesced), and thread tx of row 0 of the
// block adds row tx's 32 values in order. Out: rowOut[r] (plain) or x(r, cols + t) as T.
template <class T>
__global__ void rowReduceKernel(T* x, Index rows, Index cols, Index ld, int k, const double* weights, Index wld,
                                double* rowOut)
{
    __shared__ double tile[kTile][kTile + 1];
    const Index r0 = Index(blockIdx.x) * kTile;
    const int tx = threadIdx.x, ty = threadIdx.y;
    double s[kMaxChecksums];
    for (int t = 0; t < kMaxChecksums; ++t)
        s[t] = 0;
    for (Index c0 = 0; c0 < cols; c0 += kTile) {
        for (int rr = ty; rr < kTile; rr += kTileRows) {
            const Index r = r0 + rr, c = c0 + tx;
            tile[rr][tx] = r < rows && c < cols ? double(x[r * ld + c]) : 0.0;
        }
        __syncthreads();
        if (ty == 0) {
            const Index n = cols - c0 < kTile ? cols - c0 : kTile;
            for (int t = 0; t < k; ++t)
                for (Index j = 0; j < n; ++j)
                    s[t] = __dadd_rn(s[t], __dmul_rn(weightOf(weights, wld, t, c0 + j), tile[tx][j]));
        }
        __syncthreads();
    }
    const Index r = r0 + tx;
    if (ty == 0 && r < rows) {
        if (rowOut)
            rowOut[r] = s[0];
        else
            for (int t = 0; t < k; ++t)
                x[r * ld + cols + t] = T(s[t]);
    }
}

// Column c: s_t = sum_i w_t(i) x(i, c), i in order (plainSums' colSums[j] += v;
// weightedColumnChecksums' sums[c] += w * v). One thread per column: the loads of a row are
// coalesced across the threads. Out: colOut[c] (plain) or x(rows + t, c) as T.
template <class T>
__global__ void colReduceKernel(T* x, Index rows, Index cols, Index ld, int k, const double* weights, Index wld,
                                double* colOut)
{
    const Index c = Index(blockIdx.x) * blockDim.x + threadIdx.x;
    if (c >= cols)
        return;
    double s[kMaxChecksums];
    for (int t = 0; t < kMaxChecksums; ++t)
        s[t] = 0;
#pragma unroll 8
    for (Index i = 0; i < rows; ++i) {
        const double v = double(x[i * ld + c]);
        for (int t = 0; t < k; ++t)
            s[t] = __dadd_rn(s[t], __dmul_rn(weightOf(weights, wld, t, i), v));
    }
    if (colOut)
        colOut[c] = s[0];
    else
        for (int t = 0; t < k; ++t)
            x[(rows + t) * ld + c] = T(s[t]);
}

// ---- the round-off bound -------------------------------------------------------------------------

// Block reduction of one double per thread (blockDim.x a power of two <= 256).
__device__ double blockSum(double v, double* shared)
{
    shared[threadIdx.x] = v;
    __syncthreads();
    for (unsigned half = blockDim.x / 2; half > 0; half /= 2) {
        if (threadIdx.x < half)
            shared[threadIdx.x] += shared[threadIdx.x + half];
        __syncthreads();
    }
    const double out = shared[0];
    __syncthreads();
    return out;
}

// out[r] (+)= sum_j f(r, j) x(r, j)^2 over j < cols: one block per row.
template <class T>
__global__ void rowSquaresKernel(const T* x, Index cols, Index ld, const double* colFactor, double* out, bool accumulate)
{
    __shared__ double shared[256];
    const Index r = blockIdx.x;
    double s = 0;
    for (Index j = threadIdx.x; j < cols; j += blockDim.x) {
        const double v = double(x[r * ld + j]);
        s += (colFactor ? colFactor[j] : 1.0) * v * v;
    }
    s = blockSum(s, shared);
    if (threadIdx.x == 0)
        out[r] = accumulate ? out[r] + s : s;
}

// out[c] += sum_i f(i) x(i, c)^2 over the block's chunk of rows (atomic across chunks).
template <class T>
__global__ void colSquaresKernel(const T* x, Index rows, Index cols, Index ld, const double* rowFactor, double* out)
{
    const Index c = Index(blockIdx.x) * blockDim.x + threadIdx.x;
    if (c >= cols)
        return;
    const Index i0 = Index(blockIdx.y) * kChunk, i1 = i0 + kChunk < rows ? i0 + kChunk : rows;
    double s = 0;
    for (Index i = i0; i < i1; ++i) {
        const double v = double(x[i * ld + c]);
        s += (rowFactor ? rowFactor[i] : 1.0) * v * v;
    }
    atomicAdd(out + c, s);
}

// ---- residuals of C_f ----------------------------------------------------------------------------

// Row i of the augmented block: rowRes[i * k + s] = sum_{j < cols} w_s(j) C(i, j) - C(i, cols + s).
template <class T>
__global__ void rowResidualKernel(const T* c, Index cols, Index ldc, int k, const double* weights, Index wld,
                                  double* rowRes)
{
    extern __shared__ double shared[];  // k * blockDim.x
    const Index i = blockIdx.x;
    double s[kMaxChecksums];
    for (int t = 0; t < kMaxChecksums; ++t)
        s[t] = 0;
    for (Index j = threadIdx.x; j < cols; j += blockDim.x) {
        const double v = double(c[i * ldc + j]);
        for (int t = 0; t < k; ++t)
            s[t] += weights[t * wld + j] * v;
    }
    for (int t = 0; t < k; ++t)
        shared[t * blockDim.x + threadIdx.x] = s[t];
    __syncthreads();
    for (unsigned half = blockDim.x / 2; half > 0; half /= 2) {
        if (threadIdx.x < half)
            for (int t = 0; t < k; ++t)
                shared[t * blockDim.x + threadIdx.x] += shared[t * blockDim.x + threadIdx.x + half];
        __syncthreads();
    }
    if (threadIdx.x < unsigned(k))
        rowRes[i * k + threadIdx.x] = shared[threadIdx.x * blockDim.x] - double(c[i * ldc + cols + threadIdx.x]);
}

// Columns: a block of 32 x 8 threads takes 32 columns over a chunk of kChunk rows; the chunk's
// partial sums go to colRes with atomics (colRes zeroed before), the stored checksums after.
template <class T>
__global__ void colResidualKernel(const T* c, Index rows, Index augCols, Index ldc, int k, const double* weights,
                                  Index wld, double* colRes)
{
    __shared__ double shared[kMaxChecksums][kTileRows][kTile];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const Index j = Index(blockIdx.x) * kTile + tx;
    const Index i0 = Index(blockIdx.y) * kChunk, i1 = i0 + kChunk < rows ? i0 + kChunk : rows;
    double s[kMaxChecksums];
    for (int t = 0; t < kMaxChecksums; ++t)
        s[t] = 0;
    if (j < augCols)
        for (Index i = i0 + ty; i < i1; i += kTileRows) {
            const double v = double(c[i * ldc + j]);
            for (int t = 0; t < k; ++t)
                s[t] += weights[t * wld + i] * v;
        }
    for (int t = 0; t < k; ++t)
        shared[t][ty][tx] = s[t];
    __syncthreads();
    if (ty == 0 && j < augCols)
        for (int t = 0; t < k; ++t) {
            double sum = 0;
            for (int y = 0; y < kTileRows; ++y)
                sum += shared[t][y][tx];
            atomicAdd(colRes + j * k + t, sum);
        }
}

template <class T>
__global__ void colResidualFinishKernel(const T* c, Index rows, Index augCols, Index ldc, int k, double* colRes)
{
    const Index x = Index(blockIdx.x) * blockDim.x + threadIdx.x;
    if (x >= augCols * k)
        return;
    const Index j = x / k;
    const int t = int(x % k);
    colRes[x] -= double(c[(rows + t) * ldc + j]);
}

// ---- typed launchers -----------------------------------------------------------------------------

template <class T> void inputSumsImpl(const T* x, Index rows, Index cols, Index ld, double* rowSums, double* colSums,
                                      cudaStream_t s)
{
    T* mx = const_cast<T*>(x);  // read only: the output goes to rowSums / colSums
    if (rows > 0 && cols > 0) {
        rowReduceKernel<T><<<unsigned(blocks(rows, kTile)), dim3(kTile, kTileRows), 0, s>>>(mx, rows, cols, ld, 1,
                                                                                           nullptr, 0, rowSums);
        CUDA_CHECK_LAUNCH();
        colReduceKernel<T><<<unsigned(blocks(cols, 128)), 128, 0, s>>>(mx, rows, cols, ld, 1, nullptr, 0, colSums);
        CUDA_CHECK_LAUNCH();
    }
}

template <class T> void boundImpl(const T* a, Index lda, const T* b, Index ldb, Index augRows, Index width,
                                  Index augCols, double* rowScale, double* colScale, double* scratch, cudaStream_t s)
{
    if (width <= 0)
        return;
    double* bRow = scratch;          // sum_j b_kj^2 of each panel row k
    double* aCol = scratch + width;  // sum_i a_ik^2 of each panel column k
    rowSquaresKernel<T><<<unsigned(width), 256, 0, s>>>(b, augCols, ldb, nullptr, bRow, false);
    CUDA_CHECK_LAUNCH();
    CUDA_CHECK(cudaMemsetAsync(aCol, 0, sizeof(double) * std::size_t(width), s));
    colSquaresKernel<T><<<dim3(unsigned(blocks(width, 128)), unsigned(blocks(augRows, kChunk))), 128, 0, s>>>(
        a, augRows, width, lda, nullptr, aCol);
    CUDA_CHECK_LAUNCH();
    rowSquaresKernel<T><<<unsigned(augRows), 256, 0, s>>>(a, width, lda, bRow, rowScale, true);
    CUDA_CHECK_LAUNCH();
    colSquaresKernel<T><<<dim3(unsigned(blocks(augCols, 128)), unsigned(blocks(width, kChunk))), 128, 0, s>>>(
        b, width, augCols, ldb, aCol, colScale);
    CUDA_CHECK_LAUNCH();
}

template <class T> void residualsImpl(const T* c, Index rows, Index cols, Index ldc, int k, const double* weights,
                                      Index wld, double* rowRes, double* colRes, cudaStream_t s)
{
    const Index augRows = rows + k, augCols = cols + k;
    constexpr unsigned threads = 256;
    rowResidualKernel<T><<<unsigned(augRows), threads, sizeof(double) * threads * unsigned(k), s>>>(c, cols, ldc, k,
                                                                                                    weights, wld, rowRes);
    CUDA_CHECK_LAUNCH();
    CUDA_CHECK(cudaMemsetAsync(colRes, 0, sizeof(double) * std::size_t(augCols * k), s));
    colResidualKernel<T><<<dim3(unsigned(blocks(augCols, kTile)), unsigned(blocks(rows, kChunk))), dim3(kTile, kTileRows),
                           0, s>>>(c, rows, augCols, ldc, k, weights, wld, colRes);
    CUDA_CHECK_LAUNCH();
    colResidualFinishKernel<T><<<unsigned(blocks(augCols * k, 256)), 256, 0, s>>>(c, rows, augCols, ldc, k, colRes);
    CUDA_CHECK_LAUNCH();
}

void requireChecksums(int k)
{
    if (k < 1 || k > kMaxChecksums)
        throw BackendError("weighted sums on the device: " + std::to_string(k) + " checksums, expected 1.." +
                           std::to_string(kMaxChecksums));
}

}  // namespace

void inputSums(Precision p, const void* x, Index rows, Index cols, Index ld, double* rowSums, double* colSums,
               cudaStream_t s)
{
    if (p == Precision::F64)
        inputSumsImpl(static_cast<const double*>(x), rows, cols, ld, rowSums, colSums, s);
    else
        inputSumsImpl(static_cast<const float*>(x), rows, cols, ld, rowSums, colSums, s);
}

void weightedChecksumsA(Precision p, void* a, Index rows, Index depth, Index lda, int k, const double* weights,
                        Index wld, cudaStream_t s)
{
    requireChecksums(k);
    if (depth <= 0)
        return;
    if (p == Precision::F64)
        colReduceKernel<double><<<unsigned(blocks(depth, 128)), 128, 0, s>>>(static_cast<double*>(a), rows, depth, lda,
                                                                             k, weights, wld, nullptr);
    else
        colReduceKernel<float><<<unsigned(blocks(depth, 128)), 128, 0, s>>>(static_cast<float*>(a), rows, depth, lda, k,
                                                                            weights, wld, nullptr);
    CUDA_CHECK_LAUNCH();
}

void weightedChecksumsB(Precision p, void* b, Index depth, Index cols, Index ldb, int k, const double* weights,
                        Index wld, cudaStream_t s)
{
    requireChecksums(k);
    if (depth <= 0)
        return;
    if (p == Precision::F64)
        rowReduceKernel<double><<<unsigned(blocks(depth, kTile)), dim3(kTile, kTileRows), 0, s>>>(
            static_cast<double*>(b), depth, cols, ldb, k, weights, wld, nullptr);
    else
        rowReduceKernel<float><<<unsigned(blocks(depth, kTile)), dim3(kTile, kTileRows), 0, s>>>(
            static_cast<float*>(b), depth, cols, ldb, k, weights, wld, nullptr);
    CUDA_CHECK_LAUNCH();
}

void weightedBound(Precision p, const void* a, Index lda, const void* b, Index ldb, Index augRows, Index width,
                   Index augCols, double* rowScale, double* colScale, double* scratch, cudaStream_t s)
{
    if (p == Precision::F64)
        boundImpl(static_cast<const double*>(a), lda, static_cast<const double*>(b), ldb, augRows, width, augCols,
                  rowScale, colScale, scratch, s);
    else
        boundImpl(static_cast<const float*>(a), lda, static_cast<const float*>(b), ldb, augRows, width, augCols,
                  rowScale, colScale, scratch, s);
}

void weightedResiduals(Precision p, const void* c, Index rows, Index cols, Index ldc, int k, const double* weights,
                       Index wld, double* rowRes, double* colRes, cudaStream_t s)
{
    requireChecksums(k);
    if (p == Precision::F64)
        residualsImpl(static_cast<const double*>(c), rows, cols, ldc, k, weights, wld, rowRes, colRes, s);
    else
        residualsImpl(static_cast<const float*>(c), rows, cols, ldc, k, weights, wld, rowRes, colRes, s);
}

}  // namespace gigacheck::online_abft::cuda
