// Host models of a TF32 product for the GPU tests that ask how the device rounded its FP32 inputs
// (tst_cuda_tf32: cuBLAS TF32; tst_cuda_fused_kmajor: the CUTLASS kernel): inputs with low mantissa
// bits set, and the distance of a device product to the exact product of the inputs as a model
// rounds them, in units of FP32 accumulation round-off.
#pragma once

#include "gigacheck/matrix.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

namespace gigacheck::test {

// FP32 values offset + U(0, 1): all of one sign (rounding and truncation then differ by far more
// than on signed data), with low mantissa bits set.
inline HostMatrix offsetUniformMatrix(std::int64_t rows, std::int64_t cols, double offset, std::uint64_t seed)
{
    HostMatrix m(Precision::F32, rows, cols);
    std::mt19937_64 gen(seed);
    std::uniform_real_distribution<double> u01(0.0, 1.0);
    float* x = m.as<float>();
    for (std::int64_t e = 0; e < rows * cols; ++e)
        x[e] = float(offset + u01(gen));
    return m;
}

enum class Data { Uniform, Positive, Wide };

inline const char* nameOf(Data d) { return d == Data::Uniform ? "uniform" : d == Data::Positive ? "positive" : "wide"; }

// FP32 values with low mantissa bits set (not TF32 already): U(-1, 1), U(0, 1), or the engine's
// wide-exponent distribution.
inline HostMatrix unrounded(std::int64_t rows, std::int64_t cols, Data d, std::uint64_t seed)
{
    if (d == Data::Positive)
        return offsetUniformMatrix(rows, cols, 0.0, seed);
    HostMatrix m(Precision::F32, rows, cols);
    fillRandom(m, d == Data::Uniform ? Distribution::Uniform : Distribution::Wide, seed, 0);
    return m;
}

// The column of row i's largest |C_ij|: a fault there (even a bit flip that shrinks the value) is far
// above any threshold, where a small cell's flip may stay within round-off and rightly pass as clean.
inline std::int64_t largestColumnOfRow(const HostMatrix& c, std::int64_t i)
{
    std::int64_t best = 0;
    for (std::int64_t j = 1; j < c.cols(); ++j)
        if (std::fabs(c.at(i, j)) > std::fabs(c.at(i, best)))
            best = j;
    return best;
}

// max over cells of |C - model| / bound: the model is the exact (double) product of the inputs as
// take(float) gives them, bound = 2 u_A n sum_k |a_ik b_kj| (FP32 accumulation, even a truncating
// one). <= 1: C is that model's product up to the accumulation.
template <class Take>
double worstOverBound(const HostMatrix& a, const HostMatrix& b, const HostMatrix& c, Take take)
{
    const std::int64_t m = a.rows(), n = a.cols(), q = b.cols();
    std::vector<double> ta(std::size_t(m * n)), tb(std::size_t(n * q));
    for (std::int64_t e = 0; e < m * n; ++e)
        ta[std::size_t(e)] = double(take(a.as<float>()[e]));
    for (std::int64_t e = 0; e < n * q; ++e)
        tb[std::size_t(e)] = double(take(b.as<float>()[e]));
    double worst = 0;
    std::vector<double> exact(static_cast<std::size_t>(q)), mag(static_cast<std::size_t>(q));
    for (std::int64_t i = 0; i < m; ++i) {
        std::fill(exact.begin(), exact.end(), 0.0);
        std::fill(mag.begin(), mag.end(), 0.0);
        for (std::int64_t k = 0; k < n; ++k) {
            const double x = ta[std::size_t(i * n + k)];
            for (std::int64_t j = 0; j < q; ++j) {
                exact[std::size_t(j)] += x * tb[std::size_t(k * q + j)];
                mag[std::size_t(j)] += std::fabs(x * tb[std::size_t(k * q + j)]);
            }
        }
        for (std::int64_t j = 0; j < q; ++j) {
            const double bound = 2 * std::ldexp(1.0, -24) * double(n) * mag[std::size_t(j)] + 1e-300;
            worst = std::max(worst, std::fabs(c.at(i, j) - exact[std::size_t(j)]) / bound);
        }
    }
    return worst;
}

}  // namespace gigacheck::test
