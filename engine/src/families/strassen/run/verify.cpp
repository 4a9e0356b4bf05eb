#include "families/strassen/run/verify.hpp"

#include "core/memory_check.hpp"
#include "core/printf_number.hpp"
#include "families/strassen/plan/schedule_builder.hpp"

#include "gigacheck/abft.hpp"

#include <cblas.h>

#include <algorithm>
#include <cmath>
#include <cstring>

namespace gigacheck::strassen {

namespace {

std::vector<double> asDouble(const HostMatrix& m)
{
    std::vector<double> out(std::size_t(m.rows() * m.cols()));
    if (m.precision() == Precision::F64)
        std::copy_n(m.as<double>(), out.size(), out.data());
    else
        std::copy_n(m.as<float>(), out.size(), out.data());
    return out;
}

struct Sums {
    std::vector<double> row, col, rowAbs, colAbs;
};
Sums sumsOf(const HostMatrix& m)
{
    Sums s;
    s.row.assign(std::size_t(m.rows()), 0);
    s.rowAbs.assign(std::size_t(m.rows()), 0);
    s.col.assign(std::size_t(m.cols()), 0);
    s.colAbs.assign(std::size_t(m.cols()), 0);
    const std::vector<double> d = asDouble(m);
    for (std::int64_t i = 0; i < m.rows(); ++i)
        for (std::int64_t j = 0; j < m.cols(); ++j) {
            const double v = d[std::size_t(i * m.cols() + j)];
            s.row[std::size_t(i)] += v;
            s.col[std::size_t(j)] += v;
            s.rowAbs[std::size_t(i)] += std::abs(v);
            s.colAbs[std::size_t(j)] += std::abs(v);
        }
    return s;
}

// y = M x (rows) or y = x^T M (cols), in double.
std::vector<double> times(const std::vector<double>& m, std::int64_t rows, std::int64_t cols, const std::vector<double>& x,
                          bool transpose)
{
    std::vector<double> y(std::size_t(transpose ? cols : rows));
    cblas_dgemv(CblasRowMajor, transpose ? CblasTrans : CblasNoTrans, int(rows), int(cols), 1.0, m.data(), int(cols),
                x.data(), 1, 0.0, y.data(), 1);
    return y;
}

// Rows (or columns) of C recomputed from the original operands in double, as one product of the
// gathered lines: C(rows, :) = A(rows, :) B, or C(:, cols) = A B(:, cols) (one pass over A or B).
void recompute(HostMatrix& c, const HostMatrix& originalA, const HostMatrix& originalB, const Shape& s,
               const std::vector<std::int64_t>& lines, bool rows)
{
    if (lines.empty())
        return;
    const std::vector<double> da = asDouble(originalA), db = asDouble(originalB);
    const std::int64_t k = std::int64_t(lines.size());
    if (rows) {
        std::vector<double> part(std::size_t(k * s.n)), out(std::size_t(k * s.q));
        for (std::int64_t r = 0; r < k; ++r)
            std::copy_n(&da[std::size_t(lines[std::size_t(r)] * s.n)], s.n, &part[std::size_t(r * s.n)]);
        cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, int(k), int(s.q), int(s.n), 1.0, part.data(), int(s.n),
                    db.data(), int(s.q), 0.0, out.data(), int(s.q));
        for (std::int64_t r = 0; r < k; ++r)
            for (std::int64_t j = 0; j < s.q; ++j)
                c.set(lines[std::size_t(r)], j, out[std::size_t(r * s.q + j)]);
    } else {
        std::vector<double> part(std::size_t(s.n * k)), out(std::size_t(s.m * k));
        for (std::int64_t i = 0; i < s.n; ++i)
            for (std::int64_t x = 0; x < k; ++x)
                part[std::size_t(i * k + x)] = db[std::size_t(i * s.q + lines[std::size_t(x)])];
        cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, int(s.m), int(k), int(s.n), 1.0, da.data(), int(s.n),
                    part.data(), int(k), 0.0, out.data(), int(k));
        for (std::int64_t i = 0; i < s.m; ++i)
            for (std::int64_t x = 0; x < k; ++x)
                c.set(i, lines[std::size_t(x)], out[std::size_t(i * k + x)]);
    }
}

