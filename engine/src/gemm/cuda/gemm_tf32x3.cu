#include "gemm/cuda/gemm_tf32x3.hpp"

#include "core/cuda/check.hpp"
#include "gemm/cuda/stream_scratch.hpp"
#include "gigacheck/tf32x3.hpp"

#include <algorithm>
#include <string>

namespace gigacheck::cuda {

namespace {

using Index = std::int64_t;

// A block's x threads cover kSplitPerThread * blockDim.x columns of a row, one stride of blockDim.x
// per step so that each load and store of a warp is one contiguous run; the rows along y
// (grid-stride beyond 65535).
constexpr int kSplitPerThread = 4;
__global__ void splitKernel(const float* src, Index ld, Index rows, Index cols, float* big, Index bigLd, float* small,
                            Index smallLd)
{
    const Index c0 = Index(blockIdx.x) * blockDim.x * kSplitPerThread + threadIdx.x;
    for (Index r = Index(blockIdx.y) * blockDim.y + threadIdx.y; r < rows; r += Index(gridDim.y) * blockDim.y) {
#pragma unroll
        for (int e = 0; e < kSplitPerThread; ++e) {
            const Index c = c0 + Index(e) * blockDim.x;
            if (c < cols) {
                const Tf32Split s = splitTf32(src[r * ld + c]);
                big[r * bigLd + c] = s.big;
                small[r * smallLd + c] = s.small;
            }
        }
    }
}

// Row-major C = X Y is column-major C^T = Y^T X^T: hand cuBLAS Y first. X with leading dimension ldx,
// Y with ldy; depth slice [k0, k0 + depth) of the product (X's columns, Y's rows).
void tf32Product(const float* x, Index ldx, const float* y, Index ldy, float* c, Index ldc, Index m, Index q, Index k0,
                 Index depth, bool add, cublasHandle_t handle)
{
    const float alpha = 1.0f, beta = add ? 1.0f : 0.0f;
    CUBLAS_CHECK(cublasGemmEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, int(q), int(m), int(depth), &alpha, y + k0 * ldy,
                              CUDA_R_32F, int(ldy), x + k0, CUDA_R_32F, int(ldx), &beta, c, CUDA_R_32F, int(ldc),
                              CUBLAS_COMPUTE_32F_FAST_TF32, CUBLAS_GEMM_DEFAULT));
}

std::size_t alignedBytes(Index elements) { return (std::size_t(elements) * sizeof(float) + 255) / 256 * 256; }

}  // namespace

void splitTf32x3(const float* src, std::int64_t ld, std::int64_t rows, std::int64_t cols, float* big, std::int64_t bigLd,
                 float* small, std::int64_t smallLd, cudaStream_t stream)
{
    if (rows <= 0 || cols <= 0)
        return;
    const dim3 block(64, 4);
    const Index xBlocks = (cols + Index(block.x) * kSplitPerThread - 1) / (Index(block.x) * kSplitPerThread);
    const Index yBlocks = (rows + block.y - 1) / block.y;
    const dim3 grid(unsigned(xBlocks), unsigned(yBlocks < 65535 ? yBlocks : 65535));
    splitKernel<<<grid, block, 0, stream>>>(src, ld, rows, cols, big, bigLd, small, smallLd);
    CUDA_CHECK_LAUNCH();
}

void gemmOfTf32Parts(const float* aParts, const float* bParts, float* c, std::int64_t ldc, std::int64_t m,
                     std::int64_t n, std::int64_t q, bool accumulate, cublasHandle_t handle, cudaStream_t stream)
{
    CUBLAS_CHECK(cublasSetStream(handle, stream));
    // The small terms first, A_big B_small + A_small B_big as one product of depth 2n (C read and
    // written once for both); the big product then adds to their (small) sum, as the CPU emulation
    // does, in depth chunks, each added to C in FP32 (kTf32x3ChunkDepth says why).
    tf32Product(aParts, 2 * n, bParts, q, c, ldc, m, q, 0, 2 * n, accumulate, handle);
    const float* bBig = bParts + n * q;
    const Index chunk = tf32x3ChunkOf(n);
    for (Index k0 = 0; k0 < n; k0 += chunk)
        tf32Product(aParts, 2 * n, bBig, q, c, ldc, m, q, k0, std::min(chunk, n - k0), true, handle);
}

void gemmTf32x3(const GemmCall& g, cublasHandle_t handle, cudaStream_t stream)
{
    if (g.variant != GemmVariant::Tf32x3 || g.precision != Precision::F32)
        throw BackendError("gemmTf32x3: --gemm " + std::string(toString(g.variant)) + " on " +
                           std::string(toString(g.precision)) + " operands");
    // A's parts [A_big | A_small] (m x 2n), then B's [B_small; B_big] (2n x q), each 256-byte aligned.
    const std::size_t aBytes = alignedBytes(2 * g.m * g.n), bBytes = alignedBytes(2 * g.n * g.q);
    static_assert(sizeof(float) * 2 == 8);  // as operandCopyBytes counts them (gemm/gemm_workspace.hpp)
    char* scratch = static_cast<char*>(scratchIn(g.operandCopies, stream, aBytes + bBytes, ScratchUse::Operands));
    float* aParts = reinterpret_cast<float*>(scratch);
    float* bParts = reinterpret_cast<float*>(scratch + aBytes);
    splitTf32x3(static_cast<const float*>(g.a), g.lda, g.m, g.n, aParts, 2 * g.n, aParts + g.n, 2 * g.n, stream);
    splitTf32x3(static_cast<const float*>(g.b), g.ldb, g.n, g.q, bParts + g.n * g.q, g.q, bParts, g.q, stream);
    gemmOfTf32Parts(aParts, bParts, static_cast<float*>(g.c), g.ldc, g.m, g.n, g.q, g.accumulate, handle, stream);
}

}  // namespace gigacheck::cuda
