// The reduced matmul family's CPU implementations: memcpy copies, the reductions, OpenBLAS GEMM,
// the NaN fill before the variant, and the naive loops (cpu/kernels.hpp).
#include "families/reduced_matmul/cpu/kernels.hpp"
#include "families/reduced_matmul/ops.hpp"
#include "families/reduced_matmul/plan/schedule_builder.hpp"

#include <cstring>

namespace gigacheck::reduced_matmul {

namespace {

const Inputs& in(gigacheck::cpu::OpContext& c) { return familyInputs<Inputs>(c.request, kFamilyName); }
template <class T> T* slot(gigacheck::cpu::OpContext& c, int s) { return static_cast<T*>(c.buffers[std::size_t(s)]); }

void copyIn(gigacheck::cpu::OpContext& c, const Operation&, OpOutcome&)
{
    const Inputs& inputs = in(c);
    const std::size_t full = std::size_t(inputs.n * inputs.n) * elementSize(inputs.precision);
    std::memcpy(c.buffers[kSlotA], inputs.a, full);
    std::memcpy(c.buffers[kSlotB], inputs.b, full);
}

void copyOut(gigacheck::cpu::OpContext& c, const Operation&, OpOutcome&)
{
    const Inputs& inputs = in(c);
    std::memcpy(inputs.c, c.buffers[kSlotC], std::size_t(inputs.n * inputs.n / 4) * elementSize(inputs.precision));
}

template <class T> void reduceTyped(gigacheck::cpu::OpContext& c, std::int64_t n)
{
    cpu::reduceRowPairs(slot<T>(c, kSlotA), slot<T>(c, kSlotAr), n);
    cpu::reduceColumnPairs(slot<T>(c, kSlotB), slot<T>(c, kSlotBr), n);
}
void reduce(gigacheck::cpu::OpContext& c, const Operation& op, OpOutcome&)
{
    if (skippedForTest(op))
        return;
    const Inputs& inputs = in(c);
    inputs.precision == Precision::F32 ? reduceTyped<float>(c, inputs.n) : reduceTyped<double>(c, inputs.n);
}

template <class T> void gemmTyped(gigacheck::cpu::OpContext& c, std::int64_t n) { cpu::blasGemm(slot<T>(c, kSlotAr), slot<T>(c, kSlotBr), slot<T>(c, kSlotC), n); }
void gemm(gigacheck::cpu::OpContext& c, const Operation& op, OpOutcome&)
{
    if (skippedForTest(op))
        return;
    const Inputs& inputs = in(c);
    inputs.precision == Precision::F32 ? gemmTyped<float>(c, inputs.n) : gemmTyped<double>(c, inputs.n);
}

template <class T> void kernelTyped(gigacheck::cpu::OpContext& c, Variant v, std::int64_t n)
{
    const std::atomic<bool>* cancel = c.request.cancel;  // the naive loops take seconds to minutes from N = 4096
    switch (v) {
    case Variant::Naive4p: cpu::naive4p(slot<T>(c, kSlotA), slot<T>(c, kSlotB), slot<T>(c, kSlotC), n, cancel); break;
    case Variant::NaiveP: cpu::naiveP(slot<T>(c, kSlotA), slot<T>(c, kSlotB), slot<T>(c, kSlotC), n, cancel); break;
    default:
        throw BackendError("reduced matmul variant '" + std::string(toString(v)) + "' has no CPU implementation");
    }
}
void kernel(gigacheck::cpu::OpContext& c, const Operation& op, OpOutcome&)
{
    if (skippedForTest(op))
        return;
    const Inputs& inputs = in(c);
    inputs.precision == Precision::F32 ? kernelTyped<float>(c, inputs.variant, inputs.n) : kernelTyped<double>(c, inputs.variant, inputs.n);
}

// Every written operand to NaN (all bits set: a NaN in float and double).
void clear(gigacheck::cpu::OpContext& c, const Operation& op, OpOutcome&)
{
    for (const OperandRegion& r : op.operands)
        if (r.access == Access::Write)
            std::memset(c.buffers[std::size_t(r.slot)], 0xFF, c.schedule.buffers[std::size_t(r.slot)].bytes);
}

}  // namespace

const gigacheck::cpu::OpTable& cpuOps()
{
    static const gigacheck::cpu::OpTable table{
        nullptr, {{kCopyIn, copyIn}, {kReduce, reduce}, {kGemm, gemm}, {kKernel, kernel}, {kCopyOut, copyOut}, {kClear, clear}}};
    return table;
}

}  // namespace gigacheck::reduced_matmul