// The lines with every line of their class: index i < core takes i mod (core >> levels), i + that,
// ... (the lines a Strassen of `levels` levels mixes); a fringe line stays alone. Sorted, unique.
std::vector<std::int64_t> withClasses(const std::vector<std::int64_t>& lines, std::int64_t core, int levels)
{
    std::vector<std::int64_t> out;
    const std::int64_t leaf = levels > 0 ? core >> levels : 0;
    for (std::int64_t i : lines) {
        if (leaf > 0 && i < core)
            for (std::int64_t r = i % leaf; r < core; r += leaf)
                out.push_back(r);
        out.push_back(i);
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

// One cell of C from the original operands, as a dot product in double.
void recomputeCell(HostMatrix& c, const HostMatrix& originalA, const HostMatrix& originalB, const Shape& s,
                   std::int64_t row, std::int64_t col)
{
    double sum = 0;
    for (std::int64_t k = 0; k < s.n; ++k)
        sum += originalA.at(row, k) * originalB.at(k, col);
    c.set(row, col, sum);
}

}  // namespace

double leafRoundoff(Precision p, bool tf32)
{
    if (p == Precision::F64)
        return std::ldexp(1.0, -53);
    return tf32 ? std::ldexp(1.0, -11) : std::ldexp(1.0, -24);
}

// Measured on clean runs (resources/results/README.md, "Strassen's C checks from the variance of
// the actual sums"): the largest clean residual over the variance bound of a conventional product
// of the same shape (growth 1) is 0.35-0.4 at L0 and grows 2.2-2.9x per level (17x33x9 to
// 257x129x301, f32 / f64, every variant); 3^L keeps it near 0.3 of the threshold at L1-L4. TF32
// leaves whose operands' rounding cannot come from the stage sums (a schedule leaf_rounding.hpp
// cannot follow) keep the conventional bound with 4^L.
double strassenGrowth(int levels, bool tf32) { return std::pow(tf32 ? 4.0 : 3.0, std::max(levels, 0)); }

// One cell against the reference: its own dot product's round-off, which a level at most doubles
// (each operand a sum of two blocks, whose class-maxed scale the tolerance already takes) --
// with TF32 leaves too, whose cell error is the rounding of the stage sums: 2^L.
double referenceGrowth(int levels, bool) { return std::pow(2.0, std::max(levels, 0)); }

namespace {

// The round-off model of a Strassen C: the storage type's accumulation; TF32 leaves (cuBLAS and
// CUTLASS alike) round their operands (the stage sums) to nearest, where the checksums, taken over
// A and B, cannot see it.
RoundoffModel strassenRoundoff(const StrassenConfig& config)
{
    RoundoffModel model;
    model.uAccumulate = unitRoundoff(config.precision);
    model.uInput = config.tf32 ? unitRoundoff(Precision::F32, true) : 0.0;
    return model;
}

// The round-off scales of the whole product A B (abft.hpp BoundAccumulator), over A with its
// column checksum row and B with its row checksum column, in double; the inner indices Strassen
// mixes (k, k + leafN, ... of the core) take their class's largest norms (abft.hpp DepthClasses).
BoundAccumulator productScales(const HostMatrix& a, const HostMatrix& b, DepthClasses classes)
{
    const std::int64_t m = a.rows(), n = a.cols(), q = b.cols();
    std::vector<double> augA(std::size_t((m + 1) * n)), augB(std::size_t(n * (q + 1)));
    const std::vector<double> da = asDouble(a), db = asDouble(b);
    std::copy(da.begin(), da.end(), augA.begin());
    for (std::int64_t k = 0; k < n; ++k)
        std::copy_n(&db[std::size_t(k * q)], q, &augB[std::size_t(k * (q + 1))]);
    columnChecksum(BlockView<double>{augA.data(), m, n, n});
    rowChecksum(BlockView<double>{augB.data(), n, q, q + 1});
    BoundAccumulator acc;
    acc.reset(m, q);
    accumulateBound(acc, BlockView<const double>{augA.data(), m, n, n}, BlockView<const double>{augB.data(), n, q, q + 1},
                    classes);
    return acc;
}

// Each line of the core takes the largest threshold of the lines Strassen mixes with it.
void classMax(std::vector<double>& t, std::int64_t core, std::int64_t leaf) { maxOverClasses(t, core, leaf); }

// The classes of inner indices a Strassen of `levels` levels mixes (k, k + leafN, ... of the core).
DepthClasses depthClasses(const Shape& shape, int levels)
{
    const Shape core = coreShape(shape, levels);
    return levels > 0 ? DepthClasses{core.n, core.n >> levels} : DepthClasses{};
}

}  // namespace

void cThresholds(const HostMatrix& a, const HostMatrix& b, const StrassenConfig& config, int levels,
                 OperandChecksums& sums, const LeafRoundingScales* leaf)
{
    const BoundAccumulator acc = productScales(a, b, depthClasses(config.shape, levels));
    const std::int64_t m = a.rows(), q = b.cols();
    sums.depth = a.cols();
    sums.rows = m;
    sums.cols = q;
    sums.productRow.assign(acc.rowScale.begin(), acc.rowScale.begin() + m);
    sums.productCol.assign(acc.colScale.begin(), acc.colScale.begin() + q);
    sums.fixedRow.assign(std::size_t(m), 0.0);
    sums.fixedCol.assign(std::size_t(q), 0.0);
    sums.rowNormA2.assign(std::size_t(m), 0.0);
    sums.colNormB2.assign(std::size_t(q), 0.0);
    for (std::int64_t i = 0; i < m; ++i)
        for (std::int64_t k = 0; k < a.cols(); ++k)
            sums.rowNormA2[std::size_t(i)] += a.at(i, k) * a.at(i, k);
    for (std::int64_t k = 0; k < b.rows(); ++k)
        for (std::int64_t j = 0; j < q; ++j)
            sums.colNormB2[std::size_t(j)] += b.at(k, j) * b.at(k, j);
    const bool leafScales = config.tf32 && leaf && leaf->rowQ.size() == std::size_t(m) &&
                            leaf->colQ.size() == std::size_t(q);
    RoundoffModel model = strassenRoundoff(config);
    const double growth = strassenGrowth(levels, config.tf32 && !leafScales);
    if (config.tf32 && !leafScales) {
        // The operands' rounding over A's and B's scales with 4^L: the conventional bound, fixed.
        const Thresholds t = thresholds(acc, model, config.thresholdLambda);
        for (std::int64_t i = 0; i < m; ++i)
            sums.fixedRow[std::size_t(i)] = growth * t.row[std::size_t(i)];
        for (std::int64_t j = 0; j < q; ++j)
            sums.fixedCol[std::size_t(j)] = growth * t.col[std::size_t(j)];
        const Shape core = coreShape(config.shape, levels);
        classMax(sums.fixedRow, core.m, core.m >> levels);
        classMax(sums.fixedCol, core.q, core.q >> levels);
        sums.sumFactor = t.sumFactor * growth;
        return;
    }
    model.uInput = 0;
    sums.uAccumulate = model.uAccumulate;
    sums.sigmas = 0.75 * config.thresholdLambda;
    sums.growth = growth;
    sums.sumFactor = truncationSumFactor(model, sums.depth) * growth;
    if (leafScales) {
        // Per line, the scale of the rounded operands its leaves multiply: exact per row and
        // column (the rows Strassen mixes are inside the stage sums), no class maximum.
        const InputRoundingBound input = inputRoundingBound(unitRoundoff(Precision::F32, true));
        for (std::int64_t i = 0; i < m; ++i)
            sums.fixedRow[std::size_t(i)] = input(leaf->rowQ[std::size_t(i)], 0.0);
        for (std::int64_t j = 0; j < q; ++j)
            sums.fixedCol[std::size_t(j)] = input(leaf->colQ[std::size_t(j)], 0.0);
        // The rounding's mean over the checked sum, 2^L as the reference's growth (not the
        // accumulation's 3^L: it is the operands' rounding, which a level at most doubles).
        sums.sumFactor += input.sumFactor * referenceGrowth(levels, true);
    }
}

void thresholdsOverC(OperandChecksums& sums, const HostMatrix& c, int levels)
{
    const std::int64_t m = sums.rows, q = sums.cols;
    sums.thresholdRow = sums.fixedRow;
    sums.thresholdCol = sums.fixedCol;
    if (sums.sigmas <= 0)
        return;
    // Squares in long double: a finite 1e300 (a flipped exponent in FP64) must not make a line's
    // sum of squares, and so its threshold, infinite.
    std::vector<long double> rowC2(std::size_t(m), 0.0L), colC2(std::size_t(q), 0.0L);
    for (std::int64_t i = 0; i < m; ++i)
        for (std::int64_t j = 0; j < q; ++j)
            if (const long double v = c.at(i, j); std::isfinite(double(v))) {
                const long double cap = static_cast<long double>(sums.rowNormA2[std::size_t(i)]) * sums.colNormB2[std::size_t(j)];
                const long double v2 = std::min(v * v, cap);
                rowC2[std::size_t(i)] += v2;
                colC2[std::size_t(j)] += v2;
            }
    // The product's roundings (Strassen's growth over a conventional product of depth N, and per
    // level the stage sums and C-block sums: about eight more roundings of the line's scale, which
    // matter where N is short -- a Winograd level over N = 2 adds more roundings than the product
    // has), and the checker's own: C's line summed and A (B e) in double, depth + line + 2
    // roundings, whose terms are C's cells and the products (a FP64 C's checks need them).
    const double uCheck = unitRoundoff(Precision::F64);
    // Scaled by the line's norm of C, so that no square overflows.
    auto line = [&](long double c2, double products, double expected, std::int64_t length) {
        const double norm = std::max(double(std::sqrt(c2)), std::sqrt(products));
        if (!(norm > 0))
            return 0.0;
        const long double norm2 = static_cast<long double>(norm) * norm;
        const double c2n = double(c2 / norm2), pn = products / norm / norm, en = expected / norm;
        const double accumulation =
            sums.growth * varianceThreshold(sums.uAccumulate, sums.depth + 8 * levels, c2n, pn, sums.sigmas);
        const double checker = varianceThreshold(uCheck, sums.depth + length + 2, en * en, c2n + pn, sums.sigmas);
        return norm * std::hypot(accumulation, checker);
    };
    std::vector<double> row(static_cast<std::size_t>(m)), col(static_cast<std::size_t>(q));
    for (std::int64_t i = 0; i < m; ++i)
        row[std::size_t(i)] = line(rowC2[std::size_t(i)], sums.productRow[std::size_t(i)], sums.expectRow[std::size_t(i)], q);
    for (std::int64_t j = 0; j < q; ++j)
        col[std::size_t(j)] = line(colC2[std::size_t(j)], sums.productCol[std::size_t(j)], sums.expectCol[std::size_t(j)], m);
    const Shape core{sums.rows, sums.depth, sums.cols};
    const Shape strassenCore = coreShape(core, levels);
    classMax(row, strassenCore.m, strassenCore.m >> levels);
    classMax(col, strassenCore.q, strassenCore.q >> levels);
    for (std::int64_t i = 0; i < m; ++i)
        sums.thresholdRow[std::size_t(i)] += row[std::size_t(i)];
    for (std::int64_t j = 0; j < q; ++j)
        sums.thresholdCol[std::size_t(j)] += col[std::size_t(j)];
}

bool checksTooWeak(double detectionFloor, double maxAbsC)
{
    return detectionFloor >= 0 && !(detectionFloor <= kWeakCheckFraction * maxAbsC);
}

double referenceHostBytes(const Shape& s)
{
    const double mn_nq = double(s.m) * double(s.n) + double(s.n) * double(s.q), mq = double(s.m) * double(s.q);
    return 2 * mn_nq * 8.0 + 2 * mq * 8.0;
}

std::string referenceMemoryShortfall(const Shape& s, double availableBytes)
{
    const double need = referenceHostBytes(s);
    if (availableBytes <= 0 || need <= availableBytes)
        return {};
    return "the FP64 reference needs " + formatBytes(need) + " of host memory but only " + formatBytes(availableBytes) +
           " is available";
}

StrassenReference checkAgainstReference(HostMatrix& c, const HostMatrix& originalA, const HostMatrix& originalB,
                                        const StrassenConfig& config, int levels, bool checksWeak,
                                        const LeafRoundingScales* leafScales)
{
    StrassenReference out;
    const Shape s = config.shape;
    if (!config.reference || (!config.referenceAlways && !checksWeak &&
                              double(s.m) * double(s.n) * double(s.q) > double(std::int64_t(1) << 34)))
        return out;
    // The run's up-front estimate counts the reference only where it surely runs (auto past 2^34
    // runs it only when C's checks turn out too weak): here, the memory it needs now.
    out.skipped = referenceMemoryShortfall(s, hostMemoryAvailable());
    if (!out.skipped.empty())
        return out;
    out.ran = true;
    const std::vector<double> da = asDouble(originalA), db = asDouble(originalB);
    std::vector<double> ref(std::size_t(s.m * s.q));
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, int(s.m), int(s.q), int(s.n), 1.0, da.data(), int(s.n),
                db.data(), int(s.q), 0.0, ref.data(), int(s.q));
    // Per cell, the round-off of its own dot product (abft.hpp cellTolerance): sqrt(sum_k a_ik^2
    // b_kj^2), one product of the squares, times Strassen's growth; B's squares take the largest
    // of their inner-index class (row k of B meets column k + N/2 of A in the stage sums), and
    // each cell the largest scale of the cells the recursion mixes with it (same row class, same
    // column class). A row's or column's whole norm would let a fault as large as C's entries
    // pass at four levels.
    const Shape core = coreShape(s, levels);
    std::vector<double> a2(da.size()), b2(db.size()), cellScale(std::size_t(s.m * s.q));
    for (std::size_t k = 0; k < da.size(); ++k)
        a2[k] = da[k] * da[k];
    for (std::size_t k = 0; k < db.size(); ++k)
        b2[k] = db[k] * db[k];
    if (const DepthClasses classes = depthClasses(s, levels); classes.leaf > 0 && classes.core > classes.leaf) {
        std::vector<double> column(std::size_t(s.n));
        for (std::int64_t j = 0; j < s.q; ++j) {
            for (std::int64_t k = 0; k < s.n; ++k)
                column[std::size_t(k)] = b2[std::size_t(k * s.q + j)];
            maxOverClasses(column, classes.core, classes.leaf);
            for (std::int64_t k = 0; k < s.n; ++k)
                b2[std::size_t(k * s.q + j)] = column[std::size_t(k)];
        }
    }
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, int(s.m), int(s.q), int(s.n), 1.0, a2.data(), int(s.n),
                b2.data(), int(s.q), 0.0, cellScale.data(), int(s.q));
    const std::int64_t leafM = core.m >> levels, leafQ = core.q >> levels;
    if (levels > 0 && leafM > 0 && leafQ > 0) {
        std::vector<double> classWorst(std::size_t(leafM * leafQ), 0.0);
        for (std::int64_t i = 0; i < core.m; ++i)
            for (std::int64_t j = 0; j < core.q; ++j) {
                double& w = classWorst[std::size_t((i % leafM) * leafQ + j % leafQ)];
                w = std::max(w, cellScale[std::size_t(i * s.q + j)]);
            }
        for (std::int64_t i = 0; i < core.m; ++i)
            for (std::int64_t j = 0; j < core.q; ++j)
                cellScale[std::size_t(i * s.q + j)] = classWorst[std::size_t((i % leafM) * leafQ + j % leafQ)];
    }
    // TF32 leaves: the operands' rounding from the stage sums each cell's leaves multiply.
    const LeafRoundingScales* leaf =
        config.tf32 && leafScales && leafScales->cellQ.size() == std::size_t(s.m * s.q) ? leafScales : nullptr;
    RoundoffModel model = strassenRoundoff(config);
    if (leaf)
        model.uInput = 0;
    const CellTolerance fp32Part = cellTolerance(model, s.n, config.thresholdLambda, referenceGrowth(levels, config.tf32));
    const InputRoundingBound input = inputRoundingBound(unitRoundoff(Precision::F32, true));
    auto tolerance = [&](std::int64_t i, std::int64_t j, double ref) {
        const double t = fp32Part(cellScale[std::size_t(i * s.q + j)], ref);
        return leaf ? t + input(leaf->cellQ[std::size_t(i * s.q + j)], ref) : t;
    };
    for (std::int64_t i = 0; i < s.m; ++i)
        for (std::int64_t j = 0; j < s.q; ++j) {
            const double r = ref[std::size_t(i * s.q + j)];
            const double err = std::abs(c.at(i, j) - r);
            const double tol = tolerance(i, j, r);
            if (std::isfinite(tol))
                out.maxTolerance = std::max(out.maxTolerance, tol);
            out.maxRef = std::max(out.maxRef, std::abs(r));
            // NaN in C (a flipped exponent, an overflow) is a mismatch and an infinite error.
            double e = std::isnan(err) ? INFINITY : err;
            if (!(e <= tol) && config.verify) {
                // A cell C's checks let pass: the reference has its value, computed from A and B.
                // (Without checks the reference only judges: a plain product that is wrong says so.)
                c.set(i, j, r);
                ++out.repaired;
                e = std::abs(c.at(i, j) - r);
            }
            out.mismatches += !(e <= tol);
            out.nonFinite += !std::isfinite(e);
            if (std::isfinite(e))
                out.maxError = std::max(out.maxError, e);
            out.worstRatio = std::max(out.worstRatio, tol > 0 ? e / tol : (e > 0 ? INFINITY : 0.0));
        }
    out.passed = out.mismatches == 0;
    return out;
}

