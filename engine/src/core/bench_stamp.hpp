// The header lines of every bench table and JSON: when (UTC, to the minute) and which commit
// (GIGACHECK_COMMIT, set by the device scripts).
#pragma once

#include <string>

namespace gigacheck {

std::string benchDate();
std::string benchCommit();

}  // namespace gigacheck
