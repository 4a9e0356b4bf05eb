#include "families/online_abft/cpu/panel_ops.hpp"

#include "families/online_abft/vote_rule.hpp"

#include <cblas.h>

#include <algorithm>
#include <cmath>
#include <cstring>

namespace gigacheck::online_abft::cpu_ops {

namespace {

template <class T> T* slot(const cpu::OpContext& c, int s) { return static_cast<T*>(c.buffers[std::size_t(s)]); }
std::int64_t ldOf(const cpu::OpContext& c, int s) { return bufferOf(c.schedule, s).ld; }
State& stateOf(const cpu::OpContext& c) { return *static_cast<State*>(c.state); }

// C_f as it stands after this op, for a viewer that animates the steps (no copy: the observer
// reads it during the call).
template <class T> void reportSnapshot(const cpu::OpContext& c, const Operation& op)
{
    const OnlineInputs& in = inputsOf(c.request);
    if (!in.onStep || !*in.onStep)
        return;
    StepSnapshot s;
    s.opId = op.id;
    s.kind = op.kind;
    s.step = op.block.k;
    s.data = c.buffers[std::size_t(kSlotC)];
    s.precision = in.precision;
    s.resultRows = in.shape.m;
    s.resultCols = in.shape.q;
    s.rows = in.shape.m + in.checksums;
    s.cols = in.shape.q + in.checksums;
    s.ld = ldOf(c, kSlotC);
    (*in.onStep)(s);
}

void gemm(const float* a, std::int64_t lda, const float* b, std::int64_t ldb, float* c, std::int64_t ldc,
          std::int64_t m, std::int64_t n, std::int64_t k, bool accumulate)
{
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, int(m), int(n), int(k), 1.0f, a, int(lda), b, int(ldb),
                accumulate ? 1.0f : 0.0f, c, int(ldc));
}
void gemm(const double* a, std::int64_t lda, const double* b, std::int64_t ldb, double* c, std::int64_t ldc,
          std::int64_t m, std::int64_t n, std::int64_t k, bool accumulate)
{
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, int(m), int(n), int(k), 1.0, a, int(lda), b, int(ldb),
                accumulate ? 1.0 : 0.0, c, int(ldc));
}

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

// Plain row and column sums of a rows x cols matrix in double, always in the same order, so that
// two calls on the same values give the same bits: any difference is a changed element.
template <class T>
void plainSums(const T* x, std::int64_t rows, std::int64_t cols, std::int64_t ld, std::vector<double>& rowSums,
               std::vector<double>& colSums)
{
    rowSums.assign(std::size_t(rows), 0.0);
    colSums.assign(std::size_t(cols), 0.0);
    for (std::int64_t i = 0; i < rows; ++i) {
        double s = 0;
        for (std::int64_t j = 0; j < cols; ++j) {
            const double v = double(x[i * ld + j]);
            s += v;
            colSums[std::size_t(j)] += v;
        }
        rowSums[std::size_t(i)] = s;
    }
}

// Compares an input's sums with those kept when it was known good; locates single or collinear
// changed elements (row i, column j: the difference of column j's sum, or of row i's) and restores
// them. Returns the located elements with their deltas; `found` tells whether anything differed.
struct Located {
    std::int64_t row, col;
    double delta;
};
template <class T>
std::vector<Located> locateAndRestore(T* x, std::int64_t rows, std::int64_t cols, std::int64_t ld,
                                      const std::vector<double>& goodRows, const std::vector<double>& goodCols,
                                      bool& found)
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
    found = !badRows.empty() || !badCols.empty();
    std::vector<Located> out;
    if (badRows.empty() || badCols.empty() || (badRows.size() > 1 && badCols.size() > 1))
        return out;  // not locatable from plain sums
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
    return out;
}

Injection injectionOf(const PlannedFault& f)
{
    Injection inj;
    inj.model = f.model;
    inj.delta = f.delta;
    inj.bit = f.bit;
    return inj;
}

}  // namespace

std::unique_ptr<cpu::RunState> makeState(const cpu::OpContext& context)
{
    auto state = std::make_unique<State>();
    const Shape& s = inputsOf(context.request).shape;
    const int k = inputsOf(context.request).checksums;
    state->plainBound.reset(s.m, s.q);
    state->weightedBound.reset(s.m + k, s.q + k);
    return state;
}

