// One-off device warm-up before the first timed run of a process.
//
// With lazy module loading (the CUDA default) the first launch of each kernel, the first cuBLAS
// GEMM per math mode and the first pinned copies pay loading and library setup inside whatever
// runs first: on an H200 the first product span of a GUI session took ~60 ms instead of ~3 ms.
// warmUpDevice runs every kernel family of the backend once on a tiny block, untimed, so that
// the first run is timed like every later one.
#pragma once

namespace gigacheck::cuda {

// Idempotent per process and device; cheap after the first call. Throws BackendError.
void warmUpDevice(int device);
// After cudaDeviceReset the modules are gone: the next run warms up again.
void forgetWarmUp();

}  // namespace gigacheck::cuda
