// The CUTLASS GEMMs of the lab (Hopper, sm_90a), behind a plain interface: no CUTLASS header
// here, so that only cutlass_tf32_gemm.cu pays for the templates. Without CUTLASS in the build,
// cutlass_absent.cpp stands in and every call says why it cannot run.
#pragma once

#include <cstdint>
#include <cuda_runtime.h>

namespace gigacheck::cuda {

// C[m x q] (+)= A[m x n] B[n x q], FP32 in memory, row-major with leading dimensions (elements),
// multiplied on the tensor cores in TF32 (the kernel reads the operands' upper 19 bits: operands
// already rounded to TF32 are multiplied exactly) with FP32 accumulation.
// With rowSums / colSums (device, double; either may be null) the epilogue that writes C also adds
// rowSums[i] += sum_j C[i, j] and colSums[j] += sum_i C[i, j] of the C it writes (after the
// accumulation), by atomics: the caller zeroes them first.
struct CutlassTf32Call {
    std::int64_t m = 0, n = 0, q = 0;
    const float* a = nullptr;
    std::int64_t lda = 0;
    const float* b = nullptr;
    std::int64_t ldb = 0;
    float* c = nullptr;
    std::int64_t ldc = 0;
    bool accumulate = false;
    double* rowSums = nullptr;
    double* colSums = nullptr;
    int config = -1;  // an index below cutlassTf32ConfigCount(); -1: the default tile
};

// Null when the GEMM was issued on s, else why not (no such device, alignment, launch error).
// TMA needs 16-byte aligned operands and leading dimensions that are multiples of 4 floats.
const char* cutlassTf32Gemm(const CutlassTf32Call& call, cudaStream_t s);

// The tile / cluster shapes built ("128x256x32 c2x1"), for `bench kernels`; 0 without CUTLASS.
int cutlassTf32ConfigCount();
const char* cutlassTf32ConfigName(int config);

}  // namespace gigacheck::cuda
