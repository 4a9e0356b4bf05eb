#include "families/blocked_gemm/cpu/block_ops.hpp"

#include "gemm/tf32x3_host.hpp"

#include "gigacheck/fault_models.hpp"
#include "gigacheck/input_rounding.hpp"

#include <cblas.h>

#include <algorithm>
#include <cstring>
#include <type_traits>

namespace gigacheck::cpu {

namespace {

template <class T> T* slot(Buffers& bufs, int s) { return static_cast<T*>(bufs.data[std::size_t(s)]); }

std::int64_t ldOf(const Plan& plan, int s) { return plan.buffers[std::size_t(s)].ld; }

void gemm(const float* a, std::int64_t lda, const float* b, std::int64_t ldb, float* c, std::int64_t ldc,
          std::int64_t m, std::int64_t n, std::int64_t k, bool accumulate)
{
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, int(m), int(n), int(k), 1.0f, a, int(lda), b,
                int(ldb), accumulate ? 1.0f : 0.0f, c, int(ldc));
}
void gemm(const double* a, std::int64_t lda, const double* b, std::int64_t ldb, double* c, std::int64_t ldc,
          std::int64_t m, std::int64_t n, std::int64_t k, bool accumulate)
{
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, int(m), int(n), int(k), 1.0, a, int(lda), b,
                int(ldb), accumulate ? 1.0 : 0.0, c, int(ldc));
}

// The fault hits `value` (a cell of C, a checksum entry): the injection keeps the value before and
// after and is marked applied, and op reports it as an event.
template <class T>
void applyFaultTo(T& value, Injection& inj, Precision precision, const Operation& op, std::vector<InjectEvent>& events)
{
    inj.before = double(value);
    value = T(applyFault(inj, inj.before, precision));
    inj.after = double(value);
    inj.applied = true;
    events.push_back({op.id, inj, 0});
}

}  // namespace

template <class T>
void copyToDevice(const Operation& op, const Plan& plan, Buffers& bufs, const HostMatrix& a, const HostMatrix& b)
{
    const HostMatrix& src = op.host.matrix == Operand::A ? a : b;
    T* dst = slot<T>(bufs, op.dst);
    const std::int64_t ld = ldOf(plan, op.dst);
    const T* base = src.as<T>();
    for (std::int64_t r = 0; r < op.host.rows; ++r)
        std::memcpy(dst + r * ld, base + (op.host.row + r) * src.cols() + op.host.col,
                    std::size_t(op.host.cols) * sizeof(T));
}

template <class T>
void copyToHost(const Operation& op, const Plan& plan, const Buffers& bufs, HostMatrix& c)
{
    const T* src = static_cast<const T*>(bufs.data[std::size_t(op.dst)]);
    const std::int64_t ld = ldOf(plan, op.dst);
    T* base = c.as<T>();
    for (std::int64_t r = 0; r < op.host.rows; ++r)
        std::memcpy(base + (op.host.row + r) * c.cols() + op.host.col, src + r * ld,
                    std::size_t(op.host.cols) * sizeof(T));
}

template <class T>
void checksum(const Operation& op, const Plan& plan, Buffers& bufs, InputFormat input)
{
    const BufferSpec& spec = plan.buffers[std::size_t(op.dst)];
    // TF32 / BF16 / FP16 emulation: the operand block as the tensor cores see it, before its checksum
    // is taken (gigacheck/input_rounding.hpp); the product then multiplies exact values in FP32.
    if constexpr (std::is_same_v<T, float>)
        if (input != InputFormat::F32) {
            const bool isA = spec.role == BufferRole::A;
            roundBlockToInput(slot<float>(bufs, op.dst), isA ? op.rows : op.depth, isA ? op.depth : op.cols, spec.ld,
                              input);
        }
    if (spec.role == BufferRole::A)
        columnChecksum<T>({slot<T>(bufs, op.dst), op.rows, op.depth, spec.ld});
    else
        rowChecksum<T>({slot<T>(bufs, op.dst), op.depth, op.cols, spec.ld});
}

