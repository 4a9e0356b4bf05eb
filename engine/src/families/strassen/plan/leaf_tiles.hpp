// The leaf-tile grid that the symbolic passes over a Strassen schedule work on (the validator,
// plan/validate.cpp, and the leaf rounding, run/leaf_rounding.cpp): each buffer cut into tiles by
// its role (A: tm x tn, B: tn x tq, C and the rest: tm x tq, the core's extents >> levels, at most
// 2^levels a side), each tile holding a Poly, a symbolic combination (key -> integer coefficient).
#pragma once

#include "families/strassen/ops.hpp"

#include "gigacheck/schedule.hpp"

#include <algorithm>
#include <cstdint>
#include <map>
#include <utility>
#include <vector>

namespace gigacheck::strassen {

template <class Poly>
class LeafTiles {
public:
    struct Slot {
        BufferRole role;
        std::int64_t rows, cols;  // tiles
        std::vector<Poly> tiles;
    };

    LeafTiles(const Schedule& schedule, const Shape& core, int levels)
        : side_(1 << levels), tm_(core.m >> levels), tn_(core.n >> levels), tq_(core.q >> levels)
    {
        for (const BufferSpec& b : schedule.buffers) {
            const auto [tr, tc] = tileSize(b.role);
            const std::int64_t rows = std::min<std::int64_t>(b.rows / tr, side_);
            const std::int64_t cols = std::min<std::int64_t>(b.cols / tc, side_);
            slots_.push_back({b.role, rows, cols, std::vector<Poly>(std::size_t(rows * cols))});
        }
    }

    std::pair<std::int64_t, std::int64_t> tileSize(BufferRole role) const
    {
        if (role == BufferRole::A)
            return {tm_, tn_};
        if (role == BufferRole::B)
            return {tn_, tq_};
        return {tm_, tq_};
    }
    std::pair<std::int64_t, std::int64_t> tileSizeOf(int slot) const { return tileSize(slots_[std::size_t(slot)].role); }

    // The tile at tile offset (r, c) inside the region; null outside the slot's tile grid.
    Poly* tile(const OperandRegion& reg, std::int64_t r, std::int64_t c)
    {
        Slot& slot = slots_[std::size_t(reg.slot)];
        const auto [tr, tc] = tileSize(slot.role);
        if (tr <= 0 || tc <= 0 || reg.row % tr || reg.col % tc)
            return nullptr;
        const std::int64_t i = reg.row / tr + r, j = reg.col / tc + c;
        if (i >= slot.rows || j >= slot.cols)
            return nullptr;
        return &slot.tiles[std::size_t(i * slot.cols + j)];
    }

    // The op reaches beyond the core in A, B or C: the peeled fringe (plain GEMM there).
    bool beyondCore(const Operation& op) const
    {
        for (const OperandRegion& r : op.operands)
            if (r.slot >= 0 && r.slot <= kSlotC) {
                const auto [tr, tc] = tileSizeOf(r.slot);
                if (r.row + r.rows > tr * side_ || r.col + r.cols > tc * side_)
                    return true;
            }
        return false;
    }

    // dst += k src; terms that cancel leave the combination.
    static void addInto(Poly& dst, const Poly& src, double k)
    {
        for (const auto& [key, v] : src)
            dst[key] += long(k) * v;
        std::erase_if(dst, [](const auto& kv) { return kv.second == 0; });
    }

    // A product of one whole leaf tile of A by one of B.
    bool isLeafProduct(const OperandRegion& a, const OperandRegion& b) const
    {
        return a.rows == tm_ && a.cols == tn_ && b.cols == tq_;
    }

    int side() const { return side_; }
    Slot& slot(int s) { return slots_[std::size_t(s)]; }
    const Slot& slot(int s) const { return slots_[std::size_t(s)]; }

private:
    int side_;
    std::int64_t tm_, tn_, tq_;
    std::vector<Slot> slots_;
};

}  // namespace gigacheck::strassen
