// A copy between two buffer slots that may live on different emulated devices (the CPU side of
// core/cuda/device_copy.hpp): families call it from their op implementations, e.g. for a
// multi-device decomposition that moves a block to the device that needs it.
#pragma once

#include "../op_table.hpp"  // relative: tests include this header without engine/src on their path

namespace gigacheck::cpu {

// Copies src's region into dst's region (OperandRegion: slot, row, col, rows, cols; rows == 0 means
// the whole buffer, and then as many bytes as both hold). Regions are in elements of elementSize
// bytes, rows strided by each buffer's ld (Schedule::buffers). Throws BackendError when the two
// regions differ in extent or leave their buffers.
void copyBetweenDevices(const OpContext& context, const OperandRegion& dst, const OperandRegion& src,
                        std::size_t elementSize);

}  // namespace gigacheck::cpu
