// The CUTLASS GEMMs of Hopper (sm_90a) on 16-bit operands -- BF16 or FP16, FP32 accumulation and C --
// whose epilogue also writes C's row and column sums, behind a plain interface (no CUTLASS header
// here). Without CUTLASS in the build, cutlass_absent.cpp stands in and the call says why it cannot run.
#pragma once

#include "gemm/cuda/row_sum_partials.hpp"
#include "gemm/cutlass/cutlass_launch.hpp"
#include "gemm/gemm_workspace_layout.hpp"

#include <cstdint>
#include <functional>
#include <cuda_runtime.h>

namespace gigacheck::cuda {

enum class Cutlass16BitType { Bf16, F16 };

// C[m x q] (+)= A[m x n] B[n x q]: A and B in `type` (raw 16-bit storage), row-major, C FP32, leading
// dimensions in elements. rowSums[i] += sum_j C[i, j], colSums[j] += sum_i C[i, j] of the C written
// (after the accumulation; device doubles, zeroed by the caller; either may be null), as
// cutlassTf32Gemm's epilogue does.
struct Cutlass16BitCall {
    Cutlass16BitType type = Cutlass16BitType::Bf16;
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
    // An index below cutlass16BitConfigCount(); -1: the configuration cutlass16BitPick keeps.
    int config = -1;
    // As CutlassTf32Call::leavesIdleSms.
    bool leavesIdleSms = false;
    RowSumSplit rowSumSplit;  // as CutlassTf32Call's (none: the 16-bit products' checksums come from passes)
    DeviceRegion rowSumPartials;  // as CutlassTf32Call's
    std::function<void()> afterLaunch;  // as CutlassTf32Call's
    FaultAsComputed fault;              // as CutlassTf32Call's
};

// What the kernel's TMA copies need: n, q and the leading dimensions in whole 16 bytes (8 16-bit, 4
// FP32 elements of C) and the three addresses 16-byte aligned.
inline bool cutlass16BitFits(const Cutlass16BitCall& c)
{
    auto aligned = [](const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; };
    return c.n % 8 == 0 && c.q % 8 == 0 && c.lda % 8 == 0 && c.ldb % 8 == 0 && c.ldc % 4 == 0 && aligned(c.a) &&
           aligned(c.b) && aligned(c.c);
}

// Whether this build has the kernels and the current device runs them (sm_90: a Hopper GPU);
// checked once per device.
bool cutlass16BitRuns();

// Null when the GEMM was issued on s, else why not (no CUTLASS, no Hopper device, alignment: n, q and
// the leading dimensions in whole 16 bytes).
const char* cutlass16BitGemm(const Cutlass16BitCall& call, cudaStream_t s);

// The configurations built (tile, cluster, swizzle: "128x256x64 c2x1 swizzle 4"), for the benches;
// 0 without CUTLASS. Every configuration runs both types.
int cutlass16BitConfigCount();
const char* cutlass16BitConfigName(int config);

// The configuration a call with config -1 runs: the default (128x256x64 c2x1) below 2048 in m or q
// or a depth below 512 (the TF32 kernel's rule, kmajor_choice.hpp); from there on the fastest for
// (type, m, n, q, accumulate) on the current device, timed once per process on the first such call
// (each configuration's best of three interleaved runs, on s, synchronizing it; thread-safe) and
// kept unless the default is within 1 % of it. The timing runs write the call's C when it does not
// accumulate (else a scratch C) and scratch sums. -1 where the kernel cannot run here.
int cutlass16BitPick(const Cutlass16BitCall& call, cudaStream_t s);

}  // namespace gigacheck::cuda
