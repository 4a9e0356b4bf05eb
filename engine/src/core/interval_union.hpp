// The length of the union of [start, end) intervals: the time at least one of them was running
// (a queue's busy time when its ops overlap across streams).
#pragma once

#include <algorithm>
#include <utility>
#include <vector>

namespace gigacheck {

inline double unionSeconds(std::vector<std::pair<double, double>> intervals)
{
    std::sort(intervals.begin(), intervals.end());
    double total = 0, start = 0, end = -1e300;
    for (const auto& [s, e] : intervals) {
        if (s > end) {
            total += end > start ? end - start : 0;
            start = s;
            end = e;
        } else {
            end = std::max(end, e);
        }
    }
    return total + (end > start ? end - start : 0);
}

}  // namespace gigacheck
