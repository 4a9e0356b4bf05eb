// What the GPU test of checksumBTransposed (tests/gpu/tst_cuda_b_transposed.cpp) runs on the device,
// in plain C++ (no CUDA types): B's checksum column, row norms and B^T from one read of B.
#pragma once

#include "gigacheck/matrix.hpp"

#include <cstdint>
#include <vector>

namespace gigacheck::cuda {

// The device's multiprocessors (the band checksumBTransposed picks depends on them).
int multiprocessorsOfDevice();

struct BTransposedRun {
    int band = 0;                       // checksumBTransposedBand: 64 / 32 the float4 kernel, 0 the scalar one
    std::vector<float> bt;              // cols x depth, row-major (B^T as the kernel wrote it)
    std::vector<float> checksum, norm;  // per row of B: columns cols and cols + 1 after the call
    bool bUnchanged = false;            // B's main part byte-equal after the call
};

// checksumBTransposed of the FP32 host matrix b (depth x cols) laid out with leading dimension ldb
// (>= cols + 2) on the device, B^T with leading dimension ldbt (>= depth).
BTransposedRun checksumBTransposedOnDevice(const HostMatrix& b, std::int64_t ldb, std::int64_t ldbt);

}  // namespace gigacheck::cuda
