// Which check of an online ABFT record caught a fault in C: shared by the run's verdict (a fault
// beyond the checks' threshold that none caught makes C wrong), the lab's step slider and its
// verdict box, so that all count a fault as caught the same way.
#pragma once

#include "gigacheck/online_abft.hpp"

#include <algorithm>
#include <set>
#include <unordered_set>
#include <vector>

namespace gigacheck {

// The checks that saw something (not clean), in step order, each with its mismatched rows and
// columns and corrected cells as sets: finding the check that caught a fault costs a lookup per
// check, not a scan of its lists.
class OnlineCatchers {
public:
    explicit OnlineCatchers(const OnlineRecord& r)
    {
        for (const VerifyEvent& e : r.verifications) {
            if (e.result.verdict == Verdict::Clean)
                continue;
            Seen seen{&e, {e.result.mismatchRows.begin(), e.result.mismatchRows.end()},
                      {e.result.mismatchCols.begin(), e.result.mismatchCols.end()}, {}};
            for (const Correction& c : e.result.corrections)
                seen.corrected.insert({c.row, c.col});
            checks_.push_back(std::move(seen));
        }
        std::stable_sort(checks_.begin(), checks_.end(),
                         [](const Seen& a, const Seen& b) { return a.event->block.k < b.event->block.k; });
    }

    // The first check at or after `step` that saw the cell (its row or column mismatched, or it
    // corrected it). A record may hold millions of faults and checks: past a budget of lookups
    // (far beyond any run's) the remaining faults are left uncaught rather than the lab frozen.
    const VerifyEvent* find(int step, std::int64_t row, std::int64_t col)
    {
        auto it = std::lower_bound(checks_.begin(), checks_.end(), step,
                                   [](const Seen& s, int k) { return s.event->block.k < k; });
        for (; it != checks_.end() && budget_ > 0; ++it, --budget_)
            if (it->corrected.count({row, col}) || it->rows.count(row) || it->cols.count(col))
                return it->event;
        return nullptr;
    }

    // Whether a lookup ran out of its budget (a fault then reads as not caught: the run's verdict
    // claims nothing from such a record).
    bool exhausted() const { return budget_ <= 0; }

private:
    struct Seen {
        const VerifyEvent* event;
        std::unordered_set<std::int64_t> rows, cols;
        std::set<std::pair<std::int64_t, std::int64_t>> corrected;
    };
    std::vector<Seen> checks_;
    std::int64_t budget_ = std::int64_t(1) << 24;
};

}  // namespace gigacheck
