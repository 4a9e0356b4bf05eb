// The checksums of a prepared 16-bit product (BF16 or FP16) as two small products on the tensor
// cores, run on the SMs the CUTLASS kernel leaves idle, during the kernel.
//
// At 4096 the kernel's 512 tiles take 4 rounds on 128 of an H100's 132 SMs as on all 132, so 4 SMs
// are free for its ~180 us. The double-precision passes cannot use them (about 9 elements an SM and
// clock: 230-260 us for each operand on 4 SMs), but with c_A and r_B in four 16-bit parts each
// (prepare16BitChecksumParts; FP16's scaled by powers of two), C's checksum row c_A B and column A r_B
// are two cuBLASLt products, P B (8 x n x q) and A R (m x n x 8), that read each operand once at
// 130-155 GB/s an SM: 123 us for both on 4 free SMs, when cuBLASLt's kernels run without a cluster
// (with one they waited for the held SMs). resources/results/probes/idle_sm_pass_probe.cu,
// side_products_probe.cu. Their FP32 accumulation is the kernel's own; the parts' sums matched a
// double reference to 2.5e-8 of the terms' magnitude there, far inside the checks' thresholds.
#pragma once

#include "gigacheck/types.hpp"

#include <cuda_runtime.h>

#include <cstdint>
#include <memory>

namespace gigacheck::cuda {

struct SideChecksumProducts16 {
    InputFormat format = InputFormat::Bf16;  // BF16 or FP16
    const void* a16 = nullptr;  // m x n in `format`, row-major, leading dimension lda
    std::int64_t lda = 0;
    const void* b16 = nullptr;  // n x q in `format`, row-major, leading dimension ldb
    std::int64_t ldb = 0;
    const void* checksumParts = nullptr;  // prepare16BitChecksumParts: c_A's parts, r_B's, their scales
    float* parts = nullptr;               // sideProductPartsFloats(m, q) floats, written per product
    float* c = nullptr;                   // C's checksum row (row m) and column (column q) written
    std::int64_t ldc = 0;
    std::int64_t m = 0, n = 0, q = 0;
};

// How the products run for one shape and set of buffers on the current device: cuBLASLt's algorithms
// (looked up once per device, shape and freeSms), and after the first launch a CUDA graph of them.
struct SideChecksumProducts16Launch;

// Null where the products cannot run beside the kernel: freeSms is 0, an operand is not 256-byte
// aligned, or cuBLASLt offers no algorithm without a cluster and without workspace. Kept for the
// process (a few dozen sets of buffers at most; then forgotten and made again).
std::shared_ptr<SideChecksumProducts16Launch> sideChecksumProducts16For(const SideChecksumProducts16& x, int freeSms);

// The products and the checksum cells from their parts, on s (the caller's low-priority side stream,
// launched right after the kernel so that its CTAs hold their SMs first). The first launch calls
// cuBLASLt; later ones launch its graph: the host's two cuBLASLt calls take 10-28 us, by which time
// the kernel they should run beside has been running for ~30 us (a kernel trace at 4096 on an H100).
// Throws BackendError on a cuBLASLt or CUDA error.
void launchSideChecksumProducts16(SideChecksumProducts16Launch& products, cudaStream_t s);

}  // namespace gigacheck::cuda
