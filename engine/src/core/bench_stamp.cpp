#include "core/bench_stamp.hpp"

#include <cstdlib>
#include <ctime>

namespace gigacheck {

std::string benchDate()
{
    const std::time_t now = std::time(nullptr);
    std::tm utc{};
    gmtime_r(&now, &utc);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M UTC", &utc);
    return buf;
}

std::string benchCommit()
{
    const char* c = std::getenv("GIGACHECK_COMMIT");
    return c && *c ? c : "unknown (set GIGACHECK_COMMIT)";
}

}  // namespace gigacheck
