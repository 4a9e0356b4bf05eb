// The families of this build, listed explicitly (see core/op_table.hpp for why not
// self-registered). A new family adds its line here.
#include "core/op_table.hpp"

#include "families/blocked_gemm/ops.hpp"
#include "families/strassen/ops.hpp"
#include "families/online_abft/ops.hpp"
#include "families/reduced_matmul/ops.hpp"
#include "families/transpose/ops.hpp"

#include <array>

namespace gigacheck {

std::span<const FamilyOps* const> allFamilies()
{
    static const std::array families{&blocked_gemm::family(), &online_abft::family(), &strassen::family(),
                                     &reduced_matmul::family(), &transpose::family()};
    return families;
}

}  // namespace gigacheck
