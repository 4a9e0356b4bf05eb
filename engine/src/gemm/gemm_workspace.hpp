// Device memory a product of the GEMM layer (gemm/cuda/) takes beside A, B and C: the copies of A
// and B in the format it multiplies (BF16 / FP16 inputs; tf32x3's big and small TF32 parts) and the
// partial sums of C's rows that a CUTLASS kernel writing C's sums leaves, one per tile row. One
// formula for the GEMM layer, which takes that much, and the blocked family's plan, which charges it
// to the memory cap (gigacheck/blocked_gemm/plan.hpp). Plain C++: the planner runs without CUDA.
#pragma once

#include "gemm/gemm_workspace_layout.hpp"
#include "gigacheck/types.hpp"

#include <cstddef>
#include <cstdint>

namespace gigacheck {

// Bytes of the copies of an m x n A and an n x q B that `gemm` multiplies instead of them (A's copy
// first, each start 256-byte aligned); 0 where it reads the operands in place. Saturates at
// SIZE_MAX instead of wrapping around.
std::size_t operandCopyBytes(GemmVariant gemm, Precision precision, std::int64_t m, std::int64_t n, std::int64_t q);

// Bytes of the partial sums of C's rows (m x q) where `gemm` may run a kernel writing C's sums
// (cutlass-tf32, BF16 / FP16 inputs), at most what any configuration leaves; else 0. Saturates.
std::size_t rowSumPartialBytes(GemmVariant gemm, Precision precision, std::int64_t m, std::int64_t q);

}  // namespace gigacheck
