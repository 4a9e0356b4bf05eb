// The benches' environment filters: GIGACHECK_BENCH_SIZES, _TYPES, _VARIANTS, _CAPS, _STRATEGIES
// (comma lists) narrow a suite to the rows one device call has time for. Unset or empty: all.
#pragma once

#include <algorithm>
#include <cstdlib>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace gigacheck::bench {

// The non-empty items of a comma-separated environment variable (none when it is unset).
inline std::vector<std::string> envList(const char* variable)
{
    std::vector<std::string> out;
    if (const char* env = std::getenv(variable)) {
        std::stringstream in(env);
        std::string item;
        while (std::getline(in, item, ','))
            if (!item.empty())
                out.push_back(item);
    }
    return out;
}

// Whether `name` passes the filter in `variable` (every name does when the filter is unset or empty).
inline bool selected(const char* variable, std::string_view name)
{
    const std::vector<std::string> items = envList(variable);
    return items.empty() || std::find(items.begin(), items.end(), name) != items.end();
}

// Whether a switch variable is on (set, not empty, not "0"): GIGACHECK_GALLERY_LONG=1.
inline bool switchedOn(const char* variable)
{
    const char* v = std::getenv(variable);
    return v && *v && std::string_view(v) != "0";
}

}  // namespace gigacheck::bench
