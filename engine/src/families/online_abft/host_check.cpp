// The online ABFT family's check decisions on the host, shared by the CPU ops and the CUDA
// host-checked path (host_check.hpp).
#include "families/online_abft/host_check.hpp"

#include "core/parallel_for.hpp"
#include "gigacheck/tf32x3.hpp"

#include <cblas.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace gigacheck::online_abft {

namespace {

// y = M^T x (M: rows x cols, row-major, x of length rows) or, with noTrans, y = M x (x of length cols).
void gemv(bool noTrans, const float* m, std::int64_t ld, std::int64_t rows, std::int64_t cols, const float* x,
          std::int64_t incx, float* y, std::int64_t incy)
{
    cblas_sgemv(CblasRowMajor, noTrans ? CblasNoTrans : CblasTrans, int(rows), int(cols), 1.0f, m, int(ld), x, int(incx),
                0.0f, y, int(incy));
}
void gemv(bool noTrans, const double* m, std::int64_t ld, std::int64_t rows, std::int64_t cols, const double* x,
          std::int64_t incx, double* y, std::int64_t incy)
{
    cblas_dgemv(CblasRowMajor, noTrans ? CblasNoTrans : CblasTrans, int(rows), int(cols), 1.0, m, int(ld), x, int(incx),
                0.0, y, int(incy));
}

InputFaultReport belowRoundoffReport(OnlineTarget operand, bool atEncoding, int step)
{
    InputFaultReport f;
    f.operand = operand;
    f.row = f.col = -1;
    f.beforeChecksum = atEncoding;
    f.caughtAtStep = atEncoding ? -1 : step;
    f.belowRoundoff = true;
    return f;
}

template <class T> VerifyResult verifyNow(const OnlineInputs& in, const CheckState& st, T* c, std::int64_t ldc)
{
    const Shape& s = in.shape;
    const Thresholds t = checkThresholds(in, st);
    if (in.checksums == 1)
        return verifyAndCorrect(BlockView<T>{c, s.m, s.q, ldc}, t);
    return verifyWeighted(c, s.m, s.q, ldc, in.checksums, t);
}

// The round-off bound taken again from the operands as they now are, panel by panel as the steps
// took it: a huge operand element, once restored, no longer holds every later threshold at Inf
// (checks that would pass whatever C holds).
template <class T> void rebuildBound(const OnlineInputs& in, CheckState& st, const T* a, std::int64_t lda, const T* b, std::int64_t ldb)
{
    const Shape& s = in.shape;
    const std::int64_t k = in.checksums;
    st.plainBound.reset(s.m, s.q);
    st.weightedBound.reset(s.m + k, s.q + k);
    for (std::int64_t offset = 0; offset < st.consumed; offset += in.panel) {
        const std::int64_t width = std::min(in.panel, st.consumed - offset);
        if (k == 1)
            accumulateBound(st.plainBound, BlockView<const T>{a + offset, s.m, width, lda},
                            BlockView<const T>{b + offset * ldb, width, s.q, ldb});
        else
            accumulateWeightedBound(st.weightedBound, a + offset, lda, b + offset * ldb, ldb, width);
    }
}

// C's checksum rows and columns computed again from the operands over the depth consumed so far.
template <class T> void recomputeChecksumLines(const OnlineInputs& in, const CheckState& st, HostOperands<T>& ops)
{
    const Shape& s = in.shape;
    const std::int64_t k = in.checksums;
    const T* a = ops.a();
    const T* b = ops.b();
    for (std::int64_t t = 0; t < k; ++t) {
        gemv(false, b, ops.ldb, st.consumed, s.q + k, a + (s.m + t) * ops.lda, 1, ops.c + (s.m + t) * ops.ldc, 1);
        gemv(true, a, ops.lda, s.m + k, st.consumed, b + s.q + t, ops.ldb, ops.c + s.q + t, ops.ldc);
    }
}

// A fault in A after its checksums spreads along a row of C (row r off by delta * B(k, :)), one in
// B along a column. Whatever pattern C's checks saw -- a whole line, or one cell when the line's
// other checks overflowed or cancelled -- the operands are compared with the sums kept at
// encoding before a correction of C is believed: a changed element is restored there and its line
// of C computed again. Returns false when the operands are as encoded; sets unlocated when an
// operand changed where its sums cannot locate it (C cannot then be trusted).
template <class T>
bool repairInputFault(OnlineInputs& in, CheckState& st, HostOperands<T>& ops, int step, bool& unlocated)
{
    const Shape& s = in.shape;
    const std::int64_t k = in.checksums;
    // Any mismatch, or a clean check whose thresholds overflowed, may come from an operand: a
    // whole row (A) or column (B) of C off, but also patterns that hide it -- the line's own check
    // overflowed and passes, a cell of C struck as well, only a checksum line off. The pattern does
    // not reliably name the operand, so both are compared with their kept sums (O(mn + nq), only
    // after a check that was not plainly clean).
    T* a = ops.a();
    T* b = ops.b();
    T* cf = ops.c;
    const std::int64_t lda = ops.lda, ldb = ops.ldb, ldc = ops.ldc;
    bool repaired = false;
    for (const bool inA : {true, false}) {
        if ((inA ? st.rowSumsA : st.rowSumsB).empty())
            continue;
        const OperandComparison cmp = inA ? locateAndRestore(a, s.m, s.n, lda, st.rowSumsA, st.colSumsA)
                                          : locateAndRestore(b, s.n, s.q, ldb, st.rowSumsB, st.colSumsB);
        unlocated = unlocated || cmp.unlocatable();
        if (cmp.belowRoundoff)
            in.inputFaults.push_back(belowRoundoffReport(inA ? OnlineTarget::A : OnlineTarget::B, false, step));
        for (const Located& l : cmp.located) {
            // Only a panel already multiplied has spread it into C. The row (column) of C is computed
            // again from the restored input over the depth consumed so far: exact whatever the fault
            // (subtracting delta * B(k, :) would cancel catastrophically for a huge or infinite delta).
            const std::int64_t inner = inA ? l.col : l.row;
            const bool spread = inner < st.consumed;
            if (spread && inA)
                gemv(false, b, ldb, st.consumed, s.q + k, a + l.row * lda, 1, cf + l.row * ldc, 1);
            else if (spread)
                gemv(true, a, lda, s.m + k, st.consumed, b + l.col, ldb, cf + l.col, ldc);
            in.inputFaults.push_back({inA ? OnlineTarget::A : OnlineTarget::B, l.row, l.col, l.delta, false, step,
                                      spread ? (inA ? s.q : s.m) : 0, true});
            repaired = true;
        }
        // The restored copy is the operand from now on: its sums are kept (as at encoding), so a
        // restore that differs from the original in its last bits is not found again at every check.
        if (!cmp.located.empty()) {
            if (inA)
                plainSums(a, s.m, s.n, lda, st.rowSumsA, st.colSumsA);
            else
                plainSums(b, s.n, s.q, ldb, st.rowSumsB, st.colSumsB);
        }
    }
    if (repaired)
        rebuildBound(in, st, a, lda, b, ldb);  // the CUDA path takes it again on the device too
    return repaired;
}

}  // namespace

