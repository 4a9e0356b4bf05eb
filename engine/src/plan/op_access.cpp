#include "plan/op_access.hpp"

namespace gigacheck {

OpAccess accessOf(const Operation& op)
{
    OpAccess a;
    auto both = [&a](int slot) {
        if (slot < 0)
            return;
        a.reads.push_back(slot);
        a.writes.push_back(slot);
    };
    switch (op.kind) {
    case OpKind::CopyH2D: a.writes.push_back(op.dst); break;
    case OpKind::Checksum: both(op.dst); break;
    case OpKind::Product:
        a.reads.push_back(op.srcA);
        a.reads.push_back(op.srcB);
        if (op.accumulate)
            both(op.dst);
        else
            a.writes.push_back(op.dst);
        both(op.aux);
        break;
    case OpKind::Inject: both(op.dst); break;
    case OpKind::Verify:
        both(op.dst);
        both(op.aux);
        break;
    case OpKind::CopyD2H: a.reads.push_back(op.dst); break;
    case OpKind::Recompute: break;  // never scheduled (the repair pass runs after the schedule)
    }
    return a;
}

}  // namespace gigacheck
