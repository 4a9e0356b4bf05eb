// tf32x3 (gigacheck/tf32x3.hpp): C (FP32) = A B from three TF32 tensor-core products of the
// operands' big and small parts. Each operand is split in one pass into a scratch of the stream
// (stream_scratch.hpp); the parts are TF32 values, so cuBLAS TF32 multiplies them exactly as
// stored, whatever rounding it applies. With ABFT the checksums are those of an FP32 product of
// the original operands: the passes read A and B as stored and never round them.
#pragma once

#include "gemm/cuda/gemm.hpp"

namespace gigacheck::cuda {

// The big and small parts of a rows x cols row-major block (leading dimension ld) into packed
// storage (leading dimension cols), one read of the block.
void splitTf32x3(const float* src, std::int64_t ld, std::int64_t rows, std::int64_t cols, float* big, float* small,
                 cudaStream_t stream);

// C (+)= A_big B_small + A_small B_big + A_big B_big (that order, the last in depth chunks of
// kTf32x3ChunkDepth) of operands already split (packed: lda = n, ldb = q); C has leading dimension ldc.
void gemmOfTf32Parts(const float* aBig, const float* aSmall, const float* bBig, const float* bSmall, float* c,
                     std::int64_t ldc, std::int64_t m, std::int64_t n, std::int64_t q, bool accumulate,
                     cublasHandle_t handle, cudaStream_t stream);

// g.variant Tf32x3, g.precision F32: split both operands, then gemmOfTf32Parts. Throws BackendError
// on CUDA/cuBLAS failure.
void gemmTf32x3(const GemmCall& g, cublasHandle_t handle, cudaStream_t stream);

}  // namespace gigacheck::cuda
