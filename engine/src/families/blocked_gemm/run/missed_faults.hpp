// Injected faults that changed C beyond their block's threshold and that no check saw (the fault
// report's "missed": faults that cancel in every row and column sum): C is then known wrong,
// whatever the checks said -- the verdict (RunRecord::verifiedCorrect), the closing line and the
// report say so in these words.
#pragma once

#include "gigacheck/blocked_gemm/record.hpp"

#include <string>

namespace gigacheck {

// Empty when no missed fault decides the verdict (none, or the full reference judged every cell).
std::string missedFaultsWords(const RunRecord& r);

}  // namespace gigacheck
