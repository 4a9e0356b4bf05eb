// One number through a printf format ("%.3f", "%.6g"): the figures of the families' text reports.
#pragma once

#include <cstdio>
#include <string>

namespace gigacheck {

inline std::string printfNumber(const char* format, double v)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, format, v);
    return buf;
}

}  // namespace gigacheck
