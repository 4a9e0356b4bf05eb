#include "core/timestamp.hpp"

#include <ctime>

namespace gigacheck {

std::string nowIso8601()
{
    const std::time_t t = std::time(nullptr);
    std::tm utc{};
    gmtime_r(&t, &utc);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
    return text;
}

}  // namespace gigacheck
