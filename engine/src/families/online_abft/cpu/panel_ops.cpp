#include "families/online_abft/cpu/panel_ops.hpp"

#include "families/online_abft/injection_event.hpp"
#include "families/online_abft/vote_rule.hpp"

#include "gemm/tf32x3_host.hpp"
#include "gigacheck/input_rounding.hpp"

#include <cblas.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <type_traits>

namespace gigacheck::online_abft::cpu_ops {

namespace {

template <class T> T* slot(const cpu::OpContext& c, int s) { return static_cast<T*>(c.buffers[std::size_t(s)]); }
std::int64_t ldOf(const cpu::OpContext& c, int s) { return bufferOf(c.schedule, s).ld; }
State& stateOf(const cpu::OpContext& c) { return *static_cast<State*>(c.state); }

// C_f as it stands after this op, for a viewer that animates the steps (no copy: the observer
// reads it during the call).
template <class T> void reportSnapshot(const cpu::OpContext& c, const Operation& op, int step)
{
    const OnlineInputs& in = inputsOf(c.request);
    if (!in.onStep || !*in.onStep)
        return;
    StepSnapshot s;
    s.opId = op.id;
    s.kind = op.kind;
    s.step = step;
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

// C[m x n] (+)= A[m x k] B[k x n] by the run's kernel: --gemm tf32x3 on FP32 as the device runs it
// (the split into TF32 big and small parts, three products of the parts; gemm/tf32x3_host.hpp),
// everything else one OpenBLAS product.
template <class T>
void product(GemmVariant variant, const T* a, std::int64_t lda, const T* b, std::int64_t ldb, T* c, std::int64_t ldc,
             std::int64_t m, std::int64_t n, std::int64_t k, bool accumulate)
{
    if constexpr (std::is_same_v<T, float>)
        if (variant == GemmVariant::Tf32x3)
            return tf32x3GemmHost(a, lda, b, ldb, c, ldc, m, k, n, accumulate);
    gemm(a, lda, b, ldb, c, ldc, m, n, k, accumulate);
}

Injection injectionOf(const PlannedFault& f)
{
    Injection inj;
    inj.model = f.model;
    inj.delta = f.delta;
    inj.bit = f.bit;
    inj.bit2 = f.bit2;
    return inj;
}

}  // namespace

std::unique_ptr<cpu::RunState> makeState(const cpu::OpContext& context)
{
    auto state = std::make_unique<State>();
    state->check.reset(inputsOf(context.request).shape, inputsOf(context.request).checksums);
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
    checkInputAtEncoding(in, a, s.m, s.n, lda, OnlineTarget::A, in.hostRowSumsA, in.hostColSumsA);
    checkInputAtEncoding(in, b, s.n, s.q, ldb, OnlineTarget::B, in.hostRowSumsB, in.hostColSumsB);

    // --gemm cublas-tf32 / cutlass-tf32 and --type bf16 / f16 (cublas-bf16 / cublas-f16) emulated as
    // the device runs them: the operands rounded to TF32 / BF16 / FP16 before their checksums (the
    // device rounds them in its checksum passes), then FP32 products. A product of two such values
    // is exact in FP32 (at most 11 + 11 significant bits), so the checksums see exactly what is
    // multiplied and the FP32 threshold holds.
    if constexpr (std::is_same_v<T, float>) {
        if (roundsOperands(in.gemm)) {
            const InputFormat format = inputFormatOf(in.gemm);
            roundBlockToInput(a, s.m, s.n, lda, format);
            roundBlockToInput(b, s.n, s.q, ldb, format);
            const char* name = format == InputFormat::Bf16 ? "BF16" : format == InputFormat::F16 ? "FP16" : "TF32";
            in.panelGemm = std::string("OpenBLAS FP32 products of A and B rounded to ") + name + " (--gemm " +
                           std::string(toString(in.gemm)) + " emulated)";
        } else if (in.gemm == GemmVariant::Tf32x3) {
            in.panelGemm = "OpenBLAS FP32 products of each panel's TF32 big and small parts, the small terms as "
                           "one (--gemm tf32x3 emulated)";
        }
    }

    weightedColumnChecksums(a, s.m, s.n, lda, in.checksums);
    weightedRowChecksums(b, s.n, s.q, ldb, in.checksums);
    plainSums(a, s.m, s.n, lda, st.check.rowSumsA, st.check.colSumsA);
    plainSums(b, s.n, s.q, ldb, st.check.rowSumsB, st.check.colSumsB);
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
    // its checksum rows / columns after every step (the online-ABFT paper's Theorem 2).
    product(in.gemm, a, lda, b, ldb, slot<T>(c, kSlotC), ldc, s.m + k, s.q + k, width, op.accumulate);
    if (k == 1)
        accumulateBound(st.check.plainBound, BlockView<const T>{a, s.m, width, lda},
                        BlockView<const T>{b, width, s.q, ldb});
    else
        accumulateWeightedBound(st.check.weightedBound, a, lda, b, ldb, width);
    st.check.consumed = offset + width;
    reportSnapshot<T>(c, op, int((offset + width + in.panel - 1) / in.panel) - 1);  // a merged op: its last step
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
            out.injections.push_back(injectionEvent(op.id, f, s, step));
    }
    if (in.scheme != Scheme::Tmr)
        reportSnapshot<T>(c, op, op.block.k);
}

template <class T> void check(cpu::OpContext& c, const Operation& op, OpOutcome& out)
{
    OnlineInputs& in = inputsOf(c.request);
    const Shape& s = in.shape;
    HostOperands<T> ops;
    ops.c = slot<T>(c, kSlotC);
    ops.ldc = ldOf(c, kSlotC);
    ops.a = [&] { return slot<T>(c, kSlotA); };
    ops.b = [&] { return slot<T>(c, kSlotB); };
    ops.lda = ldOf(c, kSlotA);
    ops.ldb = ldOf(c, kSlotB);
    VerifyResult r = checkOnHost(in, stateOf(c).check, ops, op.block.k);
    VerifyEvent ev;
    ev.opId = op.id;
    ev.block = BlockIndex{0, 0, op.block.k};
    ev.rows = s.m;
    ev.cols = s.q;
    ev.result = std::move(r);
    out.verification = std::move(ev);
    reportSnapshot<T>(c, op, op.block.k);
}

template <class T> void replicaProduct(cpu::OpContext& c, const Operation& op, OpOutcome&)
{
    const Shape& s = inputsOf(c.request).shape;
    product(inputsOf(c.request).gemm, slot<T>(c, kSlotA), ldOf(c, kSlotA), slot<T>(c, kSlotB), ldOf(c, kSlotB),
            slot<T>(c, op.dst), ldOf(c, op.dst), s.m, s.q, s.n, false);
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
        if ((v.outvoted || !v.majority) && std::int64_t(report.disputed.size()) < kMaxDisputedCells)
            report.disputed.emplace_back(x / s.q, x % s.q);
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
