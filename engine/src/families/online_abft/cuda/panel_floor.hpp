// The floor of any check schedule around cuBLAS (`gigacheck bench online`):
// an online run's panel products alone, as the device path issues them, with no checksum pass and no
// check. What a run costs above this is its ABFT; what this costs above one n^3 GEMM is the split
// into panel GEMMs that read and write C once per step (online README, "The cost model").
// Plain C++ (no CUDA types): the bench compiles with or without CUDA.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace gigacheck::cuda {

struct PanelFloor {
    double seconds = 0;  // first product's start to the last one's end, median of reps
    std::string gemms;   // the configurations the products ran (gemm_tuning.hpp), per distinct shape
};

// FP32 A (m x n) times B (n x q) with C in column blocks of the given widths (summing to q), each
// block's products on its own stream in step order, the blocks' products issued step by step as the
// device path does: the block's first product with beta = 0, the others accumulated into C, panels of
// `panel` columns of A and rows of B, and the device path's leading dimensions (A_c: n; B_r: w + 2 and
// C_f: w + 1, rounded up to 32 elements). Each distinct GEMM shape runs its tuned configuration.
// sumsAfterEachStep: after each product the check's row and column sums of the block's C_f
// (abft_device.hpp sumsOfC) on a lane of the greatest priority, the block's next product waiting for
// them -- one read of C per step and nothing else of a check: the least any check beside cuBLAS costs.
// Throws BackendError on CUDA errors (out of memory included).
PanelFloor panelProductsAlone(std::int64_t m, std::int64_t n, std::int64_t panel, const std::vector<std::int64_t>& blockCols,
                              int reps, bool sumsAfterEachStep = false);

}  // namespace gigacheck::cuda
