// What one lane of the timeline shows in each pixel column: the kind of operation that takes the
// largest share of the column's time (Qt Creator's renderer decides per pixel, too). A thousand
// 1-µs inject spans between long products therefore never paint the compute lane purple: each
// column is the colour of what the queue did most of that time. Kept apart from painting so that
// it is tested without a screen.
#pragma once

#include "timelinemapper.hpp"

#include <gigacheck/events.hpp>

#include <cstddef>
#include <vector>

namespace gigacheck::ui {

// A run of adjacent pixel columns [x0, x1) that show the same kind.
struct PixelRun {
    int x0 = 0, x1 = 0;
    OpKind kind = OpKind::Product;
};

// spans[first, last) sorted by start; columns [left, right) of the mapper's pixel space.
std::vector<PixelRun> dominantKindRuns(const std::vector<Span>& spans, std::size_t first, std::size_t last,
                                       const TimeMapper& mapper, int left, int right);

}  // namespace gigacheck::ui
