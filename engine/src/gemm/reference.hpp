// The independent reference check of a run's result (OpenBLAS, never blocked, never injected).
#pragma once

#include "gigacheck/matrix.hpp"
#include "gigacheck/reference_check.hpp"
#include "gigacheck/types.hpp"

namespace gigacheck {

// Tolerance of element (i, j), documented in README "Reference check":
//   tol_ij = 2 * lambda * u * (n + max(m, q) + 2) * max(sqrt(R_i), sqrt(K_j))
//   R_i = sum_k a_ik^2 * |B_k,:|^2,  K_j = sum_k |A_:,k|^2 * b_kj^2
// These are the detection threshold's scales (abft.hpp) over the whole problem, which bound the
// blocked ones: a cell corrected from a checksum is only as accurate as that checksum, so the
// reference accepts what the ABFT guarantees. The factor 2 covers the reference's own round-off.
// Full: the whole product; Sample: 64 rows spread evenly over C (first and last included).
// input (FP32 under --gemm cublas-tf32 / cublas-bf16 / cublas-f16): the result is the product of
// the inputs rounded to TF32 / BF16 / FP16 (gigacheck/input_rounding.hpp), which the FP32 reference
// does not round; each product a_ik b_kj then moves by at most 2 u_I |a_ik b_kj| (u_I = 2^-11 for
// TF32 and FP16, 2^-8 for BF16; zero-mean for round to nearest), so
//   tol_ij += 2 * lambda * 2 u_I * sqrt(S_ij) + 4 u_I |ref_ij|,   S_ij = sum_k a_ik^2 b_kj^2;
// the last term is the mean a library that truncates unrounded inputs (--no-abft on CUDA) adds.
// The runs pass kReferenceLambda, never their configuration's lambda: a record whose lambda was
// edited (gigacheck rerun) widens its checks' thresholds at most (record validators bound it), not
// the judge of every cell.
inline constexpr double kReferenceLambda = 4.0;
ReferenceCheck checkAgainstReference(const HostMatrix& a, const HostMatrix& b, const HostMatrix& c,
                                     ReferenceMode mode, double lambda, InputFormat input = InputFormat::F32);
inline ReferenceCheck checkAgainstReference(const HostMatrix& a, const HostMatrix& b, const HostMatrix& c,
                                            ReferenceMode mode, double lambda, bool tf32)
{
    return checkAgainstReference(a, b, c, mode, lambda, tf32 ? InputFormat::Tf32 : InputFormat::F32);
}

// Auto resolves to Full when m * n * q <= 2^34, else Sample.
ReferenceMode resolveReferenceMode(ReferenceMode mode, const Shape& s);

}  // namespace gigacheck
