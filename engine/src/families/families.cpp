// The registry: every family of this build, in the order of family_list.hpp (the only list of
// them). Each family's contract is in its folder (families/<name>/family.cpp).
#include "core/op_table.hpp"
#include "families/family_list.hpp"
#include "gigacheck/family.hpp"

#include <array>
#include <vector>

#define GIGACHECK_DECLARE_CONTRACT(name) \
    namespace gigacheck::name {          \
    const Family& familyContract();      \
    }
GIGACHECK_FOR_EACH_FAMILY(GIGACHECK_DECLARE_CONTRACT)
#undef GIGACHECK_DECLARE_CONTRACT

namespace gigacheck {

std::span<const Family* const> families()
{
#define GIGACHECK_CONTRACT(name) &name::familyContract(),
    static const std::array list{GIGACHECK_FOR_EACH_FAMILY(GIGACHECK_CONTRACT)};
#undef GIGACHECK_CONTRACT
    return list;
}

std::span<const FamilyOps* const> allFamilies()
{
    static const auto ops = [] {
        std::vector<const FamilyOps*> out;
        for (const Family* f : families())
            out.push_back(&f->ops());
        return out;
    }();
    return ops;
}

}  // namespace gigacheck
