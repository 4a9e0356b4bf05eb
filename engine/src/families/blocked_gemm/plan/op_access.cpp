#include "families/blocked_gemm/plan/op_access.hpp"

namespace gigacheck {

std::vector<OperandRegion> operandsOf(const Operation& op)
{
    std::vector<OperandRegion> operands;
    auto use = [&operands](int slot, Access access) {
        if (slot >= 0)
            operands.push_back({slot, access});
    };
    switch (op.kind) {
    case OpKind::CopyH2D: use(op.dst, Access::Write); break;
    case OpKind::Checksum: use(op.dst, Access::ReadWrite); break;
    case OpKind::Product:
        use(op.srcA, Access::Read);
        use(op.srcB, Access::Read);
        use(op.dst, op.accumulate ? Access::ReadWrite : Access::Write);
        use(op.aux, Access::ReadWrite);
        break;
    case OpKind::Inject: use(op.dst, Access::ReadWrite); break;
    case OpKind::Verify:
        use(op.dst, Access::ReadWrite);
        use(op.aux, Access::ReadWrite);
        break;
    case OpKind::CopyD2H: use(op.dst, Access::Read); break;
    default: break;  // Recompute is never scheduled (the repair pass runs after the schedule)
    }
    return operands;
}

}  // namespace gigacheck