template <class T>
void checkOperandCopy(const Operation& op, const Plan& plan, Buffers& bufs, const EntryChecksums& entry,
                      OperandCheckLog& log, double lambda)
{
    const BufferSpec& spec = plan.buffers[std::size_t(op.dst)];
    const bool isA = spec.role == BufferRole::A;
    double cleanRatio = 0;
    OperandMismatch m = compareWithEntry<T>(entry, isA ? 'a' : 'b', isA ? op.block.i : op.block.k,
                                            isA ? op.block.k : op.block.j, slot<T>(bufs, op.dst), spec.ld, lambda,
                                            &cleanRatio);
    if (m.lines.empty()) {
        log.addClean(cleanRatio);
        return;
    }
    m.product = op.block;
    log.add(std::move(m), cleanRatio);
}

template <class T>
void product(const Operation& op, const Plan& plan, Buffers& bufs, InputFormat input, bool tf32x3)
{
    const std::int64_t extra = plan.abft ? 1 : 0;
    // TF32 emulation without ABFT (no Checksum op rounded the blocks): round here; idempotent.
    if constexpr (std::is_same_v<T, float>)
        if (input != InputFormat::F32 && !plan.abft) {
            roundBlockToInput(slot<float>(bufs, op.srcA), op.rows, op.depth, ldOf(plan, op.srcA), input);
            roundBlockToInput(slot<float>(bufs, op.srcB), op.depth, op.cols, ldOf(plan, op.srcB), input);
        }
    const T* a = slot<T>(bufs, op.srcA);
    const T* b = slot<T>(bufs, op.srcB);
    const std::int64_t lda = ldOf(plan, op.srcA), ldb = ldOf(plan, op.srcB);
    bool emulated = false;
    if constexpr (std::is_same_v<T, float>)
        if (tf32x3) {
            tf32x3GemmHost(a, lda, b, ldb, slot<T>(bufs, op.dst), ldOf(plan, op.dst), op.rows + extra, op.depth,
                           op.cols + extra, op.accumulate);
            emulated = true;
        }
    if (!emulated)
        gemm(a, lda, b, ldb, slot<T>(bufs, op.dst), ldOf(plan, op.dst), op.rows + extra, op.cols + extra, op.depth,
             op.accumulate);
    if (op.aux >= 0) {
        BoundAccumulator& acc = bufs.bounds[std::size_t(op.aux)];
        if (!op.accumulate)
            acc.reset(op.rows, op.cols);
        accumulateBound<T>(acc, BlockView<const T>{a, op.rows, op.depth, lda},
                           BlockView<const T>{b, op.depth, op.cols, ldb});
    }
}

template <class T>
std::vector<InjectEvent> inject(const Operation& op, const Plan& plan, Buffers& bufs, FaultPlan* faults)
{
    std::vector<InjectEvent> events;
    if (!faults)
        return events;
    const std::int64_t extra = plan.abft ? 1 : 0;
    const BlockView<T> c{slot<T>(bufs, op.dst), op.rows, op.cols, ldOf(plan, op.dst)};
    for (std::size_t index : faults->forBlock(op.block)) {
        Injection& inj = faults->injections[index];
        if (isCheckerFault(inj.target))  // applied by the checksum and verify ops
            continue;
        // Outside the stored block (a checksum target without ABFT): nothing there to corrupt.
        if (inj.localRow < 0 || inj.localCol < 0 || inj.localRow >= op.rows + extra ||
            inj.localCol >= op.cols + extra)
            continue;
        applyFaultTo(c(inj.localRow, inj.localCol), inj, plan.precision, op, events);
    }
    return events;
}

