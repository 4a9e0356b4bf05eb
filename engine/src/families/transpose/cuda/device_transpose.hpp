// The GPU transposes in plain C++ (no CUDA types), so that run/ and bench/ compile with or without
// CUDA (nocuda/ stands in). Kernels: cuda/kernels.cu; timing and copies: cuda/device_transpose.cu.
#pragma once

#include "gigacheck/transpose.hpp"

#include <string>

namespace gigacheck::transpose::device {

// False with *why set when no CUDA device can be used (or the build has no CUDA).
bool available(std::string* why);

struct Timing {
    std::string deviceName;
    double kernelMs = 0;  // median over reps
    double h2dMs = 0, d2hMs = 0;
    double copyGbps = 0;  // cudaMemcpy device-to-device of the matrix's bytes, read + written
    double peakGbps = 0;  // 2 x memory clock x bus width (the datasheet peak)
};

// Transposes the m x n host matrix (elementBytes(type) each) with variant on CUDA device
// `device` (-1: the first): copy in, one warm-up and reps timed runs, copy out. On return
// `host` holds the n x m transpose. Throws BackendError on a CUDA failure.
Timing run(Variant variant, ElementType type, void* host, std::int64_t m, std::int64_t n, int reps, int device);

// A device-to-device copy of `bytes`, GB/s of bytes read + written (median of reps), on the
// current device; the bench's 100 % line.
double deviceCopyGbps(std::size_t bytes, int reps);

}  // namespace gigacheck::transpose::device
