// checksumBTransposed (abft_device.hpp): B's checksum column and row norms and B^T, both of B rounded
// to TF32, from one read of B. The fused CUTLASS kernel multiplies the rounded operands (its tensor
// cores read the upper 19 bits), so nothing is rounded in memory: B is read once here, B^T written once.
#include "abft/cuda/abft_device.hpp"
#include "core/cuda/check.hpp"
#include "core/cuda/vector16.cuh"
#include "gigacheck/tf32.hpp"

#include <cmath>
#include <cstdint>
#include <string>

namespace gigacheck::cuda {
namespace {

constexpr int kWarp = 32;
constexpr int kBand = 32;    // rows of B per block, one warp each; a B^T row segment is kBand floats (128 bytes)
constexpr int kChunk = 256;  // columns per step: kChunk / kWarp loads of each lane in flight

__device__ __forceinline__ double warpSum(double v)
{
#pragma unroll
    for (int o = 16; o > 0; o >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, o);
    return v;
}

// Block (kWarp, kBand): warp w takes row r0 + w of B, reads it kChunk columns at a time (lane l the
// columns l, l + 32, ...: every load of the warp 128 contiguous bytes), rounds in registers, sums
// it and its squares in double, and leaves the chunk in a shared tile; the block then writes the
// tile's columns as rows of B^T (lane l the element of row r0 + l: 128 contiguous bytes). The
// padding column keeps both the row stores and the column reads of the tile free of bank conflicts.
// Two blocks per SM (32 registers, no spills; 34 without the bound allowed one): more loads in flight.
__global__ void __launch_bounds__(kWarp* kBand, 2) checksumBTransposedKernel(float* b, Index depth, Index cols, Index ldb,
                                                                          float* bt, Index ldbt)
{
    __shared__ float tile[kBand][kChunk + 1];
    const int lane = threadIdx.x, warp = threadIdx.y;
    const Index r0 = Index(blockIdx.x) * kBand, k = r0 + warp;
    const bool rowInB = k < depth;
    const float* row = b + (rowInB ? k : 0) * ldb;
    double s = 0, q = 0;
    for (Index c0 = 0; c0 < cols; c0 += kChunk) {
        float x[kChunk / kWarp];
#pragma unroll
        for (int e = 0; e < kChunk / kWarp; ++e) {
            const Index j = c0 + lane + e * kWarp;
            x[e] = rowInB && j < cols ? __ldcs(row + j) : 0.0f;
        }
#pragma unroll
        for (int e = 0; e < kChunk / kWarp; ++e) {
            x[e] = roundToTf32(x[e]);
            s += double(x[e]);
            q += double(x[e]) * double(x[e]);
            tile[warp][lane + e * kWarp] = x[e];
        }
        __syncthreads();
        const Index i = r0 + lane;
        if (i < depth)
            for (int t = warp; t < kChunk && c0 + t < cols; t += kBand)
                bt[(c0 + t) * ldbt + i] = tile[lane][t];
        __syncthreads();
    }
    s = warpSum(s);
    q = warpSum(q);
    if (lane == 0 && rowInB) {  // as rowSumsKernel of abft_kernels.cu: the norm takes r_B too
        const float r = float(s);
        b[k * ldb + cols] = r;
        b[k * ldb + cols + 1] = float(sqrt(q + double(r) * double(r)));
    }
}

// The same from float4 loads and streaming float4 stores (B and B^T rows 16-byte aligned, depth and
// cols multiples of 4): a band of kRows rows of B per block of 256 threads, kVecChunk columns per
// step. Thread (warp w, lane l) loads the float4 at columns 4l.. of the band's rows w, w + 8, ...
// (a warp reads 512 contiguous bytes of one row) and keeps those rows' sums; the block writes the
// tile's columns as B^T row segments of kRows floats (kRows / 4 lanes a segment, float4 each). The
// next chunk's loads are issued before the tile goes out, so reads and writes overlap in each block.
// Each thread's four words go into the shared tile in an order rotated by its lane group, so that
// both the row stores and the column reads of the padded tile meet 32 different banks (the layout
// resources/results/probes/online_panels_transpose_probe.cu measured for a plain transpose). On an
// H200 at 16384 x 16384: 0.576 ms against the scalar kernel's 0.660 (resources/results/README.md).
constexpr int kVecThreads = 256, kVecChunk = 128;

template <int kRows>
__global__ void __launch_bounds__(kVecThreads, 2) checksumBTransposedVecKernel(float* b, Index depth, Index cols,
                                                                              Index ldb, float* bt, Index ldbt)
{
    constexpr int kWarps = kVecThreads / kWarp;
    constexpr int kLoads = kRows / kWarps;                     // float4 per thread and chunk: rows w + 8 k
    constexpr int kSegment = kRows / 4;                        // lanes per B^T row segment
    constexpr int kSegmentsPerWarp = kWarp / kSegment;         // B^T rows a warp writes at once
    constexpr int kStores = kVecChunk / (kWarps * kSegmentsPerWarp);  // float4 stores per thread and chunk
    static_assert(kVecChunk == 4 * kWarp && kLoads * kWarps == kRows && kStores * kWarps * kSegmentsPerWarp == kVecChunk);
    static_assert(2 * kWarps * kRows * sizeof(double) <= kRows * (kVecChunk + 1) * sizeof(float));
    __shared__ float tile[kRows][kVecChunk + 1];
    const int lane = threadIdx.x % kWarp, warp = threadIdx.x / kWarp;
    const Index r0 = Index(blockIdx.x) * kRows;
    float4 v[kLoads];
    const float* src = b + (r0 + warp) * ldb + 4 * lane;  // row w, then w + 8 k kWarps * ldb further
    const Index rowsHere = depth - r0 - warp;              // rows w + 8 k < rowsHere are in B
    const auto load = [&](Index c0) {
        const bool inB = c0 + 4 * lane < cols;
#pragma unroll
        for (int k = 0; k < kLoads; ++k)
            v[k] = inB && kWarps * k < rowsHere
                       ? __ldcs(reinterpret_cast<const float4*>(src + Index(kWarps * k) * ldb + c0))
                       : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    };
    const int rotateIn = lane / 8;  // lanes l and l + 8 k start their stores on different banks
    const int segLane = lane % kSegment, segment = lane / kSegment;
    const int rotateOut = (segLane / 8) * (kWarp / kSegment) % 4;
    // s[e], q[e]: the sums of row 4 segLane + (e + rotateOut) % 4 over the columns this thread
    // writes (outside B: zeros); indexed by e, not by the row, so that they stay in registers.
    double s[4] = {}, q[4] = {};
    const bool segmentInB = r0 + 4 * segLane < depth;
    load(0);
    for (Index c0 = 0; c0 < cols; c0 += kVecChunk) {
#pragma unroll
        for (int k = 0; k < kLoads; ++k)
#pragma unroll
            for (int e = 0; e < 4; ++e) {
                const int w = (e + rotateIn) % 4;
                tile[warp + kWarps * k][4 * lane + w] = roundToTf32(component<float>(v[k], w));
            }
        __syncthreads();
        if (c0 + kVecChunk < cols)
            load(c0 + kVecChunk);
        float* dst = bt + c0 * ldbt + r0 + 4 * segLane;
#pragma unroll
        for (int k = 0; k < kStores; ++k) {
            const int t = (warp + kWarps * k) * kSegmentsPerWarp + segment;
            float4 o;
#pragma unroll
            for (int e = 0; e < 4; ++e) {
                const int w = (e + rotateOut) % 4;
                const float x = tile[4 * segLane + w][t];
                setComponent<float>(o, w, x);
                s[e] += double(x);
                q[e] += double(x) * double(x);
            }
            if (segmentInB && c0 + t < cols)
                __stcs(reinterpret_cast<float4*>(dst + Index(t) * ldbt), o);
        }
        __syncthreads();
    }
    // Each row's sums: over the lanes of a warp that share segLane, then over the warps (in order).
    double* partS = reinterpret_cast<double*>(&tile[0][0]);
    double* partQ = partS + kWarps * kRows;
#pragma unroll
    for (int e = 0; e < 4; ++e) {
        for (int o = kSegment; o < kWarp; o *= 2) {  // lanes with the same segLane: the same rows
            s[e] += __shfl_xor_sync(0xffffffffu, s[e], o);
            q[e] += __shfl_xor_sync(0xffffffffu, q[e], o);
        }
        if (segment == 0) {
            const int row = 4 * segLane + (e + rotateOut) % 4;
            partS[warp * kRows + row] = s[e];
            partQ[warp * kRows + row] = q[e];
        }
    }
    __syncthreads();
    const int r = threadIdx.x;
    if (r < kRows && r0 + r < depth) {  // as the kernel above: the norm takes r_B too
        double rowSum = 0, rowSquares = 0;
        for (int w = 0; w < kWarps; ++w) {
            rowSum += partS[w * kRows + r];
            rowSquares += partQ[w * kRows + r];
        }
        const float sum = float(rowSum);
        b[(r0 + r) * ldb + cols] = sum;
        b[(r0 + r) * ldb + cols + 1] = float(sqrt(rowSquares + double(sum) * double(sum)));
    }
}

}  // namespace

// The float4 kernel needs aligned rows and at least a block per SM (a band of 64 where B's depth
// allows, else 32); below that the scalar kernel's 1024-thread blocks keep more loads in flight.
int checksumBTransposedBand(const float* b, Index depth, Index cols, Index ldb, const float* bt, Index ldbt)
{
    const auto aligned = [](const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; };
    if (!aligned(b) || !aligned(bt) || ldb % 4 != 0 || ldbt % 4 != 0 || cols % 4 != 0 || depth % 4 != 0)
        return 0;
    int device = 0, sms = 0;
    CUDA_CHECK(cudaGetDevice(&device));
    CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    if (depth / 64 >= sms)
        return 64;
    return depth / 32 >= sms ? 32 : 0;
}

void checksumBTransposed(float* b, Index depth, Index cols, Index ldb, float* bt, Index ldbt, cudaStream_t s)
{
    if (ldb < cols + 2)
        throw BackendError("CUDA ABFT: B's leading dimension " + std::to_string(ldb) +
                           " leaves no room for the row norms after its checksum column (needs " +
                           std::to_string(cols + 2) + ")");
    if (ldbt < depth)
        throw BackendError("CUDA ABFT: B^T's leading dimension " + std::to_string(ldbt) + " is below B's depth " +
                           std::to_string(depth));
    if (depth <= 0)
        return;
    if (const int band = checksumBTransposedBand(b, depth, cols, ldb, bt, ldbt); band != 0) {
        const unsigned blocks = unsigned((depth + band - 1) / band);
        if (band == 64)
            checksumBTransposedVecKernel<64><<<blocks, kVecThreads, 0, s>>>(b, depth, cols, ldb, bt, ldbt);
        else
            checksumBTransposedVecKernel<32><<<blocks, kVecThreads, 0, s>>>(b, depth, cols, ldb, bt, ldbt);
    } else {
        const unsigned blocks = unsigned((depth + kBand - 1) / kBand);
        checksumBTransposedKernel<<<blocks, dim3(kWarp, kBand), 0, s>>>(b, depth, cols, ldb, bt, ldbt);
    }
    CUDA_CHECK_LAUNCH();
}

}  // namespace gigacheck::cuda
