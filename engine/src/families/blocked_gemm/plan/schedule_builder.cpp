#include "families/blocked_gemm/plan/schedule_builder.hpp"

#include "families/blocked_gemm/ops.hpp"
#include "families/blocked_gemm/plan/buffer_layout.hpp"
#include "families/blocked_gemm/plan/op_access.hpp"

#include <algorithm>

namespace gigacheck {

ScheduleBuilder::ScheduleBuilder(const Plan& plan, bool withInjection, int streams, int devices)
    : plan_(plan), withInjection_(withInjection)
{
    const BufferCounts n = bufferCounts(plan.strategy);
    countA_ = n.a;
    countB_ = n.b;
    countC_ = n.c;
    elem_ = double(elementSize(plan.precision));
    schedule_.family = std::string(blocked_gemm::kFamilyName);
    schedule_.plan = plan;
    for (int d = 0; d < devices; ++d)
        for (BufferSpec spec : plan.buffers) {
            spec.device = d;
            schedule_.buffers.push_back(std::move(spec));
        }
    schedule_.capBytes = plan.capBytes;
    schedule_.streams = streams;
    schedule_.devices = devices;
    slots_.resize(schedule_.buffers.size());
}

GemmSchedule ScheduleBuilder::take()
{
    if (schedule_.devices <= 1)
        return std::move(schedule_);
    // Proportional merge: next comes the device that is least far through its own ops, so that
    // the executors' issue (in order, a bounded window ahead of what has finished) feeds every
    // device alike. The devices share no buffer, so no dependency crosses them.
    std::vector<std::vector<int>> byDevice(std::size_t(schedule_.devices));
    for (const Operation& op : schedule_.ops)
        byDevice[std::size_t(op.device)].push_back(op.id);
    std::vector<std::size_t> next(byDevice.size(), 0);
    std::vector<int> newId(schedule_.ops.size(), -1);
    std::vector<Operation> merged;
    merged.reserve(schedule_.ops.size());
    while (merged.size() < schedule_.ops.size()) {
        std::size_t pick = byDevice.size();
        double least = 2;
        for (std::size_t d = 0; d < byDevice.size(); ++d) {
            if (next[d] == byDevice[d].size())
                continue;
            const double through = double(next[d] + 1) / double(byDevice[d].size());
            if (through < least) {
                least = through;
                pick = d;
            }
        }
        Operation op = std::move(schedule_.ops[std::size_t(byDevice[pick][next[pick]++])]);
        newId[std::size_t(op.id)] = int(merged.size());
        op.id = int(merged.size());
        for (int& dep : op.deps)
            dep = newId[std::size_t(dep)];  // earlier on the same device: already placed
        std::sort(op.deps.begin(), op.deps.end());
        merged.push_back(std::move(op));
    }
    schedule_.ops = std::move(merged);
    return std::move(schedule_);
}

Operation& ScheduleBuilder::add(Operation op)
{
    op.id = int(schedule_.ops.size());
    op.device = device_;
    op.operands = operandsOf(op);
    const OpAccess access = accessOf(op);
    auto depend = [&op](int id) {
        if (id >= 0 && std::find(op.deps.begin(), op.deps.end(), id) == op.deps.end())
            op.deps.push_back(id);
    };
    for (int slot : access.reads)
        depend(slots_[std::size_t(slot)].lastWriter);  // read after write
    for (int slot : access.writes) {
        depend(slots_[std::size_t(slot)].lastWriter);  // write after write
        for (int reader : slots_[std::size_t(slot)].readersSinceWrite)
            depend(reader);  // write after read
    }
    for (int slot : access.reads)
        slots_[std::size_t(slot)].readersSinceWrite.push_back(op.id);
    for (int slot : access.writes) {
        slots_[std::size_t(slot)].lastWriter = op.id;
        slots_[std::size_t(slot)].readersSinceWrite.clear();
    }
    std::sort(op.deps.begin(), op.deps.end());
    schedule_.ops.push_back(std::move(op));
    return schedule_.ops.back();
}

void ScheduleBuilder::setExtents(Operation& op, const BlockIndex& b) const
{
    op.block = b;
    op.rows = plan_.rowsOf(b.i);
    op.cols = plan_.colsOf(b.j);
    op.depth = plan_.depthOf(b.k);
}

void ScheduleBuilder::loadA(int i, int k, int slot, int stream)
{
    Operation op;
    op.kind = OpKind::CopyH2D;
    op.queue = Queue::H2D;
    op.stream = stream;
    op.dst = slot;
    setExtents(op, {i, 0, k});
    op.cols = 0;  // an A block does not depend on j
    op.host = {Operand::A, plan_.rowOffset(i), plan_.depthOffset(k), op.rows, op.depth};
    op.bytes = double(op.rows) * double(op.depth) * elem_;
    add(std::move(op));
}

void ScheduleBuilder::loadB(int k, int j, int slot, int stream)
{
    Operation op;
    op.kind = OpKind::CopyH2D;
    op.queue = Queue::H2D;
    op.stream = stream;
    op.dst = slot;
    setExtents(op, {0, j, k});
    op.rows = 0;  // a B block does not depend on i
    op.host = {Operand::B, plan_.depthOffset(k), plan_.colOffset(j), op.depth, op.cols};
    op.bytes = double(op.depth) * double(op.cols) * elem_;
    add(std::move(op));
}

void ScheduleBuilder::checksumA(const BlockIndex& b, int slot, int stream) { checksum(b, slot, stream, Operand::A); }

void ScheduleBuilder::checksumB(const BlockIndex& b, int slot, int stream) { checksum(b, slot, stream, Operand::B); }

void ScheduleBuilder::checksum(const BlockIndex& b, int slot, int stream, Operand of)
{
    if (!plan_.abft)
        return;
    Operation op;
    op.kind = OpKind::Checksum;
    op.stream = stream;
    op.dst = slot;
    setExtents(op, b);
    // One pass over the block (rows x depth of A, depth x cols of B), one checksum of depth written.
    const double blockElements = double(op.depth) * double(of == Operand::A ? op.rows : op.cols);
    op.flops = blockElements;
    op.bytes = (blockElements + double(op.depth)) * elem_;
    add(std::move(op));
}

void ScheduleBuilder::product(const BlockIndex& b, int a, int bSlot, int c, int stream, int storeStream)
{
    const int aux = slotAux(c - slotC(0));
    const double extra = plan_.abft ? 1 : 0;

    Operation prod;
    prod.kind = OpKind::Product;
    prod.stream = stream;
    prod.dst = c;
    prod.srcA = a;
    prod.srcB = bSlot;
    prod.aux = aux;
    prod.accumulate = b.k > 0;
    // S1-S3 compute one product at a time (seed figure 10); S4's two concurrent products are its point.
    prod.exclusive = plan_.strategy != StrategyKind::S4;
    setExtents(prod, b);
    const double rows = double(prod.rows) + extra, cols = double(prod.cols) + extra;
    const double depth = double(prod.depth);
    prod.flops = 2 * rows * cols * depth;
    prod.bytes = (rows * depth + depth * cols + rows * cols * (prod.accumulate ? 2 : 1)) * elem_;
    add(prod);

    if (withInjection_) {
        Operation inject;
        inject.kind = OpKind::Inject;
        inject.stream = stream;
        inject.dst = c;
        setExtents(inject, b);
        add(std::move(inject));
    }
    if (plan_.abft) {
        Operation verify;
        verify.kind = OpKind::Verify;
        verify.stream = stream;
        verify.dst = c;
        verify.aux = aux;
        setExtents(verify, b);
        verify.flops = 2 * rows * cols;  // control row and column sums
        verify.bytes = rows * cols * elem_;
        add(std::move(verify));
    }
    if (b.k == plan_.splitN - 1) {
        Operation store;
        store.kind = OpKind::CopyD2H;
        store.queue = Queue::D2H;
        store.stream = storeStream;
        store.dst = c;
        setExtents(store, b);
        store.host = {Operand::C, plan_.rowOffset(b.i), plan_.colOffset(b.j), store.rows, store.cols};
        store.bytes = double(store.rows) * double(store.cols) * elem_;
        add(std::move(store));
    }
}

}  // namespace gigacheck
