// The host repair pass after a blocked run (engine: blocked_gemm/run/repair.cpp) in the lab's
// words: one span per C block it looked at, named by what it did there. Most passes confirm: the
// block, corrected from its checksums during the run, re-checked against A and B on the host and
// found clean; only an unconfirmed block is recomputed. The timeline calls the kind "repair pass",
// not "recompute", so that a confirmation never reads as a recomputation.
#pragma once

#include <gigacheck/blocked_gemm/record.hpp>

#include <QString>

namespace gigacheck::ui {

// "confirm", "recompute" or "uncorrectable".
QString repairOutcomeWord(RepairOutcome outcome);
// The repair event of a repair-pass span of record (matched by its C block), or null.
const RepairEvent* repairOfSpan(const RunRecord& record, const Span& span);
// A tooltip's first lines for a repair-pass span: what the pass did for its block.
QString repairPassText(const RunRecord* record, const Span& span);

}  // namespace gigacheck::ui
