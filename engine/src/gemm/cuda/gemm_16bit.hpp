// cublas-bf16 / cublas-f16: C (FP32) = A B with FP32 operands in FP32 storage, multiplied by cuBLAS
// with 16-bit inputs (BF16 / FP16), FP32 accumulation (CUBLAS_COMPUTE_32F) and an FP32 C. The
// operands are converted to 16 bits (round to nearest even, as gigacheck/input_rounding.hpp
// rounds them) into a scratch of the stream; with ABFT the checksum passes write those copies
// themselves (protected_product_16bit.hpp), so the checksums see what the tensor cores multiply.
#pragma once

#include "gemm/cuda/gemm.hpp"

namespace gigacheck::cuda {

// g.variant CublasBf16 or CublasF16, g.precision F32. Throws BackendError on CUDA/cuBLAS failure.
void gemm16Bit(const GemmCall& g, cublasHandle_t handle, cudaStream_t stream);

// The plain cuBLAS product of operands already in 16-bit storage (row-major, packed: lda = n,
// ldb = q), C in FP32 (ldc; 0: q): what `bench abft-overhead` compares the protected product with.
void gemmOf16BitOperands(InputFormat format, const void* a16, const void* b16, float* c, std::int64_t m,
                         std::int64_t n, std::int64_t q, cublasHandle_t handle, cudaStream_t stream,
                         std::int64_t ldc = 0);

// The 16-bit copies of g's A (m x n) and B (n x q), packed, in the stream's scratch: what gemm16Bit
// converts into, or the protected product's checksum passes write (protected_product_16bit.hpp).
struct Copies16 {
    void* a = nullptr;
    void* b = nullptr;
};
Copies16 copies16For(const GemmCall& g, cudaStream_t stream);
// C (ldc, accumulate as g says) = the product of the copies, cuBLAS with g's 16-bit input format.
void gemmOf16BitCopies(const GemmCall& g, Copies16 copies, cublasHandle_t handle, cudaStream_t stream);

// FP32 -> BF16 / FP16 (round to nearest even) of a rows x cols row-major block into packed 16-bit storage.
void convertTo16Bit(InputFormat format, const float* src, std::int64_t ld, std::int64_t rows, std::int64_t cols,
                    void* dst, cudaStream_t stream);

}  // namespace gigacheck::cuda