void CheckState::reset(const Shape& s, int k)
{
    plainBound.reset(s.m, s.q);
    weightedBound.reset(s.m + k, s.q + k);
    rowSumsA.clear(), colSumsA.clear(), rowSumsB.clear(), colSumsB.clear();
    consumed = 0;
}

template <class T>
void plainSums(const T* x, std::int64_t rows, std::int64_t cols, std::int64_t ld, std::vector<double>& rowSums,
               std::vector<double>& colSums)
{
    rowSums.assign(std::size_t(rows), 0.0);
    colSums.assign(std::size_t(cols), 0.0);
    // Rows, then columns in strips read row by row; each line still summed in index order, so the
    // bits are those of one row-major pass whatever the split across threads.
    parallelFor(rows, cols, [&](std::int64_t i0, std::int64_t i1) {
        std::int64_t i = i0;
        for (; i + 4 <= i1; i += 4) {  // four rows side by side: their chains overlap
            const T* r0 = x + i * ld;
            const T* r1 = r0 + ld;
            const T* r2 = r1 + ld;
            const T* r3 = r2 + ld;
            double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
            for (std::int64_t j = 0; j < cols; ++j) {
                s0 += double(r0[j]);
                s1 += double(r1[j]);
                s2 += double(r2[j]);
                s3 += double(r3[j]);
            }
            rowSums[std::size_t(i)] = s0, rowSums[std::size_t(i + 1)] = s1;
            rowSums[std::size_t(i + 2)] = s2, rowSums[std::size_t(i + 3)] = s3;
        }
        for (; i < i1; ++i) {
            double s = 0;
            for (std::int64_t j = 0; j < cols; ++j)
                s += double(x[i * ld + j]);
            rowSums[std::size_t(i)] = s;
        }
    });
    parallelFor(cols, rows, [&](std::int64_t j0, std::int64_t j1) {
        double* __restrict col = colSums.data() + j0;
        for (std::int64_t i = 0; i < rows; ++i) {
            const T* row = x + i * ld + j0;
            for (std::int64_t j = 0; j < j1 - j0; ++j)
                col[j] += double(row[j]);
        }
    });
}

