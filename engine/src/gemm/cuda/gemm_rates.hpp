// What a plain in-core GEMM reaches on this device (GFLOP/s): the reference rate the benches of
// several families set their products against (blocked's ceilings and benches, online's fq sweep).
// Module code; engine code reaches it through the forwarders of ../cuda_module/.
#pragma once

#include "gigacheck/types.hpp"

#include <cstdint>
#include <string>

namespace gigacheck::cuda {

// In-core cuBLAS GEMM rate for an m x n x q product on device-resident data, median of reps.
double inCoreGemmGflops(std::int64_t m, std::int64_t n, std::int64_t q, Precision p, int reps);
// The same for FP32 data multiplied by cuBLAS TF32 (`cublas-tf32`): the reference of TF32 benches.
double inCoreTf32GemmGflops(std::int64_t m, std::int64_t n, std::int64_t q, int reps);
// The same for operands already in 16-bit storage (format BF16 or FP16), FP32 accumulation and C:
// cuBLAS's plain 16-bit product (gemmOf16BitOperands), the reference of the BF16 / FP16 benches.
double inCore16BitGemmGflops(std::int64_t m, std::int64_t n, std::int64_t q, InputFormat format, int reps);
// The same for n x n x n FP32 with the fastest cuBLASLt configuration of the shape (gemm_tuning.hpp,
// tuned here whatever its length): the benches' second reference, beside cuBLAS's own pick. kept:
// the configuration's name.
double tunedInCoreGemmGflops(std::int64_t n, int reps, std::string* kept);

}  // namespace gigacheck::cuda
