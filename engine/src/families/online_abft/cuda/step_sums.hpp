// The device side of the checks that read the step-sums kernel's sums of C
// (gemm/cutlass/cutlass_step_sums.hpp; README "C kept across the steps"): C is written once, at
// the end, so a check of step j reads that step's sums, and what a check corrects in C stays in the
// sums of every later step until taken out of them here.
#pragma once

#include "abft/cuda/abft_device.hpp"

#include <cuda_runtime.h>

namespace gigacheck::online_abft::cuda {

// After step j's checksum passes (which accumulate into C's checksum row and column and aux's
// bounds): those values into the step's slot (stepChecksumsWidth doubles, inputs.hpp), so that the
// passes of every step can run before the checks, beside the kernel, and each check still sees its
// own step's. c: C_f (FP32, ldc), rows x cols its main part.
void saveChecksums(const float* c, gigacheck::cuda::Index ldc, gigacheck::cuda::Index rows,
                   gigacheck::cuda::Index cols, gigacheck::cuda::AuxView aux, double* saved, cudaStream_t s);

// Before step j's check: the step's saved checksums back into C_f and aux, and the step's sums (rows +
// cols doubles: C's row sums, then its column sums) into the scratch rows where verify
// (VerifyCall::sumsFromProduct) reads a product's sums of C, with the entries after them zeroed as
// zeroProductSums leaves them.
void loadStep(const double* step, const double* saved, float* c, gigacheck::cuda::Index ldc,
              gigacheck::cuda::Index rows, gigacheck::cuda::Index cols, gigacheck::cuda::AuxView aux, cudaStream_t s);

// Takes the cells of C a check corrected (out: its pinned VerifyOut, read once the check has run
// on s) out of the sums of the `later` steps that follow it (each rows + cols doubles, contiguous).
void carryCorrections(const gigacheck::cuda::VerifyOut* out, double* later, int laterSteps,
                      gigacheck::cuda::Index rows, gigacheck::cuda::Index cols, cudaStream_t s);

}  // namespace gigacheck::online_abft::cuda
