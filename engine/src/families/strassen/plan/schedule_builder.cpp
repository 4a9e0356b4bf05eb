// Builds a strassen schedule: loads, the peeled fringe (plain GEMM updates of the rows, columns
// and depth beyond the core), the recursion of the variant's recipe, faults between stages,
// exact restore, stores. Every op names its regions; dependencies come from them.
#include "families/strassen/plan/schedule_builder.hpp"

#include "families/strassen/leaf_check.hpp"
#include "families/strassen/ops.hpp"
#include "families/strassen/recipe.hpp"

#include <algorithm>
#include <bit>

namespace gigacheck {

int effectiveLevels(const Shape& shape, int levels)
{
    if (levels < 0 || levels > kMaxStrassenLevels)
        throw InputError("--levels must be between 0 and " + std::to_string(kMaxStrassenLevels) + " (got " +
                         std::to_string(levels) + ")");
    const std::int64_t smallest = std::min({shape.m, shape.n, shape.q});
    int fits = 0;
    while (fits < levels && (smallest >> (fits + 1)) >= 1)
        ++fits;
    return fits;
}

namespace strassen {

namespace {

void startWhenResident(Schedule& schedule);
void placeDeviceZeroLanes(Schedule& schedule);
void placeSumsBeside(Schedule& schedule);
void placeProductsBeside(Schedule& schedule);

struct Rect {
    std::int64_t row = 0, col = 0, rows = 0, cols = 0;
    Rect quarter(int q) const
    {
        const std::int64_t hr = rows / 2, hc = cols / 2;
        return {row + (q / 2) * hr, col + (q % 2) * hc, hr, hc};
    }
};

struct Dest {
    Rect c;
    int sign;
};

OperandRegion region(int slot, Access access, const Rect& r, double coefficient = 1)
{
    return {slot, access, r.row, r.col, r.rows, r.cols, coefficient};
}

class Builder {
public:
    Builder(const StrassenConfig& config, int levels, bool decomposed)
        : config_(config), levels_(levels), decomposed_(decomposed)
    {
    }

