// validateStrassenSchedule: core's validateOperations on the schedule's region view (every cell
// of the grid that the operand regions cut a buffer into becomes a slot of its own, so core's
// per-slot hazard check becomes a per-region one: ops on disjoint blocks of A, B, C may overlap in
// time, ops on overlapping ones must be ordered), then a symbolic execution of the core on its
// leaf tiles: every A and B tile holds a combination of the original tiles, every C tile a sum of
// products of original tiles; at the end A and B must be the originals and C must have received
// exactly sum_K A(I,K) B(K,J). With the hazard check this proves that no op overwrites what a later
// op reads before it is recovered, whatever order the executor picks among independent ops.
#include "families/strassen/ops.hpp"
#include "families/strassen/plan/leaf_tiles.hpp"
#include "families/strassen/plan/schedule_builder.hpp"

#include <algorithm>
#include <map>
#include <sstream>

namespace gigacheck {

namespace {

// The region view of a schedule: one slot per grid cell of each buffer.
Schedule regionView(const Schedule& schedule)
{
    const std::size_t slots = schedule.buffers.size();
    std::vector<std::vector<std::int64_t>> rowCuts(slots), colCuts(slots);
    for (std::size_t s = 0; s < slots; ++s) {
        rowCuts[s] = {0, schedule.buffers[s].rows};
        colCuts[s] = {0, schedule.buffers[s].cols};
    }
    for (const Operation& op : schedule.ops)
        for (const OperandRegion& r : op.operands) {
            if (r.slot < 0 || std::size_t(r.slot) >= slots)
                continue;
            rowCuts[std::size_t(r.slot)].insert(rowCuts[std::size_t(r.slot)].end(), {r.row, r.row + r.rows});
            colCuts[std::size_t(r.slot)].insert(colCuts[std::size_t(r.slot)].end(), {r.col, r.col + r.cols});
        }
    Schedule view;
    view.family = schedule.family;
    view.streams = schedule.streams;
    view.devices = schedule.devices;
    view.capBytes = schedule.capBytes;
    std::vector<int> firstCell(slots);
    for (std::size_t s = 0; s < slots; ++s) {
        for (auto* cuts : {&rowCuts[s], &colCuts[s]}) {
            std::sort(cuts->begin(), cuts->end());
            cuts->erase(std::unique(cuts->begin(), cuts->end()), cuts->end());
        }
        firstCell[s] = int(view.buffers.size());
        for (std::size_t i = 0; i + 1 < rowCuts[s].size(); ++i)
            for (std::size_t j = 0; j + 1 < colCuts[s].size(); ++j)
                view.buffers.push_back({schedule.buffers[s].name + "[" + std::to_string(rowCuts[s][i]) + "," +
                                                 std::to_string(colCuts[s][j]) + "]",
                                             schedule.buffers[s].role, 0, 0, 0, 0, schedule.buffers[s].device});
    }
    view.ops = schedule.ops;
    for (Operation& op : view.ops) {
        std::vector<OperandRegion> cells;
        for (const OperandRegion& r : op.operands) {
            if (r.slot < 0 || std::size_t(r.slot) >= slots) {
                cells.push_back(r);
                continue;
            }
            const auto& rc = rowCuts[std::size_t(r.slot)];
            const auto& cc = colCuts[std::size_t(r.slot)];
            const std::size_t cols = cc.size() - 1;
            for (std::size_t i = 0; i + 1 < rc.size(); ++i) {
                if (rc[i] < r.row || rc[i + 1] > r.row + r.rows)
                    continue;
                for (std::size_t j = 0; j + 1 < cc.size(); ++j) {
                    if (cc[j] < r.col || cc[j + 1] > r.col + r.cols)
                        continue;
                    OperandRegion cell = r;
                    cell.slot = firstCell[std::size_t(r.slot)] + int(i * cols + j);
                    cell.row = cell.col = cell.rows = cell.cols = 0;
                    cells.push_back(cell);
                }
            }
        }
        op.operands = std::move(cells);
    }
    return view;
}

// Symbolic contents of the leaf tiles of the core, in every slot: a tile holds a sum of terms
// c * (A tile, B tile); an A tile t starts as (t, -) and a B tile as (-, t), a product multiplies
// an (a, -) combination by a (-, b) one. Slots are tiled by their role (A: tm x tn, B: tn x tq,
// C and the rest: tm x tq).
class Symbolic {
    using Poly = std::map<std::pair<int, int>, long>;
    using Grid = strassen::LeafTiles<Poly>;

public:
    Symbolic(const Schedule& schedule, const Shape& core, int levels) : side_(1 << levels), core_(core), grid_(schedule, core, levels)
    {
        for (int s : {strassen::kSlotA, strassen::kSlotB})
            if (std::size_t(s) < schedule.buffers.size())
                reset(grid_.slot(s), s == strassen::kSlotA);
    }

