// GPU test support of the step-sums path's screen (gigacheck::cuda::screenChecks, which
// screenChecksFrom in step_sums_ops.cpp uses), in plain C++ (no CUDA types): checks of one C whose
// lines are kept apart from it, as the path keeps each step's, decided at once by the screen and
// each again by verify after loadStep, as a check that runs in full is.
#pragma once

#include <cstdint>
#include <vector>

namespace gigacheck::online_abft::cuda {

// One check: its sums of C (exact row and column sums of a random C scaled by the check's number
// + 1) with `delta` added to row sum `row` (row >= 0) and column sum `col` (col >= 0), as a fault in
// C after an earlier step leaves them.
struct ScreenedCase {
    std::int64_t row = -1, col = -1;
    double delta = 0;
};

// What the screen and verify reported for one check.
struct ScreenedOutcome {
    bool screenClean = false, screenMismatch = false;  // the screen's verdict: clean, or "run in full"
    bool verifyClean = false;
    int screenRows = -1, screenCols = -1, verifyRows = -1, verifyCols = -1;
    double screenRatio = 0, verifyRatio = 0;  // maxCleanRatio
    double screenMinThreshold = 0, verifyMinThreshold = 0, screenMaxThreshold = 0, verifyMaxThreshold = 0;
};

// The checks (at most gigacheck::cuda::kScreenedMax) of an m x q C after `depth` of TF32 products.
std::vector<ScreenedOutcome> screenAndVerify(std::int64_t m, std::int64_t q, std::int64_t depth,
                                             const std::vector<ScreenedCase>& checks);

}  // namespace gigacheck::online_abft::cuda
