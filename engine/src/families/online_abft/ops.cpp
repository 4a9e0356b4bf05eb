#include "families/online_abft/ops.hpp"

#include <array>

namespace gigacheck::online_abft {

std::span<const OpKindName> opKindNames()
{
    static constexpr std::array names{
        OpKindName{kLoadInputs, "load-inputs"},   OpKindName{kEncode, "encode"},
        OpKindName{kPanelProduct, "panel-product"}, OpKindName{kInjectFault, "inject-fault"},
        OpKindName{kCheck, "check"},             OpKindName{kReplicaProduct, "replica-product"},
        OpKindName{kVote, "vote"},               OpKindName{kStoreResult, "store-result"},
    };
    return names;
}

const FamilyOps& family()
{
#ifdef GIGACHECK_HAVE_CUDA
    static const FamilyOps ops{kFamilyName, opKindNames(), &cpuOps(), &cudaOps()};
#else
    static const FamilyOps ops{kFamilyName, opKindNames(), &cpuOps(), nullptr};
#endif
    return ops;
}

}  // namespace gigacheck::online_abft
