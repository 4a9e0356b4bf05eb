#include "families/online_abft/ops.hpp"

#include "core/cuda_ops_or_null.hpp"
#include "families/online_abft/inputs.hpp"

#include <array>

namespace gigacheck::online_abft {

std::span<const OpKindName> opKindNames()
{
    static constexpr std::array names{
        OpKindName{kLoadInputs, "load-inputs", OpRole::Load},
        OpKindName{kEncode, "encode", OpRole::Checksum},
        OpKindName{kPanelProduct, "panel-product", OpRole::Product},
        OpKindName{kInjectFault, "inject-fault", OpRole::Inject},
        OpKindName{kCheck, "check", OpRole::Verify},
        OpKindName{kReplicaProduct, "replica-product", OpRole::Product},
        OpKindName{kVote, "vote", OpRole::Verify},
        OpKindName{kStoreResult, "store-result", OpRole::Store},
    };
    return names;
}

OnlineInputs& inputsOf(const ExecutionRequest& request) { return familyInputs<OnlineInputs>(request, kFamilyName); }

void checkInputs(const ExecutionRequest& request, const std::string& backendName)
{
    const auto* in = dynamic_cast<const OnlineInputs*>(request.inputs);
    if (!in || !in->a || !in->b || !in->c)
        throw BackendError(backendName + ": the online ABFT request lacks its inputs or a matrix");
    const Shape& s = in->shape;
    const auto matches = [&](const HostMatrix* m, std::int64_t r, std::int64_t c) {
        return m->rows() == r && m->cols() == c && m->precision() == in->precision;
    };
    if (!matches(in->a, s.m, s.n) || !matches(in->b, s.n, s.q) || !matches(in->c, s.m, s.q))
        throw BackendError(backendName + ": host matrices do not match the online run's shape and precision");
}

const FamilyOps& family()
{
    static const FamilyOps ops{kFamilyName, opKindNames(), &cpuOps(), GIGACHECK_CUDA_OPS_OR_NULL(cudaOps), checkInputs};
    return ops;
}

}  // namespace gigacheck::online_abft
