// What the GPU tests run on the device beyond the backend, in plain C++ (no CUDA types): one GEMM
// variant on host matrices, and one protected product as the backend runs it.
#pragma once

#include "gigacheck/abft.hpp"
#include "gigacheck/matrix.hpp"

#include <cstdint>
#include <string>

namespace gigacheck::cuda {

// Runs one GEMM variant on host matrices (copies in and out), for the kernel tests.
void gemmOnDevice(GemmVariant v, int tile, int optimizedBk, const HostMatrix& a, const HostMatrix& b, HostMatrix& c);

// C (+)= A B in FP32 with the cuBLASLt configuration tuneGemm finds fastest for the shape (kept
// even where cuBLAS's own pick is faster: gemm_tuning.hpp), C copied in and out. Returns the kept
// configuration's name ("cuBLAS's pick" when cuBLASLt accepted none) and how many were timed.
// throughShorterDepth: the tuner's length limit set to half of cuBLAS's pick time for the shape, so
// that the product borrows the configuration kept at a shorter depth (gemm_tuning.cpp).
std::string tunedGemmOnDevice(const HostMatrix& a, const HostMatrix& b, HostMatrix& c, bool accumulate,
                              int* configurations, bool throughShorterDepth = false);

// One ABFT-protected in-core product on host matrices, as the backend runs it (operand
// checksums, GEMM with the checksum products beside it, optional fault, verification), with the
// given round-off model; for the threshold tests. Nothing is copied back but the verdict.
struct ProtectedProduct {
    std::string verdict;  // clean | corrected | uncorrectable
    int corrections = 0;
    double before = 0, after = 0;  // of the first correction
    std::int64_t row = -1, col = -1;  // the first corrected cell
    double maxCleanResidualRatio = 0, minThreshold = 0, maxThreshold = 0;
};
struct DeviceFault {
    std::int64_t row = -1, col = -1;  // none when row < 0
    double delta = 0;
};
// besideGemm: verify with the sums kernel of a check that runs beside another stream's GEMM
// (abft_device.hpp VerifyCall::besideGemm), for the test that both sums kernels decide alike.
ProtectedProduct protectedProductOnDevice(GemmVariant v, const HostMatrix& a, const HostMatrix& b,
                                          const RoundoffModel& model, const DeviceFault& fault = {},
                                          bool besideGemm = false);

}  // namespace gigacheck::cuda
