// The CUTLASS BF16 GEMM of Hopper (sm_90a) whose epilogue also writes C's row and column sums, behind
// a plain interface (no CUTLASS header here): operands already in BF16, FP32 accumulation and C.
// Without CUTLASS in the build, cutlass_absent.cpp stands in and the call says why it cannot run.
#pragma once

#include <cstdint>
#include <cuda_runtime.h>

namespace gigacheck::cuda {

// C[m x q] (+)= A[m x n] B[n x q]: A and B BF16 (raw 16-bit storage), row-major, C FP32, leading
// dimensions in elements. rowSums[i] += sum_j C[i, j], colSums[j] += sum_i C[i, j] of the C written
// (after the accumulation; device doubles, zeroed by the caller; either may be null), as
// cutlassTf32Gemm's epilogue does.
struct CutlassBf16Call {
    std::int64_t m = 0, n = 0, q = 0;
    const void* a = nullptr;
    std::int64_t lda = 0;
    const void* b = nullptr;
    std::int64_t ldb = 0;
    float* c = nullptr;
    std::int64_t ldc = 0;
    bool accumulate = false;  // C += A B (the online family's panel products)
    double* rowSums = nullptr;
    double* colSums = nullptr;
};

// What the kernel's TMA copies need: n, q and the leading dimensions in whole 16 bytes (8 BF16, 4 FP32
// elements of C) and the three addresses 16-byte aligned.
inline bool cutlassBf16Fits(const CutlassBf16Call& c)
{
    auto aligned = [](const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; };
    return c.n % 8 == 0 && c.q % 8 == 0 && c.lda % 8 == 0 && c.ldb % 8 == 0 && c.ldc % 4 == 0 && aligned(c.a) &&
           aligned(c.b) && aligned(c.c);
}

// Whether this build has the kernel and the current device runs it (sm_90: a Hopper GPU); checked
// once per device.
bool cutlassBf16Runs();

// Null when the GEMM was issued on s, else why not (no CUTLASS, no Hopper device, alignment: n, q and
// the leading dimensions in whole 16 bytes).
const char* cutlassBf16Gemm(const CutlassBf16Call& call, cudaStream_t s);

}  // namespace gigacheck::cuda
