// The median of repeated timings (the benches' and the runs' figure of a repeated measurement):
// the upper middle for an even count, 0 for none.
#pragma once

#include <algorithm>
#include <vector>

namespace gigacheck {

inline double median(std::vector<double> v)
{
    if (v.empty())
        return 0;
    std::nth_element(v.begin(), v.begin() + std::ptrdiff_t(v.size() / 2), v.end());
    return v[v.size() / 2];
}

}  // namespace gigacheck
