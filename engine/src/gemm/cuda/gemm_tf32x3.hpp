// tf32x3 (gigacheck/tf32x3.hpp): C (FP32) = A B from three TF32 tensor-core products of the
// operands' big and small parts. Each operand is split in one pass into a scratch of the stream
// (stream_scratch.hpp); the parts are TF32 values, so cuBLAS TF32 multiplies them exactly as
// stored, whatever rounding it applies. With ABFT the checksums are those of an FP32 product of
// the original operands: the passes read A and B as stored and never round them.
#pragma once

#include "gemm/cuda/gemm.hpp"

namespace gigacheck::cuda {

// The big and small parts of a rows x cols row-major block (leading dimension ld) into big (leading
// dimension bigLd) and small (smallLd), one read of the block.
void splitTf32x3(const float* src, std::int64_t ld, std::int64_t rows, std::int64_t cols, float* big, std::int64_t bigLd,
                 float* small, std::int64_t smallLd, cudaStream_t stream);

// C (+)= [A_big | A_small] [B_small; B_big] (one product of depth 2n: the two small terms), then
// + A_big B_big in depth chunks of kTf32x3ChunkDepth. aParts: m x 2n (A_big in columns [0, n), A_small
// in [n, 2n)); bParts: 2n x q (B_small in rows [0, n), B_big in [n, 2n)); C has leading dimension ldc.
void gemmOfTf32Parts(const float* aParts, const float* bParts, float* c, std::int64_t ldc, std::int64_t m,
                     std::int64_t n, std::int64_t q, bool accumulate, cublasHandle_t handle, cudaStream_t stream);

// g.variant Tf32x3, g.precision F32: split both operands, then gemmOfTf32Parts. Throws BackendError
// on CUDA/cuBLAS failure.
void gemmTf32x3(const GemmCall& g, cublasHandle_t handle, cudaStream_t stream);

}  // namespace gigacheck::cuda
