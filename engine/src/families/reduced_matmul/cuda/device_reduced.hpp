// The GPU reduced matmuls in plain C++ (no CUDA types), so that run/ and bench/ compile with or
// without CUDA (nocuda/ stands in). Kernels: cuda/kernels.cu; timing: cuda/device_reduced.cu.
#pragma once

#include "gigacheck/reduced_matmul.hpp"

#include <string>

namespace gigacheck::reduced_matmul::device {

bool available(std::string* why);

struct Timing {
    std::string deviceName;
    double kernelMs = 0;   // median over reps (reduce-blas: both reductions and the GEMM)
    double libraryMs = 0;  // cuBLAS GEMM alone on the reduced shape, median
    double h2dMs = 0, d2hMs = 0;
};

// c (n/2 x n/2) from host a, b (n x n) with variant on CUDA device `device` (-1: the first);
// elements are float (F32) or double (F64). Throws BackendError on a CUDA failure.
Timing run(Variant variant, Precision p, const void* a, const void* b, void* c, std::int64_t n, int reps, int device);

}  // namespace gigacheck::reduced_matmul::device
