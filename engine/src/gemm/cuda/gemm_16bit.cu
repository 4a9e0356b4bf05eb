#include "gemm/cuda/gemm_16bit.hpp"

#include "core/cuda/check.hpp"
#include "gemm/cuda/stream_scratch.hpp"
#include "gemm/gemm_workspace.hpp"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

namespace gigacheck::cuda {

namespace {

using Index = std::int64_t;

__device__ __forceinline__ void store16(__nv_bfloat16* p, float x) { *p = __float2bfloat16_rn(x); }
__device__ __forceinline__ void store16(__half* p, float x) { *p = __float2half_rn(x); }

// One thread per 4 consecutive elements of a row; the rows along y (grid-stride beyond 65535).
constexpr int kConvertPerThread = 4;
template <class H>
__global__ void convertKernel(const float* src, Index ld, Index rows, Index cols, H* dst)
{
    const Index c0 = (Index(blockIdx.x) * blockDim.x + threadIdx.x) * kConvertPerThread;
    for (Index r = Index(blockIdx.y) * blockDim.y + threadIdx.y; r < rows; r += Index(gridDim.y) * blockDim.y) {
#pragma unroll
        for (int e = 0; e < kConvertPerThread; ++e)
            if (c0 + e < cols)
                store16(dst + r * cols + c0 + e, src[r * ld + c0 + e]);
    }
}

cudaDataType_t dataTypeOf(InputFormat f) { return f == InputFormat::Bf16 ? CUDA_R_16BF : CUDA_R_16F; }

}  // namespace

void convertTo16Bit(InputFormat format, const float* src, std::int64_t ld, std::int64_t rows, std::int64_t cols,
                    void* dst, cudaStream_t stream)
{
    if (rows <= 0 || cols <= 0)
        return;
    const dim3 block(64, 4);
    const Index xBlocks = (cols + Index(block.x) * kConvertPerThread - 1) / (Index(block.x) * kConvertPerThread);
    const Index yBlocks = (rows + block.y - 1) / block.y;
    const dim3 grid(unsigned(xBlocks), unsigned(yBlocks < 65535 ? yBlocks : 65535));
    if (format == InputFormat::Bf16)
        convertKernel<<<grid, block, 0, stream>>>(src, ld, rows, cols, static_cast<__nv_bfloat16*>(dst));
    else
        convertKernel<<<grid, block, 0, stream>>>(src, ld, rows, cols, static_cast<__half*>(dst));
    CUDA_CHECK_LAUNCH();
}

void gemmOf16BitOperands(InputFormat format, const void* a16, const void* b16, float* c, std::int64_t m,
                         std::int64_t n, std::int64_t q, cublasHandle_t handle, cudaStream_t stream, std::int64_t ldc)
{
    // Row-major C = A B is column-major C^T = B^T A^T: hand cuBLAS B first.
    CUBLAS_CHECK(cublasSetStream(handle, stream));
    const float alpha = 1.0f, beta = 0.0f;
    CUBLAS_CHECK(cublasGemmEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, int(q), int(m), int(n), &alpha, b16, dataTypeOf(format),
                              int(q), a16, dataTypeOf(format), int(n), &beta, c, CUDA_R_32F, int(ldc > 0 ? ldc : q),
                              CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
}

namespace {

void require16BitCall(const GemmCall& g)
{
    const InputFormat format = inputFormatOf(g.variant);
    if (g.precision != Precision::F32 || (format != InputFormat::Bf16 && format != InputFormat::F16))
        throw BackendError("gemm16Bit: --gemm " + std::string(toString(g.variant)) + " on " +
                           std::string(toString(g.precision)) + " operands");
}

}  // namespace

Copies16 copies16For(const GemmCall& g, cudaStream_t stream)
{
    require16BitCall(g);
    // A then B, packed, each start 256-byte aligned (operandCopyBytes, gemm/gemm_workspace.hpp).
    const std::size_t aBytes = operandCopyBytes(g.variant, g.precision, g.m, g.n, 0);
    char* scratch = static_cast<char*>(scratchIn(g.operandCopies, stream,
                                                 operandCopyBytes(g.variant, g.precision, g.m, g.n, g.q),
                                                 ScratchUse::Operands));  // the 16-bit copies of A and B
    return Copies16{scratch, scratch + aBytes};
}

void gemmOf16BitCopies(const GemmCall& g, Copies16 copies, cublasHandle_t handle, cudaStream_t stream)
{
    const InputFormat format = inputFormatOf(g.variant);
    CUBLAS_CHECK(cublasSetStream(handle, stream));
    const float alpha = 1.0f, beta = g.accumulate ? 1.0f : 0.0f;
    CUBLAS_CHECK(cublasGemmEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, int(g.q), int(g.m), int(g.n), &alpha, copies.b,
                              dataTypeOf(format), int(g.q), copies.a, dataTypeOf(format), int(g.n), &beta, g.c, CUDA_R_32F,
                              int(g.ldc), CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
}

void gemm16Bit(const GemmCall& g, cublasHandle_t handle, cudaStream_t stream)
{
    const Copies16 copies = copies16For(g, stream);
    const InputFormat format = inputFormatOf(g.variant);
    convertTo16Bit(format, static_cast<const float*>(g.a), g.lda, g.m, g.n, copies.a, stream);
    convertTo16Bit(format, static_cast<const float*>(g.b), g.ldb, g.n, g.q, copies.b, stream);
    gemmOf16BitCopies(g, copies, handle, stream);
}

}  // namespace gigacheck::cuda
