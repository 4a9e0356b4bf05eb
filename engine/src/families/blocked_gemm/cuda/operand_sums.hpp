// Sums of an operand block copy as it arrived on the device, for the end-to-end operand checks
// (gigacheck/blocked_gemm/operand_checks.hpp): A's column sums over its rows and B's row sums over its
// columns -- the lines the entry checksums hold -- taken in double, before the ABFT encoding rounds
// anything (TF32, BF16, FP16), and written straight into pinned host memory (one double per
// line), read once the op has completed.
#pragma once

#include "gigacheck/types.hpp"

#include <cuda_runtime.h>

#include <cstdint>

namespace gigacheck::blocked_gemm {

// block: rows x cols, row-major with leading dimension ld, of the precision's element type.
// out: cols doubles (pinned host memory or device memory).
void operandColumnSums(Precision p, const void* block, std::int64_t rows, std::int64_t cols, std::int64_t ld,
                       double* out, cudaStream_t s);
// out: rows doubles.
void operandRowSums(Precision p, const void* block, std::int64_t rows, std::int64_t cols, std::int64_t ld, double* out,
                    cudaStream_t s);

}  // namespace gigacheck::blocked_gemm
