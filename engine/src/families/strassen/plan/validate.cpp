// validateStrassenSchedule: core's validateOperations on the schedule's region view (every cell
// of the grid that the operand regions cut a buffer into becomes a slot of its own, so core's
// per-slot hazard check becomes a per-region one: ops on disjoint blocks of A, B, C may overlap in
// time, ops on overlapping ones must be ordered), then a symbolic execution of the core on its
// leaf tiles: every A and B tile holds a combination of the original tiles, every C tile a sum of
// products of original tiles; at the end A and B must be the originals and C must have received
// exactly sum_K A(I,K) B(K,J). With the hazard check this proves that no op overwrites what a later
// op reads before it is recovered, whatever order the executor picks among independent ops.
#include "families/strassen/ops.hpp"
#include "families/strassen/plan/schedule_builder.hpp"

#include <algorithm>
#include <map>
#include <sstream>

namespace gigacheck {

namespace {

// The region view of a schedule: one slot per grid cell of each buffer.
Schedule regionView(const Schedule& schedule)
{
    const std::size_t slots = schedule.plan.buffers.size();
    std::vector<std::vector<std::int64_t>> rowCuts(slots), colCuts(slots);
    for (std::size_t s = 0; s < slots; ++s) {
        rowCuts[s] = {0, schedule.plan.buffers[s].rows};
        colCuts[s] = {0, schedule.plan.buffers[s].cols};
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
    std::vector<int> firstCell(slots);
    for (std::size_t s = 0; s < slots; ++s) {
        for (auto* cuts : {&rowCuts[s], &colCuts[s]}) {
            std::sort(cuts->begin(), cuts->end());
            cuts->erase(std::unique(cuts->begin(), cuts->end()), cuts->end());
        }
        firstCell[s] = int(view.plan.buffers.size());
        for (std::size_t i = 0; i + 1 < rowCuts[s].size(); ++i)
            for (std::size_t j = 0; j + 1 < colCuts[s].size(); ++j)
                view.plan.buffers.push_back({schedule.plan.buffers[s].name + "[" + std::to_string(rowCuts[s][i]) + "," +
                                                 std::to_string(colCuts[s][j]) + "]",
                                             schedule.plan.buffers[s].role, 0, 0, 0, 0});
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

// Symbolic contents of the leaf tiles of the core.
class Symbolic {
public:
    Symbolic(const Shape& core, int levels) : side_(1 << levels), core_(core)
    {
        tm_ = core.m >> levels;
        tn_ = core.n >> levels;
        tq_ = core.q >> levels;
        const int tiles = side_ * side_;
        a_.resize(std::size_t(tiles));
        b_.resize(std::size_t(tiles));
        c_.resize(std::size_t(tiles));
        for (int t = 0; t < tiles; ++t) {
            a_[std::size_t(t)][t] = 1;
            b_[std::size_t(t)][t] = 1;
        }
    }

    // False when the op touches the core in a way the leaf tiles cannot express (a fringe op).
    std::string apply(const Operation& op)
    {
        using namespace strassen;
        if (op.kind == kRestore) {
            auto& tiles = op.operands[0].slot == kSlotA ? a_ : b_;
            for (std::size_t t = 0; t < tiles.size(); ++t)
                tiles[t] = {{int(t), 1}};
            return {};
        }
        if (op.kind == kAdd) {
            const OperandRegion& dst = op.operands[0];
            const OperandRegion& src = op.operands[1];
            const auto [tr, tc] = tileSize(dst.slot);
            for (std::int64_t r = 0; r < dst.rows / tr; ++r)
                for (std::int64_t c = 0; c < dst.cols / tc; ++c) {
                    const int d = tileIndex(dst, r, c, tr, tc), s = tileIndex(src, r, c, tr, tc);
                    if (d < 0 || s < 0)
                        return "op " + std::to_string(op.id) + " adds outside the core";
                    if (dst.slot == kSlotC)
                        addInto(c_[std::size_t(d)], c_[std::size_t(s)], src.coefficient);
                    else {
                        auto& tiles = dst.slot == kSlotA ? a_ : b_;
                        auto copy = tiles[std::size_t(s)];
                        for (auto [k, v] : copy)
                            tiles[std::size_t(d)][k] += long(src.coefficient) * v;
                        std::erase_if(tiles[std::size_t(d)], [](const auto& kv) { return kv.second == 0; });
                    }
                }
            return {};
        }
        if (op.kind == kProduct) {
            const OperandRegion& ra = op.operands[0];
            const OperandRegion& rb = op.operands[1];
            if (ra.row + ra.rows > core_.m || ra.col + ra.cols > core_.n || rb.col + rb.cols > core_.q)
                return {};  // the peeled fringe: plain GEMM, outside the core
            if (ra.rows != tm_ || ra.cols != tn_ || rb.cols != tq_)
                return "op " + std::to_string(op.id) + " multiplies a block that is not one leaf tile";
            Poly m;
            for (auto [ka, va] : a_[std::size_t(tileIndex(ra, 0, 0, tm_, tn_))])
                for (auto [kb, vb] : b_[std::size_t(tileIndex(rb, 0, 0, tn_, tq_))])
                    m[{ka, kb}] += va * vb;
            for (std::size_t i = 2; i < op.operands.size(); ++i) {
                const OperandRegion& t = op.operands[i];
                if (t.slot == kSlotM)
                    workspace_ = m;
                else
                    addInto(c_[std::size_t(tileIndex(t, 0, 0, tm_, tq_))], m, t.coefficient);
            }
            return {};
        }
        if (op.kind == kScatter) {
            for (std::size_t i = 1; i < op.operands.size(); ++i)
                addInto(c_[std::size_t(tileIndex(op.operands[i], 0, 0, tm_, tq_))], workspace_, op.operands[i].coefficient);
            return {};
        }
        return {};
    }

    std::string finalCheck() const
    {
        for (int t = 0; t < side_ * side_; ++t) {
            if (a_[std::size_t(t)] != Lin{{t, 1}})
                return "A tile " + std::to_string(t) + " is not recovered";
            if (b_[std::size_t(t)] != Lin{{t, 1}})
                return "B tile " + std::to_string(t) + " is not recovered";
        }
        for (int i = 0; i < side_; ++i)
            for (int j = 0; j < side_; ++j) {
                Poly want;
                for (int k = 0; k < side_; ++k)
                    want[{i * side_ + k, k * side_ + j}] = 1;
                if (c_[std::size_t(i * side_ + j)] != want)
                    return "C tile (" + std::to_string(i) + "," + std::to_string(j) + ") does not receive exactly sum_K A(" +
                           std::to_string(i) + ",K) B(K," + std::to_string(j) + ")";
            }
        return {};
    }

private:
    using Lin = std::map<int, long>;
    using Poly = std::map<std::pair<int, int>, long>;

    static void addInto(Poly& dst, const Poly& src, double k)
    {
        for (const auto& [key, v] : src)
            dst[key] += long(k) * v;
        std::erase_if(dst, [](const auto& kv) { return kv.second == 0; });
    }
    std::pair<std::int64_t, std::int64_t> tileSize(int slot) const
    {
        using namespace strassen;
        if (slot == kSlotA)
            return {tm_, tn_};
        if (slot == kSlotB)
            return {tn_, tq_};
        return {tm_, tq_};
    }
    // Index of the tile at tile offset (r, c) inside the region; -1 outside the core grid.
    int tileIndex(const OperandRegion& reg, std::int64_t r, std::int64_t c, std::int64_t tr, std::int64_t tc) const
    {
        if (tr <= 0 || tc <= 0 || reg.row % tr || reg.col % tc)
            return -1;
        const std::int64_t i = reg.row / tr + r, j = reg.col / tc + c;
        if (i >= side_ || j >= side_)
            return -1;
        return int(i * side_ + j);
    }

    int side_;
    Shape core_;
    std::int64_t tm_ = 0, tn_ = 0, tq_ = 0;
    std::vector<Lin> a_, b_;
    std::vector<Poly> c_;
    Poly workspace_;
};

}  // namespace

std::string validateStrassenSchedule(const Schedule& schedule, const StrassenConfig& config)
{
    if (std::string e = validateOperations(regionView(schedule)); !e.empty())
        return "region view: " + e;
    const int levels = effectiveLevels(config.shape, config.levels);
    const Shape core = strassen::coreShape(config.shape, levels);
    if (core.m == 0 || core.n == 0 || core.q == 0)
        return {};
    Symbolic sym(core, levels);
    for (const Operation& op : schedule.ops)
        if (std::string e = sym.apply(op); !e.empty())
            return e;
    return sym.finalCheck();
}

}  // namespace gigacheck
