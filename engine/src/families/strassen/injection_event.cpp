#include "families/strassen/injection_event.hpp"

#include "families/strassen/inputs.hpp"
#include "families/strassen/ops.hpp"

namespace gigacheck::strassen {

std::optional<InjectEvent> injectEventOf(const ExecutionRequest& request, const Operation& inject, double before,
                                         double after)
{
    const OperandRegion& cell = inject.operands.front();
    if (cell.slot == kSlotA || cell.slot == kSlotB)
        return std::nullopt;
    Injection inj = injectionOf(request, inject);  // the model, its bits or the delta
    inj.block = BlockIndex{0, 0, inject.aux};
    inj.target = FaultTarget::Result;
    inj.localRow = cell.row;
    inj.localCol = cell.col;
    const bool inC = cell.slot == kSlotC;
    inj.globalRow = inC ? cell.row : -1;
    inj.globalCol = inC ? cell.col : -1;
    inj.before = before;
    inj.after = after;
    inj.applied = true;
    return InjectEvent{inject.id, inj, 0};
}

}  // namespace gigacheck::strassen
