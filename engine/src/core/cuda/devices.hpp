// The CUDA devices of this machine, in plain C++ (no CUDA types), for the backend factory and
// `gigacheck devices`.
#pragma once

#include "gigacheck/backend.hpp"

#include <string>
#include <vector>

namespace gigacheck::cuda {

// CUDA devices in ordinal order; empty with *why set when there are none.
std::vector<DeviceInfo> cudaDevices(std::string* why);
// Makes the device current for this thread. Throws BackendError when it cannot be used.
void useDevice(int device);

}  // namespace gigacheck::cuda
