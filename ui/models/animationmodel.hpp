// The error animation as a list of steps built from injection and verification events (live or
// from a record): inject -> detect (the column sums, then the row sums: one reduction at a time,
// each lighting its mismatching lines) -> locate (intersections, or ambiguous candidates) ->
// correct (old -> new) or uncorrectable, with the numbers of the run.
#pragma once

#include <gigacheck/events.hpp>
#include <gigacheck/blocked_gemm/repair.hpp>

#include <QString>

#include <vector>

namespace gigacheck::ui {

// CorrectedByRecompute: the repair pass after the run recomputed the block's lines from A and B.
enum class AnimationStage { Inject, Detect, Locate, Correct, Uncorrectable, CorrectedByRecompute };
QString stageName(AnimationStage s);

struct AnimationCell {
    std::int64_t row = 0, col = 0;  // global; a checksum row/col sits just past the block
    double before = 0, after = 0;
    bool checksum = false;  // on the block's checksum row or column
};

struct AnimationStep {
    AnimationStage stage = AnimationStage::Detect;
    int verifyIndex = 0;  // which verification event (block product) the step explains
    BlockIndex block;
    std::int64_t rowOffset = 0, colOffset = 0, rows = 0, cols = 0;
    std::vector<std::int64_t> mismatchRows, mismatchCols;  // global (checksum: rowOffset + rows)
    std::vector<double> rowResidual, colResidual;
    std::vector<AnimationCell> cells;  // Inject: injected; Locate: located or candidates; Correct: corrected
    bool ambiguous = false;            // more than one mismatch in both checksums (seed figure 2)
    QString title;
    QString explanation;  // rich text with the seed's formula for this step
};

// Steps for every block product whose verification found something or that received a fault.
// Repairs that recomputed a block add a last step for it (after the run, as they happen).
std::vector<AnimationStep> buildAnimation(const std::vector<InjectEvent>& injections,
                                          const std::vector<VerifyEvent>& verifications,
                                          const std::vector<RepairEvent>& repairs = {});

// A correction's three numbers as shown, "before − (error) = after", at one common number of
// decimals (about six significant digits of the largest) so that the shown numbers add up: before
// and after are rounded, the error is their difference at those decimals.
struct CorrectionNumbers {
    QString before, error, after;
};
CorrectionNumbers correctionNumbers(double before, double after);

}  // namespace gigacheck::ui
