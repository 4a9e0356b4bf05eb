// B^T of an FP32 operand on the device: the K-major layout in which the CUTLASS TF32 kernel keeps
// both operands in shared memory (gemm/cutlass/cutlass_tf32_gemm.hpp, bTransposed).
#pragma once

#include <cstdint>
#include <cuda_runtime.h>

namespace gigacheck::cuda {

// bt[j][i] = b[i][j] for b row-major rows x cols (leading dimension ldb) into bt row-major
// cols x rows (leading dimension ldbt >= rows). Throws BackendError on a launch failure.
void transposeOperand(const float* b, std::int64_t rows, std::int64_t cols, std::int64_t ldb, float* bt,
                      std::int64_t ldbt, cudaStream_t s);

}  // namespace gigacheck::cuda
