// More fault models beside one cell, over a blocked GEMM fault plan (planFaults places the faults,
// shapeFaults gives them their model: gigacheck/blocked_gemm/plan_faults.hpp):
//   extent     a segment of one row or one column of a block (a warp's worth, 32 cells by
//              default) or a square tile of cells, from each fault's cell, clipped to the block
//   bit2       two bits of one word flipped at once
//   targets    check (a check of the verification pass lies: it reports a clean row / column as
//              mismatching), correction (the value a correction writes is hit; the cell's own fault
//              that makes the correction comes with it), encoding-a / encoding-b (an entry of the
//              checksum c_A / r_B is hit right after the checksum kernel made it)
// The checker's faults are emulated by the CPU backend's ops (cpu/block_ops.cpp) and by the CUDA
// backend's (cuda/op_table.cpp with abft/cuda: the device's c_A lives only inside a product's pass,
// so encoding-a hits the c_A of the first product that encodes that A block).
#pragma once

#include "gigacheck/faults.hpp"

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gigacheck {

// planFaults, placementOf and shapeFaults: gigacheck/blocked_gemm/plan_faults.hpp.

// "cell", "row[:L]", "col[:L]" or "tile[:S]" (default L = S = 32) into extent and length;
// throws InputError otherwise. faultExtentText writes it back ("cell", "row:32", ...).
void parseFaultExtent(std::string_view text, FaultExtent& extent, int& length);
std::string faultExtentText(FaultExtent extent, int length);
// The cells a fault anchored at (row, col) strikes: the cell, `length` cells of its row or column
// from it, or the length x length tile it starts, clipped to rows x cols (a block, a target).
std::vector<std::pair<std::int64_t, std::int64_t>> faultReach(FaultExtent extent, int length, std::int64_t row,
                                                             std::int64_t col, std::int64_t rows, std::int64_t cols);

// The checker's own faults (check, correction, encoding-*).
bool isCheckerFault(FaultTarget t);
// Empty when the backend can inject what spec asks, else why not (one sentence).
std::string faultsUnsupportedOn(const FaultSpec& spec, BackendKind backend);

}  // namespace gigacheck