template <class T> void loadInputs(cpu::OpContext& c, const Operation& op, OpOutcome&)
{
    const HostMatrix& src = op.host.matrix == Operand::A ? *inputsOf(c.request).a : *inputsOf(c.request).b;
    T* dst = slot<T>(c, op.dst);
    const std::int64_t ld = ldOf(c, op.dst);
    for (std::int64_t r = 0; r < op.host.rows; ++r)
        std::memcpy(dst + r * ld, src.as<T>() + r * src.cols(), std::size_t(op.host.cols) * sizeof(T));
}

template <class T> void storeResult(cpu::OpContext& c, const Operation& op, OpOutcome&)
{
    HostMatrix& dst = *inputsOf(c.request).c;
    const T* src = slot<T>(c, op.dst);
    const std::int64_t ld = ldOf(c, op.dst);
    for (std::int64_t r = 0; r < op.host.rows; ++r)
        std::memcpy(dst.as<T>() + r * dst.cols(), src + r * ld, std::size_t(op.host.cols) * sizeof(T));
}

// Applies one planned fault to the element it names; returns the element's address.
template <class T> T* faultCell(cpu::OpContext& c, const PlannedFault& f)
{
    const Shape& s = inputsOf(c.request).shape;
    const OnlineFault& at = f.at;
    switch (at.target) {
    case OnlineTarget::A: return slot<T>(c, kSlotA) + at.row * ldOf(c, kSlotA) + at.col;
    case OnlineTarget::B: return slot<T>(c, kSlotB) + at.row * ldOf(c, kSlotB) + at.col;
    case OnlineTarget::ChecksumRow: return slot<T>(c, kSlotC) + (s.m + at.row) * ldOf(c, kSlotC) + at.col;
    case OnlineTarget::ChecksumCol: return slot<T>(c, kSlotC) + at.row * ldOf(c, kSlotC) + s.q + at.col;
    case OnlineTarget::Result: break;
    }
    return slot<T>(c, kSlotC) + at.row * ldOf(c, kSlotC) + at.col;
}

template <class T> void applyPlanned(cpu::OpContext& c, PlannedFault& f, T* cell)
{
    f.before = double(*cell);
    *cell = T(applyFault(injectionOf(f), double(*cell), inputsOf(c.request).precision));
    f.after = double(*cell);
    f.applied = true;
}

InjectEvent injectEvent(const Operation& op, const PlannedFault& f, const Shape& s, int step)
{
    Injection inj;
    inj.block = BlockIndex{0, 0, step};
    inj.target = f.at.target == OnlineTarget::ChecksumRow   ? FaultTarget::ChecksumRow
                 : f.at.target == OnlineTarget::ChecksumCol ? FaultTarget::ChecksumCol
                                                            : FaultTarget::Result;
    inj.localRow = f.at.target == OnlineTarget::ChecksumRow ? s.m + f.at.row : f.at.row;
    inj.localCol = f.at.target == OnlineTarget::ChecksumCol ? s.q + f.at.col : f.at.col;
    inj.globalRow = f.at.target == OnlineTarget::ChecksumRow ? -1 : f.at.row;
    inj.globalCol = f.at.target == OnlineTarget::ChecksumCol ? -1 : f.at.col;
    inj.model = f.model;
    inj.delta = f.delta;
    inj.bit = f.bit;
    inj.before = f.before;
    inj.after = f.after;
    inj.applied = f.applied;
    return InjectEvent{op.id, inj, 0};
}

template <class T> void encode(cpu::OpContext& c, const Operation&, OpOutcome&)
{
    OnlineInputs& in = inputsOf(c.request);
    State& st = stateOf(c);
    const Shape& s = inputsOf(c.request).shape;
    T* a = slot<T>(c, kSlotA);
    T* b = slot<T>(c, kSlotB);
    const std::int64_t lda = ldOf(c, kSlotA), ldb = ldOf(c, kSlotB);

    // Faults that strike before the checksums are taken.
    for (std::size_t i : faultsAfter(in, -1))
        applyPlanned(c, in.faults[i], faultCell<T>(c, in.faults[i]));

    // The inputs as they arrived against their sums taken where they were made: a difference is an
    // input corrupted before its checksums (it would otherwise give a self-consistent, wrong C).
    const auto checkInput = [&](T* x, std::int64_t rows, std::int64_t cols, std::int64_t ld, OnlineTarget operand,
                                const std::vector<double>& goodRows, const std::vector<double>& goodCols) {
        if (goodRows.empty())
            return;
        bool found = false;
        const auto located = locateAndRestore(x, rows, cols, ld, goodRows, goodCols, found);
        for (const Located& l : located)
            in.inputFaults.push_back({operand, l.row, l.col, l.delta, true, -1, 0, true});
        if (found && located.empty())
            in.inputFaults.push_back({operand, -1, -1, 0, true, -1, 0, false});
    };
    checkInput(a, s.m, s.n, lda, OnlineTarget::A, in.hostRowSumsA, in.hostColSumsA);
    checkInput(b, s.n, s.q, ldb, OnlineTarget::B, in.hostRowSumsB, in.hostColSumsB);

    weightedColumnChecksums(a, s.m, s.n, lda, in.checksums);
    weightedRowChecksums(b, s.n, s.q, ldb, in.checksums);
    plainSums(a, s.m, s.n, lda, st.rowSumsA, st.colSumsA);
    plainSums(b, s.n, s.q, ldb, st.rowSumsB, st.colSumsB);
}

