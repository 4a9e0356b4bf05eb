// The range an input format can hold: FP16 stops at 65504, so an FP32 operand beyond it has no FP16
// value (rounded, it would become infinity and C NaN or infinite). The run refuses such operands
// with the cell that is too large rather than scaling them: a scaled product is not the product
// asked for, and a user who wants it can scale the inputs and C themselves.
#pragma once

#include "gigacheck/matrix.hpp"
#include "gigacheck/types.hpp"

#include <string>

namespace gigacheck {

// Throws InputError naming the first cell of m (called `name`) beyond the largest finite value of
// `input` (only FP16 has one below FP32's); no-op for every other format.
void requireInputFormatRange(const HostMatrix& m, InputFormat input, const std::string& name);

}  // namespace gigacheck
