#include "families/blocked_gemm/ops.hpp"

#include <array>

namespace gigacheck::blocked_gemm {

std::span<const OpKindName> opKindNames()
{
    static constexpr std::array names{
        OpKindName{OpKind::CopyH2D, "copy-h2d"}, OpKindName{OpKind::Checksum, "checksum"},
        OpKindName{OpKind::Product, "product"},  OpKindName{OpKind::Inject, "inject"},
        OpKindName{OpKind::Verify, "verify"},    OpKindName{OpKind::CopyD2H, "copy-d2h"},
        // Never scheduled: the span of the repair pass after the run (run/repair.cpp).
        OpKindName{OpKind::Recompute, "recompute"},
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

}  // namespace gigacheck::blocked_gemm
