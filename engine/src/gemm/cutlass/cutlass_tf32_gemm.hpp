// The CUTLASS GEMMs of the lab (Hopper, sm_90a), behind a plain interface: no CUTLASS header
// here, so that only the cutlass_tf32_*_tiles.cu files pay for the templates. Without CUTLASS in the build,
// cutlass_absent.cpp stands in and every call says why it cannot run.
#pragma once

#include "gemm/cuda/row_sum_partials.hpp"
#include "gemm/cutlass/cutlass_launch.hpp"
#include "gemm/gemm_workspace_layout.hpp"

#include <cstdint>
#include <functional>
#include <cuda_runtime.h>

namespace gigacheck::cuda {

// C[m x q] (+)= A[m x n] B[n x q], FP32 in memory, row-major with leading dimensions (elements),
// multiplied on the tensor cores in TF32 (each operand rounded to nearest TF32, measured on an H200:
// tst_cuda_fused_kmajor; operands already in TF32 are multiplied exactly) with FP32 accumulation.
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
    // An index below cutlassTf32ConfigCount(); -1: the default tile, or with bTransposed the
    // configuration cutlassTf32KMajorPick keeps for the shape.
    int config = -1;
    // b holds B^T (q x n, row-major, ldb >= n) instead of B: both operands are then K-major in shared
    // memory, the layout TF32 WGMMA reads fastest (B itself, N-major, goes through registers).
    bool bTransposed = false;
    // Run on the fewest multiprocessors that keep the kernel's rounds of tiles
    // (cutlassSmsKeepingRounds), the others left to a pass launched beside it.
    bool leavesIdleSms = false;
    // With rowSums: C's row sums over the columns below rowSumSplit.at only, the rest apart.
    RowSumSplit rowSumSplit;
    // With rowSums: where their partials go (rowSumPartialBytes, gemm/gemm_workspace.hpp); empty:
    // the stream's scratch.
    DeviceRegion rowSumPartials;
    // Run on the host right after the kernel's launch, before what follows it on s (the row sums'
    // partials added): work for another stream that should start beside the kernel as early as the
    // host can issue it. Not run where the kernel was refused, nor for the tuner's trials.
    std::function<void()> afterLaunch;
    // With rowSums and colSums: a fault of the product's arithmetic in C's main part (below
    // rowSumSplit.at where split), applied as C's row sums are finished (row_sum_partials.hpp).
    FaultAsComputed fault;
};

// C's columns per tile, in every configuration (its 128 side): where C's row sums may be split
// (RowSumSplit::at).
inline constexpr std::int64_t kCutlassTf32TileColumns = 128;

// What the kernel's TMA copies need (CUTLASS checks the contiguous extents too): n and q, the
// leading dimensions and the addresses in whole 16 bytes. Other shapes go to cuBLAS TF32.
// (With bTransposed the same conditions hold: B^T's rows are n long.)
inline bool cutlassTf32Fits(const CutlassTf32Call& c)
{
    auto aligned = [](const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; };
    return c.n % 4 == 0 && c.q % 4 == 0 && c.lda % 4 == 0 && c.ldb % 4 == 0 && c.ldc % 4 == 0 && aligned(c.a) &&
           aligned(c.b) && aligned(c.c);
}

// Null when the GEMM was issued on s, else why not (no such device, alignment, launch error).
const char* cutlassTf32Gemm(const CutlassTf32Call& call, cudaStream_t s);

// The configurations built (tile, cluster and tile swizzle: "128x256x32 c2x1 swizzle 4"), for
// `bench kernels`; 0 without CUTLASS. Which layouts of B each runs: cutlassTf32ConfigRuns (the
// default, 0, runs both; the others B^T only, or B as it lies only in the tile sweep's builds).
int cutlassTf32ConfigCount();
const char* cutlassTf32ConfigName(int config);
bool cutlassTf32ConfigRuns(int config, bool bTransposed);

// The configuration a bTransposed call with config -1 runs: the default for a C below 2048 in m or
// q or a depth below 512 (kmajor_choice.hpp); from there on the fastest K-major configuration for (m, n, q) on the current
// device (and accumulate or not), timed once per process on the first such call (one warm-up and each configuration's best
// of three interleaved timed runs, on s, synchronizing it; thread-safe) and kept unless the default
// -- from 8192 in every extent, the fastest swizzled configuration -- is within 1 % of it. The timing runs
// write the call's C when it does not accumulate (the call writes it anyway; else a scratch C) and
// scratch sums. 0 (the default) for a call without bTransposed; -1 where the kernel cannot run (no
// Hopper device, the shape or alignment).
int cutlassTf32KMajorPick(const CutlassTf32Call& call, cudaStream_t s);

}  // namespace gigacheck::cuda
