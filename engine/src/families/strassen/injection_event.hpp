// The record's event of a fault into C or into a leaf product's result, once applied: the same on
// the CPU and on the GPU (cpu/op_table.cpp, cuda/op_table.cpp). Faults in A or B are reported by
// the check that finds them (the run's checks), not as injections into C, as the online family does.
#pragma once

#include "gigacheck/backend.hpp"
#include "gigacheck/events.hpp"

#include <optional>

namespace gigacheck::strassen {

// The event of kInject op `inject`, whose cell held `before` and then `after`; none for a cell of
// A or B. block.k is the fault's index in the run's faults (the record's strassen.faults); local
// row / col are the cell in the buffer it struck, global row / col its place in C (-1 when the
// cell lies in a workspace block, from which it reaches C with the product).
std::optional<InjectEvent> injectEventOf(const ExecutionRequest& request, const Operation& inject, double before,
                                         double after);

}  // namespace gigacheck::strassen
