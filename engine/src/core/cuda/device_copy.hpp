// A copy between two buffer slots that may live on different devices, for families' op
// implementations (a multi-device decomposition moving a block to the device that needs it).
// Between two GPUs it is a peer copy: direct where the executor enabled peer access, staged
// through host memory by the driver where the hardware has none; between two logical devices
// of one GPU, a device-to-device copy. The CPU side: core/cpu/device_copy.hpp.
#pragma once

#include "core/cuda/op_table.hpp"

namespace gigacheck::cuda {

// Enqueues on s (a stream of the op's device) the copy of src's region into dst's region
// (OperandRegion: slot, row, col, rows, cols; rows == 0 means the whole buffer, and then as many
// bytes as both hold). Regions are in elements of elementSize bytes, rows strided by each buffer's
// ld (Schedule::buffers). Throws BackendError when the regions differ in extent or leave their
// buffers. Must not block.
void copyBetweenDevices(const OpContext& context, const OperandRegion& dst, const OperandRegion& src,
                        std::size_t elementSize, cudaStream_t s);

}  // namespace gigacheck::cuda
