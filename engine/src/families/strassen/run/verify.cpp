#include "families/strassen/run/verify.hpp"

#include "families/strassen/plan/schedule_builder.hpp"

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

std::vector<double> absOf(std::vector<double> v)
{
    for (double& x : v)
        x = std::abs(x);
    return v;
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

}  // namespace

double leafRoundoff(Precision p, bool tf32)
{
    if (p == Precision::F64)
        return std::ldexp(1.0, -53);
    return tf32 ? std::ldexp(1.0, -11) : std::ldexp(1.0, -24);
}

// Strassen's normwise bound grows as (n/n0)^log2(12) n0^2 u (Higham 23.2.2); per element of the
// checksums we use n * 6^levels, generous enough for random data and far below injected faults.
double strassenGrowth(std::int64_t n, int levels) { return double(n) * std::pow(6.0, levels); }

OperandChecksums takeChecksums(const HostMatrix& a, const HostMatrix& b)
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
    s.boundRow = times(absOf(da), a.rows(), a.cols(), sb.rowAbs, false);
    s.boundCol = times(absOf(db), b.rows(), b.cols(), sa.colAbs, true);
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
    check(a, originalA, sums.rowSumA, sums.colSumA, sums.rowAbsA, sums.colAbsA, "a");
    check(b, originalB, sums.rowSumB, sums.colSumB, sums.rowAbsB, sums.colAbsB, "b");
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

bool verifyResult(HostMatrix& c, const HostMatrix& originalA, const HostMatrix& originalB, const OperandChecksums& sums,
                  const StrassenConfig& config, int levels, const Suspects& suspects, std::vector<StrassenCheck>& checks)
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
    const double tol = config.thresholdLambda * leafRoundoff(config.precision, config.tf32) *
                       strassenGrowth(config.shape.n, levels);
    auto mismatches = [&](std::vector<std::int64_t>& rows, std::vector<std::int64_t>& cols, std::vector<double>& rres,
                          std::vector<double>& cres) {
        const Sums now = sumsOf(c);
        rows.clear();
        cols.clear();
        rres.assign(now.row.size(), 0);
        cres.assign(now.col.size(), 0);
        for (std::size_t i = 0; i < now.row.size(); ++i) {
            rres[i] = now.row[i] - sums.expectRow[i];
            if (!(std::abs(rres[i]) <= tol * sums.boundRow[i] + 1e-300))
                rows.push_back(std::int64_t(i));
        }
        for (std::size_t j = 0; j < now.col.size(); ++j) {
            cres[j] = now.col[j] - sums.expectCol[j];
            if (!(std::abs(cres[j]) <= tol * sums.boundCol[j] + 1e-300))
                cols.push_back(std::int64_t(j));
        }
    };
    std::vector<std::int64_t> rows, cols;
    std::vector<double> rres, cres;
    mismatches(rows, cols, rres, cres);
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
        const double old = c.at(rows[0], cols[0]);
        c.set(rows[0], cols[0], old - rres[std::size_t(rows[0])]);
        check.verdict = "corrected";
        check.detail = "one cell located by its row and column checksums: " + std::to_string(old) + " -> " +
                       std::to_string(c.at(rows[0], cols[0]));
    } else {
        // Several cells (an operand fault spreads over a band of C): recompute the rows, or the
        // columns, that disagree, from the original operands.
        const bool byRows = !rows.empty() && (cols.empty() || rows.size() <= cols.size());
        recompute(c, originalA, originalB, config.shape, byRows ? rows : cols, byRows);
        check.verdict = "recomputed";
        check.detail = std::to_string(rows.size()) + " rows and " + std::to_string(cols.size()) +
                       " columns of C disagree with the checksums; " + (byRows ? "those rows" : "those columns") +
                       " recomputed from A and B";
    }
    mismatches(rows, cols, rres, cres);
    if (!rows.empty() || !cols.empty()) {
        check.verdict = "uncorrectable";
        check.detail += "; " + std::to_string(rows.size()) + " rows and " + std::to_string(cols.size()) +
                        " columns still disagree";
    }
    checks.push_back(check);
    return check.verdict != "uncorrectable";
}

}  // namespace gigacheck::strassen
