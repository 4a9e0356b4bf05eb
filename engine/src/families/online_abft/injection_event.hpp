// The record's event of a fault planned into C or its checksums, once applied: the same on the
// CPU and on the GPU (cpu/panel_ops.cpp, cuda/op_table.cpp). Faults in A or B are reported as
// input faults by the check that finds them, not as injections into C.
#pragma once

#include "families/online_abft/inputs.hpp"
#include "gigacheck/events.hpp"

namespace gigacheck::online_abft {

// f after step `step`, applied by op `opId` (f.before / f.after already filled).
InjectEvent injectionEvent(int opId, const PlannedFault& f, const Shape& s, int step);

}  // namespace gigacheck::online_abft