    Schedule build()
    {
        const Shape s = config_.shape;
        const Shape core = coreShape(s, levels_);
        const std::size_t es = elementSize(config_.precision);
        schedule_.family = std::string(kFamilyName);
        std::vector<BufferSpec>& buffers = schedule_.buffers;
        auto buffer = [&](std::string name, BufferRole role, std::int64_t rows, std::int64_t cols, int device = 0) {
            buffers.push_back({std::move(name), role, rows, cols, cols, std::size_t(rows * cols) * es, device});
        };
        buffer("A", BufferRole::A, s.m, s.n);
        buffer("B", BufferRole::B, s.n, s.q);
        buffer("C", BufferRole::C, s.m, s.q);
        leafM_ = core.m >> levels_;
        leafQ_ = core.q >> levels_;
        // A decomposition's tasks multiply blocks of N/2 (one level), by one GEMM or, with more
        // levels, by the variant's recursion inside the task ("local Strassen", seed table 4.3).
        taskM_ = core.m >> 1;
        taskN_ = core.n >> 1;
        taskQ_ = core.q >> 1;
        local_ = decomposed_ && levels_ > 1;
        const bool winogradTasks = decomposed_ && levels_ > 0 && config_.decomposition == StrassenDecomposition::Winograd;
        // One workspace on device 0: the workspace variant's leaf block; in a decomposition a task
        // block, into which device 0's Winograd tasks with several targets multiply once (then added
        // into each target, as the remote tasks' results are: one GEMM instead of one per target)
        // and its local Strassen tasks accumulate.
        if (levels_ > 0 && config_.variant == StrassenVariant::Workspace && !decomposed_) {
            slotM_ = int(buffers.size());
            buffer("M", BufferRole::Aux, leafM_, leafQ_);
        } else if (winogradTasks || local_) {
            slotM_ = int(buffers.size());
            buffer("M", BufferRole::Aux, taskM_, taskQ_);
        }
        // Device 0's tasks multiply private copies of their operand blocks where a later in-place
        // sum overwrites them, or where a local Strassen sums in them (decompose()).
        // Two sets where device 0 has two or more tasks, used by turns: the copies for its next
        // task (and the sums after them, which remote tasks wait for) need not wait for its
        // current product to release the one set (4 H200s, 14336^2 FP64 Winograd at 6b93392:
        // device 2's second task started 2 ms late behind them).
        if (winogradTasks || local_) {
            for (int set = 0; set < std::min(tasksOn(0), 2); ++set) {
                privateSets_.push_back(int(buffers.size()));
                buffer(set == 0 ? "TA@0" : "TA'@0", BufferRole::A, taskM_, taskN_);
                buffer(set == 0 ? "SB@0" : "SB'@0", BufferRole::B, taskN_, taskQ_);
            }
        }
        if (config_.checkLeaves) {
            // One result per leaf: 7^L core leaves and at most three fringe products.
            std::int64_t leaves = 3;
            std::int64_t coreLeaves = 1;
            for (int l = 0; l < levels_; ++l)
                coreLeaves *= 7;
            leaves += coreLeaves;
            // The most targets of one leaf: the recipe's most per product, at every level.
            std::size_t perStep = 1;
            for (const Step& step : recipeOf(config_.variant).steps)
                perStep = std::max(perStep, step.targets.size());
            int maxTargets = 1;
            for (int l = 0; l < levels_; ++l)
                maxTargets *= int(perStep);
            const std::int64_t half = std::max({s.q, s.n, leaves});
            const std::int64_t rows = LeafCheckLayout::rows(maxTargets);
            leafCheckSlot_ = int(buffers.size());
            buffers.push_back({"leaf checks", BufferRole::Aux, rows, 2 * half, 2 * half,
                               std::size_t(rows * 2 * half) * sizeof(double), 0});
        }
        // Multi-device: per remote device its operand blocks and result, and a receive block on
        // device 0 (README "Multi-device decomposition"); two such sets on a device with two or
        // more tasks, used in turn, so that the next task's operands come in while the previous
        // task multiplies and its result goes out while the next one multiplies (one set: the
        // second task waited for the first one's copy back and its own copies in, 3 ms of 12 at
        // 14336^2 FP64 on 4 H200s).
        if (decomposed_ && levels_ > 0) {
            for (int d = 1; d < config_.devices; ++d) {
                remoteSets_.emplace_back();
                for (int set = 0; set < std::min(tasksOn(d), 2); ++set) {
                    remoteSets_.back().push_back(int(buffers.size()));
                    const std::string at = (set == 0 ? "@" : "'@") + std::to_string(d);
                    buffer("TA" + at, BufferRole::A, taskM_, taskN_, d);
                    buffer("SB" + at, BufferRole::B, taskN_, taskQ_, d);
                    buffer("QD" + at, BufferRole::C, taskM_, taskQ_, d);
                    buffer("R" + at, BufferRole::C, taskM_, taskQ_);
                }
            }
        }
        // The cap: every buffer of the schedule. Per device the buffers need less (device 0 holds
        // A, B, C), but core's CPU executor of phase A still draws every device's buffers from one
        // pool charged against one cap.
        schedule_.devices = decomposed_ ? config_.devices : 1;
        for (const BufferSpec& b : buffers)
            schedule_.capBytes += b.bytes;
        schedule_.streams = 1;

        load(kLoad, Operand::A, kSlotA, s.m, s.n);
        load(kLoad, Operand::B, kSlotB, s.n, s.q);
        load(kLoad, Operand::C, kSlotC, s.m, s.q);

        // The fringe first, while A and B are pristine: plain products, one target each.
        if (core.n < s.n && core.m > 0 && core.q > 0)
            leaf({0, core.n, core.m, s.n - core.n}, {core.n, 0, s.n - core.n, core.q}, {{{0, 0, core.m, core.q}, +1}}, 0, 0);
        if (core.q < s.q)
            leaf({0, 0, core.m, s.n}, {0, core.q, s.n, s.q - core.q}, {{{0, core.q, core.m, s.q - core.q}, +1}}, 0, 0);
        if (core.m < s.m)
            leaf({core.m, 0, s.m - core.m, s.n}, {0, 0, s.n, s.q}, {{{core.m, 0, s.m - core.m, s.q}, +1}}, 0, 0);

        coreA_ = {0, 0, core.m, core.n};
        coreB_ = {0, 0, core.n, core.q};
        coreC_ = {0, 0, core.m, core.q};
        if (core.m > 0 && core.n > 0 && core.q > 0) {
            // No levels: one plain product, with operand faults before it (after it nothing would
            // read them, and an exact restore would erase them).
            if (levels_ == 0)
                placeOperandFaults({0, 0, core.m, core.n}, {0, 0, core.n, core.q});
            if (decomposed_)
                decompose({0, 0, core.m, core.n}, {0, 0, core.n, core.q}, {0, 0, core.m, core.q});
            else
                node({0, 0, core.m, core.n}, {0, 0, core.n, core.q}, {{{0, 0, core.m, core.q}, +1}}, 0, 0, 0);
        }
        // A product index past the last is refused, never placed somewhere else.
        for (std::size_t f = 0; f < config_.faults.size(); ++f)
            if (!placed_[f] && (config_.faults[f].where == StrassenFault::Where::Product || config_.faults[f].afterProduct >= 0))
                throw InputError("--inject-at " + faultPlace(config_.faults[f]) + ": this run has " + std::to_string(leafCount_) +
                                 " leaf products (" + (config_.faults[f].where == StrassenFault::Where::Product ? "product:" : "@") +
                                 "0 .. " + std::to_string(leafCount_ - 1) + ")");
        // C faults after the last product stage (a run without levels: after its one product);
        // cells outside the core (the peeled fringe) here too.
        placeOperandFaults({0, 0, s.m, s.n}, {0, 0, s.n, s.q});
        placeCFaults({0, 0, s.m, s.q});
        if (config_.exactRestore)
            refuseErasedOperandFaults();

        if (config_.exactRestore) {
            load(kRestore, Operand::A, kSlotA, s.m, s.n);
            load(kRestore, Operand::B, kSlotB, s.n, s.q);
        }
        store(Operand::C, kSlotC, s.m, s.q);
        store(Operand::A, kSlotA, s.m, s.n);
        store(Operand::B, kSlotB, s.n, s.q);
        if (leafCheckSlot_ >= 0) {
            Operation& op = emit(kStoreLeafChecks, Queue::D2H);
            op.operands.push_back(leafChecks(Access::Read));
        }
        deriveDependencies(schedule_);
        if (decomposed_) {
            startWhenResident(schedule_);
            placeDeviceZeroLanes(schedule_);
        }
        if (config_.sumsBeside && !decomposed_)
            placeSumsBeside(schedule_);
        if (config_.sumsBeside && config_.multiTargetKernel && !decomposed_)
            placeProductsBeside(schedule_);
        return std::move(schedule_);
    }

private:
    // How many of the decomposition's tasks run on `device` (task t on device t mod G).
    int tasksOn(int device) const
    {
        const int tasks = config_.decomposition == StrassenDecomposition::TwoD ? 8 : 7;
        return tasks / config_.devices + (device < tasks % config_.devices ? 1 : 0);
    }