OperandChecksums takeChecksums(const HostMatrix& a, const HostMatrix& b, const StrassenConfig& config, int levels,
                               const LeafRoundingScales* leaf)
{
    OperandChecksums s;
    const Sums sa = sumsOf(a), sb = sumsOf(b);
    s.rowSumA = sa.row;
    s.colSumA = sa.col;
    s.rowAbsA = sa.rowAbs;
    s.colAbsA = sa.colAbs;
    s.rowSumB = sb.row;
    s.colSumB = sb.col;
    s.rowAbsB = sb.rowAbs;
    s.colAbsB = sb.colAbs;
    const std::vector<double> da = asDouble(a), db = asDouble(b);
    s.expectRow = times(da, a.rows(), a.cols(), sb.row, false);  // A (B e)
    s.expectCol = times(db, b.rows(), b.cols(), sa.col, true);   // (e^T A) B
    cThresholds(a, b, config, levels, s, leaf);
    return s;
}

Suspects verifyOperands(HostMatrix& a, HostMatrix& b, const HostMatrix& originalA, const HostMatrix& originalB,
                    const OperandChecksums& sums, const StrassenConfig& config, int levels,
                    std::vector<StrassenCheck>& checks)
{
    const double u = leafRoundoff(config.precision, false);
    // Recovery rounds (A0 + A3) - A3 once per level: a few ulps of the largest term per element.
    const double tol = config.thresholdLambda * u * 4.0 * double(levels + 1);
    const std::int64_t leafM = std::max<std::int64_t>(1, config.shape.m >> levels);
    const std::int64_t leafQ = std::max<std::int64_t>(1, config.shape.q >> levels);
    Suspects suspects;
    auto spread = [](std::int64_t index, std::int64_t leaf, std::int64_t extent, std::vector<std::int64_t>& out) {
        for (std::int64_t r = index % leaf; r < extent; r += leaf)
            out.push_back(r);
        out.push_back(index);
        std::sort(out.begin(), out.end());
        out.erase(std::unique(out.begin(), out.end()), out.end());
    };
    auto check = [&](HostMatrix& m, const HostMatrix& original, const std::vector<double>& row,
                     const std::vector<double>& col, const std::vector<double>& rowAbs, const std::vector<double>& colAbs,
                     const char* name) {
        const Sums now = sumsOf(m);
        std::vector<std::int64_t> badRows, badCols;
        for (std::size_t i = 0; i < row.size(); ++i)
            if (std::abs(now.row[i] - row[i]) > tol * rowAbs[i] + 1e-300)
                badRows.push_back(std::int64_t(i));
        for (std::size_t j = 0; j < col.size(); ++j)
            if (std::abs(now.col[j] - col[j]) > tol * colAbs[j] + 1e-300)
                badCols.push_back(std::int64_t(j));
        StrassenCheck c;
        c.where = name;
        if (badRows.empty() && badCols.empty()) {
            c.verdict = "clean";
            checks.push_back(c);
            return;
        }
        c.row = badRows.empty() ? -1 : badRows.front();
        c.col = badCols.empty() ? -1 : badCols.front();
        c.verdict = "corrected";
        c.detail = std::to_string(badRows.size()) + " row and " + std::to_string(badCols.size()) +
                   " column checksums of " + name + " disagree after recovery; " + name + " put back from the host copy";
        checks.push_back(c);
        // The checksums say that the operand changed; the host copy says exactly where (a fault and
        // its echo through a later in-place sum can cancel in one row sum and show in two columns).
        const std::vector<double> after = asDouble(m), was = asDouble(original);
        double largest = 0;
        for (double v : was)
            largest = std::max(largest, std::abs(v));
        const double cut = tol * largest;
        for (std::size_t k = 0; k < after.size(); ++k)
            if (std::abs(after[k] - was[k]) > cut) {
                const std::int64_t r = std::int64_t(k) / m.cols(), col = std::int64_t(k) % m.cols();
                if (&m == &a)
                    spread(r, leafM, config.shape.m, suspects.rows);
                else
                    spread(col, leafQ, config.shape.q, suspects.cols);
            }
        std::memcpy(m.data(), original.data(), m.bytes());
    };
    // An element's recovery error is a few ulps of the partner it was summed with, in row i + M/2,
    // column k + N/2 ...: a line's tolerance follows the largest line of its class.
    const Shape core = coreShape(config.shape, levels);
    auto classed = [&](std::vector<double> v, std::int64_t coreExtent) {
        classMax(v, coreExtent, coreExtent >> levels);
        return v;
    };
    check(a, originalA, sums.rowSumA, sums.colSumA, classed(sums.rowAbsA, core.m), classed(sums.colAbsA, core.n), "a");
    check(b, originalB, sums.rowSumB, sums.colSumB, classed(sums.rowAbsB, core.n), classed(sums.colAbsB, core.q), "b");
    return suspects;
}

