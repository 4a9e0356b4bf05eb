#include "core/cuda/op_table.hpp"

namespace gigacheck::cuda {

const OpEntry* OpTable::find(OpKind kind) const
{
    for (const OpEntry& e : ops)
        if (e.kind == kind)
            return &e;
    return nullptr;
}

}  // namespace gigacheck::cuda