    Operation& emit(OpKind kind, Queue queue)
    {
        Operation op;
        op.id = int(schedule_.ops.size());
        op.kind = kind;
        op.queue = queue;
        op.device = device_;
        schedule_.ops.push_back(std::move(op));
        return schedule_.ops.back();
    }

    void load(OpKind kind, Operand m, int slot, std::int64_t rows, std::int64_t cols)
    {
        Operation& op = emit(kind, Queue::H2D);
        op.operands.push_back(region(slot, Access::Write, {0, 0, rows, cols}));
        op.host = {m, 0, 0, rows, cols};
        op.bytes = double(rows * cols) * double(elementSize(config_.precision));
    }
    void store(Operand m, int slot, std::int64_t rows, std::int64_t cols)
    {
        Operation& op = emit(kStore, Queue::D2H);
        op.operands.push_back(region(slot, Access::Read, {0, 0, rows, cols}));
        op.host = {m, 0, 0, rows, cols};
        op.bytes = double(rows * cols) * double(elementSize(config_.precision));
    }

    OperandRegion leafChecks(Access access) const
    {
        const BufferSpec& b = schedule_.buffers[std::size_t(leafCheckSlot_)];
        return region(leafCheckSlot_, access, {0, 0, b.rows, b.cols});
    }

    // One leaf product: every target += sign * A*B; the workspace variant computes M once and
    // scatters it (the fringe has one target and needs no workspace). With leaf checks, the
    // targets' column sums before it and the product's checksum relation after it (and after a
    // fault placed into it).
    void leaf(const Rect& a, const Rect& b, const std::vector<Dest>& targets, int level, int stage)
    {
        if (leafCheckSlot_ >= 0) {
            Operation& sums = emit(kLeafSums, Queue::Compute);
            sums.block = {level, stage, leafCount_};
            for (const Dest& d : targets)
                sums.operands.push_back(region(slotC_, Access::Read, d.c, d.sign));
            sums.operands.push_back(leafChecks(Access::Write));
            sums.bytes = double(targets.size()) * double(a.rows * b.cols) * double(elementSize(config_.precision));
        }
        const bool viaWorkspace = !inTask_ && slotM_ >= 0 && (targets.size() > 1 || throughWorkspace_);
        const double flops = 2.0 * double(a.rows) * double(a.cols) * double(b.cols);
        const double es = double(elementSize(config_.precision));
        Operation& op = emit(kProduct, Queue::Compute);
        op.block = {level, stage, leafCount_};
        op.rows = a.rows;
        op.cols = b.cols;
        op.depth = a.cols;
        op.operands.push_back(region(slotA_, Access::Read, a));
        op.operands.push_back(region(slotB_, Access::Read, b));
        if (viaWorkspace) {
            op.operands.push_back(region(slotM_, Access::Write, {0, 0, a.rows, b.cols}));
            op.flops = flops;
            op.bytes = es * double(a.rows * a.cols + b.rows * b.cols + a.rows * b.cols);
            Operation& sc = emit(kScatter, Queue::Compute);
            sc.block = {level, stage, leafCount_};
            sc.operands.push_back(region(slotM_, Access::Read, {0, 0, a.rows, b.cols}));
            for (const Dest& d : targets)
                sc.operands.push_back(region(slotC_, Access::ReadWrite, d.c, d.sign));
            sc.flops = double(targets.size()) * double(a.rows * b.cols);
            sc.bytes = es * double(a.rows * b.cols) * double(1 + 2 * targets.size());
        } else {
            for (const Dest& d : targets)
                op.operands.push_back(region(slotC_, Access::ReadWrite, d.c, d.sign));
            op.flops = flops * double(targets.size());
            op.bytes = es * double(targets.size()) * double(a.rows * a.cols + b.rows * b.cols + 2 * a.rows * b.cols);
        }
        placeProductFaults(leafCount_, targets.front().c);
        if (leafCheckSlot_ >= 0) {
            Operation& verify = emit(kLeafVerify, Queue::Compute);
            verify.block = {level, stage, leafCount_};
            verify.aux = leafCount_;
            verify.rows = a.rows;
            verify.cols = b.cols;
            verify.depth = a.cols;
            verify.operands.push_back(region(slotA_, Access::Read, a));
            verify.operands.push_back(region(slotB_, Access::Read, b));
            for (const Dest& d : targets)
                verify.operands.push_back(region(slotC_, Access::Read, d.c, d.sign));
            verify.operands.push_back(leafChecks(Access::ReadWrite));
            verify.bytes = double(a.rows * a.cols + b.rows * b.cols + std::int64_t(targets.size()) * a.rows * b.cols) *
                           double(elementSize(config_.precision));
        }
        ++leafCount_;
    }

