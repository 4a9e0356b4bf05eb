// Scratch memory of the GEMM layer, one per (device, stream): a stream's products run in order, so
// the next product's operand copies (the tf32x3 splits, the 16-bit copies of gemm_16bit.cu) never
// overwrite what a running GEMM reads.
#pragma once

#include "gemm/gemm_workspace_layout.hpp"

#include <cuda_runtime.h>

#include <cstddef>

namespace gigacheck::cuda {

// What a scratch holds: one product may use both at once (the 16-bit copies its fused kernel reads,
// and that kernel's partial sums of C), so each has its own memory.
enum class ScratchUse { Operands, SumPartials };

// At least bytes of device memory for work queued on stream (current device). Grown with
// cudaMalloc/cudaFree (both wait for the device, only when a larger product comes); the oldest of
// more than a few scratches is freed. Throws BackendError on CUDA failure.
void* streamScratch(cudaStream_t stream, std::size_t bytes, ScratchUse use = ScratchUse::Operands);

// The caller's region where it holds `bytes` (the blocked family's workspace buffers, charged to its
// memory cap), else the stream's scratch for `use`.
void* scratchIn(DeviceRegion lent, cudaStream_t stream, std::size_t bytes, ScratchUse use);

}  // namespace gigacheck::cuda
