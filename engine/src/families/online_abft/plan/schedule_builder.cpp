#include "families/online_abft/plan/schedule_builder.hpp"

#include "families/online_abft/ops.hpp"

#include <algorithm>

namespace gigacheck::online_abft {

namespace {

BufferSpec buffer(std::string name, BufferRole role, std::int64_t rows, std::int64_t cols, std::size_t elem,
                  std::int64_t align = 1)
{
    BufferSpec b;
    b.name = std::move(name);
    b.role = role;
    b.rows = rows;
    b.cols = cols;
    b.ld = (cols + align - 1) / align * align;
    b.bytes = std::size_t(rows) * std::size_t(b.ld) * elem;
    return b;
}


OperandRegion use(int slot, Access access) { return OperandRegion{slot, access}; }

// With merged steps (README "Merged steps") a product op covers the steps since the last check,
// fault or group end: the group ends after step j when a check or a fault follows j, or at the
// last step. Without merging every step is its own group.
bool groupEndsAfter(const OnlineInputs& in, const OnlineConfig& config, int step, bool faultsFollow)
{
    return !in.mergeSteps || step == in.steps - 1 || config.checksAfter(step) || faultsFollow;
}

// The inner dimension of steps first .. last (the last panel may be narrower).
std::int64_t depthOfSteps(std::int64_t n, std::int64_t panel, int first, int last)
{
    return std::min(n, std::int64_t(last + 1) * panel) - std::int64_t(first) * panel;
}

}  // namespace

OnlinePlan makeOnlinePlan(const Shape& s, Precision precision, const OnlineInputs& in)
{
    OnlinePlan p;
    p.shape = s;
    p.precision = precision;
    const std::size_t e = elementSize(precision);
    if (in.scheme == Scheme::Tmr) {
        p.buffers = {buffer("A", BufferRole::A, s.m, s.n, e), buffer("B", BufferRole::B, s.n, s.q, e),
                     buffer("C0", BufferRole::C, s.m, s.q, e), buffer("C1", BufferRole::C, s.m, s.q, e),
                     buffer("C2", BufferRole::C, s.m, s.q, e),
                     // The device vote's counters and its list of disputed cells (cuda/vote.hpp VoteOut).
                     buffer("vote", BufferRole::Aux, 1, 8 * (kMaxDisputedCells + 4), 1)};
        p.explanation = "TMR: three products of A (" + std::to_string(s.m) + " x " + std::to_string(s.n) + ") by B, "
                        "then an element-wise majority vote into C0.";
    } else if (in.columnBlocks > 1) {
        // Column blocks (K = 1, the device path): A_c shared, then B_r, C_f and aux of each block.
        p.buffers = {buffer("A_c", BufferRole::A, s.m + 1, s.n, e)};
        for (int b = 0; b < in.columnBlocks; ++b) {
            const std::int64_t w = columnBlock(in, b).cols;
            std::string tag = std::to_string(b);  // "[b]", built so that GCC 12 sees no overlap (-Wrestrict)
            tag.insert(tag.begin(), '[');
            tag += ']';
            p.buffers.push_back(buffer("B_r" + tag, BufferRole::B, s.n, w + 2, e, kColumnBlockRowAlignment));
            p.buffers.push_back(buffer("C_f" + tag, BufferRole::C, s.m + 1, w + 1, e, kColumnBlockRowAlignment));
            p.buffers.push_back(buffer("aux" + tag, BufferRole::Aux, 4, std::max(s.m, w) + 2, sizeof(double)));
        }
        p.explanation = std::to_string(in.steps) + " panel products of width " + std::to_string(in.panel) + " in " +
                        std::to_string(in.columnBlocks) + " column blocks, each with its own checksum column and "
                        "built and checked on its own stream, " +
                        (in.scheme == Scheme::Offline ? std::string("checked after the last step only (offline).")
                                                      : "checked every " + std::to_string(in.checkEvery) + " step(s).");
    } else {
        const std::int64_t k = in.checksums;
        // Products on the tensor cores (TF32, BF16 / FP16 inputs): rows of B_r and C_f on 128-byte
        // boundaries. The CUTLASS kernels' copies need whole 16 bytes (cutlassTf32Fits,
        // cutlass16BitFits: C's leading dimension), and on rows of q + 1 floats cuBLAS TF32 ran an
        // sm_80 kernel for 1-float alignment, 3.5 times as long as its own (H200, 16384 x 1024 x
        // 16384). tf32x3's three products are cuBLAS TF32's too. FP32 and FP64 products keep the
        // tight layout.
        const InputFormat input = inputFormatOf(in.gemm);
        const bool tensorCores = input == InputFormat::Tf32 || input == InputFormat::Bf16 || input == InputFormat::F16 ||
                                 (in.gemm == GemmVariant::Tf32x3 && precision == Precision::F32);
        const std::int64_t align = tensorCores ? kColumnBlockRowAlignment : 1;
        p.buffers = {buffer("A_c", BufferRole::A, s.m + k, s.n, e),
                     buffer("B_r", BufferRole::B, s.n, s.q + std::max<std::int64_t>(k, 2), e, align),
                     buffer("C_f", BufferRole::C, s.m + k, s.q + k, e, align),
                     buffer("aux", BufferRole::Aux, auxRows(in),
                            (hostChecked(in) ? std::max({s.m, s.q, s.n}) : std::max(s.m, s.q)) + k + 1,
                            sizeof(double))};
        // q x depth floats, rows of the depth: a panel's B^T, or all of it for the step-sums kernel, whose
        // sums of C follow (per product op: C's m row sums, then its q column sums).
        if (precision == Precision::F32 && kMajorPanels(in))
            p.buffers.push_back(buffer("B^T", BufferRole::B, s.q, stepSumsProduct(in) ? s.n : longestProductDepth(in, s.n), e));
        if (precision == Precision::F32 && stepSumsProduct(in)) {
            const std::int64_t steps = (s.n + stepSumsPanel(in) - 1) / stepSumsPanel(in);
            p.buffers.push_back(buffer("step sums", BufferRole::Aux, steps, s.m + s.q, sizeof(double)));
            p.buffers.push_back(buffer("step checksum lines", BufferRole::Aux, steps, stepLinesWidth(s), sizeof(float)));
            p.buffers.push_back(buffer("step bounds", BufferRole::Aux, steps, stepBoundsWidth(in), sizeof(double)));
        }
        p.explanation = std::to_string(in.steps) + " panel products of width " + std::to_string(in.panel) + " with " +
                        std::to_string(k) + " checksum row(s) / column(s) carried through every step, " +
                        (in.scheme == Scheme::Offline ? std::string("checked after the last step only (offline).")
                                                      : "checked every " + std::to_string(in.checkEvery) + " step(s).");
    }
    for (const BufferSpec& b : p.buffers)
        p.bytesNeeded += b.bytes;
    return p;
}

namespace {

// G column blocks (README "Column blocks"): each block's chain -- load its part of B, encode it,
// then per step its panel product, its faults and its check, then store its part of C -- runs on
// stream b with no dependency on another block's chain; only A_c (loaded once) is shared.
Schedule buildColumnBlockSchedule(const OnlinePlan& plan, const OnlineInputs& in, const OnlineConfig& config)
{
    Schedule s;
    s.family = std::string(kFamilyName);
    s.buffers = plan.buffers;
    s.capBytes = plan.bytesNeeded;
    s.streams = in.columnBlocks;
    const Shape& sh = plan.shape;
    const double e = double(elementSize(plan.precision));
    const double rows = double(sh.m) + 1;
    const auto add = [&](OpKind kind, Queue queue, int block, std::vector<int> deps,
                         std::vector<OperandRegion> operands) -> Operation& {
        Operation op;
        op.id = int(s.ops.size());
        op.kind = kind;
        op.queue = queue;
        op.stream = block;
        op.block.j = block;
        op.operands = std::move(operands);
        op.rows = sh.m;
        op.cols = columnBlock(in, block).cols;
        op.depth = sh.n;
        op.deps = std::move(deps);
        s.ops.push_back(std::move(op));
        return s.ops.back();
    };

    Operation& loadA = add(kLoadInputs, Queue::H2D, 0, {}, {use(kSlotA, Access::Write)});
    loadA.dst = kSlotA;
    loadA.host = Region{Operand::A, 0, 0, sh.m, sh.n};
    loadA.bytes = double(sh.m) * double(sh.n) * e;
    loadA.cols = sh.n;
    const int loadAId = loadA.id;

    std::vector<int> inputs{loadAId};
    for (int b = 0; b < in.columnBlocks; ++b) {
        const ColumnBlock cb = columnBlock(in, b);
        Operation& load = add(kLoadInputs, Queue::H2D, b, {}, {use(slotB(b), Access::Write)});
        load.dst = slotB(b);
        load.host = Region{Operand::B, 0, cb.col, sh.n, cb.cols};
        load.bytes = double(sh.n) * double(cb.cols) * e;
        inputs.push_back(load.id);
    }
    // Every block's encode waits for every input (A and each block's columns of B): the compute
    // work starts when all is in, as with one block. A block starting while the next block's
    // columns still load would run its last steps alone at the end, each check and GEMM tail with
    // nothing beside it (README "Column blocks"); a block encoding while A still loads would stretch
    // the compute queue's span by the load.
    std::vector<int> last(std::size_t(in.columnBlocks));
    for (int b = 0; b < in.columnBlocks; ++b) {
        const ColumnBlock cb = columnBlock(in, b);
        Operation& encode = add(kEncode, Queue::Compute, b, inputs, {use(slotB(b), Access::ReadWrite)});
        encode.flops = 2.0 * double(sh.n) * double(cb.cols);
        encode.bytes = double(sh.n) * double(cb.cols) * e;
        last[std::size_t(b)] = encode.id;
    }
    std::vector<int> groupStart(std::size_t(in.columnBlocks), 0);
    for (int j = 0; j < in.steps; ++j) {
        for (int b = 0; b < in.columnBlocks; ++b) {
            int& chain = last[std::size_t(b)];
            const bool faulted = !faultsAfter(in, j, b).empty();
            if (!groupEndsAfter(in, config, j, faulted))
                continue;
            const int first = groupStart[std::size_t(b)];
            groupStart[std::size_t(b)] = j + 1;
            const std::int64_t width = depthOfSteps(sh.n, in.panel, first, j);
            const double cols = double(columnBlock(in, b).cols) + 1;
            Operation& op = add(kPanelProduct, Queue::Compute, b, {chain},
                                {use(kSlotA, Access::Read), use(slotB(b), Access::Read), use(slotC(b), Access::ReadWrite),
                                 use(slotAux(b), Access::ReadWrite)});
            op.block.k = first;  // the group's first step; depth spans its steps
            op.depth = width;
            op.accumulate = first > 0;
            op.flops = 2.0 * rows * cols * double(width);
            op.bytes = (rows * double(width) + double(width) * cols + 2.0 * rows * cols) * e;
            chain = op.id;
            if (faulted) {
                Operation& f = add(kInjectFault, Queue::Compute, b, {chain}, {use(slotC(b), Access::ReadWrite)});
                f.block.k = j;
                f.dst = slotC(b);
                chain = f.id;
            }
            if (config.checksAfter(j)) {
                Operation& check = add(kCheck, Queue::Compute, b, {chain},
                                       {use(slotC(b), Access::ReadWrite), use(slotAux(b), Access::ReadWrite)});
                check.block.k = j;
                check.depth = std::min(sh.n, std::int64_t(j + 1) * in.panel);
                check.flops = 2.0 * rows * cols;
                check.bytes = rows * cols * e;
                chain = check.id;
            }
        }
    }
    for (int b = 0; b < in.columnBlocks; ++b) {
        const ColumnBlock cb = columnBlock(in, b);
        Operation& store = add(kStoreResult, Queue::D2H, b, {last[std::size_t(b)]}, {use(slotC(b), Access::Read)});
        store.dst = slotC(b);
        store.host = Region{Operand::C, 0, cb.col, sh.m, cb.cols};
        store.bytes = double(sh.m) * double(cb.cols) * e;
    }
    return s;
}

}  // namespace

Schedule buildOnlineSchedule(const OnlinePlan& plan, const OnlineInputs& in, const OnlineConfig& config)
{
    if (in.scheme != Scheme::Tmr && in.columnBlocks > 1)
        return buildColumnBlockSchedule(plan, in, config);

    Schedule s;
    s.family = std::string(kFamilyName);
    s.buffers = plan.buffers;
    s.capBytes = plan.bytesNeeded;
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
    int groupStart = 0;
    for (int j = 0; j < in.steps; ++j) {
        if (!groupEndsAfter(in, config, j, !faultsAfter(in, j).empty()))
            continue;
        const int first = groupStart;
        groupStart = j + 1;
        const std::int64_t width = depthOfSteps(sh.n, in.panel, first, j);
        Operation& op = add(kPanelProduct, Queue::Compute,
                            {use(kSlotA, Access::Read), use(kSlotB, Access::Read), use(kSlotC, Access::ReadWrite),
                             use(kSlotAux, Access::ReadWrite)});
        op.block.k = first;  // the group's first step; depth spans its steps
        op.depth = width;
        op.accumulate = first > 0;
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

ColumnBlock columnBlock(const OnlineInputs& in, int block)
{
    const std::int64_t q = in.shape.q, g = std::max(1, in.columnBlocks);
    const auto start = [&](std::int64_t b) {
        if (b >= g)
            return q;
        const std::int64_t even = b * q / g;
        return q >= 64 * g ? even / 64 * 64 : even;
    };
    return ColumnBlock{start(block), start(block + 1) - start(block)};
}

int blockOf(const OnlineInputs& in, const OnlineFault& f)
{
    if (in.columnBlocks <= 1 || f.target == OnlineTarget::A || f.target == OnlineTarget::B)
        return 0;
    if (f.target == OnlineTarget::ChecksumCol)
        return int(f.col);
    for (int b = in.columnBlocks - 1; b > 0; --b)
        if (f.col >= columnBlock(in, b).col)
            return b;
    return 0;
}

std::vector<std::size_t> faultsAfter(const OnlineInputs& in, int step, int block)
{
    std::vector<std::size_t> out;
    for (std::size_t i : faultsAfter(in, step))
        if (blockOf(in, in.faults[i].at) == block)
            out.push_back(i);
    return out;
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
