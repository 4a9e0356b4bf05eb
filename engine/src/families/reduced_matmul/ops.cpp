#include "families/reduced_matmul/ops.hpp"

#include "core/cuda_ops_or_null.hpp"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <string>
#include <string_view>

namespace gigacheck::reduced_matmul {

std::span<const OpKindName> opKindNames()
{
    static constexpr std::array names{
        OpKindName{kCopyIn, "reduced-copy-in", OpRole::Load},  OpKindName{kReduce, "reduced-reduce", OpRole::Sums},
        OpKindName{kGemm, "reduced-gemm", OpRole::Product},    OpKindName{kKernel, "reduced-kernel", OpRole::Product},
        OpKindName{kCopyOut, "reduced-copy-out", OpRole::Store}, OpKindName{kClear, "reduced-clear", OpRole::Other},
    };
    return names;
}

bool skippedForTest(const Operation& op)
{
    if (op.block.i != kVariantCall)
        return false;
    const char* list = std::getenv("GIGACHECK_REDUCED_TEST_SKIP");
    if (!list || !*list)
        return false;
    std::string_view name;
    for (const OpKindName& k : opKindNames())
        if (k.kind == op.kind)
            name = k.name;
    for (std::string_view rest(list); !rest.empty();) {  // comma-separated names
        const std::size_t comma = std::min(rest.find(','), rest.size());
        if (!name.empty() && rest.substr(0, comma) == name)
            return true;
        rest.remove_prefix(std::min(comma + 1, rest.size()));
    }
    return false;
}

namespace {
void checkInputs(const ExecutionRequest& request, const std::string& backendName)
{
    const Inputs& in = familyInputs<Inputs>(request, kFamilyName);
    if (!in.a || !in.b || !in.c || in.n <= 0 || in.n % 2)
        throw BackendError(backendName + ": the reduced matmul request lacks its matrices or has an odd N");
    const std::size_t full = std::size_t(in.n * in.n) * elementSize(in.precision);
    if (request.schedule->buffers.size() != 5 || request.schedule->buffers[0].bytes != full)
        throw BackendError(backendName + ": the reduced matmul schedule does not match N = " + std::to_string(in.n));
}
}  // namespace

const FamilyOps& family()
{
    static const FamilyOps ops{kFamilyName, opKindNames(), &cpuOps(), GIGACHECK_CUDA_OPS_OR_NULL(cudaOps), checkInputs};
    return ops;
}

}  // namespace gigacheck::reduced_matmul
