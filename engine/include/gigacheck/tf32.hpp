// FP32 -> TF32 (10 explicit mantissa bits), one definition for the host (CPU emulation, repair
// pass, reference tests) and the CUDA kernels (abft/cuda/abft_kernels.cu).
//
// Why the engine rounds the operands itself (abft README "TF32"): a TF32 GEMM multiplies its
// inputs rounded to TF32, and the ABFT checksums must be taken over the same values, or the
// checksum relation carries the whole input rounding (threshold ~0.8 at 256^3, where a flipped
// mantissa bit of a cell is ~0.03: undetected). Whether cuBLAS / the tensor cores round to nearest
// or truncate the 13 low bits, and whether cuBLAS picks a tensor-core kernel at all for a given
// shape (it may not for skinny ones), is not ours to know. So under `--gemm cublas-tf32` the
// operand blocks are rounded to nearest **in place** before the product (fused into the passes
// that read them for the checksums): values already in TF32 are left unchanged by either
// hardware rounding, and by an FP32 kernel, so every kernel then multiplies exactly these values.
#pragma once

#include <cstdint>
#include <cstring>

#ifdef __CUDACC__
#define GIGACHECK_TF32_HD __host__ __device__
#else
#define GIGACHECK_TF32_HD
#endif

namespace gigacheck {

// The 13 mantissa bits TF32 drops.
constexpr std::uint32_t kTf32DroppedBits = 0x1fffu;

GIGACHECK_TF32_HD inline std::uint32_t tf32Bits(float x)
{
    std::uint32_t bits = 0;
    std::memcpy(&bits, &x, sizeof bits);
    return bits;
}

GIGACHECK_TF32_HD inline float tf32FromBits(std::uint32_t bits)
{
    float x = 0;
    std::memcpy(&x, &bits, sizeof x);
    return x;
}

// Round to nearest, ties away from zero (PTX cvt.rna.tf32.f32, the rounding CUTLASS uses for
// tfloat32_t). A carry may round up into the exponent (to infinity past TF32's largest value, as
// the hardware does); infinities and NaNs are returned unchanged (masking a NaN's payload could
// turn it into an infinity).
GIGACHECK_TF32_HD inline float roundToTf32(float x)
{
    const std::uint32_t bits = tf32Bits(x);
    if ((bits & 0x7f800000u) == 0x7f800000u)
        return x;
    return tf32FromBits((bits + 0x1000u) & ~kTf32DroppedBits);
}

// Truncation of the 13 low mantissa bits (a kernel that used only a register's upper 19 bits would
// multiply this); for the GPU tests that tell which rounding a kernel applies to unrounded inputs.
GIGACHECK_TF32_HD inline float truncateToTf32(float x)
{
    const std::uint32_t bits = tf32Bits(x);
    if ((bits & 0x7f800000u) == 0x7f800000u)
        return x;
    return tf32FromBits(bits & ~kTf32DroppedBits);
}

// Rounds rows x cols floats of a row-major block with leading dimension ld in place.
inline void roundBlockToTf32(float* data, std::int64_t rows, std::int64_t cols, std::int64_t ld)
{
    for (std::int64_t r = 0; r < rows; ++r)
        for (std::int64_t c = 0; c < cols; ++c)
            data[r * ld + c] = roundToTf32(data[r * ld + c]);
}

}  // namespace gigacheck
