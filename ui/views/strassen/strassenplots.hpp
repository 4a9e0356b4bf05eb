// The Strassen view's plots, each filled from plain data into a QCustomPlot (pens and markers at
// the plot scale of presentation mode; axes and legend follow DisplayScale):
//  stage times (the seed's Table 3.2 for one run, bars per level and stage), speedup vs N against
//  the plain GEMM, error of C and recovery error of A and B vs levels (classic vs Winograd), and
//  the run's lanes: its spans per
//  device, queue and stream, coloured by the top-level stage they belong to.
#pragma once

#include "views/strassen/strassensteps.hpp"
#include "views/strassen/strassensweep.hpp"

#include <QString>

#include <vector>

class QCustomPlot;

namespace gigacheck::ui::strassenlab {

void plotStageTimes(QCustomPlot* plot, const std::vector<StageTime>& stages);
void plotSpeedup(QCustomPlot* plot, const std::vector<SweepPoint>& points);
void plotErrorVsLevels(QCustomPlot* plot, const std::vector<SweepPoint>& points);
// Recovery error of A and B vs levels (classic vs Winograd): max ulps, changed elements.
void plotRecoveryVsLevels(QCustomPlot* plot, const std::vector<SweepPoint>& points);

// One lane per (device, queue, stream); spans of a lane that overlap go to sub-rows. stageOfOp: per
// op id the stage that colours its span (-1: a load, store or fault, drawn grey or red).
struct LaneInfo {
    QString label;
    int device = 0, stream = 0;
    Queue queue = Queue::Compute;
    int rows = 1;
};
std::vector<LaneInfo> plotLanes(QCustomPlot* plot, const std::vector<Span>& spans, const std::vector<int>& stageOfOp);
// Shades [from, to] (seconds) on the lanes plot: the step shown in the stepper. from > to: none.
void markLanesInterval(QCustomPlot* plot, double from, double to);

}  // namespace gigacheck::ui::strassenlab
