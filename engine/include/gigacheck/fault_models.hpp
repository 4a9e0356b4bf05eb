// More fault models beside one cell, over a blocked GEMM fault plan (planFaults places the faults,
// shapeFaults gives them their model):
//   extent     a segment of one row or one column of a block (a warp's worth, 32 cells by
//              default) or a square tile of cells, from each fault's cell, clipped to the block
//   bit2       two bits of one word flipped at once
//   targets    check (a check of the verification pass lies: it reports a clean row / column as
//              mismatching), correction (the value a correction writes is hit; the cell's own fault
//              that makes the correction comes with it), encoding-a / encoding-b (an entry of the
//              checksum c_A / r_B is hit right after the checksum kernel made it)
// The checker's faults are emulated by the CPU backend's ops (cpu/block_ops.cpp).
#pragma once

#include "gigacheck/faults.hpp"
#include "gigacheck/blocked_gemm/plan.hpp"

#include <string>
#include <string_view>

namespace gigacheck {

// The spec planFaults places the faults with: the checker's faults (below) as result cells, which
// shapeFaults then turns into their target.
FaultSpec placementOf(const FaultSpec& spec);
// Rewrites faults (as planFaults made them from spec for plan) into the spec's model. Throws
// InputError for an extent length below 1, a second bit that is not a bit flip's or is outside
// the precision or equal to the first, and explicit positions with a check / encoding target.
void shapeFaults(FaultPlan& faults, const FaultSpec& spec, const Plan& plan);

// "cell", "row[:L]", "col[:L]" or "tile[:S]" (default L = S = 32) into extent and length;
// throws InputError otherwise. faultExtentText writes it back ("cell", "row:32", ...).
void parseFaultExtent(std::string_view text, FaultExtent& extent, int& length);
std::string faultExtentText(FaultExtent extent, int length);

// The checker's own faults (check, correction, encoding-*): emulated on the CPU backend only.
bool isCheckerFault(FaultTarget t);
// Empty when the backend can inject what spec asks, else why not (one sentence).
std::string faultsUnsupportedOn(const FaultSpec& spec, BackendKind backend);

}  // namespace gigacheck
