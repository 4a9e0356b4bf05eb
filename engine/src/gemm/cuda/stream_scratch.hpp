// Scratch memory of the GEMM layer, one per (device, stream): a stream's products run in order, so
// the next product's operand copies (the tf32x3 splits) never overwrite what a running GEMM reads.
// The same design as gemm_16bit.cu's scratch of 16-bit copies, which keeps its own.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

namespace gigacheck::cuda {

// At least bytes of device memory for work queued on stream (current device). Grown with
// cudaMalloc/cudaFree (both wait for the device, only when a larger product comes); the oldest of
// more than a few scratches is freed. Throws BackendError on CUDA failure.
void* streamScratch(cudaStream_t stream, std::size_t bytes);

}  // namespace gigacheck::cuda