    // stage: the parent's stage that issued this product (block.j of a leaf's span).
    void node(const Rect& a, const Rect& b, const std::vector<Dest>& targets, int level, int nodeIndex, int stage)
    {
        if (level == levels_) {
            leaf(a, b, targets, level, stage);
            return;
        }
        const Recipe& recipe = recipeOf(config_.variant);
        const bool top = level == 0;
        const bool dropRecovery = top && config_.exactRestore && (config_.variant == StrassenVariant::Msmes ||
                                                                   config_.variant == StrassenVariant::Workspace);
        int child = 0;
        bool firstAddsDone = false, firstProductsDone = false;
        for (std::size_t i = 0; i < recipe.steps.size(); ++i) {
            const Step& step = recipe.steps[i];
            if (dropRecovery && step.stage >= 6)
                break;
            if (top && !firstAddsDone && step.kind == Step::Kind::Product) {
                firstAddsDone = true;
                placeOperandFaults(a, b);
            }
            if (top && firstAddsDone && !firstProductsDone && step.kind == Step::Kind::Add) {
                firstProductsDone = true;
                placeCFaults(targets.front().c);
            }
            if (step.kind == Step::Kind::Add) {
                const Rect& whole = step.matrix == Matrix::A ? a : step.matrix == Matrix::B ? b : targets.front().c;
                const int slot = step.matrix == Matrix::A ? slotA_ : step.matrix == Matrix::B ? slotB_ : slotC_;
                const Rect dst = whole.quarter(step.dst), src = whole.quarter(step.src);
                Operation& op = emit(kAdd, Queue::Compute);
                op.block = {level, step.stage, nodeIndex};
                op.rows = dst.rows;
                op.cols = dst.cols;
                op.operands.push_back(region(slot, Access::ReadWrite, dst));
                op.operands.push_back(region(slot, Access::Read, src, step.coefficient));
                op.flops = double(dst.rows * dst.cols);
                op.bytes = 3.0 * double(dst.rows * dst.cols) * double(elementSize(config_.precision));
                continue;
            }
            std::vector<Dest> sub;
            for (const Dest& d : targets)
                for (const Target& t : step.targets)
                    sub.push_back({d.c.quarter(t.block), d.sign * t.sign});
            node(a.quarter(step.a), b.quarter(step.b), sub, level + 1, nodeIndex * 7 + child++, step.stage);
        }
    }

    // A fault's cell in the region it targets: its own cell (a product's: inside the target block),
    // else the middle of the region.
    static Rect faultRegion(const StrassenFault& f, const Rect& r)
    {
        if (!f.hasCell())
            return {r.row + r.rows / 2, r.col + r.cols / 2, 1, 1};
        if (f.where != StrassenFault::Where::Product)
            return {f.row, f.col, 1, 1};
        if (f.row >= r.rows || f.col >= r.cols)
            throw InputError("--inject-at " + faultPlace(f) + ": leaf product " + std::to_string(f.index) + "'s result is " +
                             std::to_string(r.rows) + " x " + std::to_string(r.cols) + " (R,C inside it, from 0)");
        return {r.row + f.row, r.col + f.col, 1, 1};
    }
    // Whether a fault of C / A / B lands in this region now: its cell lies inside (a quadrant's
    // middle always does), and it waits for no leaf product (@K).
    static bool landsIn(const StrassenFault& f, const Rect& r)
    {
        return f.afterProduct < 0 && (!f.hasCell() || (r.row <= f.row && f.row < r.row + r.rows && r.col <= f.col && f.col < r.col + r.cols));
    }
    // The cell of a C / A / B fault in the whole core (or matrix, for a cell) of its operand.
    Rect wholeCell(const StrassenFault& f) const
    {
        const Rect& whole = f.where == StrassenFault::Where::A ? coreA_ : f.where == StrassenFault::Where::B ? coreB_ : coreC_;
        return faultRegion(f, f.hasCell() ? whole : whole.quarter(f.index));
    }

    // slot: where the cell lies (a product's target block: slotC_, which in a decomposition task
    // is the task's result block on its device); by default the run's A, B or C.
    void inject(int index, const Rect& cell, int slot = -1)
    {
        const StrassenFault& fault = config_.faults[std::size_t(index)];
        if (slot < 0)
            slot = fault.where == StrassenFault::Where::A ? kSlotA : fault.where == StrassenFault::Where::B ? kSlotB : kSlotC;
        Operation& op = emit(kInject, Queue::Compute);
        op.aux = index;
        op.operands.push_back(region(slot, Access::ReadWrite, cell, fault.delta));
        placed_[std::size_t(index)] = true;
    }
    void placeOperandFaults(const Rect& a, const Rect& b)
    {
        for (std::size_t f = 0; f < config_.faults.size(); ++f) {
            const StrassenFault& fault = config_.faults[f];
            if (placed_[f])
                continue;
            if (fault.where == StrassenFault::Where::A && landsIn(fault, a))
                inject(int(f), faultRegion(fault, a.quarter(fault.index)));
            if (fault.where == StrassenFault::Where::B && landsIn(fault, b))
                inject(int(f), faultRegion(fault, b.quarter(fault.index)));
        }
    }
    // Faults into product `leaf`, right after it: into its (first) target, in the blocks being
    // worked in -- inside a decomposition task its result block on its device, from which the
    // fault reaches C with the result, as a wrong product would.
    void placeProductFaults(int leaf, const Rect& target)
    {
        for (std::size_t f = 0; f < config_.faults.size(); ++f) {
            const StrassenFault& fault = config_.faults[f];
            if (!placed_[f] && fault.where == StrassenFault::Where::Product && fault.index == leaf)
                inject(int(f), faultRegion(fault, target), slotC_);
            // @K: a cell of C, A or B right after leaf K (one device: the run's own slots).
            if (!placed_[f] && fault.where != StrassenFault::Where::Product && fault.afterProduct == leaf)
                inject(int(f), wholeCell(fault));
        }
    }
    void placeCFaults(const Rect& c)
    {
        for (std::size_t f = 0; f < config_.faults.size(); ++f)
            if (!placed_[f] && config_.faults[f].where == StrassenFault::Where::C && landsIn(config_.faults[f], c))
                inject(int(f), faultRegion(config_.faults[f], c.quarter(config_.faults[f].index)));
    }

