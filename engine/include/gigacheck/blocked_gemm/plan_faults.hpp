// Blocked GEMM's fault plan: a FaultSpec (gigacheck/faults.hpp) expanded into the injections of
// one blocked plan (families/blocked_gemm/plan/plan_faults.cpp).
#pragma once

#include "gigacheck/faults.hpp"
#include "gigacheck/blocked_gemm/plan.hpp"

namespace gigacheck {

// Expands the spec for this plan. typicalMagnitude is the expected |C_ij| (random deltas are
// +-U(10, 100) times it, large enough to stand out of round-off). Throws InputError for
// positions outside C, a bit outside the precision, or more collinear faults than the block has room for.
FaultPlan planFaults(const FaultSpec& spec, const Plan& plan, double typicalMagnitude);

// The fault models beyond one cell (gigacheck/fault_models.hpp; families/blocked_gemm/run/fault_models.cpp):
// The spec planFaults places the faults with: the checker's faults (below) as result cells, which
// shapeFaults then turns into their target.
FaultSpec placementOf(const FaultSpec& spec);
// Rewrites faults (as planFaults made them from spec for plan) into the spec's model. Throws
// InputError for an extent length below 1, a second bit that is not a bit flip's or is outside
// the precision or equal to the first, and explicit positions with a check / encoding target.
void shapeFaults(FaultPlan& faults, const FaultSpec& spec, const Plan& plan);

}  // namespace gigacheck
