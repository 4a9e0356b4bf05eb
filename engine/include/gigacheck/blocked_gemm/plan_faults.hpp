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

}  // namespace gigacheck
