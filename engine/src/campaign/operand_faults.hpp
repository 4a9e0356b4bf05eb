// Operand faults of a campaign (`--target a|b|a-after|b-after`): the value an operand element is
// corrupted to, and, for a fault after the checksums, its effect on C as explicit result faults.
#pragma once

#include "gigacheck/campaign.hpp"
#include "gigacheck/matrix.hpp"

#include <string>
#include <vector>

namespace gigacheck {

// The corrupted value of the run's operand element number `position` (run.positions order), as
// the campaign's bit flip or delta (+-U(10, 100), drawn from the run's seed) changes `before`.
double corruptedOperandValue(const CampaignConfig& c, const CampaignRun& run, std::size_t position, double before,
                             Precision p);

// An operand element corrupted after the checksums were taken: the checksums still describe the
// intended A and B, the product multiplies the corrupted one. What that does to C, exactly up to
// the rounding of the product: A(r, k) changed by d adds d * B[k, j] to every C(r, j) (a whole
// row), B(k, c) changed by d adds A[i, k] * d to every C(i, c) (a whole column). Returned as
// result faults with explicit deltas (summed per cell over the run's positions), injected by the
// run's schedule before the verification of the block products they fall in.
std::vector<FaultAt> operandAfterChecksumFaults(const CampaignConfig& c, const CampaignRun& run);

// The effect on C is computed from the run's inputs, regenerated each time (a few per run): faults
// after the checksums are offered up to this many operand elements (m n + n q; 2048^3 fits).
constexpr double kMaxOperandElementsAfterChecksums = double(1 << 24);

// InputError unless an after-the-checksums fault of this shape can be rebuilt and the run's
// positions lie inside its operand (the campaign reader and validateCampaign call it).
void checkOperandAfterChecksums(const Shape& shape, const CampaignRun* run);

// "(r,c)(r,c)..." of the run's positions.
std::string operandPositionsText(const CampaignRun& run);

}  // namespace gigacheck
