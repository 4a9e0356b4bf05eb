// The kernel gallery's second plot, beside the sweep: for the reduced matmul each kernel at its
// largest swept N on the roofline (FLOPs over bytes, under the memory and compute roofs); for the
// transpose, which does no arithmetic (0 FLOP per byte: its roofline point would sit at an
// intensity a log axis cannot show), each kernel's achieved bandwidth as a bar against the memory
// roof, the share of the roof printed on it. Both from the sweep's points (the records' counts,
// times and roofs), nothing estimated.
#pragma once

#include "views/gallery/gallerysweep.hpp"

#include <QStringList>

#include <vector>

class QCPTextElement;
class QCustomPlot;
class QPalette;

namespace gigacheck::ui::gallery {

// The plot and its two text rows (title, note) above the axes; the legend's row is under them.
struct KernelPlot {
    QCustomPlot* plot = nullptr;
    QCPTextElement* title = nullptr;
    QCPTextElement* note = nullptr;
};

// Builds the plot's rows (title, note, axes, legend) once.
KernelPlot makeKernelPlot(QCustomPlot* plot);

// Redraws it for the family's points (names: the family's kernels, for their colours).
void drawKernelPlot(const KernelPlot& k, Family family, const std::vector<SweepPoint>& points, const QStringList& names,
                    const QPalette& palette);

// Each kernel's point at its largest swept N (points without a time or an error left out).
std::vector<SweepPoint> largestPointOfEachKernel(const std::vector<SweepPoint>& points);

}  // namespace gigacheck::ui::gallery
