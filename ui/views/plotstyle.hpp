// Shared look of the plots: colours that follow the widget palette (dark mode works) and the
// fixed colours of operation kinds.
#pragma once

#include <gigacheck/schedule.hpp>

#include <QColor>
#include <QPalette>
#include <QString>

class QCustomPlot;

namespace gigacheck::ui {

QColor kindColor(OpKind kind);
QString kindLabel(OpKind kind);
// Axes, grid and background from the plot's palette; call again on QEvent::PaletteChange.
// The palette is the owning widget's: on its PaletteChange the plot's own is not updated yet.
void applyPalette(QCustomPlot* plot, const QPalette& palette);
// Accent colours that read on both light and dark backgrounds.
QColor accentColor(int index);

}  // namespace gigacheck::ui
