// Which buffer slots an operation reads and writes: the rule dependencies are derived from
// (builder) and checked against (validateSchedule).
#pragma once

#include "gigacheck/schedule.hpp"

#include <vector>

namespace gigacheck {

struct OpAccess {
    std::vector<int> reads, writes;  // slots; a read-modify-write slot is listed in both
};

//  CopyH2D writes dst. Checksum reads and writes dst. Product reads srcA, srcB, writes dst
//  (and reads it when accumulating) and reads and writes aux. Inject reads and writes dst.
//  Verify reads and writes dst and aux. CopyD2H reads dst.
OpAccess accessOf(const Operation& op);

}  // namespace gigacheck
