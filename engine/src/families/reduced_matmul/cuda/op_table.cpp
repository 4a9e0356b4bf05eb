// The reduced matmul family's CUDA implementations: asynchronous copies, the reduction kernels,
// cuBLAS GEMM of the reduced shape, the NaN fill before the variant and the hand-written kernels
// (cuda/kernels.cuh), each issued on the stream the executor gives it.
#include "families/reduced_matmul/ops.hpp"

#include "core/cuda/op_table.hpp"
#include "core/cuda/resources.hpp"
#include "families/reduced_matmul/cuda/kernels.cuh"
#include "families/reduced_matmul/plan/schedule_builder.hpp"

#include <memory>
#include <type_traits>

namespace gigacheck::reduced_matmul {

namespace {

struct State : gigacheck::cuda::RunState {
    gigacheck::cuda::CublasHandle cublas;
};

const Inputs& in(const gigacheck::cuda::OpContext& c) { return familyInputs<Inputs>(c.request, kFamilyName); }
template <class T> T* slot(const gigacheck::cuda::OpContext& c, int s) { return static_cast<T*>(c.buffers[std::size_t(s)]); }

std::unique_ptr<gigacheck::cuda::RunState> makeState(const gigacheck::cuda::OpContext&) { return std::make_unique<State>(); }

void issueCopyIn(const gigacheck::cuda::OpContext& c, const Operation&, cudaStream_t s)
{
    const Inputs& inputs = in(c);
    const std::size_t full = std::size_t(inputs.n * inputs.n) * elementSize(inputs.precision);
    CUDA_CHECK(cudaMemcpyAsync(c.buffers[kSlotA], inputs.a, full, cudaMemcpyHostToDevice, s));
    CUDA_CHECK(cudaMemcpyAsync(c.buffers[kSlotB], inputs.b, full, cudaMemcpyHostToDevice, s));
}

void issueCopyOut(const gigacheck::cuda::OpContext& c, const Operation&, cudaStream_t s)
{
    const Inputs& inputs = in(c);
    CUDA_CHECK(cudaMemcpyAsync(inputs.c, c.buffers[kSlotC], std::size_t(inputs.n * inputs.n / 4) * elementSize(inputs.precision),
                               cudaMemcpyDeviceToHost, s));
}

void issueReduce(const gigacheck::cuda::OpContext& c, const Operation& op, cudaStream_t s)
{
    if (skippedForTest(op))
        return;
    const Inputs& inputs = in(c);
    if (inputs.precision == Precision::F32)
        kernels::launchReduce(slot<float>(c, kSlotA), slot<float>(c, kSlotB), slot<float>(c, kSlotAr), slot<float>(c, kSlotBr), inputs.n, s);
    else
        kernels::launchReduce(slot<double>(c, kSlotA), slot<double>(c, kSlotB), slot<double>(c, kSlotAr), slot<double>(c, kSlotBr),
                              inputs.n, s);
}

// C (h x h) = Ar (h x n) Br (n x h), row-major, as the column-major C^T = Br^T Ar^T.
template <class T> void gemmTyped(const gigacheck::cuda::OpContext& c, std::int64_t n, cudaStream_t s)
{
    cublasHandle_t handle = static_cast<State*>(c.state)->cublas.get();
    CUBLAS_CHECK(cublasSetStream(handle, s));
    const int h = int(n / 2), k = int(n);
    const T one = 1, zero = 0;
    if constexpr (std::is_same_v<T, float>)
        CUBLAS_CHECK(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, h, h, k, &one, slot<float>(c, kSlotBr), h, slot<float>(c, kSlotAr), k,
                                 &zero, slot<float>(c, kSlotC), h));
    else
        CUBLAS_CHECK(cublasDgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, h, h, k, &one, slot<double>(c, kSlotBr), h, slot<double>(c, kSlotAr),
                                 k, &zero, slot<double>(c, kSlotC), h));
}
void issueGemm(const gigacheck::cuda::OpContext& c, const Operation& op, cudaStream_t s)
{
    if (skippedForTest(op))
        return;
    const Inputs& inputs = in(c);
    inputs.precision == Precision::F32 ? gemmTyped<float>(c, inputs.n, s) : gemmTyped<double>(c, inputs.n, s);
}

template <class T> void kernelTyped(const gigacheck::cuda::OpContext& c, Variant v, std::int64_t n, cudaStream_t s)
{
    const T* a = slot<T>(c, kSlotA);
    const T* b = slot<T>(c, kSlotB);
    T* out = slot<T>(c, kSlotC);
    switch (v) {
    case Variant::Naive4p: kernels::launchNaive4p(a, b, out, n, s); break;
    case Variant::NaiveP: kernels::launchNaiveP(a, b, out, n, s); break;
    case Variant::Tiled8:
    case Variant::Tiled16:
    case Variant::Tiled32: kernels::launchTiled(tileOf(v), a, b, out, n, s); break;
    case Variant::ReduceBlas: throw BackendError("reduce-blas runs as reduce and GEMM ops, not a kernel op");
    }
}
void issueKernel(const gigacheck::cuda::OpContext& c, const Operation& op, cudaStream_t s)
{
    if (skippedForTest(op))
        return;
    const Inputs& inputs = in(c);
    inputs.precision == Precision::F32 ? kernelTyped<float>(c, inputs.variant, inputs.n, s)
                                       : kernelTyped<double>(c, inputs.variant, inputs.n, s);
}

// Every written operand to NaN (all bytes 0xFF: a NaN in float and double).
void issueClear(const gigacheck::cuda::OpContext& c, const Operation& op, cudaStream_t s)
{
    for (const OperandRegion& r : op.operands)
        if (r.access == Access::Write)
            CUDA_CHECK(cudaMemsetAsync(c.buffers[std::size_t(r.slot)], 0xFF, c.schedule.buffers[std::size_t(r.slot)].bytes, s));
}

}  // namespace

const gigacheck::cuda::OpTable& cudaOps()
{
    static const gigacheck::cuda::OpTable table{makeState,
                                     nullptr,
                                     nullptr,
                                     nullptr,
                                     {{kCopyIn, issueCopyIn},
                                      {kReduce, issueReduce},
                                      {kGemm, issueGemm},
                                      {kKernel, issueKernel},
                                      {kCopyOut, issueCopyOut},
                                      {kClear, issueClear}}};
    return table;
}

}  // namespace gigacheck::reduced_matmul
