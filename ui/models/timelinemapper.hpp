// Time <-> pixel and lane <-> pixel maths of the timeline, kept apart from painting so that it
// is tested without a screen (as Hotspot's TimeLineData and Qt Creator's timeline renderer do).
#pragma once

#include <cmath>

namespace gigacheck::ui {

struct TimeMapper {
    double t0 = 0, t1 = 1;      // visible time range (seconds)
    double x0 = 0, width = 1;   // pixel range it is drawn in
    double mapTimeToX(double t) const { return x0 + (t - t0) / (t1 - t0) * width; }
    double mapXToTime(double x) const { return t0 + (x - x0) / width * (t1 - t0); }
    double secondsPerPixel() const { return (t1 - t0) / width; }
};

// Lane i is centred on value i; a span bar covers i +- kHalfHeight of it.
struct LaneMapper {
    static constexpr double kHalfHeight = 0.38;
    double v0 = -0.5, v1 = 0.5;  // visible value range, top to bottom (lane 0 on top)
    double y0 = 0, height = 1;   // pixel range
    double mapLaneToY(double v) const { return y0 + (v - v0) / (v1 - v0) * height; }
    double mapYToLane(double y) const { return v0 + (y - y0) / height * (v1 - v0); }
    // The lane under pixel y, or -1 between bars / outside [0, laneCount).
    int laneAt(double y, int laneCount) const
    {
        const double v = mapYToLane(y);
        const int lane = int(std::lround(v));
        if (lane < 0 || lane >= laneCount || std::abs(v - lane) > kHalfHeight)
            return -1;
        return lane;
    }
};

}  // namespace gigacheck::ui