namespace {

// One axis's sums differ and the other's do not: is every difference within the round-off of its
// line's double sum? lines: the differing rows (byColumn false) or columns (true).
template <class T>
bool oneAxisBelowRoundoff(const T* x, std::int64_t rows, std::int64_t cols, std::int64_t ld,
                          const std::vector<std::int64_t>& lines, const std::vector<double>& now,
                          const std::vector<double>& good, bool byColumn)
{
    const double u = unitRoundoff(Precision::F64);  // the sums are taken in double
    for (const std::int64_t line : lines) {
        double squares = 0;
        const std::int64_t count = byColumn ? rows : cols;
        for (std::int64_t e = 0; e < count; ++e) {
            const double v = double(byColumn ? x[e * ld + line] : x[line * ld + e]);
            squares += v * v;
        }
        const double diff = std::fabs(now[std::size_t(line)] - good[std::size_t(line)]);
        if (!(diff <= operandSumThreshold(squares, count, u)))
            return false;  // NaN and Inf included
    }
    return true;
}

}  // namespace

template <class T>
OperandComparison locateAndRestore(T* x, std::int64_t rows, std::int64_t cols, std::int64_t ld,
                                   const std::vector<double>& goodRows, const std::vector<double>& goodCols)
{
    std::vector<double> nowRows, nowCols;
    plainSums(x, rows, cols, ld, nowRows, nowCols);
    std::vector<std::int64_t> badRows, badCols;
    for (std::int64_t i = 0; i < rows; ++i)
        if (!(nowRows[std::size_t(i)] == goodRows[std::size_t(i)]))
            badRows.push_back(i);
    for (std::int64_t j = 0; j < cols; ++j)
        if (!(nowCols[std::size_t(j)] == goodCols[std::size_t(j)]))
            badCols.push_back(j);
    OperandComparison result;
    result.changed = !badRows.empty() || !badCols.empty();
    if (result.changed && (badRows.empty() || badCols.empty()))
        result.belowRoundoff = oneAxisBelowRoundoff(x, rows, cols, ld, badRows.empty() ? badCols : badRows,
                                                    badRows.empty() ? nowCols : nowRows,
                                                    badRows.empty() ? goodCols : goodRows, badRows.empty());
    if (badRows.empty() || badCols.empty() || (badRows.size() > 1 && badCols.size() > 1))
        return result;  // not locatable from plain sums
    std::vector<Located>& out = result.located;
    // The element is rebuilt from the good sum of its line without it (not as value - difference:
    // a huge fault's difference has lost the element's own digits, an infinite one has none).
    const auto restore = [&](std::int64_t i, std::int64_t j, bool fromColumn) {
        const T before = x[i * ld + j];
        double rest = 0;
        if (fromColumn) {
            for (std::int64_t r = 0; r < rows; ++r)
                if (r != i)
                    rest += double(x[r * ld + j]);
            x[i * ld + j] = T(goodCols[std::size_t(j)] - rest);
        } else {
            for (std::int64_t c = 0; c < cols; ++c)
                if (c != j)
                    rest += double(x[i * ld + c]);
            x[i * ld + j] = T(goodRows[std::size_t(i)] - rest);
        }
        out.push_back({i, j, double(before) - double(x[i * ld + j])});
    };
    if (badRows.size() == 1)
        for (std::int64_t j : badCols)
            restore(badRows[0], j, true);
    else
        for (std::int64_t i : badRows)
            restore(i, badCols[0], false);
    return result;
}

template <class T>
std::vector<Located> checkInputAtEncoding(OnlineInputs& in, T* x, std::int64_t rows, std::int64_t cols, std::int64_t ld,
                                          OnlineTarget operand, const std::vector<double>& goodRows,
                                          const std::vector<double>& goodCols)
{
    if (goodRows.empty())
        return {};
    const OperandComparison cmp = locateAndRestore(x, rows, cols, ld, goodRows, goodCols);
    for (const Located& l : cmp.located)
        in.inputFaults.push_back({operand, l.row, l.col, l.delta, true, -1, 0, true});
    if (cmp.belowRoundoff)
        in.inputFaults.push_back(belowRoundoffReport(operand, true, -1));
    else if (cmp.unlocatable())
        in.inputFaults.push_back({operand, -1, -1, 0, true, -1, 0, false});
    return cmp.located;
}

Thresholds checkThresholds(const OnlineInputs& in, const CheckState& st)
{
    // tf32x3: FP32's model plus the tensor cores' accumulation (gigacheck/tf32x3.hpp); the CPU's
    // emulation of the other kernels multiplies rounded operands exactly, in FP32.
    if (in.checksums == 1)
        return thresholds(st.plainBound,
                          in.gemm == GemmVariant::Tf32x3 ? roundoffModelOf(in.precision, in.gemm)
                                                         : roundoffModel(in.precision),
                          in.lambda);
    return weightedThresholds(st.weightedBound, in.shape.m, in.shape.q, in.checksums, unitRoundoff(in.precision),
                              in.lambda);
}

