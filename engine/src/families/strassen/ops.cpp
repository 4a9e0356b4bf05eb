#include "families/strassen/ops.hpp"

#include "families/strassen/inputs.hpp"

#include <array>

namespace gigacheck::strassen {

std::span<const OpKindName> opKindNames()
{
    static constexpr std::array names{
        OpKindName{kLoad, "strassen-load"},       OpKindName{kAdd, "strassen-add"},
        OpKindName{kProduct, "strassen-product"}, OpKindName{kScatter, "strassen-scatter"},
        OpKindName{kInject, "strassen-inject"},   OpKindName{kStore, "strassen-store"},
        OpKindName{kRestore, "strassen-restore"}, OpKindName{kCopy, "strassen-copy"},
        OpKindName{kLeafSums, "strassen-leaf-sums"}, OpKindName{kLeafVerify, "strassen-leaf-verify"},
        OpKindName{kStoreLeafChecks, "strassen-store-leaf-checks"},
    };
    return names;
}

const FamilyOps& family()
{
#ifdef GIGACHECK_HAVE_CUDA
    static const FamilyOps ops{kFamilyName, opKindNames(), &cpuOps(), &cudaOps(), checkInputs};
#else
    static const FamilyOps ops{kFamilyName, opKindNames(), &cpuOps(), nullptr, checkInputs};
#endif
    return ops;
}

}  // namespace gigacheck::strassen
