// What one lane of the timeline shows in each pixel column: the kind of operation that takes the
// largest share of the column's time (Qt Creator's renderer decides per pixel, too). A thousand
// 1-µs inject spans between long products therefore never paint the compute lane purple: each
// column is the colour of what the queue did most of that time. Idle time counts too, as the
// column's opacity: a lane busy 2 % of the run (the CPU's H2D copies at 4096³ under 1 MiB) is
// drawn faint, never as solid as a lane that is busy all the time. Kept apart from painting so
// that it is tested without a screen.
#pragma once

#include "timelinemapper.hpp"

#include <gigacheck/events.hpp>

#include <cstddef>
#include <vector>

namespace gigacheck::ui {

// Busy shares are rounded up to 1/kBusyLevels, so that adjacent columns of about the same share
// merge into one rectangle and any span at all leaves a visible trace.
inline constexpr int kBusyLevels = 32;

// A run of adjacent pixel columns [x0, x1) that show the same kind at the same busy share: the
// fraction of each column's time covered by spans (0 < busy <= 1, in steps of 1/kBusyLevels).
struct PixelRun {
    int x0 = 0, x1 = 0;
    OpKind kind = OpKind::Product;
    double busy = 1.0;
};

// spans[first, last) sorted by start; columns [left, right) of the mapper's pixel space.
std::vector<PixelRun> dominantKindRuns(const std::vector<Span>& spans, std::size_t first, std::size_t last,
                                       const TimeMapper& mapper, int left, int right);

// The opacity a column of the given busy share is filled with: proportional to the share, but
// never below a floor that a sliver of a load still shows at on a projector.
double busyOpacity(double busy);

}  // namespace gigacheck::ui