    // An A / B fault that no product (or copy to another device) reads after it is erased by the
    // exact restore without a trace (the run would say "injected", every check clean): refused,
    // never silently dropped. The placements above put operand faults before the first product.
    void refuseErasedOperandFaults() const
    {
        for (const Operation& op : schedule_.ops) {
            if (op.kind != kInject)
                continue;
            const StrassenFault& fault = config_.faults[std::size_t(op.aux)];
            if (fault.where != StrassenFault::Where::A && fault.where != StrassenFault::Where::B)
                continue;
            const OperandRegion& cell = op.operands.front();
            const bool read = std::any_of(schedule_.ops.begin() + op.id + 1, schedule_.ops.end(), [&](const Operation& later) {
                return (later.kind == kProduct || later.kind == kCopy) && std::any_of(later.operands.begin(), later.operands.end(), [&](const OperandRegion& r) {
                           return r.slot == cell.slot && r.access != Access::Write && r.row <= cell.row &&
                                  cell.row < r.row + r.rows && r.col <= cell.col && cell.col < r.col + r.cols;
                       });
            });
            if (!read)
                throw InputError("--inject-at " + faultPlace(fault) + ": no op reads that operand after the fault, and "
                                 "--exact-restore would overwrite it from the host copy: nothing could see it");
        }
    }

public:
    void prepareFaults() { placed_.assign(config_.faults.size(), false); }

private:
    // The global decomposition over config_.devices devices (seed chapter 4): one level, 7
    // Strassen-Winograd tasks or 8 2D tasks, task t on device t mod G. A task on device 0 runs in
    // place into C; a remote task copies its operand blocks over, multiplies there, and its result
    // comes back into device 0's receive block, from which it is added into its C blocks.
    // The copies run on the remote device's copy queues (operands in on its H2D queue, the result
    // out on its D2H queue): they overlap the products of every device, and the timeline shows
    // one lane per device and copy direction.
    void decompose(const Rect& a, const Rect& b, const Rect& c)
    {
        int task = 0;
        // overwritten: a later in-place sum writes one of the task's operand blocks.
        auto run = [&](const Rect& qa, const Rect& qb, const std::vector<Dest>& targets, int stage, bool overwritten) {
            const int index = task++;
            const int device = index % config_.devices;
            const Rect ta{0, 0, qa.rows, qa.cols}, sb{0, 0, qb.rows, qb.cols}, qd{0, 0, qa.rows, qb.cols};
            if (device == 0) {
                // The sums after it would wait for its product to finish reading (12 ms at 14336^2
                // FP64, every later task behind it): it multiplies private copies instead (two
                // device copies, 0.3 ms) and the sums go on beside it. A local Strassen sums in its
                // operands, so it always takes copies.
                const bool copies = !privateSets_.empty() && (overwritten || local_);
                const int priv = copies ? privateSets_[std::size_t(index / config_.devices) % privateSets_.size()] : -1;
                if (copies) {
                    copy(kSlotA, qa, priv, ta, 0, Queue::H2D, 1, stage);
                    copy(kSlotB, qb, priv + 1, sb, 0, Queue::H2D, 1, stage);
                }
                const int slotA = copies ? priv : kSlotA, slotB = copies ? priv + 1 : kSlotB;
                const Rect& ra = copies ? ta : qa;
                const Rect& rb = copies ? sb : qb;
                if (local_) {
                    // Into the zeroed workspace, then added into its C blocks like a remote result.
                    zero(slotM_, qd, stage);
                    inBlocks(slotA, slotB, slotM_, 0, [&] { localStrassen(ra, rb, qd, index, stage); });
                    scatter(slotM_, qd, targets, stage, index);
                } else {
                    // With remote tasks, even a one-target task goes through M: straight into its C
                    // block it would wait for every remote result scattered there before it
                    // (device 0's second product waited 5 ms for device 2's result into C2).
                    throughWorkspace_ = config_.devices > 1 && slotM_ >= 0;
                    inBlocks(slotA, slotB, kSlotC, 0, [&] { leaf(ra, rb, targets, 1, stage); });
                    throughWorkspace_ = false;
                }
                return;
            }
            const std::vector<int>& sets = remoteSets_[std::size_t(device - 1)];
            const int base = sets[std::size_t(index / config_.devices) % sets.size()];
            copy(kSlotA, qa, base, ta, device, Queue::H2D, 1, stage);
            copy(kSlotB, qb, base + 1, sb, device, Queue::H2D, 1, stage);
            int k = index;  // the scatter's block.k: the task, or its one product's leaf index
            if (local_) {
                inBlocks(base, base + 1, base + 2, device, [&] {
                    zero(base + 2, qd, stage);
                    localStrassen(ta, sb, qd, index, stage);
                });
            } else {
                Operation& p = emit(kProduct, Queue::Compute);
                p.device = device;
                p.block = {1, stage, leafCount_++};
                p.rows = qa.rows;
                p.cols = qb.cols;
                p.depth = qa.cols;
                p.operands = {region(base, Access::Read, ta), region(base + 1, Access::Read, sb),
                              region(base + 2, Access::Write, qd)};
                p.flops = 2.0 * double(qa.rows * qa.cols * qb.cols);
                k = p.block.k;
                inBlocks(base, base + 1, base + 2, device, [&] { placeProductFaults(k, qd); });
            }
            copy(base + 2, qd, base + 3, qd, device, Queue::D2H, 1, stage);
            scatter(base + 3, qd, targets, stage, k);
        };
        // Faults between stages as on one device: A / B after the sums before the first task
        // (2D has none: before its tasks), C after the first product stage (2D's tasks are one
        // stage: after them).
        if (config_.decomposition == StrassenDecomposition::TwoD) {
            placeOperandFaults(a, b);
            for (int i = 0; i < 2; ++i)
                for (int j = 0; j < 2; ++j)
                    for (int k = 0; k < 2; ++k)
                        run(a.quarter(i * 2 + k), b.quarter(k * 2 + j), {{c.quarter(i * 2 + j), +1}}, 2, false);
            placeCFaults(c);
            return;
        }
        const std::vector<Step>& steps = recipeOf(StrassenVariant::Winograd).steps;
        bool firstAddsDone = false, firstProductsDone = false;
        for (std::size_t i = 0; i < steps.size(); ++i) {
            const Step& step = steps[i];
            if (!firstAddsDone && step.kind == Step::Kind::Product) {
                firstAddsDone = true;
                placeOperandFaults(a, b);
            }
            if (firstAddsDone && !firstProductsDone && step.kind == Step::Kind::Add) {
                firstProductsDone = true;
                placeCFaults(c);
            }
            if (step.kind == Step::Kind::Add) {
                const Rect& whole = step.matrix == Matrix::A ? a : b;
                const int slot = step.matrix == Matrix::A ? kSlotA : kSlotB;
                Operation& op = emit(kAdd, Queue::Compute);
                op.block = {0, step.stage, 0};
                const Rect dst = whole.quarter(step.dst), src = whole.quarter(step.src);
                op.rows = dst.rows;
                op.cols = dst.cols;
                op.operands = {region(slot, Access::ReadWrite, dst), region(slot, Access::Read, src, step.coefficient)};
                op.flops = double(dst.rows * dst.cols);
                continue;
            }
            std::vector<Dest> targets;
            for (const Target& t : step.targets)
                targets.push_back({c.quarter(t.block), t.sign});
            const bool overwritten = std::any_of(steps.begin() + std::ptrdiff_t(i) + 1, steps.end(), [&](const Step& later) {
                return later.kind == Step::Kind::Add && ((later.matrix == Matrix::A && later.dst == step.a) ||
                                                         (later.matrix == Matrix::B && later.dst == step.b));
            });
            run(a.quarter(step.a), b.quarter(step.b), targets, step.stage, overwritten);
        }
    }

