// Exports of any plot (PNG, PDF, SVG by the file suffix) and of plot data (CSV).
#pragma once

#include <QString>
#include <QStringList>

#include <vector>

class QCustomPlot;

namespace gigacheck::ui {

// Writes the plot at the given size (0: its current size); the format follows the suffix
// (.png, .pdf, .svg). Returns false with a reason in *error.
bool exportPlot(QCustomPlot* plot, const QString& path, QString* error, int width = 0, int height = 0);

// RFC 4180 CSV: fields with commas, quotes or newlines are quoted.
bool writeCsv(const QString& path, const QStringList& header, const std::vector<QStringList>& rows,
              QString* error);

}  // namespace gigacheck::ui
