// The rates the strassen bench compares against and models with, measured in the same process:
// cuBLAS GEMM time for a shape (the reference of every speedup and the leaf rate of the model) and
// the device's copy bandwidth (the additions of the model). CUDA builds: cuda/rates.cu; without
// CUDA: nocuda/rates.cpp throws BackendError.
#pragma once

#include "gigacheck/types.hpp"

namespace gigacheck::strassen {

// Median seconds of cuBLAS C = A*B (row-major m x n times n x q), default cuBLAS settings (its own
// workspace), TF32 tensor-core math when tf32. Allocates and frees A, B, C on the current device.
double cublasGemmSeconds(const Shape& shape, Precision precision, bool tf32, int device, int repetitions);
// Device-to-device copy bandwidth in GB/s (read + write counted), from a 1 GiB copy.
double deviceCopyGBs(int device);
// Bandwidth of a copy from one GPU's memory to another's, in GB/s of bytes moved (one direction),
// cudaMemcpyPeerAsync of 512 MiB with peer access enabled where the hardware allows (over NVLink
// or PCIe; staged through the host by the driver where there is no peer access). from == to: a
// device-to-device copy on that GPU (two logical devices of one GPU exchange blocks that way).
double peerCopyGBs(int from, int to);

}  // namespace gigacheck::strassen
