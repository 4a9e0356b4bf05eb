// The bench measurements of --gemm tf32x3 (gigacheck/tf32x3.hpp), in plain C++ (no CUDA types) like
// measure.hpp: its plain and protected times against cuBLAS SGEMM in the same process and
// repetitions, and its error against an FP64 reference beside cuBLAS SGEMM's and cuBLAS TF32's.
#pragma once

#include <cstdint>
#include <string>

namespace gigacheck::cuda {

struct Tf32x3Timing {
    // Medians of CUDA-event times, the three interleaved in each repetition, n x n x n, same inputs.
    double sgemmMs = 0;      // cuBLAS SGEMM (FP32, no tensor cores)
    double tf32x3Ms = 0;     // tf32x3 plain: the two split passes and the cuBLAS TF32 products
    double protectedMs = 0;  // tf32x3 protected: checksums + tf32x3 + checksum products + (inject) + verify
    // max |C - C_ref| / (|A| |B|)_ij on sampled rows, C_ref in FP64 on the host (as timeGemm).
    double sgemmError = 0, tf32Error = 0, tf32x3Error = 0;
    std::string verdict;  // of the last protected repetition
    int corrections = 0;
    double threshold = 0, delta = 0;
};
// errors: 0, or 1 fault added to a cell of C in each protected repetition.
Tf32x3Timing timeTf32x3(std::int64_t n, int errors, int reps);

}  // namespace gigacheck::cuda
