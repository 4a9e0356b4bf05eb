// Where an online ABFT record's recompute begins among its spans. The engine appends the second
// pass's spans after the first pass's (times shifted past its end, op ids past its schedule's),
// without saying where; the timeline shows them as a run of their own, labelled.
#pragma once

#include <gigacheck/events.hpp>

#include <vector>

namespace gigacheck::ui {

// The first op id of the recompute, -1 when there is none to find. The recompute loads A and B as
// the first pass did (a fault changes products and checks, never loads): of the spans of the kind
// and queue of op 0 (its first load), the second half are the recompute's, and the first of
// those carries its first op id.
int recomputeFirstOp(const std::vector<Span>& spans, bool recomputed);

}  // namespace gigacheck::ui