LeafRepair repairFromLeaves(HostMatrix& c, const HostMatrix& originalA, const HostMatrix& originalB,
                            const Schedule& schedule, OpKind leafVerify, const std::vector<double>& leafResults,
                            const Shape& shape, int levels, std::vector<StrassenCheck>& checks)
{
    LeafRepair out;
    const std::size_t half = leafResults.size() / 2;
    const Shape core = coreShape(shape, levels);
    std::vector<std::int64_t> cols;
    for (const Operation& op : schedule.ops) {
        if (op.kind != leafVerify || std::size_t(op.aux) >= half || !(leafResults[std::size_t(op.aux)] > 1))
            continue;
        const double code = leafResults[half + std::size_t(op.aux)];
        if (!(code >= 1)) {
            out.unrepaired.push_back(op.aux);
            continue;
        }
        out.repaired.push_back(op.aux);
        const std::int64_t column = std::int64_t(code) - 1;
        std::vector<std::int64_t> mine;
        for (std::size_t t = 2; t + 1 < op.operands.size(); ++t) {
            const OperandRegion& target = op.operands[t];
            const std::int64_t at = target.col + column;
            // A core leaf (level L > 0): the C-block sums after it move its error only to columns
            // at the same place in other leaf-wide blocks of the core. A fringe leaf's stays put.
            if (levels > 0 && op.block.i == levels && at < core.q)
                for (std::int64_t j = at % target.cols; j < core.q; j += target.cols)
                    mine.push_back(j);
            else
                mine.push_back(at);
        }
        std::sort(mine.begin(), mine.end());
        mine.erase(std::unique(mine.begin(), mine.end()), mine.end());
        StrassenCheck k;
        k.where = "c";
        k.verdict = "recomputed";
        k.col = mine.front();
        k.detail = "leaf product " + std::to_string(op.aux) + " was off in column " + std::to_string(column) +
                   " of its C block(s): the " + std::to_string(mine.size()) +
                   " column(s) of C its error can have reached recomputed from A and B";
        checks.push_back(k);
        cols.insert(cols.end(), mine.begin(), mine.end());
    }
    std::sort(cols.begin(), cols.end());
    cols.erase(std::unique(cols.begin(), cols.end()), cols.end());
    recompute(c, originalA, originalB, shape, cols, false);
    out.columns = std::int64_t(cols.size());
    return out;
}

