// The transpose family's CPU implementations: the copies are memcpy between the host matrix and
// the buffer pool's memory; the kernel is the variant's CPU loop nest (cpu/kernels.hpp), or
// OpenBLAS's somatcopy for `library`.
#include "families/transpose/cpu/kernels.hpp"
#include "families/transpose/ops.hpp"

#include <cblas.h>

#include <cstring>
#include <type_traits>

namespace gigacheck::transpose {

namespace {

const Inputs& in(gigacheck::cpu::OpContext& c) { return familyInputs<Inputs>(c.request, kFamilyName); }

void copyIn(gigacheck::cpu::OpContext& c, const Operation& op, OpOutcome&)
{
    const Inputs& inputs = in(c);
    std::memcpy(c.buffers[std::size_t(op.operands[0].slot)], inputs.host, std::size_t(inputs.m * inputs.n) * elementBytes(inputs.type));
}

void copyOut(gigacheck::cpu::OpContext& c, const Operation& op, OpOutcome&)
{
    const Inputs& inputs = in(c);
    std::memcpy(inputs.host, c.buffers[std::size_t(op.operands[0].slot)], std::size_t(inputs.m * inputs.n) * elementBytes(inputs.type));
}

template <class T> void transposeTyped(Variant v, gigacheck::cpu::OpContext& c, const Operation& op)
{
    T* x = static_cast<T*>(c.buffers[std::size_t(op.operands[0].slot)]);
    switch (v) {
    case Variant::Naive: cpu::naiveInPlace(x, op.rows); break;
    case Variant::Blocked: cpu::blockedInPlace(x, op.rows); break;
    case Variant::InPlace:  // square: blocked swaps; rectangular: the ratio or the C2R decomposition, as on the GPU
        if (op.rows == op.cols)
            cpu::inPlaceAnyShape(x, op.rows, op.cols);
        else
            cpu::rectangularInPlace(x, op.rows, op.cols);
        break;
    case Variant::OutOfPlace:
        cpu::outOfPlace(x, static_cast<T*>(c.buffers[std::size_t(op.operands[1].slot)]), op.rows, op.cols);
        break;
    case Variant::Library:  // the CPU library reference: OpenBLAS's out-of-place transposing copy (float32)
        if constexpr (std::is_same_v<T, float>)
            cblas_somatcopy(CblasRowMajor, CblasTrans, blasint(op.rows), blasint(op.cols), 1.0f, x, blasint(op.cols),
                            static_cast<float*>(c.buffers[std::size_t(op.operands[1].slot)]), blasint(op.rows));
        else
            throw BackendError("library (OpenBLAS somatcopy) transposes float32 only");
        break;
    default: throw BackendError(std::string("transpose variant '") + std::string(toString(v)) + "' has no CPU implementation");
    }
}

void transposeOp(gigacheck::cpu::OpContext& c, const Operation& op, OpOutcome&)
{
    const Inputs& inputs = in(c);
    if (inputs.type == ElementType::F32)
        transposeTyped<float>(inputs.variant, c, op);
    else
        transposeTyped<std::int32_t>(inputs.variant, c, op);
}

}  // namespace

const gigacheck::cpu::OpTable& cpuOps()
{
    static const gigacheck::cpu::OpTable table{nullptr, {{kCopyIn, copyIn}, {kTranspose, transposeOp}, {kCopyOut, copyOut}}};
    return table;
}

}  // namespace gigacheck::transpose
