// The repair pass's events in the run record ("repairs"; absent in older records = none).
// Internal to the blocked GEMM family.
#pragma once

#include "gigacheck/blocked_gemm/repair.hpp"
#include "core/record/json_fields.hpp"

namespace gigacheck::recordjson {

Json writeRepairs(const std::vector<RepairEvent>& repairs);
// The "repairs" field of the root, empty when absent.
std::vector<RepairEvent> readRepairs(const Node& root);

}  // namespace gigacheck::recordjson
