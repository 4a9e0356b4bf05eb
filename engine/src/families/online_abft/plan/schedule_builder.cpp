#include "families/online_abft/plan/schedule_builder.hpp"

#include "families/online_abft/ops.hpp"

#include <algorithm>

namespace gigacheck::online_abft {

namespace {

BufferSpec buffer(std::string name, BufferRole role, std::int64_t rows, std::int64_t cols, std::size_t elem)
{
    BufferSpec b;
    b.name = std::move(name);
    b.role = role;
    b.rows = rows;
    b.cols = cols;
    b.ld = cols;
    b.bytes = std::size_t(rows) * std::size_t(cols) * elem;
    return b;
}

OperandRegion use(int slot, Access access) { return OperandRegion{slot, access}; }

}  // namespace

Plan makeOnlinePlan(const Shape& s, Precision precision, const OnlineInputs& in)
{
    Plan p;
    p.shape = s;
    p.precision = precision;
    p.strategy = StrategyKind::None;
    p.abft = in.scheme != Scheme::Tmr;
    p.splitM = p.splitQ = 1;
    p.splitN = in.scheme == Scheme::Tmr ? 1 : in.steps;
    p.blockM = s.m;
    p.blockN = in.scheme == Scheme::Tmr ? s.n : in.panel;
    p.blockQ = s.q;
    const std::size_t e = elementSize(precision);
    if (in.scheme == Scheme::Tmr) {
        p.buffers = {buffer("A", BufferRole::A, s.m, s.n, e), buffer("B", BufferRole::B, s.n, s.q, e),
                     buffer("C0", BufferRole::C, s.m, s.q, e), buffer("C1", BufferRole::C, s.m, s.q, e),
                     buffer("C2", BufferRole::C, s.m, s.q, e),
                     buffer("vote", BufferRole::Aux, 1, 1024, 1)};  // the device vote's counters
        p.explanation = "TMR: three products of A (" + std::to_string(s.m) + " x " + std::to_string(s.n) + ") by B, "
                        "then an element-wise majority vote into C0.";
    } else {
        const std::int64_t k = in.checksums;
        p.buffers = {buffer("A_c", BufferRole::A, s.m + k, s.n, e),
                     buffer("B_r", BufferRole::B, s.n, s.q + std::max<std::int64_t>(k, 2), e),
                     buffer("C_f", BufferRole::C, s.m + k, s.q + k, e),
                     buffer("aux", BufferRole::Aux, auxRows(in),
                            (hostChecked(in) ? std::max({s.m, s.q, s.n}) : std::max(s.m, s.q)) + k + 1,
                            sizeof(double))};
        p.explanation = std::to_string(in.steps) + " panel products of width " + std::to_string(in.panel) + " with " +
                        std::to_string(k) + " checksum row(s) / column(s) carried through every step, " +
                        (in.scheme == Scheme::Offline ? std::string("checked after the last step only (offline).")
                                                      : "checked every " + std::to_string(in.checkEvery) + " step(s).");
    }
    for (const BufferSpec& b : p.buffers)
        p.bytesNeeded += b.bytes;
    p.capBytes = p.bytesNeeded;
    return p;
}

Schedule buildOnlineSchedule(const Plan& plan, const OnlineInputs& in, const OnlineConfig& config)
{
    Schedule s;
    s.family = std::string(kFamilyName);
    s.buffers = plan.buffers;
    s.capBytes = plan.capBytes;
    s.streams = 1;
    const Shape& sh = plan.shape;
    const double e = double(elementSize(plan.precision));
    const auto add = [&](OpKind kind, Queue queue, std::vector<OperandRegion> operands) -> Operation& {
        Operation op;
        op.id = int(s.ops.size());
        op.kind = kind;
        op.queue = queue;
        op.operands = std::move(operands);
        op.rows = sh.m;
        op.cols = sh.q;
        op.depth = sh.n;
        if (op.id > 0)
            op.deps = {op.id - 1};
        s.ops.push_back(std::move(op));
        return s.ops.back();
    };
    const auto load = [&](Operand matrix, int slot, std::int64_t rows, std::int64_t cols) {
        Operation& op = add(kLoadInputs, Queue::H2D, {use(slot, Access::Write)});
        op.dst = slot;
        op.host = Region{matrix, 0, 0, rows, cols};
        op.bytes = double(rows) * double(cols) * e;
    };
    const auto inject = [&](int step) {
        if (faultsAfter(in, step).empty())
            return;
        Operation& op = add(kInjectFault, Queue::Compute,
                            {use(kSlotA, Access::ReadWrite), use(kSlotB, Access::ReadWrite), use(kSlotC, Access::ReadWrite)});
        op.block.k = step;
    };
    const auto store = [&](int slot) {
        Operation& op = add(kStoreResult, Queue::D2H, {use(slot, Access::Read)});
        op.dst = slot;
        op.host = Region{Operand::C, 0, 0, sh.m, sh.q};
        op.bytes = double(sh.m) * double(sh.q) * e;
    };

    load(Operand::A, kSlotA, sh.m, sh.n);
    load(Operand::B, kSlotB, sh.n, sh.q);
    if (in.scheme == Scheme::Tmr) {
        const int replicas[3] = {kSlotC, kSlotReplica1, kSlotReplica2};
        for (int r = 0; r < 3; ++r) {
            Operation& op = add(kReplicaProduct, Queue::Compute,
                                {use(kSlotA, Access::Read), use(kSlotB, Access::Read), use(replicas[r], Access::Write)});
            op.block.k = r;
            op.dst = replicas[r];
            op.flops = 2.0 * double(sh.m) * double(sh.n) * double(sh.q);
            op.bytes = (double(sh.m) * double(sh.n) + double(sh.n) * double(sh.q) + double(sh.m) * double(sh.q)) * e;
            if (!faultsAfter(in, r).empty()) {
                Operation& f = add(kInjectFault, Queue::Compute, {use(replicas[r], Access::ReadWrite)});
                f.block.k = r;
                f.dst = replicas[r];
            }
        }
        Operation& vote = add(kVote, Queue::Compute,
                              {use(kSlotC, Access::ReadWrite), use(kSlotReplica1, Access::Read), use(kSlotReplica2, Access::Read)});
        vote.flops = 3.0 * double(sh.m) * double(sh.q);
        vote.bytes = 4.0 * double(sh.m) * double(sh.q) * e;
        store(kSlotC);
        return s;
    }

    const double k = double(in.checksums);
    const double rowsF = double(sh.m) + k, colsF = double(sh.q) + k;
    Operation& encode = add(kEncode, Queue::Compute, {use(kSlotA, Access::ReadWrite), use(kSlotB, Access::ReadWrite)});
    encode.flops = 2.0 * k * (double(sh.m) * double(sh.n) + double(sh.n) * double(sh.q));
    encode.bytes = (double(sh.m) * double(sh.n) + double(sh.n) * double(sh.q)) * e;
    for (int j = 0; j < in.steps; ++j) {
        const std::int64_t width = std::min(in.panel, sh.n - std::int64_t(j) * in.panel);
        Operation& op = add(kPanelProduct, Queue::Compute,
                            {use(kSlotA, Access::Read), use(kSlotB, Access::Read), use(kSlotC, Access::ReadWrite),
                             use(kSlotAux, Access::ReadWrite)});
        op.block.k = j;
        op.depth = width;
        op.accumulate = j > 0;
        op.flops = 2.0 * rowsF * colsF * double(width);
        op.bytes = (rowsF * double(width) + double(width) * colsF + 2.0 * rowsF * colsF) * e;
        inject(j);
        if (config.checksAfter(j)) {
            Operation& check = add(kCheck, Queue::Compute,
                                   {use(kSlotA, Access::ReadWrite), use(kSlotB, Access::ReadWrite),
                                    use(kSlotC, Access::ReadWrite), use(kSlotAux, Access::ReadWrite)});
            check.block.k = j;
            check.depth = std::min(sh.n, std::int64_t(j + 1) * in.panel);  // inner dimension so far
            check.flops = 2.0 * k * rowsF * colsF;
            check.bytes = rowsF * colsF * e;
        }
    }
    store(kSlotC);
    return s;
}

std::vector<std::size_t> faultsAfter(const OnlineInputs& in, int step)
{
    std::vector<std::size_t> out;
    for (std::size_t i = 0; i < in.faults.size(); ++i)
        if (in.faults[i].at.step.value_or(-1) == step)
            out.push_back(i);
    return out;
}

}  // namespace gigacheck::online_abft
