// validateSchedule: the invariants every backend relies on, checked from the ops alone.
#include "gigacheck/schedule.hpp"

#include "families/blocked_gemm/plan/op_access.hpp"

#include <algorithm>
#include <map>
#include <sstream>

namespace gigacheck {

namespace {

std::string opText(const Operation& op)
{
    std::ostringstream o;
    o << "op " << op.id << " (" << toString(op.kind) << " block " << op.block.i << "," << op.block.j
      << "," << op.block.k << ")";
    return o.str();
}

Queue queueOf(OpKind kind)
{
    if (kind == OpKind::CopyH2D)
        return Queue::H2D;
    if (kind == OpKind::CopyD2H)
        return Queue::D2H;
    return Queue::Compute;
}

// Ancestors of one op through deps, ignoring ids below `floor` (they cannot be the ones sought).
class Reachability {
public:
    explicit Reachability(const std::vector<Operation>& ops) : ops_(ops), mark_(ops.size(), -1) {}

    // Marks every ancestor of `op` with id >= floor; then isAncestor answers for those ids.
    void collect(int op, int floor)
    {
        ++stamp_;
        stack_.assign(1, op);
        while (!stack_.empty()) {
            const int cur = stack_.back();
            stack_.pop_back();
            for (int d : ops_[std::size_t(cur)].deps) {
                if (d < floor || mark_[std::size_t(d)] == stamp_)
                    continue;
                mark_[std::size_t(d)] = stamp_;
                stack_.push_back(d);
            }
        }
    }
    bool isAncestor(int id) const { return mark_[std::size_t(id)] == stamp_; }

private:
    const std::vector<Operation>& ops_;
    std::vector<int> mark_;
    std::vector<int> stack_;
    int stamp_ = 0;
};

}  // namespace

std::string validateSchedule(const Schedule& schedule)
{
    const Plan& plan = schedule.plan;
    const std::vector<Operation>& ops = schedule.ops;
    const int slots = int(plan.buffers.size());

    // Shape of every op: ids, backward deps, queues, slots.
    for (std::size_t n = 0; n < ops.size(); ++n) {
        const Operation& op = ops[n];
        if (op.id != int(n))
            return "op at index " + std::to_string(n) + " has id " + std::to_string(op.id);
        for (int d : op.deps)
            if (d < 0 || d >= op.id)
                return opText(op) + " depends on op " + std::to_string(d) + ", which is not an earlier op";
        if (op.queue != queueOf(op.kind))
            return opText(op) + " is on queue " + std::string(toString(op.queue));
        if (op.stream < 0 || op.stream >= schedule.streams)
            return opText(op) + " uses stream " + std::to_string(op.stream) + " of " +
                   std::to_string(schedule.streams);
        for (int s : {op.dst, op.srcA, op.srcB, op.aux})
            if (s >= slots)
                return opText(op) + " uses buffer slot " + std::to_string(s) + " of " + std::to_string(slots);
        if (op.dst < 0)
            return opText(op) + " has no destination buffer";
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
                       " on buffer " + plan.buffers[std::size_t(c.slot)].name + ")";
        for (int s : access.reads)
            state[std::size_t(s)].readers.push_back(op.id);
        for (int s : access.writes) {
            state[std::size_t(s)].lastWriter = op.id;
            state[std::size_t(s)].readers.clear();
        }
    }

    // Block products and C blocks: each product once, each C block stored once after its last
    // product, injection and verification, from the buffer those wrote.
    struct BlockState {
        int products = 0, lastCompute = -1, stores = 0, slot = -1;
    };
    std::map<std::pair<int, int>, BlockState> blocks;
    for (const Operation& op : ops) {
        const auto key = std::make_pair(op.block.i, op.block.j);
        switch (op.kind) {
        case OpKind::Product: {
            BlockState& b = blocks[key];
            if (op.accumulate != (op.block.k > 0))
                return opText(op) + " must accumulate exactly when k > 0";
            if (b.products != op.block.k)
                return opText(op) + " is not the next k step of its block";
            if (b.stores > 0)
                return opText(op) + " comes after its block was copied to the host";
            if (b.slot >= 0 && b.slot != op.dst)
                return opText(op) + " writes a different C buffer than the earlier steps";
            ++b.products;
            b.slot = op.dst;
            b.lastCompute = op.id;
            break;
        }
        case OpKind::Inject:
        case OpKind::Verify: {
            BlockState& b = blocks[key];
            if (b.products == 0 || b.stores > 0 || b.slot != op.dst)
                return opText(op) + " does not follow a product of its block";
            b.lastCompute = op.id;
            break;
        }
        case OpKind::CopyD2H: {
            BlockState& b = blocks[key];
            const Region expect{Operand::C, plan.rowOffset(op.block.i), plan.colOffset(op.block.j),
                                plan.rowsOf(op.block.i), plan.colsOf(op.block.j)};
            if (op.host.matrix != Operand::C || op.host.row != expect.row || op.host.col != expect.col ||
                op.host.rows != expect.rows || op.host.cols != expect.cols)
                return opText(op) + " copies a host region that is not its C block";
            if (++b.stores > 1)
                return opText(op) + " copies its C block to the host a second time";
            if (b.products != plan.splitN)
                return opText(op) + " copies its C block before all " + std::to_string(plan.splitN) +
                       " k steps";
            if (op.dst != b.slot)
                return opText(op) + " copies a different buffer than its block was computed in";
            reach.collect(op.id, b.lastCompute);
            if (!reach.isAncestor(b.lastCompute))
                return opText(op) + " does not wait for " + opText(ops[std::size_t(b.lastCompute)]);
            break;
        }
        default: break;
        }
    }
    for (int i = 0; i < plan.splitM; ++i)
        for (int j = 0; j < plan.splitQ; ++j) {
            const auto it = blocks.find({i, j});
            if (it == blocks.end() || it->second.stores != 1)
                return "C block " + std::to_string(i) + "," + std::to_string(j) +
                       " is never copied to the host";
        }
    if (blocks.size() != std::size_t(plan.splitM) * std::size_t(plan.splitQ))
        return "the schedule touches C blocks outside the plan's " + std::to_string(plan.splitM) + " x " +
               std::to_string(plan.splitQ) + " grid";
    return {};
}

}  // namespace gigacheck
