// FP32 -> the format the tensor cores read (TF32, BF16, FP16), kept in FP32 storage: one definition
// for the host (CPU emulation, repair pass, references, tests) and the CUDA kernels. The rounded
// values are exactly representable in the 16-bit formats, so converting them to __nv_bfloat16 /
// __half for cuBLAS is exact and the checksums taken over them see what the GEMM multiplies
// (the reasoning of gigacheck/tf32.hpp, generalised).
#pragma once

#include "gigacheck/tf32.hpp"
#include "gigacheck/types.hpp"

#include <cmath>
#include <cstdint>

namespace gigacheck {

// FP16's largest finite value; an FP32 operand beyond it has no FP16 value (the run refuses it).
constexpr float kF16Max = 65504.0f;

// Round to nearest even, keeping BF16's 7 explicit mantissa bits (the 16 low bits cleared). A carry
// may round up into the exponent (to infinity past BF16's largest value); infinities and NaNs are
// returned unchanged. The same as __float2bfloat16_rn and a C++ __bf16 conversion.
GIGACHECK_TF32_HD inline float roundToBf16(float x)
{
    const std::uint32_t bits = tf32Bits(x);
    if ((bits & 0x7f800000u) == 0x7f800000u)
        return x;
    return tf32FromBits((bits + 0x7fffu + ((bits >> 16) & 1u)) & 0xffff0000u);
}

// Round to nearest even in FP16: 10 explicit mantissa bits, normal down to 2^-14, subnormal steps of
// 2^-24 below it; past 65504 (from 65520 on) infinity, as __float2half_rn and a _Float16 conversion.
GIGACHECK_TF32_HD inline float roundToF16(float x)
{
    const std::uint32_t bits = tf32Bits(x);
    if ((bits & 0x7f800000u) == 0x7f800000u)
        return x;
    if ((bits & 0x7fffffffu) < 0x38800000u)  // |x| < 2^-14: a multiple of 2^-24 (the scalings are exact)
        return rintf(x * 16777216.0f) * (1.0f / 16777216.0f);
    const float r = tf32FromBits((bits + 0xfffu + ((bits >> 13) & 1u)) & ~kTf32DroppedBits);
    return (tf32Bits(r) & 0x7fffffffu) > 0x477fe000u ? (x < 0 ? -INFINITY : INFINITY) : r;  // 0x477fe000 = 65504
}

GIGACHECK_TF32_HD inline float roundToInput(float x, InputFormat f)
{
    switch (f) {
    case InputFormat::Tf32: return roundToTf32(x);
    case InputFormat::Bf16: return roundToBf16(x);
    case InputFormat::F16: return roundToF16(x);
    case InputFormat::F32: break;
    }
    return x;
}

// Rounds rows x cols floats of a row-major block with leading dimension ld in place.
inline void roundBlockToInput(float* data, std::int64_t rows, std::int64_t cols, std::int64_t ld, InputFormat f)
{
    if (f == InputFormat::F32)
        return;
    for (std::int64_t r = 0; r < rows; ++r)
        for (std::int64_t c = 0; c < cols; ++c)
            data[r * ld + c] = roundToInput(data[r * ld + c], f);
}

// Unit round-off of the input format: 2^-24 (FP32), 2^-11 (TF32 and FP16: 10 explicit mantissa
// bits), 2^-8 (BF16: 7). What an operand rounding the checksums do not see costs (RoundoffModel::uInput).
inline double inputUnitRoundoff(InputFormat f)
{
    switch (f) {
    case InputFormat::Tf32:
    case InputFormat::F16: return std::ldexp(1.0, -11);
    case InputFormat::Bf16: return std::ldexp(1.0, -8);
    case InputFormat::F32: break;
    }
    return std::ldexp(1.0, -24);
}

}  // namespace gigacheck
