#pragma once

#include "gigacheck/backend.hpp"

namespace gigacheck {

// Name from /proc/cpuinfo and the thread count; memory = physical RAM (sysconf). Emulated device
// `index` of `count`: index set, and the name says which when there are several.
DeviceInfo cpuDeviceInfo(int index = 0, int count = 1);

}  // namespace gigacheck
