// The CUDA device a blocked-GEMM bench runs on (`bench SUITE --device N`, 0 when not given), made
// current: the in-process references (cuBLAS, the device measurements) run on the current device.
// Choosing one: CUDA builds only.
#pragma once

#include "gigacheck/backend.hpp"

#include <cstddef>
#include <optional>
#include <ostream>
#include <string>

namespace gigacheck {

// "device: NAME (CUDA device I, compute capability X, MEMORY)": the line of every bench header.
std::string benchDeviceLine(const DeviceInfo& device);

// In a build without CUDA: why no bench that needs a device can run, for err (the bench exits 2).
std::string noCudaBuildLine();

#ifdef GIGACHECK_HAVE_CUDA

struct BenchDevice {
    DeviceInfo device;
    std::size_t visible = 0;  // CUDA devices found
};

// The chosen device, current; nothing after writing why to err (no device, N out of range, it
// cannot be used): the bench then exits 2.
std::optional<BenchDevice> chooseBenchDevice(int wanted, std::ostream& err);

#endif  // GIGACHECK_HAVE_CUDA

}  // namespace gigacheck
