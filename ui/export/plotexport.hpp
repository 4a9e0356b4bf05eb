// Exports of any plot (PNG, PDF, SVG by the file suffix) and of plot data (CSV).
#pragma once

#include <QColor>
#include <QString>
#include <QStringList>

#include <vector>

class QCustomPlot;
class QCPLegend;

namespace gigacheck::ui {

// Writes the plot at the given size (0: its current size); the format follows the suffix
// (.png, .pdf, .svg). Returns false with a reason in *error.
bool exportPlot(QCustomPlot* plot, const QString& path, QString* error, int width = 0, int height = 0);

// What a picture for a slide adds to the plot: a title on top, and legend entries (a colour and
// what it means) for plots whose legend is a widget beside them (the timeline). Scale multiplies
// the pixels of a PNG (2: twice the on-screen resolution); vector formats ignore it.
struct ExportDecoration {
    QString title;
    std::vector<std::pair<QColor, QString>> legend;
    double scale = 1.0;
};
bool exportPlot(QCustomPlot* plot, const QString& path, const ExportDecoration& decoration, QString* error);

// While it lives, the plot's legend sits in a row of its own under the axes (an inset legend is
// taken out of the axes), in as many columns as fit in width pixels: an export's legend never
// covers the plot (the timeline's H2D lane) nor runs past the picture's edges. Put back as it
// was when it goes. Used by exportPlot with a decoration's legend.
class LegendBelowAxes {
public:
    LegendBelowAxes(QCustomPlot* plot, int width);
    ~LegendBelowAxes();
    LegendBelowAxes(const LegendBelowAxes&) = delete;
    LegendBelowAxes& operator=(const LegendBelowAxes&) = delete;

private:
    QCustomPlot* plot_;
    QCPLegend* legend_;
    bool wasInset_ = false;
    Qt::Alignment insetAlignment_ = Qt::AlignRight | Qt::AlignTop;
    int wrap_ = 0;
    int order_ = 0;  // QCPLayoutGrid::FillOrder
};
// The resolution chosen in File › Export resolution (1×, 2×, 3×; remembered).
double exportScale();
void setExportScale(double scale);

// RFC 4180 CSV: fields with commas, quotes or newlines are quoted. Written by writeExportFile.
bool writeCsv(const QString& path, const QStringList& header, const std::vector<QStringList>& rows,
              QString* error);

// Every exported file the lab writes itself: whole or not at all, never over a device, a FIFO or
// a directory, through a link to its target, keeping the file's mode (gigacheck/safe_write.hpp).
// False with the one-line reason in *error.
bool writeExportFile(const QString& path, const QByteArray& bytes, QString* error);

}  // namespace gigacheck::ui
