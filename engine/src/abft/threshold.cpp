// The round-off bound of ABFT detection: per-row / per-column scales accumulated over the k
// steps of a blocked product, turned into thresholds (see abft.hpp and docs/reference.md "Detection threshold").
#include "gigacheck/abft.hpp"

#include "core/parallel_for.hpp"

#include <algorithm>
#include <cmath>

namespace gigacheck {

double unitRoundoff(Precision p, bool tf32)
{
    if (tf32)
        return std::ldexp(1.0, -11);  // TF32 keeps 10 explicit mantissa bits
    return p == Precision::F64 ? std::ldexp(1.0, -53) : std::ldexp(1.0, -24);
}

RoundoffModel roundoffModel(Precision p, bool tf32)
{
    return roundoffModel(p, tf32 ? InputFormat::Tf32 : InputFormat::F32);
}

RoundoffModel roundoffModel(Precision p, InputFormat operands)
{
    RoundoffModel m;
    m.uAccumulate = unitRoundoff(p);
    // TF32 / BF16 / FP16: the operands are rounded before the product and the checksums see the
    // rounded values (gigacheck/input_rounding.hpp), so the inputs are exact for the checksum
    // relation (uInput = 0) whatever the input format's own round-off.
    m.tf32Operands = operands != InputFormat::F32 && p == Precision::F32;
    m.operands = m.tf32Operands ? operands : InputFormat::F32;
    return m;
}

void BoundAccumulator::reset(std::int64_t rows, std::int64_t cols)
{
    rowScale.assign(std::size_t(rows + 1), 0.0);
    colScale.assign(std::size_t(cols + 1), 0.0);
    rowChecksumScale.assign(std::size_t(rows + 1), 0.0);
    colChecksumScale.assign(std::size_t(cols + 1), 0.0);
    depth = 0;
}

void maxOverClasses(std::vector<double>& v, std::int64_t core, std::int64_t leaf)
{
    core = std::min<std::int64_t>(core, std::int64_t(v.size()));
    if (leaf <= 0 || core <= leaf)
        return;
    for (std::int64_t r = 0; r < leaf; ++r) {
        double worst = 0;
        for (std::int64_t i = r; i < core; i += leaf)
            worst = std::max(worst, v[std::size_t(i)]);
        for (std::int64_t i = r; i < core; i += leaf)
            v[std::size_t(i)] = worst;
    }
}

// a: (rows + 1) x depth (checksum row included), b: depth x (cols + 1) (checksum column included).
// The checksum row / column take part in the scales: they are operands of the stored checksums.
template <class T>
void accumulateBound(BoundAccumulator& acc, BlockView<const T> a, BlockView<const T> b, DepthClasses classes)
{
    if (a.cols != b.rows)
        throw InputError("accumulateBound: A block depth " + std::to_string(a.cols) +
                         " does not match B block depth " + std::to_string(b.rows));
    if (acc.rowScale.size() != std::size_t(a.rows + 1) || acc.colScale.size() != std::size_t(b.cols + 1) ||
        acc.rowChecksumScale.size() != acc.rowScale.size() || acc.colChecksumScale.size() != acc.colScale.size())
        throw InputError("accumulateBound: accumulator was reset for another block shape");
    const std::int64_t depth = a.cols;

    // Squared 2-norms of the rows of B (length cols + 1) and of the columns of A (length rows + 1).
    // Parallel over the host's cores (core/parallel_for.hpp); each sum keeps its own index order,
    // so the bits do not depend on the split.
    std::vector<double> bRowNorm2(std::size_t(depth), 0.0), aColNorm2(std::size_t(depth), 0.0);
    parallelFor(depth, b.cols + 1, [&](std::int64_t k0, std::int64_t k1) {
        for (std::int64_t k = k0; k < k1; ++k) {
            double s = 0;
            for (std::int64_t j = 0; j <= b.cols; ++j) {
                const double v = double(b(k, j));
                s += v * v;
            }
            bRowNorm2[std::size_t(k)] = s;
        }
    });
    parallelFor(depth, a.rows + 1, [&](std::int64_t k0, std::int64_t k1) {  // over i in order, per k
        for (std::int64_t i = 0; i <= a.rows; ++i)
            for (std::int64_t k = k0; k < k1; ++k) {
                const double v = double(a(i, k));
                aColNorm2[std::size_t(k)] += v * v;
            }
    });
    // |r_B[k]| and |c_A[k]|, class-maxed like the norms (no classes: the same bits as r_B, c_A squared).
    std::vector<double> rB(static_cast<std::size_t>(depth)), cA(static_cast<std::size_t>(depth));
    for (std::int64_t k = 0; k < depth; ++k) {
        rB[std::size_t(k)] = std::abs(double(b(k, b.cols)));
        cA[std::size_t(k)] = std::abs(double(a(a.rows, k)));
    }
    for (std::vector<double>* v : {&bRowNorm2, &aColNorm2, &rB, &cA})
        maxOverClasses(*v, classes.core, classes.leaf);
    parallelFor(a.rows + 1, depth, [&](std::int64_t i0, std::int64_t i1) {
        for (std::int64_t i = i0; i < i1; ++i) {
            double s = 0, sc = 0;
            for (std::int64_t k = 0; k < depth; ++k) {
                const double v = double(a(i, k)), r = rB[std::size_t(k)];
                s += v * v * bRowNorm2[std::size_t(k)];
                sc += v * v * r * r;
            }
            acc.rowScale[std::size_t(i)] += s;
            acc.rowChecksumScale[std::size_t(i)] += sc;
        }
    });
    parallelFor(b.cols + 1, depth, [&](std::int64_t j0, std::int64_t j1) {  // over k in order, per j
        for (std::int64_t k = 0; k < depth; ++k) {
            const double an = aColNorm2[std::size_t(k)], ca = cA[std::size_t(k)];
            for (std::int64_t j = j0; j < j1; ++j) {
                const double v = double(b(k, j));
                acc.colScale[std::size_t(j)] += an * v * v;
                acc.colChecksumScale[std::size_t(j)] += ca * ca * v * v;
            }
        }
    });
    acc.depth += depth;
}

// Detection threshold (docs/reference.md "Detection threshold"):
//   t_row(i) = lambda * u * (depth + cols + 2) * sqrt(rowScale[i])
//   t_col(j) = lambda * u * (depth + rows + 2) * sqrt(colScale[j])
// A row check compares the sum of cols computed entries (each carrying up to depth roundings of
// the products' partial sums) with the stored checksum (depth roundings of its own product plus
// the rounding of r_B); the checker's own summation adds cols + 1 more. Every rounding is at most
// u times a partial sum, and partial sums of the products a_ik b_kj are, with high probability,
// within a small multiple of the 2-norm of those products, sqrt(scale). lambda is the safety
// factor. The bound scales with the data and the inner dimension; it is never a constant.
Thresholds thresholds(const BoundAccumulator& acc, double u, double lambda)
{
    const std::int64_t rows = std::int64_t(acc.rowScale.size()) - 1;
    const std::int64_t cols = std::int64_t(acc.colScale.size()) - 1;
    Thresholds t;
    t.row.resize(acc.rowScale.size());
    t.col.resize(acc.colScale.size());
    const double rowFactor = lambda * u * double(acc.depth + cols + 2);
    const double colFactor = lambda * u * double(acc.depth + rows + 2);
    for (std::size_t i = 0; i < t.row.size(); ++i)
        t.row[i] = rowFactor * std::sqrt(acc.rowScale[i]);
    for (std::size_t j = 0; j < t.col.size(); ++j)
        t.col[j] = colFactor * std::sqrt(acc.colScale[j]);
    return t;
}

// TF32 on rounded operands: truncating accumulation's mean follows the checked sum (abft.hpp).
double truncationSumFactor(const RoundoffModel& model, std::int64_t depth)
{
    return model.tf32Operands ? 2.0 * model.uAccumulate * double(depth) : 0.0;
}

// Operand rounding the checksums do not see (uInput > 0; abft.hpp, docs/reference.md "Detection threshold")
// adds a zero-mean part that follows sqrt(scale + checksum scale) and a mean part that follows
// the checked sum (sumFactor).
Thresholds thresholds(const BoundAccumulator& acc, const RoundoffModel& model, double lambda)
{
    if (model.uInput <= 0) {
        Thresholds t = thresholds(acc, model.uAccumulate, lambda);
        t.sumFactor = truncationSumFactor(model, acc.depth);
        return t;
    }
    const std::int64_t rows = std::int64_t(acc.rowScale.size()) - 1;
    const std::int64_t cols = std::int64_t(acc.colScale.size()) - 1;
    const double inputPart = 2.0 * std::sqrt(2.0) * model.uInput;
    const double rowFactor = lambda * (model.uAccumulate * double(acc.depth + cols + 2) + inputPart);
    const double colFactor = lambda * (model.uAccumulate * double(acc.depth + rows + 2) + inputPart);
    const bool withChecksumScales = acc.rowChecksumScale.size() == acc.rowScale.size() &&
                                    acc.colChecksumScale.size() == acc.colScale.size();
    Thresholds t;
    t.row.resize(acc.rowScale.size());
    t.col.resize(acc.colScale.size());
    for (std::size_t i = 0; i < t.row.size(); ++i)
        t.row[i] = rowFactor * std::sqrt(acc.rowScale[i] + (withChecksumScales ? acc.rowChecksumScale[i] : 0.0));
    for (std::size_t j = 0; j < t.col.size(); ++j)
        t.col[j] = colFactor * std::sqrt(acc.colScale[j] + (withChecksumScales ? acc.colChecksumScale[j] : 0.0));
    t.sumFactor = 4.0 * model.uInput + truncationSumFactor(model, acc.depth);
    return t;
}

double CellTolerance::operator()(double sumSquares, double ref) const
{
    return scaleFactor * std::sqrt(std::max(0.0, sumSquares)) + refFactor * std::abs(ref);
}

CellTolerance cellTolerance(const RoundoffModel& model, std::int64_t depth, double lambda, double growth)
{
    CellTolerance t;
    const double u = model.uAccumulate * double(depth + 2) + 2.0 * std::sqrt(2.0) * model.uInput;
    t.scaleFactor = 2.0 * lambda * u * growth;
    t.refFactor = 4.0 * model.uInput;
    return t;
}

double InputRoundingBound::operator()(double q, double sum) const
{
    return scaleFactor * std::sqrt(std::max(0.0, q)) + sumFactor * std::abs(sum);
}

InputRoundingBound inputRoundingBound(double uInput, double lambda)
{
    return {lambda * 2.0 * std::sqrt(2.0) * uInput, 4.0 * uInput};
}

double varianceThreshold(double u, std::int64_t depth, double sumSquares, double productSquares, double sigmas)
{
    const double variance = double(std::max<std::int64_t>(depth, 1)) * (sumSquares / 9.0 + productSquares / 18.0);
    return sigmas * u * std::sqrt(std::max(0.0, variance));
}

template void accumulateBound<float>(BoundAccumulator&, BlockView<const float>, BlockView<const float>, DepthClasses);
template void accumulateBound<double>(BoundAccumulator&, BlockView<const double>, BlockView<const double>, DepthClasses);

}  // namespace gigacheck
