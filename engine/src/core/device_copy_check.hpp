// The region check of copies between devices, shared by the CPU and CUDA helpers.
#pragma once

#include "gigacheck/schedule.hpp"

namespace gigacheck {

// Throws BackendError when the regions differ in extent, are empty, or leave their buffers
// (rows x ld elements of elementSize bytes, within bytes).
void checkCopyRegions(const BufferSpec& to, const OperandRegion& dst, const BufferSpec& from, const OperandRegion& src,
                      std::size_t elementSize);

}  // namespace gigacheck
