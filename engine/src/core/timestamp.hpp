// The time stamp of records and campaigns: ISO 8601, UTC, to the second.
#pragma once

#include <string>

namespace gigacheck {

std::string nowIso8601();

}  // namespace gigacheck
