// Which buffer slots a blocked GEMM operation reads and writes, as the operand list that
// dependencies are derived from (builder) and checked against (validateOperations).
#pragma once

#include "gigacheck/schedule.hpp"

#include <vector>

namespace gigacheck {

//  CopyH2D writes dst. Checksum reads and writes dst. Product reads srcA, srcB, writes dst
//  (and reads it when accumulating) and reads and writes aux. Inject reads and writes dst.
//  Verify reads and writes dst and aux. CopyD2H reads dst. Whole buffers, coefficient 1.
std::vector<OperandRegion> operandsOf(const Operation& op);

}  // namespace gigacheck
