#include "gemm/reference.hpp"

#include "gigacheck/abft.hpp"
#include "gigacheck/input_rounding.hpp"

#include <cblas.h>

#include <algorithm>
#include <cmath>

namespace gigacheck {

namespace {

void gemm(const float* a, const float* b, float* c, std::int64_t m, std::int64_t n, std::int64_t q)
{
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, int(m), int(q), int(n), 1.0f, a, int(n), b, int(q),
                0.0f, c, int(q));
}
void gemm(const double* a, const double* b, double* c, std::int64_t m, std::int64_t n, std::int64_t q)
{
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, int(m), int(q), int(n), 1.0, a, int(n), b, int(q),
                0.0, c, int(q));
}
// Row i of A times B: y = B^T a_i.
void rowTimes(const float* ai, const float* b, float* y, std::int64_t n, std::int64_t q)
{
    cblas_sgemv(CblasRowMajor, CblasTrans, int(n), int(q), 1.0f, b, int(q), ai, 1, 0.0f, y, 1);
}
void rowTimes(const double* ai, const double* b, double* y, std::int64_t n, std::int64_t q)
{
    cblas_dgemv(CblasRowMajor, CblasTrans, int(n), int(q), 1.0, b, int(q), ai, 1, 0.0, y, 1);
}

// Element-wise squares of a matrix (the TF32 tolerance's per-cell scale, as a product).
template <class T> std::vector<T> squares(const T* x, std::size_t count)
{
    std::vector<T> out(count);
    for (std::size_t e = 0; e < count; ++e)
        out[e] = x[e] * x[e];
    return out;
}

template <class T>
ReferenceCheck check(const HostMatrix& a, const HostMatrix& b, const HostMatrix& c, ReferenceMode mode,
                     double lambda, InputFormat input)
{
    const bool tf32 = input != InputFormat::F32;  // any rounded input format (TF32, BF16, FP16)
    const double uIn = inputUnitRoundoff(input);
    const std::int64_t m = a.rows(), n = a.cols(), q = b.cols();
    const T* A = a.as<T>();
    const T* B = b.as<T>();
    const T* C = c.as<T>();

    std::vector<std::int64_t> rows;
    if (mode == ReferenceMode::Full) {
        for (std::int64_t i = 0; i < m; ++i)
            rows.push_back(i);
    } else {
        const std::int64_t count = std::min<std::int64_t>(64, m);
        for (std::int64_t s = 0; s < count; ++s)
            rows.push_back(count == 1 ? 0 : s * (m - 1) / (count - 1));
    }

    // Squared norms of B's rows and A's columns, for R_i and K_j.
    std::vector<double> bRow2(std::size_t(n), 0.0), aCol2(std::size_t(n), 0.0);
    for (std::int64_t k = 0; k < n; ++k)
        for (std::int64_t j = 0; j < q; ++j)
            bRow2[std::size_t(k)] += double(B[k * q + j]) * double(B[k * q + j]);
    for (std::int64_t i = 0; i < m; ++i)
        for (std::int64_t k = 0; k < n; ++k)
            aCol2[std::size_t(k)] += double(A[i * n + k]) * double(A[i * n + k]);
    std::vector<double> colScale(std::size_t(q), 0.0);
    for (std::int64_t k = 0; k < n; ++k)
        for (std::int64_t j = 0; j < q; ++j)
            colScale[std::size_t(j)] += aCol2[std::size_t(k)] * double(B[k * q + j]) * double(B[k * q + j]);

    std::vector<T> ref;
    if (mode == ReferenceMode::Full) {
        ref.resize(std::size_t(m * q));
        gemm(A, B, ref.data(), m, n, q);
    } else {
        ref.resize(std::size_t(q));
    }

    // TF32: S_ij = sum_k a_ik^2 b_kj^2 = (A o A)(B o B), per row as the reference rows are made.
    std::vector<T> a2, b2, s2;
    if (tf32) {
        a2 = squares(A, std::size_t(m * n));
        b2 = squares(B, std::size_t(n * q));
        s2.resize(mode == ReferenceMode::Full ? std::size_t(m * q) : std::size_t(q));
        if (mode == ReferenceMode::Full)
            gemm(a2.data(), b2.data(), s2.data(), m, n, q);
    }
    const double tf32Factor = tf32 ? 2 * lambda * 2 * uIn : 0.0;

    const double factor = 2 * lambda * unitRoundoff(c.precision()) * double(n + std::max(m, q) + 2);
    ReferenceCheck out;
    out.mode = mode;
    out.rowsChecked = std::int64_t(rows.size());
    for (std::int64_t i : rows) {
        const T* refRow;
        if (mode == ReferenceMode::Full) {
            refRow = ref.data() + i * q;
        } else {
            rowTimes(A + i * n, B, ref.data(), n, q);
            refRow = ref.data();
        }
        const T* s2Row = nullptr;
        if (tf32) {
            if (mode == ReferenceMode::Full) {
                s2Row = s2.data() + i * q;
            } else {
                rowTimes(a2.data() + i * n, b2.data(), s2.data(), n, q);
                s2Row = s2.data();
            }
        }
        double rowScale = 0;
        for (std::int64_t k = 0; k < n; ++k)
            rowScale += double(A[i * n + k]) * double(A[i * n + k]) * bRow2[std::size_t(k)];
        for (std::int64_t j = 0; j < q; ++j) {
            const double err = std::abs(double(C[i * q + j]) - double(refRow[j]));
            double tol = factor * std::sqrt(std::max(rowScale, colScale[std::size_t(j)]));
            if (tf32)  // zero-mean part, and the mean of a truncating library (--no-abft) at 4 u_I |C_ij|
                tol += tf32Factor * std::sqrt(std::max(0.0, double(s2Row[j]))) +
                       4 * uIn * std::abs(double(refRow[j]));
            out.maxAbsError = std::max(out.maxAbsError, err);
            // NaN or Inf in C (a flipped exponent left in place) counts as a mismatch.
            if (!(err <= tol))
                ++out.mismatches;
            const double ratio = tol > 0 ? err / tol : (err > 0 ? INFINITY : 0.0);
            out.maxRelError = std::max(out.maxRelError, std::isnan(ratio) ? INFINITY : ratio);
        }
    }
    out.passed = out.mismatches == 0;
    return out;
}

}  // namespace

ReferenceMode resolveReferenceMode(ReferenceMode mode, const Shape& s)
{
    if (mode != ReferenceMode::Auto)
        return mode;
    const double work = double(s.m) * double(s.n) * double(s.q);
    return work <= std::ldexp(1.0, 34) ? ReferenceMode::Full : ReferenceMode::Sample;
}

ReferenceCheck checkAgainstReference(const HostMatrix& a, const HostMatrix& b, const HostMatrix& c,
                                     ReferenceMode mode, double lambda, InputFormat input)
{
    if (mode == ReferenceMode::None || mode == ReferenceMode::Auto) {
        ReferenceCheck none;
        none.mode = ReferenceMode::None;
        return none;
    }
    return c.precision() == Precision::F32 ? check<float>(a, b, c, mode, lambda, input)
                                           : check<double>(a, b, c, mode, lambda, InputFormat::F32);
}

}  // namespace gigacheck
