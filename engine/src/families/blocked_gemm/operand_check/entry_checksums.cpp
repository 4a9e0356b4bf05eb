// The entry checksums of A and B (taken once, on the host, where the operands entered the
// program) and the comparison of an operand block copy with them (gigacheck/blocked_gemm/operand_checks.hpp).
#include "gigacheck/blocked_gemm/operand_checks.hpp"

#include "gigacheck/abft.hpp"
#include "core/parallel_for.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

namespace gigacheck {

namespace {

// Row sums of m over the column range of every block of `starts` (count blocks): out[k].sum[r].
template <class T>
void rowSumsPerBlock(const T* m, std::int64_t rows, std::int64_t cols, int blocks,
                     const auto& offsetOf, const auto& extentOf, std::vector<LineSums>& out)
{
    out.assign(std::size_t(blocks), {std::vector<double>(std::size_t(rows), 0.0), std::vector<double>(std::size_t(rows), 0.0)});
    parallelFor(rows, cols, [&](std::int64_t r0, std::int64_t r1) {
        for (std::int64_t r = r0; r < r1; ++r)
            for (int k = 0; k < blocks; ++k) {
                const T* row = m + r * cols + offsetOf(k);
                const std::int64_t n = extentOf(k);
                double q0 = 0, q1 = 0;  // the threshold's scale: any order will do
                std::int64_t c = 0;
                for (; c + 2 <= n; c += 2) {
                    q0 += double(row[c]) * double(row[c]);
                    q1 += double(row[c + 1]) * double(row[c + 1]);
                }
                for (; c < n; ++c)
                    q0 += double(row[c]) * double(row[c]);
                out[std::size_t(k)].sum[std::size_t(r)] = lineSum(row, n);
                out[std::size_t(k)].squares[std::size_t(r)] = q0 + q1;
            }
    });
}

// Column sums of m over the row range of every block: out[i].sum[c], in row order per column
// (the order compareWithEntry sums a copy in, so that on the host both agree bit for bit).
template <class T>
void columnSumsPerBlock(const T* m, std::int64_t rows, std::int64_t cols, int blocks,
                        const auto& offsetOf, const auto& extentOf, std::vector<LineSums>& out)
{
    out.assign(std::size_t(blocks), {std::vector<double>(std::size_t(cols), 0.0), std::vector<double>(std::size_t(cols), 0.0)});
    parallelFor(cols, rows, [&](std::int64_t c0, std::int64_t c1) {
        for (int i = 0; i < blocks; ++i) {
            double* sum = out[std::size_t(i)].sum.data();
            double* squares = out[std::size_t(i)].squares.data();
            for (std::int64_t r = offsetOf(i), end = offsetOf(i) + extentOf(i); r < end; ++r) {
                const T* row = m + r * cols;
                for (std::int64_t c = c0; c < c1; ++c) {
                    const double v = double(row[c]);
                    sum[c] += v;
                    squares[c] += v * v;
                }
            }
        }
    });
}

template <class T>
void take(const HostMatrix& a, const HostMatrix& b, EntryChecksums& e)
{
    const Plan& p = e.plan;
    const auto rowOffset = [&](int i) { return p.rowOffset(i); };
    const auto rowsOf = [&](int i) { return p.rowsOf(i); };
    const auto depthOffset = [&](int k) { return p.depthOffset(k); };
    const auto depthOf = [&](int k) { return p.depthOf(k); };
    const auto colOffset = [&](int j) { return p.colOffset(j); };
    const auto colsOf = [&](int j) { return p.colsOf(j); };
    columnSumsPerBlock(a.as<T>(), a.rows(), a.cols(), p.splitM, rowOffset, rowsOf, e.aColumns);
    rowSumsPerBlock(a.as<T>(), a.rows(), a.cols(), p.splitN, depthOffset, depthOf, e.aRows);
    rowSumsPerBlock(b.as<T>(), b.rows(), b.cols(), p.splitQ, colOffset, colsOf, e.bRows);
    columnSumsPerBlock(b.as<T>(), b.rows(), b.cols(), p.splitN, depthOffset, depthOf, e.bColumns);
}

}  // namespace

EntryChecksums takeEntryChecksums(const HostMatrix& a, const HostMatrix& b, const Plan& plan)
{
    const auto started = std::chrono::steady_clock::now();
    EntryChecksums e;
    e.plan = plan;
    if (a.precision() == Precision::F64)
        take<double>(a, b, e);
    else
        take<float>(a, b, e);
    e.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return e;
}

OperandMismatch compareSumsWithEntry(const EntryChecksums& entry, char operand, int blockRow, int blockCol,
                                     const double* copySums, double lambda, double* cleanRatio)
{
    const Plan& p = entry.plan;
    const bool isA = operand == 'a';
    const std::int64_t rows = isA ? p.rowsOf(blockRow) : p.depthOf(blockRow);
    const std::int64_t cols = isA ? p.depthOf(blockCol) : p.colsOf(blockCol);
    const LineSums& sums = isA ? entry.aColumns[std::size_t(blockRow)] : entry.bRows[std::size_t(blockCol)];
    const std::int64_t first = p.depthOffset(isA ? blockCol : blockRow);  // the block's depth range
    const std::int64_t lines = isA ? cols : rows, count = isA ? rows : cols;
    OperandMismatch m;
    m.operand = operand;
    m.blockRow = blockRow;
    m.blockCol = blockCol;
    const double u = unitRoundoff(p.precision);
    double clean = 0;
    for (std::int64_t l = 0; l < lines; ++l) {
        const std::size_t at = std::size_t(first + l);
        const double threshold = operandSumThreshold(sums.squares[at], count, u, lambda);
        const double residual = std::fabs(copySums[l] - sums.sum[at]);
        if (!(residual <= threshold)) {  // NaN and Inf mismatch
            m.lines.push_back(l);
            m.maxResidualRatio = std::max(m.maxResidualRatio, threshold > 0 ? residual / threshold : HUGE_VAL);
            if (std::isnan(residual))
                m.maxResidualRatio = HUGE_VAL;
        } else if (threshold > 0) {
            clean = std::max(clean, residual / threshold);
        }
    }
    if (cleanRatio)
        *cleanRatio = clean;
    return m;
}

template <class T>
OperandMismatch compareWithEntry(const EntryChecksums& entry, char operand, int blockRow, int blockCol, const T* block,
                                 std::int64_t ld, double lambda, double* cleanRatio)
{
    const Plan& p = entry.plan;
    const bool isA = operand == 'a';
    // A (i, k): column sums over its rows; B (k, j): row sums over its columns.
    const std::int64_t rows = isA ? p.rowsOf(blockRow) : p.depthOf(blockRow);
    const std::int64_t cols = isA ? p.depthOf(blockCol) : p.colsOf(blockCol);
    std::vector<double> copy(std::size_t(isA ? cols : rows), 0.0);
    if (isA) {
        for (std::int64_t r = 0; r < rows; ++r)
            for (std::int64_t c = 0; c < cols; ++c)
                copy[std::size_t(c)] += double(block[r * ld + c]);
    } else {
        for (std::int64_t r = 0; r < rows; ++r)
            copy[std::size_t(r)] = lineSum(block + r * ld, cols);
    }
    return compareSumsWithEntry(entry, operand, blockRow, blockCol, copy.data(), lambda, cleanRatio);
}

template OperandMismatch compareWithEntry<float>(const EntryChecksums&, char, int, int, const float*, std::int64_t,
                                                 double, double*);
template OperandMismatch compareWithEntry<double>(const EntryChecksums&, char, int, int, const double*, std::int64_t,
                                                  double, double*);

void OperandCheckLog::add(OperandMismatch m, double cleanRatio)
{
    const std::lock_guard lock(mutex);
    ++report.copiesChecked;
    report.maxCleanRatio = std::max(report.maxCleanRatio, cleanRatio);
    report.mismatches.push_back(std::move(m));
}

void OperandCheckLog::addClean(double cleanRatio)
{
    const std::lock_guard lock(mutex);
    ++report.copiesChecked;
    report.maxCleanRatio = std::max(report.maxCleanRatio, cleanRatio);
}

}  // namespace gigacheck
