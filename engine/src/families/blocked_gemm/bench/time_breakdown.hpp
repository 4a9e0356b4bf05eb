// Where an out-of-core run's time goes beyond the GEMM roof at its block shapes (issue 13: the
// measurement behind each miss of "within 10 % of the bound"), from the run's own spans. Between
// the first product's start and the last product's end the compute queue is either running a
// product, running ABFT work alone, or idle (waiting for a copy); before and after are the fill
// and the drain. So, exactly:
//   span = GEMMs alone + stretch + ABFT alone + stalls + fill + drain
// with GEMMs alone the plan's products timed one by one as device-resident cuBLAS GEMMs (the
// bound's GEMM term) and stretch what the products took beyond that inside the run (copies and
// ABFT passes beside them; negative when products of two streams overlap).
#pragma once

#include "gigacheck/events.hpp"

#include <vector>

namespace gigacheck::blocked_gemm {

struct TimeBreakdown {
    double spanSeconds = 0;       // first op start to last op end
    double gemmAloneSeconds = 0;  // given: the products alone
    double stretchSeconds = 0;    // union of the product spans - gemmAloneSeconds
    double abftAloneSeconds = 0;  // compute busy, no product running (checksums, verifications, injections)
    double stallSeconds = 0;      // compute idle between the first product's start and the last's end
    double fillSeconds = 0, drainSeconds = 0;
};

// Spans of kind Recompute (the repair pass after the run) are left out, as in fillDrainOf.
TimeBreakdown breakdownOf(const std::vector<Span>& spans, double gemmAloneSeconds);

}  // namespace gigacheck::blocked_gemm
