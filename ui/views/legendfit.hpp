// A legend in a row under the axes whose entries wrap into as many columns as the plot's width
// holds: on a narrow screen the entries take more rows instead of running past the plot's edge
// (where QCustomPlot clips them: "1.29e+0", "reduce-b").
#pragma once

class QCPLegend;
class QCustomPlot;

namespace gigacheck::ui {

// How many columns of legend entries fit in width pixels: every column as wide as the widest
// entry, so the rows never run past the edges (QCP sizes each column by its widest item).
int legendColumnsThatFit(const QCPLegend* legend, int width);

// Before every replot (a resize, new entries, a font change) the plot's legend is re-wrapped to
// legendColumnsThatFit(its plot's width). The legend must already sit in a row of the plot layout.
void keepLegendFitting(QCustomPlot* plot);

// True when some entry of the legend is drawn narrower than it needs or past the plot's edge
// (what a clipped legend looks like); for tests. The plot must have been laid out (replotted).
bool legendClipped(const QCustomPlot* plot);

}  // namespace gigacheck::ui
