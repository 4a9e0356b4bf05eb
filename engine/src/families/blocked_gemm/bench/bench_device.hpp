// The CUDA device a blocked-GEMM bench runs on (`bench SUITE --device N`, 0 when not given), made
// current: the in-process references (cuBLAS, the device measurements) run on the current device.
// CUDA builds only.
#pragma once

#ifdef GIGACHECK_HAVE_CUDA

#include "gigacheck/backend.hpp"

#include <cstddef>
#include <optional>
#include <ostream>

namespace gigacheck {

struct BenchDevice {
    DeviceInfo device;
    std::size_t visible = 0;  // CUDA devices found
};

// The chosen device, current; nothing after writing why to err (no device, N out of range, it
// cannot be used): the bench then exits 2.
std::optional<BenchDevice> chooseBenchDevice(int wanted, std::ostream& err);

}  // namespace gigacheck

#endif  // GIGACHECK_HAVE_CUDA
