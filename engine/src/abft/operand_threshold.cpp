// The round-off threshold of the end-to-end operand checks (gigacheck/blocked_gemm/operand_checks.hpp): a line
// sum of an operand copy against the same sum taken where the operand entered the program. The
// row check's bound (threshold.cpp) with depth 1: both sides sum `count` stored values, in any
// order, and the device may store its sum in the operand's precision.
#include "gigacheck/abft.hpp"

#include <cmath>

namespace gigacheck {

double operandSumThreshold(double sumOfSquares, std::int64_t count, double u, double lambda)
{
    return lambda * u * double(count + 2) * std::sqrt(sumOfSquares);
}

}  // namespace gigacheck
