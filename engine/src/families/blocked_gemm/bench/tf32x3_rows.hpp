// The --gemm tf32x3 rows of `bench kernels` and `bench abft-overhead` (CUDA builds): FP32-accurate
// products from three TF32 products, against cuBLAS SGEMM measured in the same process, with the
// targets beside them (error within 2x of SGEMM's against FP64; time <= 0.8x SGEMM's at 16384).
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <ostream>
#include <vector>

namespace gigacheck::blocked_gemm {

// 4096, 8192, 16384 (quick: 1024, 2048), or GIGACHECK_BENCH_SIZES.
std::vector<std::int64_t> tf32x3Sizes(bool quick);
// Plain tf32x3 against plain cuBLAS SGEMM, and the errors of SGEMM, TF32 and tf32x3 against FP64.
void tf32x3KernelRows(const std::vector<std::int64_t>& sizes, std::ostream& out, nlohmann::json& rows);
// Protected tf32x3 (0 and 1 fault) against plain cuBLAS SGEMM; reps repetitions, interleaved.
void tf32x3AbftRows(const std::vector<std::int64_t>& sizes, int reps, std::ostream& out, nlohmann::json& rows);

}  // namespace gigacheck::blocked_gemm