    // Runs `body` with node() and leaf() working in these slots on this device, then back to the
    // run's A, B, C on device 0.
    template <class Body> void inBlocks(int a, int b, int c, int device, Body&& body)
    {
        slotA_ = a;
        slotB_ = b;
        slotC_ = c;
        device_ = device;
        body();
        slotA_ = kSlotA;
        slotB_ = kSlotB;
        slotC_ = kSlotC;
        device_ = 0;
    }

    // A task's local Strassen (seed table 4.3): the variant's recursion below the decomposition's
    // level, on the task's blocks (slotA_, slotB_, slotC_ on device_), accumulating into `result`.
    void localStrassen(const Rect& a, const Rect& b, const Rect& result, int index, int stage)
    {
        inTask_ = true;
        node(a, b, {{result, +1}}, 1, index, stage);
        inTask_ = false;
    }

    void zero(int slot, const Rect& r, int stage)
    {
        Operation& op = emit(kZero, Queue::Compute);
        op.block = {1, stage, leafCount_};
        op.rows = r.rows;
        op.cols = r.cols;
        op.operands.push_back(region(slot, Access::Write, r));
        op.bytes = double(r.rows * r.cols) * double(elementSize(config_.precision));
    }

    // A task's result (in `slot`, on device 0) added into its C blocks with their signs.
    void scatter(int slot, const Rect& r, const std::vector<Dest>& targets, int stage, int index)
    {
        Operation& sc = emit(kScatter, Queue::Compute);
        sc.block = {1, stage, index};
        sc.operands.push_back(region(slot, Access::Read, r));
        for (const Dest& d : targets)
            sc.operands.push_back(region(kSlotC, Access::ReadWrite, d.c, d.sign));
        sc.flops = double(targets.size()) * double(r.rows * r.cols);
    }

    void copy(int fromSlot, const Rect& from, int toSlot, const Rect& to, int device, Queue queue, int level, int stage)
    {
        Operation& op = emit(kCopy, queue);
        op.device = device;
        op.block = {level, stage, leafCount_};
        op.operands = {region(fromSlot, Access::Read, from), region(toSlot, Access::Write, to)};
        op.bytes = double(from.rows * from.cols) * double(elementSize(config_.precision));
    }

