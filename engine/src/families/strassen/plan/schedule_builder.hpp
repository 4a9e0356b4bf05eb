// The strassen family's schedule: the recipe of the variant applied at every node of the recursion
// down to the leaves, the peeled fringe, loads, stores, faults, and dependencies derived from the
// operand regions (README "Schedule").
#pragma once

#include "gigacheck/strassen.hpp"

namespace gigacheck::strassen {

// Levels of the schedule's recursion: the effective levels, or one level of global decomposition
// when the work is spread over several devices.
int scheduleLevels(const StrassenConfig& config);

// The part multiplied with Strassen: each dimension rounded down to a multiple of 2^levels.
Shape coreShape(const Shape& shape, int levels);

// Dependencies of every op from its operands: an op waits for the latest earlier ops whose regions
// overlap its own with a conflicting access (read after write, write after read, write after write).
void deriveDependencies(Schedule& schedule);

}  // namespace gigacheck::strassen
