// One step of Neumaier's compensated sum on a separate sum and compensation: the arithmetic of the
// checkers' CompensatedSum::add (verify.cpp, weighted_checksums.cpp), written with selects instead
// of a branch so that loops over many independent sums (a strip of columns) vectorize.
#pragma once

#include <cmath>

namespace gigacheck {

inline void neumaierAdd(double& sum, double& comp, double v)
{
    const double t = sum + v;
    const bool sumLarger = std::fabs(sum) >= std::fabs(v);
    const double big = sumLarger ? sum : v, small = sumLarger ? v : sum;
    comp += (big - t) + small;
    sum = t;
}

}  // namespace gigacheck