template <class T>
std::vector<InjectEvent> injectEncoding(const Operation& op, const Plan& plan, Buffers& bufs, FaultPlan* faults)
{
    std::vector<InjectEvent> events;
    if (!faults || !plan.abft)
        return events;
    const BufferSpec& spec = plan.buffers[std::size_t(op.dst)];
    const bool isA = spec.role == BufferRole::A;
    for (Injection& inj : faults->injections) {
        // The first encoding of the operand block the fault names (A (i, k) or B (k, j)), whichever
        // block product it was loaded for (S4 shares A between two); the fault then belongs to it.
        const bool mine = isA ? inj.target == FaultTarget::EncodingA && inj.block.i == op.block.i && inj.block.k == op.block.k
                              : inj.target == FaultTarget::EncodingB && inj.block.j == op.block.j && inj.block.k == op.block.k;
        if (!mine || inj.applied || inj.localRow >= op.depth)
            continue;
        // c_A[k] is row `rows` of the A block, r_B[k] column `cols` of the B block.
        T& entry = isA ? slot<T>(bufs, op.dst)[op.rows * spec.ld + inj.localRow]
                       : slot<T>(bufs, op.dst)[inj.localRow * spec.ld + op.cols];
        inj.block = op.block;
        applyFaultTo(entry, inj, plan.precision, op, events);
    }
    return events;
}

template <class T>
VerifyEvent verify(const Operation& op, const Plan& plan, Buffers& bufs, double lambda, const RoundoffModel& model,
                   FaultPlan* faults, std::vector<InjectEvent>& events)
{
    Thresholds t = thresholds(bufs.bounds[std::size_t(op.aux)], model, lambda);
    const std::vector<std::size_t> mine = faults ? faults->forBlock(op.block) : std::vector<std::size_t>{};
    // A check that lies: the verification reports row (or column) check r as mismatching whatever
    // its residual (its threshold below any residual: a corrupted residual or threshold).
    for (std::size_t index : mine) {
        Injection& inj = faults->injections[index];
        if (inj.target != FaultTarget::Check || inj.applied)
            continue;
        double& threshold = inj.localCol == op.cols ? t.row[std::size_t(inj.localRow)] : t.col[std::size_t(inj.localCol)];
        inj.before = threshold;
        threshold = -1e300;
        inj.after = threshold;
        inj.applied = true;
        events.push_back({op.id, inj, 0});
    }
    VerifyEvent ev;
    ev.opId = op.id;
    ev.block = op.block;
    ev.rowOffset = plan.rowOffset(op.block.i);
    ev.colOffset = plan.colOffset(op.block.j);
    ev.rows = op.rows;
    ev.cols = op.cols;
    const BlockView<T> c{slot<T>(bufs, op.dst), op.rows, op.cols, ldOf(plan, op.dst)};
    ev.result = verifyAndCorrect<T>(c, t);
    // A correction write that is hit: the cell gets the fault's value instead of the corrected one
    // (the event keeps what the checker meant to write).
    for (std::size_t index : mine) {
        Injection& inj = faults->injections[index];
        if (inj.target != FaultTarget::Correction || inj.applied)
            continue;
        const bool corrected = std::any_of(ev.result.corrections.begin(), ev.result.corrections.end(),
                                           [&](const Correction& k) { return k.row == inj.localRow && k.col == inj.localCol; });
        if (!corrected)
            continue;
        applyFaultTo(c(inj.localRow, inj.localCol), inj, plan.precision, op, events);
    }
    return ev;
}

#define GIGACHECK_INSTANTIATE(T)                                                                        \
    template void copyToDevice<T>(const Operation&, const Plan&, Buffers&, const HostMatrix&,           \
                                  const HostMatrix&);                                                   \
    template void copyToHost<T>(const Operation&, const Plan&, const Buffers&, HostMatrix&);            \
    template void checksum<T>(const Operation&, const Plan&, Buffers&, InputFormat);                       \
    template void checkOperandCopy<T>(const Operation&, const Plan&, Buffers&, const EntryChecksums&,     \
                                      OperandCheckLog&, double);                                        \
    template void product<T>(const Operation&, const Plan&, Buffers&, InputFormat, bool);                  \
    template std::vector<InjectEvent> inject<T>(const Operation&, const Plan&, Buffers&, FaultPlan*);   \
    template std::vector<InjectEvent> injectEncoding<T>(const Operation&, const Plan&, Buffers&, FaultPlan*); \
    template VerifyEvent verify<T>(const Operation&, const Plan&, Buffers&, double, const RoundoffModel&,      \
                                   FaultPlan*, std::vector<InjectEvent>&);
GIGACHECK_INSTANTIATE(float)
GIGACHECK_INSTANTIATE(double)
#undef GIGACHECK_INSTANTIATE

}  // namespace gigacheck::cpu
