#include "families/online_abft/injection_event.hpp"

namespace gigacheck::online_abft {

InjectEvent injectionEvent(int opId, const PlannedFault& f, const Shape& s, int step)
{
    Injection inj;
    inj.block = BlockIndex{0, 0, step};
    inj.target = f.at.target == OnlineTarget::ChecksumRow   ? FaultTarget::ChecksumRow
                 : f.at.target == OnlineTarget::ChecksumCol ? FaultTarget::ChecksumCol
                                                            : FaultTarget::Result;
    // C_f coordinates: the checksum row / column follow C's m rows / q columns.
    inj.localRow = f.at.target == OnlineTarget::ChecksumRow ? s.m + f.at.row : f.at.row;
    inj.localCol = f.at.target == OnlineTarget::ChecksumCol ? s.q + f.at.col : f.at.col;
    inj.globalRow = f.at.target == OnlineTarget::ChecksumRow ? -1 : f.at.row;
    inj.globalCol = f.at.target == OnlineTarget::ChecksumCol ? -1 : f.at.col;
    inj.model = f.model;
    inj.delta = f.delta;
    inj.bit = f.bit;
    inj.bit2 = f.bit2;
    inj.before = f.before;
    inj.after = f.after;
    inj.applied = f.applied;
    return InjectEvent{opId, inj, 0};
}

}  // namespace gigacheck::online_abft
