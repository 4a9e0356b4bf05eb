// Device measurements beside a transpose run, in plain C++ (no CUDA types), so that run/ and bench/
// compile with or without CUDA (nocuda/ stands in): the 100 % line and the datasheet peak.
#pragma once

#include <cstddef>
#include <string>

namespace gigacheck::transpose::device {

// False with *why set when no CUDA device can be used (or the build has no CUDA).
bool available(std::string* why);

// A cudaMemcpy device-to-device of `bytes` on CUDA device `device` (-1: the first), GB/s of bytes
// read + written: the best (highest rate) of reps copies between the same two buffers, after two
// warm-up copies. The best, not the median: the copy is the yardstick, and a median of a few
// copies swung by 10 % between processes (3750 against 4150 GB/s on an H200).
double deviceCopyGbps(std::size_t bytes, int reps, int device);
// 2 x memory clock x bus width of the device, GB/s (0 when the driver does not say).
double datasheetPeakGbps(int device);

}  // namespace gigacheck::transpose::device