bool thresholdsFinite(const Thresholds& t)
{
    const auto finite = [](const std::vector<double>& v) {
        return std::all_of(v.begin(), v.end(), [](double x) { return std::isfinite(x); });
    };
    return finite(t.row) && finite(t.col);
}

template <class T> VerifyResult checkOnHost(OnlineInputs& in, CheckState& st, HostOperands<T>& ops, int step)
{
    VerifyResult r = verifyNow(in, st, ops.c, ops.ldc);
    // Any mismatch: look for its cause in the inputs before believing in a fault of C itself. A
    // clean check whose thresholds overflowed saw nothing (a huge operand element raised them to
    // Inf, so every residual passes): the operands are compared with their kept sums then too.
    bool unlocated = false;
    const bool vacuous = r.verdict == Verdict::Clean && !thresholdsFinite(checkThresholds(in, st));
    if ((r.verdict != Verdict::Clean || vacuous) && repairInputFault(in, st, ops, step, unlocated)) {
        // The first pass judged C through the operand fault's spread (lines it overflowed or
        // shifted): its corrections are undone -- the cells back to their values, rebuilt checksum
        // lines computed again from the restored operands -- and C is checked afresh, with the
        // bound taken again, so a cell of C struck as well is found where it is.
        for (auto x = r.corrections.rbegin(); x != r.corrections.rend(); ++x)
            ops.c[x->row * ops.ldc + x->col] = T(x->before);
        r.corrections.clear();
        if (r.checksumsRecomputed)
            recomputeChecksumLines(in, st, ops);
        // The input fault is out of C: the check must now pass (or correct what else is there).
        const VerifyResult again = verifyNow(in, st, ops.c, ops.ldc);
        if (again.verdict != Verdict::Uncorrectable) {
            r.verdict = Verdict::Corrected;
            r.corrections = again.corrections;
            r.checksumsRecomputed = r.checksumsRecomputed || again.checksumsRecomputed;
        } else {
            r.verdict = Verdict::Uncorrectable;
        }
    }
    if (unlocated)
        r.verdict = Verdict::Uncorrectable;  // an operand changed where its sums cannot say where
    return r;
}

ResidualVerdict classifyResiduals(const std::vector<double>& rowRes, const std::vector<double>& colRes, int k,
                                  const Thresholds& t)
{
    ResidualVerdict v;
    const std::int64_t rowLines = std::int64_t(t.row.size()), colLines = std::int64_t(t.col.size());
    if (rowRes.size() != std::size_t(rowLines * k) || colRes.size() != std::size_t(colLines * k))
        throw InputError("classifyResiduals: residuals do not match the thresholds");
    WeightedMismatches m = weightedMismatches(rowRes.data(), rowLines, colRes.data(), colLines, k, t);
    v.clean = m.badRows.empty() && m.badCols.empty();
    v.badRows = std::move(m.badRows);
    v.badCols = std::move(m.badCols);
    // As verifyWeighted / verifyAndCorrect report a clean check.
    v.result.maxCleanResidualRatio = m.maxCleanResidualRatio;
    v.result.minThreshold = std::numeric_limits<double>::infinity();
    for (double x : t.row)
        v.result.minThreshold = std::min(v.result.minThreshold, x), v.result.maxThreshold = std::max(v.result.maxThreshold, x);
    for (double x : t.col)
        v.result.minThreshold = std::min(v.result.minThreshold, x), v.result.maxThreshold = std::max(v.result.maxThreshold, x);
    return v;
}

#define GIGACHECK_ONLINE_HOST_CHECK(T)                                                                                   \
    template void plainSums<T>(const T*, std::int64_t, std::int64_t, std::int64_t, std::vector<double>&,                 \
                               std::vector<double>&);                                                                    \
    template OperandComparison locateAndRestore<T>(T*, std::int64_t, std::int64_t, std::int64_t,                         \
                                                   const std::vector<double>&, const std::vector<double>&);              \
    template std::vector<Located> checkInputAtEncoding<T>(OnlineInputs&, T*, std::int64_t, std::int64_t, std::int64_t,   \
                                                          OnlineTarget, const std::vector<double>&,                      \
                                                          const std::vector<double>&);                                   \
    template VerifyResult checkOnHost<T>(OnlineInputs&, CheckState&, HostOperands<T>&, int);
GIGACHECK_ONLINE_HOST_CHECK(float)
GIGACHECK_ONLINE_HOST_CHECK(double)
#undef GIGACHECK_ONLINE_HOST_CHECK

}  // namespace gigacheck::online_abft
