// C = A B in one kernel that keeps C in registers across the online family's steps: after every
// panel of `panel` columns of A (rows of B), the kernel adds the row and column sums of C so far
// into that step's slot, and applies the faults planned after that step to C's registers, so that
// each step can be checked from its sums while C is read and written once. No CUTLASS header here.
#pragma once

#include <cstdint>
#include <cuda_runtime.h>

namespace gigacheck::cuda {

inline constexpr int kStepFaultsMax = 8;

// A fault in C's registers after step `step` (0-based) at C(row, col), as DeviceInjection
// (abft/cuda/abft_device.hpp) describes one: a bit (and bit2 >= 0 with it) flipped, or delta added.
// (Its own type: the CUTLASS translation units compile as C++17, without the engine's headers.)
struct StepFault {
    int step = 0;
    std::int64_t row = 0, col = 0;
    int bitFlip = 0;
    int bit = 0;
    int bit2 = -1;
    double delta = 0;
};

// C[m x q] = A[m x n] B[n x q] on the tensor cores in TF32 (FP32 in memory, rounded to nearest TF32
// as they are read; operands already in TF32 are multiplied exactly), FP32 accumulation. A row-major
// (lda), B given as B^T (q x n row-major, ldbt), C row-major (ldc). Step s covers the depth
// [0, min((s + 1) panel, n)); its sums go to stepSums + s (m + q): C's m row sums, then its q column
// sums (double, added by atomics: the caller zeroes them). faultValues (pinned host, 2 doubles per
// fault): each fault's value before and after.
struct CutlassStepSumsCall {
    std::int64_t m = 0, n = 0, q = 0;
    const float* a = nullptr;
    std::int64_t lda = 0;
    const float* bt = nullptr;
    std::int64_t ldbt = 0;
    float* c = nullptr;
    std::int64_t ldc = 0;
    std::int64_t panel = 0;  // a multiple of kStepSumsPanelMultiple
    double* stepSums = nullptr;
    StepFault faults[kStepFaultsMax];
    int faultCount = 0;
    double* faultValues = nullptr;
    // The tile scheduler's walk: swizzle 1, 2, 4 or 8 (tiles of one raster strip side by side) and the
    // raster order (0: CUTLASS's heuristic, 1: along C's columns first, 2: along its rows first).
    int maxSwizzle = 1;
    int raster = 0;
    // Run on the fewest multiprocessors that keep the kernel's rounds of tiles
    // (cutlassSmsKeepingRounds, kmajor_choice.hpp), the others left to passes launched beside it.
    bool leavesIdleSms = false;
};

inline constexpr std::int64_t kStepSumsPanelMultiple = 32;  // the kernel's depth per k tile

inline std::int64_t stepCount(std::int64_t n, std::int64_t panel) { return panel > 0 ? (n + panel - 1) / panel : 0; }

// Null when the kernel ran on s, else why it cannot (no CUTLASS, not a Hopper GPU, a shape or
// alignment TMA cannot take, a panel not a multiple of 32, too many faults).
const char* cutlassTf32StepSums(const CutlassStepSumsCall& call, cudaStream_t s);

}  // namespace gigacheck::cuda
