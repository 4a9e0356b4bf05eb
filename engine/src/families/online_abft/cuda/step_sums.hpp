// The device side of the checks that read the step-sums kernel's sums of C
// (gemm/cutlass/cutlass_step_sums.hpp; README "C kept across the steps"): C is written once, at
// the end, so a check of step j reads that step's sums, and what a check corrects in C stays in the
// sums of every later step until taken out of them here.
#pragma once

#include "abft/cuda/abft_device.hpp"

#include <cuda_runtime.h>

namespace gigacheck::online_abft::cuda {

// The steps' shares of C's checksum lines and bounds (gigacheck::cuda::panelChecksumIncrements: step
// p's at lines + p ldLines, bounds + p ldBounds) summed up in place, so that step p's slots hold the
// checksums after it as a product per step would have accumulated them (in double, the lines then
// rounded to FP32 once). The first of the `steps` slots is only read: the first step, or the last
// one summed up before (a group of steps at a time).
void sumSteps(float* lines, gigacheck::cuda::Index ldLines, double* bounds, gigacheck::cuda::Index ldBounds,
              gigacheck::cuda::Index rows, gigacheck::cuda::Index cols, int steps, cudaStream_t s);

// Before step p's check: its checksum lines and bounds (as sumSteps left them) into C_f's checksum
// column, row and corner and aux's scales, and its sums of C (rows + cols doubles: row sums, then
// column sums) into the scratch rows where verify (VerifyCall::sumsFromProduct) reads a product's
// sums, with the entries after them zeroed as zeroProductSums leaves them.
void loadStep(const double* sums, const float* lines, const double* bounds, float* c, gigacheck::cuda::Index ldc,
              gigacheck::cuda::Index rows, gigacheck::cuda::Index cols, gigacheck::cuda::AuxView aux, cudaStream_t s);

}  // namespace gigacheck::online_abft::cuda
