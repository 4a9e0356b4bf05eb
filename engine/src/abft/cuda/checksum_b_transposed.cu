// checksumBTransposed (abft_device.hpp): B's checksum column and row norms and B^T, both of B rounded
// to TF32, from one read of B. The fused CUTLASS kernel multiplies the rounded operands (its tensor
// cores read the upper 19 bits), so nothing is rounded in memory: B is read once here, B^T written once.
#include "abft/cuda/abft_device.hpp"
#include "core/cuda/check.hpp"
#include "gigacheck/tf32.hpp"

#include <cmath>
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

}  // namespace

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
    const unsigned blocks = unsigned((depth + kBand - 1) / kBand);
    checksumBTransposedKernel<<<blocks, dim3(kWarp, kBand), 0, s>>>(b, depth, cols, ldb, bt, ldbt);
    CUDA_CHECK_LAUNCH();
}

}  // namespace gigacheck::cuda
