// Ancestors of one operation through its deps: the schedule checks (core's generic ones and a
// family's own) ask whether one op is ordered before another.
#pragma once

#include "gigacheck/schedule.hpp"

#include <vector>

namespace gigacheck {

class Reachability {
public:
    explicit Reachability(const std::vector<Operation>& ops) : ops_(ops), mark_(ops.size(), -1) {}

    // Marks every ancestor of `op` with id >= floor (ids below it cannot be the ones sought);
    // then isAncestor answers for those ids.
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

}  // namespace gigacheck
