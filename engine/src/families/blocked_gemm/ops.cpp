#include "families/blocked_gemm/ops.hpp"

#include "core/cuda_ops_or_null.hpp"

#include <array>

namespace gigacheck::blocked_gemm {

std::span<const OpKindName> opKindNames()
{
    static constexpr std::array names{
        OpKindName{OpKind::CopyH2D, "copy-h2d", OpRole::Load},
        OpKindName{OpKind::Checksum, "checksum", OpRole::Checksum},
        OpKindName{OpKind::Product, "product", OpRole::Product},
        OpKindName{OpKind::Inject, "inject", OpRole::Inject},
        OpKindName{OpKind::Verify, "verify", OpRole::Verify},
        OpKindName{OpKind::CopyD2H, "copy-d2h", OpRole::Store},
        // Never scheduled: the span of the repair pass after the run (run/repair.cpp).
        OpKindName{OpKind::Recompute, "recompute", OpRole::Recompute},
    };
    return names;
}

const FamilyOps& family()
{
    static const FamilyOps ops{kFamilyName, opKindNames(), &cpuOps(), GIGACHECK_CUDA_OPS_OR_NULL(cudaOps), checkInputs};
    return ops;
}

}  // namespace gigacheck::blocked_gemm
