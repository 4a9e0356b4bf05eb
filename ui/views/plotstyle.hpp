// Shared look of the plots: colours that follow the widget palette (dark mode works) and the
// fixed colours of operation kinds.
#pragma once

#include <gigacheck/schedule.hpp>

#include <QColor>
#include <QFont>
#include <QPalette>
#include <QString>

class QCustomPlot;

namespace gigacheck::ui {

// Spans are coloured by what they do (gigacheck/schedule.hpp OpRole), whichever family ran them.
QColor roleColor(OpRole role);
QString roleLabel(OpRole role);
QColor kindColor(OpKind kind);  // roleColor(roleOf(kind))
QString kindLabel(OpKind kind);
// Axes, grid and background from the plot's palette; call again on QEvent::PaletteChange.
// The palette is the owning widget's: on its PaletteChange the plot's own is not updated yet.
void applyPalette(QCustomPlot* plot, const QPalette& palette);
// How much larger than normal the plots draw text, markers and lines (presentation mode and the
// text size control set it; 1 = normal). Views read it whenever they build a plot element.
double plotScale();
void setPlotScale(double scale);
// A font of `pointSize` points at the current plot scale.
QFont plotFont(const QFont& base, double pointSize);
// Axes (in `font`, the application's font at the new scale), legend and text items of a plot
// at the current scale (after plotScale changed).
void applyPlotScale(QCustomPlot* plot, const QFont& font);
// Accent colours that read on both light and dark backgrounds.
QColor accentColor(int index);

}  // namespace gigacheck::ui
