// tf32x3 on the host: what the CPU backend runs for `--gemm tf32x3` (gigacheck/tf32x3.hpp). The
// operands are split on the host and the three products of the parts run as OpenBLAS FP32
// products in the GPU's order; a product of two TF32 values (11 significant bits each) is exact in
// FP32, so each emulates a TF32 tensor-core product with FP32 accumulation.
#pragma once

#include <cstdint>

namespace gigacheck {

// C[m x q] (+)= A[m x n] B[n x q], row-major with leading dimensions lda, ldb, ldc.
void tf32x3GemmHost(const float* a, std::int64_t lda, const float* b, std::int64_t ldb, float* c, std::int64_t ldc,
                    std::int64_t m, std::int64_t n, std::int64_t q, bool accumulate);

}  // namespace gigacheck
