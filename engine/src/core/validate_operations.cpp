// accessOf and validateOperations: the invariants every executor relies on, checked from the
// operations alone, whatever their family and kind.
#include "gigacheck/schedule.hpp"

#include "core/op_text.hpp"
#include "core/reachability.hpp"

#include <algorithm>

namespace gigacheck {

OpAccess accessOf(const Operation& op)
{
    OpAccess a;
    for (const OperandRegion& r : op.operands) {
        if (r.slot < 0)
            continue;
        if (r.access != Access::Write)
            a.reads.push_back(r.slot);
        if (r.access != Access::Read)
            a.writes.push_back(r.slot);
    }
    return a;
}

std::string validateOperations(const Schedule& schedule)
{
    const std::vector<BufferSpec>& buffers = schedule.buffers;
    const std::vector<Operation>& ops = schedule.ops;
    const int slots = int(buffers.size());

    for (const BufferSpec& b : buffers)
        if (b.device < 0 || b.device >= schedule.devices)
            return "buffer " + b.name + " is placed on device " + std::to_string(b.device) + " of " +
                   std::to_string(schedule.devices);

    for (int s : schedule.urgentStreams)
        if (s < 0 || s >= schedule.streams)
            return "urgent stream " + std::to_string(s) + " is not one of the schedule's " +
                   std::to_string(schedule.streams) + " streams";

    // Shape of every op: ids, backward deps, streams, devices, slots.
    for (std::size_t n = 0; n < ops.size(); ++n) {
        const Operation& op = ops[n];
        if (op.id != int(n))
            return "op at index " + std::to_string(n) + " has id " + std::to_string(op.id);
        for (int d : op.deps)
            if (d < 0 || d >= op.id)
                return opText(op) + " depends on op " + std::to_string(d) + ", which is not an earlier op";
        if (op.stream < 0 || op.stream >= schedule.streams)
            return opText(op) + " uses stream " + std::to_string(op.stream) + " of " +
                   std::to_string(schedule.streams);
        if (op.device < 0 || op.device >= schedule.devices)
            return opText(op) + " is placed on device " + std::to_string(op.device) + " of " +
                   std::to_string(schedule.devices);
        for (const OperandRegion& r : op.operands)
            if (r.slot >= slots)
                return opText(op) + " uses buffer slot " + std::to_string(r.slot) + " of " + std::to_string(slots);
    }

    // Hazards: every access is ordered (transitively) after the accesses it conflicts with.
    struct SlotState {
        int lastWriter = -1;
        std::vector<int> readers;
    };
    std::vector<SlotState> state(std::size_t(std::max(slots, 0)));
    Reachability reach(ops);
    for (const Operation& op : ops) {
        const OpAccess access = accessOf(op);
        struct Conflict {
            int id;
            const char* what;
            int slot;
        };
        std::vector<Conflict> mustPrecede;
        for (int s : access.reads)
            mustPrecede.push_back({state[std::size_t(s)].lastWriter, "read after write", s});
        for (int s : access.writes) {
            mustPrecede.push_back({state[std::size_t(s)].lastWriter, "write after write", s});
            for (int r : state[std::size_t(s)].readers)
                mustPrecede.push_back({r, "write after read", s});
        }
        int floor = op.id;
        for (const Conflict& c : mustPrecede)
            if (c.id >= 0)
                floor = std::min(floor, c.id);
        reach.collect(op.id, floor);
        for (const Conflict& c : mustPrecede)
            if (c.id >= 0 && c.id != op.id && !reach.isAncestor(c.id))
                return opText(op) + " races with " + opText(ops[std::size_t(c.id)]) + " (" + c.what +
                       " on buffer " + buffers[std::size_t(c.slot)].name + ")";
        for (int s : access.reads)
            state[std::size_t(s)].readers.push_back(op.id);
        for (int s : access.writes) {
            state[std::size_t(s)].lastWriter = op.id;
            state[std::size_t(s)].readers.clear();
        }
    }
    return {};
}

}  // namespace gigacheck