    const StrassenConfig& config_;
    const int levels_;
    const bool decomposed_;
    std::vector<std::vector<int>> remoteSets_;  // per remote device: the first slot of each block set
    int leafCheckSlot_ = -1;
    int slotM_ = -1;        // the leaf workspace "M" on device 0, where the schedule has one
    std::vector<int> privateSets_;  // "TA@0" then "SB@0" (and a second pair): device 0's private operand copies
    bool throughWorkspace_ = false;  // the next leaf multiplies into M and scatters, even with one target
    std::int64_t leafM_ = 0, leafQ_ = 0;
    std::int64_t taskM_ = 0, taskN_ = 0, taskQ_ = 0;  // a decomposition task's blocks
    bool local_ = false;  // a decomposition whose tasks run the variant's recursion (levels > 1)
    // Where node() and leaf() read and write, and on which device: the run's A, B, C on device 0,
    // or a decomposition task's blocks on its device.
    int slotA_ = kSlotA, slotB_ = kSlotB, slotC_ = kSlotC;
    int device_ = 0;
    bool inTask_ = false;  // inside a task's local Strassen: no workspace
    int leafCount_ = 0;
    Rect coreA_, coreB_, coreC_;  // the core of A, B, C: where a fault's quadrant lies
    std::vector<bool> placed_;
    Schedule schedule_;
};

// The global decomposition starts once A, B and C are resident on device 0, as the cuBLAS it is
// compared with runs on resident operands. Issued beside device 0's loads, its first ops stretched
// to the loads' end (4 H100s, 14336^2 FP64: a 411 MB peer copy 65.9 ms instead of 1.04, a 7168^3
// DGEMM into the workspace 44.8 ms instead of 11.9) and their waiting counted as compute.
void startWhenResident(Schedule& schedule)
{
    std::vector<int> loads;
    for (const Operation& op : schedule.ops)
        if (op.kind == kLoad)
            loads.push_back(op.id);
    for (Operation& op : schedule.ops) {
        if (op.kind == kLoad || op.kind == kStore)
            continue;
        op.deps.insert(op.deps.end(), loads.begin(), loads.end());
        std::sort(op.deps.begin(), op.deps.end());
        op.deps.erase(std::unique(op.deps.begin(), op.deps.end()), op.deps.end());
    }
}

// Device 0 of the decomposition runs three things that need not wait for each other: the chain of
// in-place sums that prepares every task's operands (stream 0), its own tasks' products (stream
// 1), and the scatters that add results into C (stream 2), each of which waits for a remote
// device's result. On one stream, a sum for the next remote task queued behind a 12 ms local
// product and behind the scatter waiting for the previous task (4 H100s, 14336^2 FP64 Winograd:
// 83 ms where the model says 33). Across streams only the derived dependencies order them.
// The sums and the scatters are urgent: issued beside a local product on an ordinary stream, a
// 0.3 ms sum that a remote task's operands wait for got SMs only after the product's last wave
// (4 H200s, 14336^2 FP64 Winograd at ce06c3a: 11.9 ms, so device 2 started 12 ms late; a scatter
// 11.2 ms; 43 ms where the model says 32). Remote devices run one stream, urgent or not alike.
void placeDeviceZeroLanes(Schedule& schedule)
{
    bool several = false;
    for (Operation& op : schedule.ops) {
        if (op.device != 0 || op.queue != Queue::Compute)
            continue;
        // A local Strassen's own sums (level >= 1) go with its products.
        op.stream = op.kind == kScatter ? 2 : op.kind == kProduct || op.block.i >= 1 ? 1 : 0;
        several = several || op.stream > 0;
    }
    schedule.streams = several ? 3 : 1;
    if (several)
        schedule.urgentStreams = {0, 2};
}

// Sums beside products (StrassenConfig::sumsBeside): the in-place sums are memory bound and the
// leaf GEMMs compute bound, and most sums of a recipe do not touch the product running before
// them (Winograd's "C2 = C2 - C0" while P5 writes C1; "B1 = B1 + B2" while P2 reads A1, B2).
// Such a sum goes to a side stream and runs beside that product; a sum that needs the op issued
// last on stream 0 stays there, right behind it. A side stream runs in issue order, so a sum
// joins the side stream whose last op it needs (a chain stays on one stream), else the side
// stream used least recently: independent sums never queue behind each other (the next
// subtree's first sums, ready long before, waited 0.5 ms behind the recovery of the previous
// one with a single side stream; H200, 16384^3). Streams wait for their deps on other streams
// through events, so the derived dependencies (and validateStrassenSchedule's proof, which holds
// for any order of independent ops) are all the order there is.
void placeSumsBeside(Schedule& schedule)
{
    constexpr int kSideStreams = 3;
    int lastOnMain = -1;
    std::vector<int> lastOnSide(kSideStreams, -1);
    int used = 0;
    for (Operation& op : schedule.ops) {
        if (op.queue != Queue::Compute || op.device != 0)
            continue;
        const auto needs = [&](int id) { return id >= 0 && std::find(op.deps.begin(), op.deps.end(), id) != op.deps.end(); };
        if (op.kind != kAdd || needs(lastOnMain)) {
            lastOnMain = op.id;
            continue;
        }
        int side = -1;
        for (int s = 0; s < kSideStreams && side < 0; ++s)
            if (needs(lastOnSide[std::size_t(s)]))
                side = s;
        if (side < 0)
            side = int(std::min_element(lastOnSide.begin(), lastOnSide.end()) - lastOnSide.begin());
        lastOnSide[std::size_t(side)] = op.id;
        op.stream = 1 + side;
        used = std::max(used, 1 + side);
    }
    schedule.streams = 1 + used;
}

// Products beside products (--leaf kernel): in a product stage of msmes or winograd, a product that
// does not need the product issued just before it (they reach different C blocks) runs on a stream
// of its own beside it (msmes stage 2: M1, then M2 and M3 together, then M4; stage 5: M0, then M5
// and M6 together). Measured in bench strassen's "atomics against ordering" (H200): products of
// 1024^3 side by side take 0.53-0.69 of their time one after the other; from 2048^3 up, where one
// product fills the GPU, the same. The CPU executor runs a queue's ops one at a time either way.
void placeProductsBeside(Schedule& schedule)
{
    const int lane = schedule.streams;  // after the sums' side streams
    int lastOnMain = -1;
    bool used = false;
    for (Operation& op : schedule.ops) {
        if (op.queue != Queue::Compute || op.device != 0 || op.stream != 0)
            continue;
        const bool afterProduct = lastOnMain >= 0 && schedule.ops[std::size_t(lastOnMain)].kind == kProduct;
        const bool needsIt = std::find(op.deps.begin(), op.deps.end(), lastOnMain) != op.deps.end();
        if (op.kind == kProduct && afterProduct && !needsIt) {
            op.stream = lane;
            used = true;
            continue;
        }
        lastOnMain = op.id;
    }
    if (used)
        schedule.streams = lane + 1;
}

bool overlaps(const OperandRegion& x, const OperandRegion& y)
{
    return x.row < y.row + y.rows && y.row < x.row + x.rows && x.col < y.col + y.cols && y.col < x.col + x.cols;
}
bool contains(const OperandRegion& outer, const OperandRegion& inner)
{
    return inner.row >= outer.row && inner.col >= outer.col && inner.row + inner.rows <= outer.row + outer.rows &&
           inner.col + inner.cols <= outer.col + outer.cols;
}

}  // namespace

int scheduleLevels(const StrassenConfig& config)
{
    // The decomposition is the first level; further levels are each task's local Strassen.
    if (config.devices > 1 || config.distribute)
        return effectiveLevels(config.shape, std::max(config.levels, 1));
    return effectiveLevels(config.shape, config.levels);
}

Shape coreShape(const Shape& shape, int levels)
{
    const std::int64_t mask = ~((std::int64_t(1) << levels) - 1);
    return {shape.m & mask, shape.n & mask, shape.q & mask};
}

void deriveDependencies(Schedule& schedule)
{
    struct Access {
        int op;
        OperandRegion region;
    };
    std::vector<std::vector<Access>> live(schedule.buffers.size());
    for (Operation& op : schedule.ops) {
        std::vector<int> deps;
        for (const OperandRegion& r : op.operands) {
            if (r.slot < 0)
                continue;
            for (const Access& prior : live[std::size_t(r.slot)]) {
                const bool conflict = r.access != gigacheck::Access::Read || prior.region.access != gigacheck::Access::Read;
                if (prior.op != op.id && conflict && overlaps(prior.region, r))
                    deps.push_back(prior.op);
            }
        }
        std::sort(deps.begin(), deps.end());
        deps.erase(std::unique(deps.begin(), deps.end()), deps.end());
        op.deps = std::move(deps);
        // A write supersedes every earlier access it covers: later conflicts with those are
        // conflicts with this op, which is ordered after them.
        for (const OperandRegion& r : op.operands) {
            if (r.slot < 0)
                continue;
            std::vector<Access>& list = live[std::size_t(r.slot)];
            if (r.access != gigacheck::Access::Read)
                std::erase_if(list, [&](const Access& a) { return a.op != op.id && contains(r, a.region); });
            list.push_back({op.id, r});
        }
    }
}

}  // namespace strassen

Schedule buildStrassenSchedule(const StrassenConfig& config)
{
    if (config.shape.m <= 0 || config.shape.n <= 0 || config.shape.q <= 0)
        throw InputError("the shape must be positive in every dimension");
    const int levels = strassen::scheduleLevels(config);
    // Multi-device: one level of global decomposition (the tasks are classic GEMMs).
    const bool decomposed = config.devices > 1 || config.distribute;
    for (const StrassenFault& f : config.faults) {
        if (f.where != StrassenFault::Where::Product && !f.hasCell() && (f.index < 0 || f.index > 3))
            throw InputError("--inject-at: a quadrant is 0..3 (got " + std::to_string(f.index) + ")");
        const Shape& s = config.shape;
        const std::int64_t rows = f.where == StrassenFault::Where::B ? s.n : s.m;
        const std::int64_t cols = f.where == StrassenFault::Where::A ? s.n : s.q;
        const char* name = f.where == StrassenFault::Where::A ? "A" : f.where == StrassenFault::Where::B ? "B" : "C";
        if (f.where != StrassenFault::Where::Product && f.hasCell() && (f.row >= rows || f.col >= cols))
            throw InputError("--inject-at " + faultPlace(f) + ": outside " + name + " (" + std::to_string(rows) + " x " +
                             std::to_string(cols) + ", R,C from 0)");
        if (f.afterProduct >= 0 && decomposed)
            throw InputError("--inject-at " + faultPlace(f) + ": @K (after leaf product K) places a fault on one "
                             "device; a decomposition's products run in their tasks' own blocks");
    }
    if (decomposed && config.checkLeaves)
        throw InputError("--check-leaves: leaf checks run on one device (the decomposition's tasks are plain GEMMs)");
    strassen::Builder builder(config, levels, decomposed);
    builder.prepareFaults();
    return builder.build();
}

}  // namespace gigacheck
