// The repair pass after a run (abft README "Repair pass"): what it found and did for one C block.
#pragma once

#include "gigacheck/events.hpp"

#include <cstdint>
#include <string_view>
#include <vector>

namespace gigacheck {

// Confirmed: the host re-check of the block against A and B was clean (after re-computing the
// cells corrected from checksums). CorrectedByRecompute: it was not, and recomputing rows /
// columns / the block from A and B made it clean. Uncorrectable: nothing made it clean.
enum class RepairOutcome { Confirmed, CorrectedByRecompute, Uncorrectable };
std::string_view toString(RepairOutcome);
RepairOutcome repairOutcomeFromString(std::string_view);  // throws InputError

struct RepairEvent {
    int blockI = 0, blockJ = 0;  // the C block (all its k steps)
    std::int64_t rowOffset = 0, colOffset = 0, rows = 0, cols = 0;
    RepairOutcome outcome = RepairOutcome::Confirmed;
    // What the first host re-check found (indices local to the augmented block).
    std::vector<std::int64_t> mismatchRows, mismatchCols;
    // What was recomputed from A and B (local indices); wholeBlock: the whole block was.
    std::vector<std::int64_t> recomputedRows, recomputedCols;
    bool wholeBlock = false;
    std::int64_t cellsRecomputed = 0;  // cells corrected from checksums, recomputed as one dot product
    // Recomputed whole because an operand copy that fed it failed its entry check
    // (gigacheck/blocked_gemm/operand_checks.hpp), whatever its own verifications said.
    bool operandCopy = false;
    double flops = 0, seconds = 0;      // cost of the pass for this block (re-checks included)
};

// The repair pass: every C block with a verification that was not clean is re-checked against
// A and B and recomputed where needed; every result cell a verification corrected is recomputed
// as one dot product. c is the run's final result, a and b its inputs; model the arithmetic that
// made c. Rewrites the repaired parts of c; returns one event per block it looked at.
// A C block to recompute whole from A and B whatever its verifications said.
struct BlockToRecompute {
    int blockI = 0, blockJ = 0;
    std::int64_t rowOffset = 0, colOffset = 0, rows = 0, cols = 0;
};
std::vector<RepairEvent> repairAfterRun(const HostMatrix& a, const HostMatrix& b, HostMatrix& c,
                                        const std::vector<VerifyEvent>& verifications, const RoundoffModel& model,
                                        double lambda, const std::vector<BlockToRecompute>& recompute = {});

// The host re-check of one C block over the full inner dimension: checksums from A and B,
// thresholds from the bound accumulated over the block's rows of A and columns of B. Returns the
// verification of a copy of the block (c is not changed).
VerifyResult recheckBlock(const HostMatrix& a, const HostMatrix& b, const HostMatrix& c, std::int64_t rowOffset,
                          std::int64_t colOffset, std::int64_t rows, std::int64_t cols, const RoundoffModel& model,
                          double lambda);

}  // namespace gigacheck