    std::string apply(const Operation& op)
    {
        using namespace strassen;
        const std::string where = "op " + std::to_string(op.id) + " (" + std::string(toString(op.kind)) + ")";
        if (op.kind == kRestore) {
            reset(grid_.slot(op.operands[0].slot), op.operands[0].slot == kSlotA);
            return {};
        }
        if (op.kind == kAdd || op.kind == kCopy) {
            const OperandRegion& dst = op.kind == kAdd ? op.operands[0] : op.operands[1];
            const OperandRegion& src = op.kind == kAdd ? op.operands[1] : op.operands[0];
            const auto [tr, tc] = grid_.tileSizeOf(dst.slot);
            if (dst.rows % tr || dst.cols % tc)
                return outside(op, where);
            for (std::int64_t r = 0; r < dst.rows / tr; ++r)
                for (std::int64_t c = 0; c < dst.cols / tc; ++c) {
                    Poly* d = grid_.tile(dst, r, c);
                    const Poly* s = grid_.tile(src, r, c);
                    if (!d || !s)
                        return outside(op, where);
                    if (op.kind == kCopy)
                        *d = *s;
                    else
                        grid_.addInto(*d, Poly(*s), src.coefficient);
                }
            return {};
        }
        if (op.kind == kProduct) {
            const OperandRegion& ra = op.operands[0];
            const OperandRegion& rb = op.operands[1];
            const Poly* pa = grid_.isLeafProduct(ra, rb) ? grid_.tile(ra, 0, 0) : nullptr;
            const Poly* pb = pa ? grid_.tile(rb, 0, 0) : nullptr;
            if (!pa || !pb)
                return outside(op, where);
            Poly m;
            for (const auto& [ka, va] : *pa)
                for (const auto& [kb, vb] : *pb) {
                    if (ka.second != -1 || kb.first != -1)
                        return where + " multiplies a block that is not a combination of A tiles by one of B tiles";
                    m[{ka.first, kb.second}] += va * vb;
                }
            for (std::size_t i = 2; i < op.operands.size(); ++i) {
                const OperandRegion& t = op.operands[i];
                Poly* target = grid_.tile(t, 0, 0);
                if (!target)
                    return outside(op, where);
                if (t.access == Access::Write)
                    *target = m;
                else
                    grid_.addInto(*target, m, t.coefficient);
            }
            return {};
        }
        if (op.kind == kScatter || op.kind == kZero) {
            // Tile by tile over the region (a task's result spans several leaf tiles when the task
            // runs a local Strassen).
            const OperandRegion& src = op.operands[0];
            const auto [tr, tc] = grid_.tileSizeOf(src.slot);
            if (src.rows % tr || src.cols % tc)
                return outside(op, where);
            for (std::int64_t r = 0; r < src.rows / tr; ++r)
                for (std::int64_t c = 0; c < src.cols / tc; ++c) {
                    Poly* m = grid_.tile(src, r, c);
                    if (!m)
                        return outside(op, where);
                    if (op.kind == kZero) {
                        m->clear();
                        continue;
                    }
                    const Poly copy = *m;
                    for (std::size_t i = 1; i < op.operands.size(); ++i) {
                        Poly* target = grid_.tile(op.operands[i], r, c);
                        if (!target)
                            return outside(op, where);
                        grid_.addInto(*target, copy, op.operands[i].coefficient);
                    }
                }
        }
        return {};
    }

    std::string finalCheck() const
    {
        using namespace strassen;
        for (int t = 0; t < side_ * side_; ++t) {
            if (grid_.slot(kSlotA).tiles[std::size_t(t)] != Poly{{{t, -1}, 1}})
                return "A tile " + std::to_string(t) + " is not recovered";
            if (grid_.slot(kSlotB).tiles[std::size_t(t)] != Poly{{{-1, t}, 1}})
                return "B tile " + std::to_string(t) + " is not recovered";
        }
        for (int i = 0; i < side_; ++i)
            for (int j = 0; j < side_; ++j) {
                Poly want;
                for (int k = 0; k < side_; ++k)
                    want[{i * side_ + k, k * side_ + j}] = 1;
                if (grid_.slot(kSlotC).tiles[std::size_t(i * side_ + j)] != want)
                    return "C tile (" + std::to_string(i) + "," + std::to_string(j) + ") does not receive exactly sum_K A(" +
                           std::to_string(i) + ",K) B(K," + std::to_string(j) + ")";
            }
        return {};
    }

private:
    void reset(Grid::Slot& slot, bool isA)
    {
        for (std::size_t t = 0; t < slot.tiles.size(); ++t)
            slot.tiles[t] = isA ? Poly{{{int(t), -1}, 1}} : Poly{{{-1, int(t)}, 1}};
    }
    // An op the tiles cannot express: fine for the peeled fringe (outside the core), an error inside.
    std::string outside(const Operation& op, const std::string& where) const
    {
        if (grid_.beyondCore(op))
            return {};  // the peeled fringe: plain GEMM beyond the core
        return where + " touches the core in blocks that are not whole leaf tiles";
    }

    int side_;
    Shape core_;
    Grid grid_;
};

}  // namespace

std::string validateStrassenSchedule(const Schedule& schedule, const StrassenConfig& config)
{
    if (std::string e = validateOperations(regionView(schedule)); !e.empty())
        return "region view: " + e;
    const int levels = strassen::scheduleLevels(config);
    const Shape core = strassen::coreShape(config.shape, levels);
    if (core.m == 0 || core.n == 0 || core.q == 0)
        return {};
    Symbolic sym(schedule, core, levels);
    for (const Operation& op : schedule.ops)
        if (std::string e = sym.apply(op); !e.empty())
            return e;
    return sym.finalCheck();
}

}  // namespace gigacheck
