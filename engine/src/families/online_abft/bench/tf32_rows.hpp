// `gigacheck bench online`'s TF32, BF16 and FP16 rows (README "C's sums from the product", "16-bit
// inputs"): online ABFT at fq = 1 with --gemm cublas-tf32 (each check reads C) and cutlass-tf32 (C's
// sums from the CUTLASS kernel's epilogue: the checks read no C), and with --type bf16 (the CUTLASS
// BF16 kernel with C's sums where it takes the panels, else cuBLAS BF16) and --type f16 (cuBLAS
// FP16, each check reading C), and with --gemm tf32x3 (FP32 accuracy from three TF32 products per
// panel, against plain SGEMM), each run paired with a
// plain cuBLAS product of the same precision and shape timed just before it, as the FP32 rows are
// paired with plain FP32 products.
#pragma once

#include "gigacheck/backend.hpp"
#include "gigacheck/matrix.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <ostream>

namespace gigacheck::online_abft {

// On a GPU: the table of TF32 rows and their JSON rows; elsewhere (no cuBLAS TF32 to compare
// with) an empty array and nothing printed. a, b: the bench's n x n inputs; c: its result.
nlohmann::json tf32Rows(Backend& backend, HostMatrix& a, HostMatrix& b, HostMatrix& c, std::int64_t n,
                        std::int64_t panel, int reps, std::ostream& out);
// The same for BF16 inputs against a plain cuBLAS BF16 product of operands already in BF16.
nlohmann::json bf16Rows(Backend& backend, HostMatrix& a, HostMatrix& b, HostMatrix& c, std::int64_t n,
                        std::int64_t panel, int reps, std::ostream& out);
// The same for FP16 inputs against a plain cuBLAS FP16 product of operands already in FP16.
nlohmann::json f16Rows(Backend& backend, HostMatrix& a, HostMatrix& b, HostMatrix& c, std::int64_t n,
                       std::int64_t panel, int reps, std::ostream& out);

// The same for --gemm tf32x3 (FP32-accurate panels from three TF32 products) against plain cuBLAS SGEMM.
nlohmann::json tf32x3Rows(Backend& backend, HostMatrix& a, HostMatrix& b, HostMatrix& c, std::int64_t n,
                          std::int64_t panel, int reps, std::ostream& out);

}  // namespace gigacheck::online_abft
