// Where a blocked GEMM run's time goes, from its own spans (the measurement behind each
// miss of "within 10 % of the bound", and the report's lesson on why a strategy is slow). Between
// the first product's start and the last product's end the compute queue is either running a
// product, running ABFT work alone, or idle (waiting for a copy); before and after are the fill
// and the drain. So, exactly:
//   span = products busy + ABFT alone + stalls + fill + drain
// `bench out-of-core` splits products busy further into the products timed alone (the bound's
// GEMM term) and their stretch inside the run.
#pragma once

#include "gigacheck/events.hpp"

#include <vector>

namespace gigacheck::blocked_gemm {

struct TimeBreakdown {
    double spanSeconds = 0;          // first op start to last op end
    double productBusySeconds = 0;   // union of the product spans (two streams' products overlap)
    double abftAloneSeconds = 0;     // compute busy, no product running (checksums, verifications, injections)
    double stallSeconds = 0;         // compute idle between the first product's start and the last's end
    double fillSeconds = 0, drainSeconds = 0;
};

// Spans of kind Recompute (the repair pass after the run) are left out, as in fillDrainOf.
TimeBreakdown breakdownOf(const std::vector<Span>& spans);

}  // namespace gigacheck::blocked_gemm
