// Leaf checks (--check-leaves): ABFT on each leaf product of a Strassen run.
// A leaf adds sign * A_j B_k into each of its target C blocks, so for every column c of a target
//   sum_i C_after(i, c) - sum_i C_before(i, c) = sign * sum_k (sum_i A_j(i, k)) B_k(k, c)
// (the column checksum relation of the product alone, whatever the algorithm does around it).
// kLeafSums takes the targets' column sums before the product, kLeafVerify the column sums of A_j
// (the weights), the weighted column sums of B_k and the targets' sums after it, and writes the
// largest |residual| / threshold of the leaf. Everything is summed in double; the threshold is the
// worst-case round-off of the product and of the accumulation into C:
//   (k u + 2 u_in) sum_k |w|_k |B(k, c)| + u (sum_i |C_before(i, c)| + sum_i |C_after(i, c)|)
// times kLeafLambda, with u the unit round-off of the storage type, u_in that of TF32 operands
// (leafOperandRoundoff) or 0, k the inner dimension. A leaf whose result exceeds 1 is reported as caught there,
// and where: the result row's second half holds per leaf the column code of leafColumnCode below,
// from which the run recomputes the columns of C the fault can have reached (run/verify.cpp).
// The aux slot is a matrix of doubles, rows of 2H with H >= the widest target, the deepest
// product and the number of leaves; a row holds sums in [0, H) and absolute sums in [H, 2H):
//   row 0: the target's sums after the product, row 1: the weights (A_j's column sums),
//   row 2: the expected sums (w B_k), row 3: one result per leaf in [0, H) and its column code in
//   [H, 2H), rows 4...: each target's sums
//   before the product (a Winograd leaf at level L has up to 4^L targets).
#pragma once

#include <cmath>
#include <cstdint>

namespace gigacheck::strassen {

inline constexpr double kLeafLambda = 2.0;

// The unit round-off of a leaf's operands as its GEMM takes them: 0 for FP32 / FP64 leaves, 2^-11
// for TF32 leaves, which round their operands to nearest (cuBLAS TF32, the CUTLASS kernel of
// --leaf cutlass as measured on the device, the CPU's emulation).
inline double leafOperandRoundoff(bool tf32)
{
    return tf32 ? std::ldexp(1.0, -11) : 0.0;
}

struct LeafCheckLayout {
    std::int64_t half = 0;  // H: a row is 2H doubles (the slot's leading dimension)
    std::int64_t row(int r) const { return 2 * half * r; }
    std::int64_t after() const { return row(0); }
    std::int64_t weights() const { return row(1); }
    std::int64_t expected() const { return row(2); }
    std::int64_t results() const { return row(3); }
    std::int64_t before(int target) const { return row(4 + target); }
    static constexpr int rows(int maxTargets) { return 4 + maxTargets; }
};

// The ratio |observed - sign * expected| / threshold of one column (see above).
#ifdef __CUDACC__
__host__ __device__
#endif
inline double leafColumnRatio(double before, double beforeAbs, double after, double afterAbs, double expected,
                              double expectedAbs, double sign, double k, double u, double uIn)
{
    const double residual = std::fabs((after - before) - sign * expected);
    const double threshold = kLeafLambda * ((k * u + 2 * uIn) * expectedAbs + u * (beforeAbs + afterAbs));
    // An all-zero column: any residual at all is a fault.
    return threshold > 0 ? residual / threshold : (residual > 0 ? 1e30 : 0.0);
}

// Which column of its targets a leaf found off, as one double that merges across columns and
// targets: 0 none, c + 1 column c (relative to the target block; the same c in several targets
// is one code: a product's error lands at the same place in each), -1 columns at different places.
#ifdef __CUDACC__
__host__ __device__
#endif
inline double mergeLeafColumnCode(double a, double b)
{
    if (a == 0)
        return b;
    if (b == 0)
        return a;
    return a == b ? a : -1.0;
}

}  // namespace gigacheck::strassen
