// Refusals before a big allocation: the bytes a run needs against what the machine has, computed
// in double so that an absurd size (N = 2^32) gives its byte count instead of an overflow. With
// overcommit a huge vector can be granted and only touching it fails, and then the kernel kills the
// whole process (the GUI with it): hence MemAvailable, not the allocation, decides.
#pragma once

#include <cstdint>
#include <string>

namespace gigacheck {

// Bytes of host memory a new allocation can still get without swapping (Linux MemAvailable);
// 0 when unknown.
double hostMemoryAvailable();

// InputError "<what> needs <need> (<parts>) of host memory but only <available> is available on
// this machine; choose a smaller size" when need exceeds MemAvailable, or exceeds 2^62 bytes (no
// machine has them) when MemAvailable is unknown.
void requireHostMemory(double needBytes, const std::string& what, const std::string& parts);
// The same against a device's memory (deviceBytes: its total; 0 unknown: only the 2^62 bound).
void requireDeviceMemory(double needBytes, std::uint64_t deviceBytes, const std::string& deviceName, const std::string& what,
                         const std::string& parts);

}  // namespace gigacheck
