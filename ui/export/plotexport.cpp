#include "plotexport.hpp"

#include <qcustomplot.h>

#include <algorithm>

#include <QFile>
#include <QFileInfo>
#include <QSaveFile>
#include <QSettings>
#include <QSvgGenerator>
#include <QTextStream>

namespace gigacheck::ui {

namespace {

bool exportSvg(QCustomPlot* plot, const QString& path, int width, int height)
{
    QSvgGenerator generator;
    generator.setFileName(path);
    generator.setSize(QSize(width, height));
    generator.setViewBox(QRect(0, 0, width, height));
    generator.setTitle(QStringLiteral("Gigacheck Lab plot"));
    QCPPainter painter;
    if (!painter.begin(&generator))
        return false;
    plot->toPainter(&painter, width, height);
    return painter.end();
}

QString csvField(const QString& field)
{
    if (!field.contains(QLatin1Char(',')) && !field.contains(QLatin1Char('"')) && !field.contains(QLatin1Char('\n')))
        return field;
    QString quoted = field;
    quoted.replace(QLatin1String("\""), QLatin1String("\"\""));
    return QLatin1Char('"') + quoted + QLatin1Char('"');
}

}  // namespace

bool exportPlot(QCustomPlot* plot, const QString& path, QString* error, int width, int height)
{
    if (width <= 0 || height <= 0) {
        width = std::max(plot->width(), 320);
        height = std::max(plot->height(), 240);
    }
    const QString suffix = QFileInfo(path).suffix().toLower();
    bool ok = false;
    if (suffix == QLatin1String("png"))
        ok = plot->savePng(path, width, height);
    else if (suffix == QLatin1String("pdf"))
        ok = plot->savePdf(path, width, height);
    else if (suffix == QLatin1String("svg"))
        ok = exportSvg(plot, path, width, height);
    else {
        if (error)
            *error = QStringLiteral("unknown image format '%1' (use .png, .pdf or .svg)").arg(suffix);
        return false;
    }
    if (!ok && error)
        *error = QStringLiteral("could not write %1").arg(path);
    return ok;
}

bool exportPlot(QCustomPlot* plot, const QString& path, const ExportDecoration& decoration, QString* error)
{
    // Title and legend are added for the export only and removed again: the view stays as it was.
    QCPTextElement* title = nullptr;
    if (!decoration.title.isEmpty()) {
        plot->plotLayout()->insertRow(0);
        QFont font = plot->font();
        font.setBold(true);
        font.setPointSizeF(font.pointSizeF() * 1.2);
        title = new QCPTextElement(plot, decoration.title, font);
        plot->plotLayout()->addElement(0, 0, title);
    }
    std::vector<QCPGraph*> entries;
    const bool legendWasVisible = plot->legend && plot->legend->visible();
    for (const auto& [color, text] : decoration.legend) {
        QCPGraph* entry = plot->addGraph();  // no data: only its legend swatch shows
        entry->setName(text);
        entry->setPen(QPen(color, 8));
        entry->setLineStyle(QCPGraph::lsLine);
        entries.push_back(entry);
    }
    if (!entries.empty()) {
        // Only the entries of the decoration in the legend, in one row below the plot area.
        for (int i = 0; i < plot->plottableCount(); ++i)
            if (std::find(entries.begin(), entries.end(), plot->plottable(i)) == entries.end())
                plot->plottable(i)->removeFromLegend();
        plot->legend->setVisible(true);
        plot->legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
        plot->legend->setWrap(0);
    }
    const int width = std::max(plot->width(), 320), height = std::max(plot->height(), 240);
    const QString suffix = QFileInfo(path).suffix().toLower();
    bool ok;
    if (suffix == QLatin1String("png")) {
        ok = plot->savePng(path, width, height, decoration.scale);
        if (!ok && error)
            *error = QStringLiteral("could not write %1").arg(path);
    } else {
        ok = exportPlot(plot, path, error, width, height);
    }
    for (QCPGraph* entry : entries)
        plot->removeGraph(entry);
    if (!entries.empty())
        plot->legend->setVisible(legendWasVisible);
    if (title) {
        plot->plotLayout()->remove(title);
        plot->plotLayout()->simplify();
    }
    plot->replot(QCustomPlot::rpQueuedReplot);
    return ok;
}

double exportScale()
{
    return std::clamp(QSettings().value(QStringLiteral("export/scale"), 2.0).toDouble(), 1.0, 4.0);
}

void setExportScale(double scale)
{
    QSettings().setValue(QStringLiteral("export/scale"), scale);
}

bool writeCsv(const QString& path, const QStringList& header, const std::vector<QStringList>& rows,
              QString* error)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Text)) {
        if (error)
            *error = QStringLiteral("could not write %1: %2").arg(path, file.errorString());
        return false;
    }
    QTextStream out(&file);
    auto writeRow = [&out](const QStringList& row) {
        QStringList fields;
        fields.reserve(row.size());
        for (const QString& f : row)
            fields << csvField(f);
        out << fields.join(QLatin1Char(',')) << '\n';
    };
    writeRow(header);
    for (const auto& row : rows)
        writeRow(row);
    out.flush();
    if (!file.commit()) {
        if (error)
            *error = QStringLiteral("could not write %1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

}  // namespace gigacheck::ui
