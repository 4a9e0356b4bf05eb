// tf32x3 (`--gemm tf32x3`): FP32-accurate products from three TF32 tensor-core products. One
// definition of the split for the host (CPU emulation, tests) and the CUDA kernel
// (gemm/cuda/gemm_tf32x3.cu), and the round-off model ABFT checks such a product with.
//
// Each FP32 operand x is split into big = TF32(x) and small = TF32(x - big) (round to nearest,
// gigacheck/tf32.hpp); x - big is exact in FP32 (same binade, below half a TF32 ulp), and both
// parts are TF32 values, so any TF32 rounding of cuBLAS leaves them unchanged. Then
//   C = A_big B_small + A_small B_big + A_big B_big     (small terms first, as one product of
//                                                      depth 2n; FP32 accumulation; the big
//                                                      product in depth chunks)
// and A_small B_small (below 2^-22 |a b|) is dropped.
//
// The split is exact (big + small == x) when x - big has at most TF32's 11 significant bits; it
// can have 12 (two 11-bit parts and a sign hold 23 of FP32's 24 bits), and then small is rounded:
// |x - big - small| <= ulp_FP32(x) <= 2^-23 |x|.
#pragma once

#include "gigacheck/abft.hpp"
#include "gigacheck/tf32.hpp"
#include "gigacheck/types.hpp"


namespace gigacheck {

// The tensor cores add a TF32 product's terms in their own accumulator, which is coarser than an
// FP32 add (its error grows with the depth: over a whole depth of 16384, tf32x3's error was 8.5x
// SGEMM's on the H200). The big x big product -- the only one whose accumulation error matters,
// the small terms being 2^-11 of it -- therefore runs in depth chunks of this many, each chunk added
// to C by an FP32 add (cuBLAS's epilogue, beta = 1). Chosen from the measured error against the
// depth of the chunks (resources/results/README.md, "tf32x3 in depth chunks").
// Depths below twice that stay whole: at depth 777 two chunks (512 + 265) measured a larger error
// (2.9x SGEMM's) than the whole depth (1.9x), while 2048 in four chunks went from 1.4x to 0.9x, and
// 1024 (the online family's default panel) in two halved the online run's error (2.6-3.4x the FP32
// online run's max error at b = 1024, 1.5-1.6x with chunks of 512).
constexpr std::int64_t kTf32x3ChunkDepth = 512;

// The length of the big product's depth chunks for a product of depth n: n itself below twice
// kTf32x3ChunkDepth, else the depth cut into equal chunks of at most kTf32x3ChunkDepth (a multiple of 8).
inline std::int64_t tf32x3ChunkOf(std::int64_t n)
{
    if (n < 2 * kTf32x3ChunkDepth)
        return n > 0 ? n : 1;
    const std::int64_t chunks = (n + kTf32x3ChunkDepth - 1) / kTf32x3ChunkDepth;
    return ((n + chunks - 1) / chunks + 7) / 8 * 8;
}

struct Tf32Split {
    float big = 0, small = 0;
};

// Infinities and NaNs (and a finite x whose TF32 rounding overflows) keep small = 0.
GIGACHECK_TF32_HD inline Tf32Split splitTf32(float x)
{
    const float big = roundToTf32(x);
    if ((tf32Bits(big) & 0x7f800000u) == 0x7f800000u)
        return {big, 0.0f};
    return {big, roundToTf32(x - big)};
}

// The round-off model of a tf32x3 product (FP32 data): that of an FP32 product of the original
// operands (uA = 2^-24, uI = 0) plus the tensor cores' truncating accumulation (tf32Operands:
// sumFactor = 2 uA depth, as for cublas-tf32); nothing is rounded before the checksums (operands F32).
//
// Why uI = 0 is safe: per term, a b - (a_b b_s + a_s b_b + a_b b_b) = a_s b_s + the two split
// residuals, at most (2^-22 + 2^-23 + 2^-23) |a b| = 8 uA |a b|. Over the cols + 1 cells of a row
// check (the checksum column included) the sum of |a_ik b_kj| is at most sqrt(depth (cols + 1))
// sqrt(rowScale) <= (depth + cols + 1) / 2 sqrt(rowScale) (Cauchy-Schwarz, then AM-GM), so even with
// every term at its bound and of one sign this adds at most 4 uA (depth + cols + 1) sqrt(rowScale):
// 1 / lambda of the FP32 threshold lambda uA (depth + cols + 2) sqrt(rowScale) (a quarter at the
// default lambda = 4; columns alike). The residuals are zero-mean, so in practice the part grows
// like sqrt(depth), far below that bound. uI > 0 would also make the checksum passes accumulate
// the checksum scales, which an FP32 product does not need.
inline RoundoffModel tf32x3RoundoffModel()
{
    RoundoffModel m = roundoffModel(Precision::F32, InputFormat::F32);
    m.tf32Operands = true;
    return m;
}

// The round-off model of a product of variant v on data of precision p (tf32x3 on FP64 data runs
// FP64 cuBLAS / OpenBLAS).
inline RoundoffModel roundoffModelOf(Precision p, GemmVariant v)
{
    if (v == GemmVariant::Tf32x3 && p == Precision::F32)
        return tf32x3RoundoffModel();
    return roundoffModel(p, p == Precision::F32 ? inputFormatOf(v) : InputFormat::F32);
}

}  // namespace gigacheck
