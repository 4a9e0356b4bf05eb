// The transpose family's CUDA implementations: asynchronous copies between the host matrix and
// the device buffer, and the variant's kernel (cuda/kernels.cuh) or cuBLAS geam, each issued on
// the stream the executor gives it.
#include "families/transpose/ops.hpp"

#include "core/cuda/op_table.hpp"
#include "core/cuda/resources.hpp"
#include "families/transpose/cuda/any_shape.hpp"
#include "families/transpose/cuda/kernels.cuh"

#include <memory>

namespace gigacheck::transpose {

namespace {

// Per run: the cuBLAS handle of `library`, the rectangular in-place decomposition's configuration.
struct State : gigacheck::cuda::RunState {
    std::unique_ptr<gigacheck::cuda::CublasHandle> cublas;
    std::unique_ptr<AnyShapeInPlace<float>> anyShapeF32;
    std::unique_ptr<AnyShapeInPlace<std::int32_t>> anyShapeI32;
};

const Inputs& in(const gigacheck::cuda::OpContext& c) { return familyInputs<Inputs>(c.request, kFamilyName); }

std::unique_ptr<gigacheck::cuda::RunState> makeState(const gigacheck::cuda::OpContext& c)
{
    const Inputs& inputs = in(c);
    auto state = std::make_unique<State>();
    if (inputs.variant == Variant::Library)
        state->cublas = std::make_unique<gigacheck::cuda::CublasHandle>();
    if (inputs.variant == Variant::InPlace && inputs.m != inputs.n) {
        if (inputs.type == ElementType::F32)
            state->anyShapeF32 = std::make_unique<AnyShapeInPlace<float>>(inputs.m, inputs.n);
        else
            state->anyShapeI32 = std::make_unique<AnyShapeInPlace<std::int32_t>>(inputs.m, inputs.n);
    }
    return state;
}

void checkVariant(const ExecutionRequest& request)
{
    const Inputs& inputs = familyInputs<Inputs>(request, kFamilyName);
    if (!onCuda(inputs.variant))
        throw InputError(std::string("transpose variant '") + std::string(toString(inputs.variant)) + "' has no CUDA kernel");
}

std::size_t bytesOf(const Inputs& inputs) { return std::size_t(inputs.m * inputs.n) * elementBytes(inputs.type); }

void issueCopyIn(const gigacheck::cuda::OpContext& c, const Operation& op, cudaStream_t s)
{
    const Inputs& inputs = in(c);
    CUDA_CHECK(cudaMemcpyAsync(c.buffers[std::size_t(op.operands[0].slot)], inputs.host, bytesOf(inputs), cudaMemcpyHostToDevice, s));
}

void issueCopyOut(const gigacheck::cuda::OpContext& c, const Operation& op, cudaStream_t s)
{
    const Inputs& inputs = in(c);
    CUDA_CHECK(cudaMemcpyAsync(inputs.host, c.buffers[std::size_t(op.operands[0].slot)], bytesOf(inputs), cudaMemcpyDeviceToHost, s));
}

template <class T> void issueTyped(const gigacheck::cuda::OpContext& c, const Inputs& inputs, const Operation& op, cudaStream_t s)
{
    State& state = *static_cast<State*>(c.state);
    T* x = static_cast<T*>(c.buffers[std::size_t(op.operands[0].slot)]);
    const std::int64_t m = op.rows, n = op.cols;
    switch (inputs.variant) {
    case Variant::Naive: kernels::launchNaiveInPlace(x, n, s); break;
    case Variant::Coalesced: kernels::launchSeedCoalesced(x, n, s); break;
    case Variant::InPlace:
        if (m == n) {
            kernels::launchSquareInPlace(x, n, s);
        } else {
            const bool forward = m == inputs.m;
            if constexpr (std::is_same_v<T, float>)
                state.anyShapeF32->run(x, forward, s);
            else
                state.anyShapeI32->run(x, forward, s);
        }
        break;
    case Variant::Padded: kernels::launchPadded(x, static_cast<T*>(c.buffers[std::size_t(op.operands[1].slot)]), m, n, s); break;
    case Variant::Library:
        if constexpr (std::is_same_v<T, float>) {
            // Row-major m x n is column-major n x m (ld n); its transpose, column-major m x n
            // (ld m), is the row-major n x m result.
            const float one = 1, zero = 0;
            float* y = static_cast<float*>(c.buffers[std::size_t(op.operands[1].slot)]);
            CUBLAS_CHECK(cublasSetStream(state.cublas->get(), s));
            CUBLAS_CHECK(cublasSgeam(state.cublas->get(), CUBLAS_OP_T, CUBLAS_OP_N, int(m), int(n), &one, x, int(n), &zero, y,
                                     int(m), y, int(m)));
        } else {
            throw BackendError("library (cuBLAS geam) transposes float32 only");
        }
        break;
    default: throw BackendError(std::string("transpose variant '") + std::string(toString(inputs.variant)) + "' has no CUDA kernel");
    }
}

void issueTranspose(const gigacheck::cuda::OpContext& c, const Operation& op, cudaStream_t s)
{
    const Inputs& inputs = in(c);
    if (inputs.type == ElementType::F32)
        issueTyped<float>(c, inputs, op, s);
    else
        issueTyped<std::int32_t>(c, inputs, op, s);
}

}  // namespace

const gigacheck::cuda::OpTable& cudaOps()
{
    static const gigacheck::cuda::OpTable table{
        makeState, checkVariant, nullptr, nullptr, {{kCopyIn, issueCopyIn}, {kTranspose, issueTranspose}, {kCopyOut, issueCopyOut}}};
    return table;
}

}  // namespace gigacheck::transpose
