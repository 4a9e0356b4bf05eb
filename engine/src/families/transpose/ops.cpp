#include "families/transpose/ops.hpp"

#include "core/cuda_ops_or_null.hpp"

#include <array>

namespace gigacheck::transpose {

std::span<const OpKindName> opKindNames()
{
    static constexpr std::array names{
        OpKindName{kCopyIn, "transpose-copy-in", OpRole::Load},
        OpKindName{kTranspose, "transpose", OpRole::Product},
        OpKindName{kCopyOut, "transpose-copy-out", OpRole::Store},
    };
    return names;
}

namespace {
void checkInputs(const ExecutionRequest& request, const std::string& backendName)
{
    const Inputs& in = familyInputs<Inputs>(request, kFamilyName);
    if (!in.host || in.m <= 0 || in.n <= 0)
        throw BackendError(backendName + ": the transpose request has no host matrix");
    const std::size_t bytes = std::size_t(in.m * in.n) * elementBytes(in.type);
    for (const BufferSpec& b : request.schedule->buffers)
        if (b.bytes != bytes)
            throw BackendError(backendName + ": the transpose schedule's buffers do not match the " + std::to_string(in.m) +
                               "x" + std::to_string(in.n) + " matrix");
}
}  // namespace

const FamilyOps& family()
{
    static const FamilyOps ops{kFamilyName, opKindNames(), &cpuOps(), GIGACHECK_CUDA_OPS_OR_NULL(cudaOps), checkInputs};
    return ops;
}

}  // namespace gigacheck::transpose