double cDetectionFloor(const OperandChecksums& sums)
{
    auto largest = [&](const std::vector<double>& t, const std::vector<double>& expect) {
        double worst = 0;
        for (std::size_t i = 0; i < t.size() && i < expect.size(); ++i)
            worst = std::max(worst, t[i] + sums.sumFactor * std::abs(expect[i]));
        return worst;
    };
    return std::min(largest(sums.thresholdRow, sums.expectRow), largest(sums.thresholdCol, sums.expectCol));
}

bool verifyResult(HostMatrix& c, const HostMatrix& originalA, const HostMatrix& originalB, OperandChecksums& sums,
                  const StrassenConfig& config, int levels, const Suspects& suspects, std::vector<StrassenCheck>& checks,
                  double& worstCleanRatio)
{
    if (!suspects.rows.empty() || !suspects.cols.empty()) {
        recompute(c, originalA, originalB, config.shape, suspects.rows, true);
        recompute(c, originalA, originalB, config.shape, suspects.cols, false);
        StrassenCheck k;
        k.where = "c";
        k.verdict = "recomputed";
        k.row = suspects.rows.empty() ? -1 : suspects.rows.front();
        k.col = suspects.cols.empty() ? -1 : suspects.cols.front();
        k.detail = std::to_string(suspects.rows.size()) + " rows and " + std::to_string(suspects.cols.size()) +
                   " columns of C used the corrupted operand element; recomputed from A and B";
        checks.push_back(k);
    }
    // A check passes when |residual| <= threshold + sumFactor |expected sum| (the expected sum
    // comes from the operands, so a fault cannot raise its own threshold); NaN never passes.
    auto mismatches = [&](std::vector<std::int64_t>& rows, std::vector<std::int64_t>& cols, double* cleanRatio) {
        thresholdsOverC(sums, c, levels);
        const Sums now = sumsOf(c);
        rows.clear();
        cols.clear();
        auto scan = [&](const std::vector<double>& got, const std::vector<double>& expect, const std::vector<double>& t,
                        std::vector<std::int64_t>& bad) {
            for (std::size_t i = 0; i < got.size(); ++i) {
                const double residual = std::abs(got[i] - expect[i]);
                const double threshold = t[i] + sums.sumFactor * std::abs(expect[i]);
                if (!(std::isfinite(residual) && residual <= threshold))
                    bad.push_back(std::int64_t(i));
                else if (cleanRatio && threshold > 0)
                    *cleanRatio = std::max(*cleanRatio, residual / threshold);
            }
        };
        scan(now.row, sums.expectRow, sums.thresholdRow, rows);
        scan(now.col, sums.expectCol, sums.thresholdCol, cols);
    };
    std::vector<std::int64_t> rows, cols;
    worstCleanRatio = 0;
    mismatches(rows, cols, &worstCleanRatio);
    StrassenCheck check;
    check.where = "c";
    if (rows.empty() && cols.empty()) {
        check.verdict = "clean";
        checks.push_back(check);
        return true;
    }
    check.row = rows.empty() ? -1 : rows.front();
    check.col = cols.empty() ? -1 : cols.front();
    if (rows.size() == 1 && cols.size() == 1) {
        // The located cell recomputed as one dot product of the original operands: subtracting
        // the residual would cancel against a huge (1e30) or non-finite fault.
        const double old = c.at(rows[0], cols[0]);
        recomputeCell(c, originalA, originalB, config.shape, rows[0], cols[0]);
        check.verdict = "corrected";
        check.detail = "one cell located by its row and column checksums: " + printfNumber("%.7g", old) + " -> " +
                       printfNumber("%.7g", c.at(rows[0], cols[0])) + " (recomputed from row " + std::to_string(rows[0]) +
                       " of A and column " + std::to_string(cols[0]) + " of B)";
    } else {
        // Several cells (an operand fault spreads over a band of C): recompute the rows, or the
        // columns, that disagree, from the original operands -- with every line Strassen mixes
        // with them (rows i mod M/2^L of the core, columns likewise): the products that cancel a
        // fault in exact arithmetic round differently, and the residue they leave in the other
        // lines of the class can sit under a line's threshold and over a cell's tolerance (TF32
        // leaves, an A fault with --exact-restore: 222 cells past the reference's tolerance).
        const bool byRows = !rows.empty() && (cols.empty() || rows.size() <= cols.size());
        const Shape core = coreShape(config.shape, levels);
        const std::vector<std::int64_t> lines = withClasses(byRows ? rows : cols, byRows ? core.m : core.q, levels);
        recompute(c, originalA, originalB, config.shape, lines, byRows);
        check.verdict = "recomputed";
        check.detail = std::to_string(rows.size()) + " rows and " + std::to_string(cols.size()) +
                       " columns of C disagree with the checksums; " + (byRows ? "those rows" : "those columns") +
                       (lines.size() > (byRows ? rows : cols).size()
                            ? " and the " + std::string(byRows ? "rows" : "columns") + " Strassen mixes with them (" +
                                  std::to_string(lines.size()) + " in all)"
                            : std::string()) +
                       " recomputed from A and B";
    }
    mismatches(rows, cols, nullptr);
    if (!rows.empty() || !cols.empty()) {
        check.verdict = "uncorrectable";
        check.detail += "; " + std::to_string(rows.size()) + " rows and " + std::to_string(cols.size()) +
                        " columns still disagree";
    }
    checks.push_back(check);
    return check.verdict != "uncorrectable";
}

}  // namespace gigacheck::strassen
