// What the GPU tests of the step-sums kernel (tests/gpu/tst_cuda_step_sums.cpp) and `bench online`
// run on the device, in plain C++: the kernel of gemm/cutlass/cutlass_step_sums.hpp on host
// matrices, and its time against cuBLAS TF32 on the same operands.
#pragma once

#include "gigacheck/matrix.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace gigacheck::cuda {

struct StepSumsFault {
    int step = 0;
    std::int64_t row = 0, col = 0;  // a cell of C
    int bit = -1;                   // >= 0: this bit flipped, else delta added
    double delta = 0;
};

struct StepSumsRun {
    std::string error;           // why the kernel did not run (then nothing else is set)
    HostMatrix c;                // m x q
    std::vector<double> sums;    // per step: C's m row sums, then its q column sums
    std::vector<double> values;  // per fault: before, after
};
// C = A B (FP32 host matrices, n a multiple of 4) by the step-sums kernel with steps of `panel`.
StepSumsRun stepSumsOnDevice(const HostMatrix& a, const HostMatrix& b, std::int64_t panel,
                             const std::vector<StepSumsFault>& faults = {});

// The kernel against cuBLAS TF32 on one n x n x n product of random operands (B^T laid out before
// either runs): medians over `reps` CUDA-event timings, and the largest |C_kernel - C_cublas| over
// the largest |C_cublas|.
struct StepSumsTiming {
    std::string error;
    double kernelMs = 0, cublasMs = 0, relDifference = 0;
};
// swizzle, raster: CutlassStepSumsCall's.
StepSumsTiming timeStepSums(std::int64_t n, std::int64_t panel, int reps, int swizzle = 1, int raster = 0);

}  // namespace gigacheck::cuda