template <class T> void panelProduct(cpu::OpContext& c, const Operation& op, OpOutcome&)
{
    const OnlineInputs& in = inputsOf(c.request);
    State& st = stateOf(c);
    const Shape& s = inputsOf(c.request).shape;
    const std::int64_t k = in.checksums, lda = ldOf(c, kSlotA), ldb = ldOf(c, kSlotB), ldc = ldOf(c, kSlotC);
    const std::int64_t offset = std::int64_t(op.block.k) * in.panel, width = op.depth;
    const T* a = slot<T>(c, kSlotA) + offset;
    const T* b = slot<T>(c, kSlotB) + offset * ldb;
    // The augmented panels: the checksum rows of A and columns of B ride along, so C_f keeps
    // its checksum rows / columns after every step (seed 002 Theorem 2).
    gemm(a, lda, b, ldb, slot<T>(c, kSlotC), ldc, s.m + k, s.q + k, width, op.accumulate);
    if (k == 1)
        accumulateBound(st.plainBound, BlockView<const T>{a, s.m, width, lda}, BlockView<const T>{b, width, s.q, ldb});
    else
        accumulateWeightedBound(st.weightedBound, a, lda, b, ldb, width);
    st.consumed = offset + width;
    reportSnapshot<T>(c, op);
}

template <class T> void injectFault(cpu::OpContext& c, const Operation& op, OpOutcome& out)
{
    OnlineInputs& in = inputsOf(c.request);
    const Shape& s = inputsOf(c.request).shape;
    const int step = op.block.k;
    for (std::size_t i : faultsAfter(in, step)) {
        PlannedFault& f = in.faults[i];
        if (in.scheme == Scheme::Tmr) {
            T* cell = slot<T>(c, op.dst) + f.at.row * ldOf(c, op.dst) + f.at.col;
            applyPlanned(c, f, cell);
        } else {
            applyPlanned(c, f, faultCell<T>(c, f));
        }
        if (f.at.target != OnlineTarget::A && f.at.target != OnlineTarget::B)
            out.injections.push_back(injectEvent(op, f, s, step));
    }
    if (in.scheme != Scheme::Tmr)
        reportSnapshot<T>(c, op);
}

// A fault in A after its checksums spreads along a row of C (row r off by delta * B(k, :)), one in
// B along a column; C's own checksums then mismatch on the other axis only, every line at once.
// Found in the input against the sums kept at encoding, restored there, and taken out of C.
template <class T> bool repairInputFault(cpu::OpContext& c, const VerifyResult& r, int step)
{
    OnlineInputs& in = inputsOf(c.request);
    State& st = stateOf(c);
    const Shape& s = inputsOf(c.request).shape;
    const std::int64_t k = in.checksums;
    const auto resultLines = [](const std::vector<std::int64_t>& v, std::int64_t limit) {
        return std::count_if(v.begin(), v.end(), [&](std::int64_t x) { return x < limit; });
    };
    const auto rows = resultLines(r.mismatchRows, s.m), cols = resultLines(r.mismatchCols, s.q);
    // Its own row (column) may mismatch too when the fault is huge (the checksum cell of that line
    // overflows), and the check then "corrects" the line from the other axis: still an input fault.
    const bool inA = rows <= 1 && cols >= 2, inB = cols <= 1 && rows >= 2;
    if (!inA && !inB)
        return false;
    T* a = slot<T>(c, kSlotA);
    T* b = slot<T>(c, kSlotB);
    T* cf = slot<T>(c, kSlotC);
    const std::int64_t lda = ldOf(c, kSlotA), ldb = ldOf(c, kSlotB), ldc = ldOf(c, kSlotC);
    bool found = false;
    const auto located = inA ? locateAndRestore(a, s.m, s.n, lda, st.rowSumsA, st.colSumsA, found)
                             : locateAndRestore(b, s.n, s.q, ldb, st.rowSumsB, st.colSumsB, found);
    if (located.empty())
        return false;
    for (const Located& l : located) {
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
    }
    return true;
}

