// The checksum products a fused CUTLASS kernel can make from the operand tiles it has in shared
// memory (consumer_dots_mainloop.cuh), declared without CUTLASS headers for the kernels' calls
// (CutlassTf32Call::dots, Cutlass16BitCall::dots).
#pragma once

#include <cstdint>

namespace gigacheck::cuda {

// Each row r of an operand x (rows x depth) dotted with v and, when s is set, squared with s:
// out[r * outStride] += sum_k x_rk v_k (float), scale[r] += sum_k x_rk^2 s_k, x as the tensor cores
// multiply it (TF32: rounded to nearest). Added by atomics: the caller zeroes out and scale.
struct OperandRowDots {
    std::int64_t rows = 0;
    const double* v = nullptr;
    const double* s = nullptr;  // null: no squares (their scales were taken at entry)
    float* out = nullptr;
    std::int64_t outStride = 0;
    double* scale = nullptr;
};
// A's rows give C's checksum column (A r_B), B^T's rows (B's columns) its checksum row (c_A B).
struct OperandDots {
    OperandRowDots a, bt;
    std::int64_t depth = 0;
    int probeSides = 3;  // PROBE: bit 0 B^T's dots, bit 1 A's
};

}  // namespace gigacheck::cuda
