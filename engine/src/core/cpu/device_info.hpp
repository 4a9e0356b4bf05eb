#pragma once

#include "gigacheck/backend.hpp"

namespace gigacheck {

// Name from /proc/cpuinfo and the thread count; memory = physical RAM (sysconf).
DeviceInfo cpuDeviceInfo();

}  // namespace gigacheck
