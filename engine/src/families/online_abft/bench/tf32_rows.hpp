// `gigacheck bench online`'s TF32 rows (README "C's sums from the product"): online ABFT at fq = 1
// with --gemm cublas-tf32 (each check reads C) and cutlass-tf32 (C's sums from the CUTLASS kernel's
// epilogue: the checks read no C), each run paired with a plain cuBLAS TF32 product of the same
// shape timed just before it, as the FP32 rows are paired with plain FP32 products.
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

}  // namespace gigacheck::online_abft
