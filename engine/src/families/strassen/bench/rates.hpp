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

}  // namespace gigacheck::strassen
