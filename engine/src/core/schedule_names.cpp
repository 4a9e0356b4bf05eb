// Names of queues and op kinds. Op kinds are named by their families (core/op_table.hpp), so
// that a family's new kind needs no entry here.
#include "gigacheck/schedule.hpp"

#include "core/op_table.hpp"

namespace gigacheck {

std::string_view toString(Queue q)
{
    switch (q) {
    case Queue::H2D: return "H2D";
    case Queue::Compute: return "compute";
    case Queue::D2H: return "D2H";
    }
    return "?";
}

std::string_view toString(OpKind k)
{
    for (const FamilyOps* family : allFamilies())
        for (const OpKindName& n : family->kinds)
            if (n.kind == k)
                return n.name;
    return "?";
}

OpRole roleOf(OpKind k)
{
    for (const FamilyOps* family : allFamilies())
        for (const OpKindName& n : family->kinds)
            if (n.kind == k)
                return n.role;
    return OpRole::Other;
}

OpKind opKindFromString(std::string_view name)
{
    for (const FamilyOps* family : allFamilies())
        for (const OpKindName& n : family->kinds)
            if (n.name == name)
                return n.kind;
    throw InputError("unknown operation kind '" + std::string(name) + "'");
}

}  // namespace gigacheck
