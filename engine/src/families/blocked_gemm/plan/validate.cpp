// validateSchedule: the blocked GEMM family's invariants on top of validateOperations (core).
#include "gigacheck/blocked_gemm/plan.hpp"
#include "core/op_text.hpp"
#include "core/reachability.hpp"

#include <algorithm>
#include <map>

namespace gigacheck {

namespace {

Queue queueOf(OpKind kind)
{
    if (kind == OpKind::CopyH2D)
        return Queue::H2D;
    if (kind == OpKind::CopyD2H)
        return Queue::D2H;
    return Queue::Compute;
}


}  // namespace

std::string validateSchedule(const GemmSchedule& schedule)
{
    const Plan& plan = schedule.plan;
    const std::vector<Operation>& ops = schedule.ops;
    if (std::string problem = validateOperations(schedule); !problem.empty())
        return problem;

    for (const Operation& op : ops) {
        if (op.queue != queueOf(op.kind))
            return opText(op) + " is on queue " + std::string(toString(op.queue));
        if (op.dst < 0)
            return opText(op) + " has no destination buffer";
        // No op of this family moves data between devices: each works on its own device's buffers.
        for (const OperandRegion& operand : op.operands)
            if (schedule.buffers[std::size_t(operand.slot)].device != op.device)
                return opText(op) + " on device " + std::to_string(op.device) + " uses buffer " +
                       std::to_string(operand.slot) + " of device " +
                       std::to_string(schedule.buffers[std::size_t(operand.slot)].device);
    }

    Reachability reach(ops);
    // Block products and C blocks: each product once, each C block stored once after its last
    // product, injection and verification, from the buffer those wrote.
    struct BlockState {
        int products = 0, lastCompute = -1, stores = 0, slot = -1, device = -1;
    };
    std::map<std::pair<int, int>, BlockState> blocks;
    for (const Operation& op : ops) {
        const auto key = std::make_pair(op.block.i, op.block.j);
        if (op.kind == OpKind::Product || op.kind == OpKind::Inject || op.kind == OpKind::Verify ||
            op.kind == OpKind::CopyD2H) {
            BlockState& b = blocks[key];
            if (b.device >= 0 && b.device != op.device)
                return opText(op) + " runs on device " + std::to_string(op.device) + ", its C block on device " +
                       std::to_string(b.device);
            b.device = op.device;
        }
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
