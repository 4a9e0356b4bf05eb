#include "core/op_table.hpp"

namespace gigacheck {

namespace cpu {

OpFunction OpTable::find(OpKind kind) const
{
    for (const OpEntry& e : ops)
        if (e.kind == kind)
            return e.run;
    return nullptr;
}

}  // namespace cpu

const FamilyOps& familyOps(std::string_view name)
{
    for (const FamilyOps* f : allFamilies())
        if (f->name == name)
            return *f;
    throw BackendError("no algorithm family named '" + std::string(name) + "' in this build");
}

const FamilyOps& familyOf(const ExecutionRequest& request)
{
    if (request.family)
        return *request.family;
    return familyOps(request.schedule->family);
}

}  // namespace gigacheck