template <class T> VerifyResult verifyNow(cpu::OpContext& c, const Operation& op)
{
    const OnlineInputs& in = inputsOf(c.request);
    State& st = stateOf(c);
    const Shape& s = inputsOf(c.request).shape;
    T* cf = slot<T>(c, kSlotC);
    const std::int64_t ldc = ldOf(c, kSlotC);
    (void)op;
    if (in.checksums == 1) {
        const Thresholds t = thresholds(st.plainBound, roundoffModel(inputsOf(c.request).precision), in.lambda);
        return verifyAndCorrect(BlockView<T>{cf, s.m, s.q, ldc}, t);
    }
    const Thresholds t = weightedThresholds(st.weightedBound, s.m, s.q, in.checksums,
                                            unitRoundoff(inputsOf(c.request).precision), in.lambda);
    return verifyWeighted(cf, s.m, s.q, ldc, in.checksums, t);
}

template <class T> void check(cpu::OpContext& c, const Operation& op, OpOutcome& out)
{
    const Shape& s = inputsOf(c.request).shape;
    VerifyResult r = verifyNow<T>(c, op);
    // A whole line of C off (uncorrectable, or corrected as a collinear set): look for its cause in
    // the inputs before believing in that many independent faults.
    if (r.verdict != Verdict::Clean && repairInputFault<T>(c, r, op.block.k)) {
        // The input fault is out of C: the check must now pass (or correct what else is there).
        const VerifyResult again = verifyNow<T>(c, op);
        if (again.verdict != Verdict::Uncorrectable) {
            r.verdict = Verdict::Corrected;
            r.corrections.insert(r.corrections.end(), again.corrections.begin(), again.corrections.end());
            r.checksumsRecomputed = r.checksumsRecomputed || again.checksumsRecomputed;
        } else {
            r.verdict = Verdict::Uncorrectable;
        }
    }
    VerifyEvent ev;
    ev.opId = op.id;
    ev.block = BlockIndex{0, 0, op.block.k};
    ev.rows = s.m;
    ev.cols = s.q;
    ev.result = std::move(r);
    out.verification = std::move(ev);
    reportSnapshot<T>(c, op);
}

template <class T> void replicaProduct(cpu::OpContext& c, const Operation& op, OpOutcome&)
{
    const Shape& s = inputsOf(c.request).shape;
    gemm(slot<T>(c, kSlotA), ldOf(c, kSlotA), slot<T>(c, kSlotB), ldOf(c, kSlotB), slot<T>(c, op.dst), ldOf(c, op.dst),
         s.m, s.q, s.n, false);
}

template <class T> void vote(cpu::OpContext& c, const Operation&, OpOutcome&)
{
    const Shape& s = inputsOf(c.request).shape;
    T* r0 = slot<T>(c, kSlotC);
    const T* r1 = slot<T>(c, kSlotReplica1);
    const T* r2 = slot<T>(c, kSlotReplica2);
    VoteReport report;
    const std::int64_t n = s.m * s.q;
    for (std::int64_t x = 0; x < n; ++x) {
        const VoteOutcome v = majority(r0[x], r1[x], r2[x]);
        if (v.outvoted)
            ++report.cellsOutvoted;
        if (!v.majority) {
            if (report.noMajority.size() < 64)
                report.noMajority.emplace_back(x / s.q, x % s.q);
            ++report.cellsWithoutMajority;
        }
        r0[x] = T(v.value);
    }
    inputsOf(c.request).vote = std::move(report);
}

#define GIGACHECK_ONLINE_INSTANTIATE(T)                                               \
    template void loadInputs<T>(cpu::OpContext&, const Operation&, OpOutcome&);       \
    template void encode<T>(cpu::OpContext&, const Operation&, OpOutcome&);           \
    template void panelProduct<T>(cpu::OpContext&, const Operation&, OpOutcome&);     \
    template void injectFault<T>(cpu::OpContext&, const Operation&, OpOutcome&);      \
    template void check<T>(cpu::OpContext&, const Operation&, OpOutcome&);            \
    template void replicaProduct<T>(cpu::OpContext&, const Operation&, OpOutcome&);   \
    template void vote<T>(cpu::OpContext&, const Operation&, OpOutcome&);             \
    template void storeResult<T>(cpu::OpContext&, const Operation&, OpOutcome&);
GIGACHECK_ONLINE_INSTANTIATE(float)
GIGACHECK_ONLINE_INSTANTIATE(double)
#undef GIGACHECK_ONLINE_INSTANTIATE

}  // namespace gigacheck::online_abft::cpu_ops
