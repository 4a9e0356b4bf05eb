// The checksums of a prepared BF16 product as two small products on the tensor cores, run on the
// SMs the CUTLASS kernel leaves idle, during the kernel.
//
// At 4096 the kernel's 512 tiles take 4 rounds on 128 of an H100's 132 SMs as on all 132, so 4 SMs
// are free for its ~180 us. The double-precision passes cannot use them (about 9 elements an SM and
// clock: 230-260 us for each operand on 4 SMs), but with c_A and r_B in four BF16 parts each (as B's
// checksum columns carry r_B into the kernel), C's checksum row c_A B and column A r_B are two cuBLASLt
// BF16 products, P B (8 x n x q) and A R (m x n x 8), that read each operand once at 130-155 GB/s an
// SM: 123 us for both on 4 free SMs, when cuBLASLt's kernels run without a cluster (with one they
// waited for the held SMs). resources/results/probes/idle_sm_pass_probe.cu, side_products_probe.cu.
// Their FP32 accumulation is the kernel's own; the parts' sums matched a double reference to
// 2.5e-8 of the terms' magnitude there, far inside the checks' thresholds.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

namespace gigacheck::cuda {

struct SideChecksumProducts16 {
    const void* a16 = nullptr;  // m x n BF16, row-major, leading dimension lda
    std::int64_t lda = 0;
    const void* b16 = nullptr;  // n x q BF16, row-major, leading dimension ldb
    std::int64_t ldb = 0;
    const void* checksumParts = nullptr;  // prepare16BitChecksumParts: c_A's parts, then r_B's (BF16)
    float* parts = nullptr;               // sideProductPartsFloats(m, q) floats, written per product
    float* c = nullptr;                   // C's checksum row (row m) and column (column q) written
    std::int64_t ldc = 0;
    std::int64_t m = 0, n = 0, q = 0;
};

// Whether both products can run beside the kernel on the current device for this shape: cuBLASLt
// offers each an algorithm that runs without a cluster and without workspace (looked up once per
// device, shape and freeSms, and kept for the process). False where freeSms is 0 or an operand is
// not 256-byte aligned.
bool sideChecksumProductsRun(const SideChecksumProducts16& x, int freeSms);

// The products and the checksum cells from their parts, on s (the caller's low-priority side
// stream, launched after the kernel so that its CTAs hold their SMs first). Throws BackendError on a
// cuBLASLt or CUDA error, or where sideChecksumProductsRun is false.
void sideChecksumProducts16(const SideChecksumProducts16& x, int freeSms, cudaStream_t s);

}  // namespace gigacheck::cuda
