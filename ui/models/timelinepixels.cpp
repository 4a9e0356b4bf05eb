#include "timelinepixels.hpp"

#include <algorithm>
#include <cmath>

namespace gigacheck::ui {

std::vector<PixelRun> dominantKindRuns(const std::vector<Span>& spans, std::size_t first, std::size_t last,
                                       const TimeMapper& mapper, int left, int right)
{
    std::vector<PixelRun> runs;
    if (right <= left || first >= last)
        return runs;
    const int width = right - left;
    // The kinds present (a handful; families may number theirs far apart), then the seconds of
    // each inside each column.
    std::vector<OpKind> kinds;
    for (std::size_t i = first; i < last; ++i)
        if (std::find(kinds.begin(), kinds.end(), spans[i].kind) == kinds.end())
            kinds.push_back(spans[i].kind);
    const std::size_t nKinds = kinds.size();
    std::vector<double> share(std::size_t(width) * nKinds, 0.0);
    std::vector<double> busy(std::size_t(width), 0.0);  // covered fraction of each column
    const double secondsPerPixel = mapper.secondsPerPixel();
    for (std::size_t i = first; i < last; ++i) {
        const Span& s = spans[i];
        const double xs = mapper.mapTimeToX(s.start), xe = mapper.mapTimeToX(s.end);
        // Columns the span covers; a span ending exactly on a column's edge does not reach into it.
        const int c0 = std::max(int(std::floor(xs)), left);
        const int c1 = std::min(std::max(int(std::ceil(xe)) - 1, int(std::floor(xs))), right - 1);
        const std::size_t k = std::size_t(std::find(kinds.begin(), kinds.end(), s.kind) - kinds.begin());
        for (int c = c0; c <= c1; ++c) {
            // The span's time inside column c (at least a sliver, so a lone short span still shows).
            const double from = std::max(xs, double(c)), to = std::min(xe, double(c + 1));
            share[std::size_t(c - left) * nKinds + k] += std::max(to - from, 1e-6) * secondsPerPixel;
            busy[std::size_t(c - left)] += std::max(to - from, 0.0);
        }
    }
    for (int c = 0; c < width; ++c) {
        const auto column = share.begin() + std::ptrdiff_t(std::size_t(c) * nKinds);
        const auto best = std::max_element(column, column + std::ptrdiff_t(nKinds));
        if (*best <= 0)
            continue;
        const OpKind kind = kinds[std::size_t(best - column)];
        // Rounded up (a lone 1-ns span is one level), capped (spans overlapping in one lane).
        const int level = std::clamp(int(std::ceil(busy[std::size_t(c)] * kBusyLevels - 1e-9)), 1, kBusyLevels);
        const double columnBusy = double(level) / kBusyLevels;
        if (!runs.empty() && runs.back().x1 == left + c && runs.back().kind == kind && runs.back().busy == columnBusy)
            ++runs.back().x1;
        else
            runs.push_back(PixelRun{left + c, left + c + 1, kind, columnBusy});
    }
    return runs;
}

double busyOpacity(double busy)
{
    // 0.15: a 2 %-busy lane reads as a pale tint, clearly not the solid colour of a busy one.
    constexpr double kFloor = 0.15;
    return std::clamp(std::max(kFloor, busy), kFloor, 1.0);
}

}  // namespace gigacheck::ui
