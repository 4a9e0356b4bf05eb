#include "families/strassen/ops.hpp"

#include "core/cuda_ops_or_null.hpp"
#include "families/strassen/inputs.hpp"

#include <array>

namespace gigacheck::strassen {

std::span<const OpKindName> opKindNames()
{
    static constexpr std::array names{
        OpKindName{kLoad, "strassen-load", OpRole::Load},
        OpKindName{kAdd, "strassen-add", OpRole::Sums},
        OpKindName{kProduct, "strassen-product", OpRole::Product},
        OpKindName{kScatter, "strassen-scatter", OpRole::Sums},
        OpKindName{kInject, "strassen-inject", OpRole::Inject},
        OpKindName{kStore, "strassen-store", OpRole::Store},
        OpKindName{kRestore, "strassen-restore", OpRole::Load},  // A, B back from the host copy
        OpKindName{kCopy, "strassen-copy", OpRole::Other},       // between devices
        OpKindName{kLeafSums, "strassen-leaf-sums", OpRole::Checksum},
        OpKindName{kLeafVerify, "strassen-leaf-verify", OpRole::Verify},
        OpKindName{kStoreLeafChecks, "strassen-store-leaf-checks", OpRole::Store},
        OpKindName{kZero, "strassen-zero", OpRole::Sums},
    };
    return names;
}

const FamilyOps& family()
{
    static const FamilyOps ops{kFamilyName, opKindNames(), &cpuOps(), GIGACHECK_CUDA_OPS_OR_NULL(cudaOps), checkInputs};
    return ops;
}

}  // namespace gigacheck::strassen
