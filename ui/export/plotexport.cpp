#include "plotexport.hpp"

#include "views/legendfit.hpp"

#include <qcustomplot.h>

#include <algorithm>
#include <optional>

#include <gigacheck/safe_write.hpp>
#include <gigacheck/types.hpp>

#include <QFileInfo>
#include <QSettings>
#include <QSvgGenerator>

namespace gigacheck::ui {

namespace {

// A picture is written by QCustomPlot straight into the file: what it must not replace or block on
// (a device, a FIFO, a directory) is refused first.
bool canExportTo(const QString& path, QString* error)
{
    try {
        checkOutputFile(path.toStdString(), "picture");
        return true;
    } catch (const InputError& e) {
        if (error)
            *error = QString::fromStdString(e.what());
        return false;
    }
}


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

LegendBelowAxes::LegendBelowAxes(QCustomPlot* plot, int width) : plot_(plot), legend_(plot->legend)
{
    wrap_ = legend_->wrap();
    order_ = int(legend_->fillOrder());
    QCPLayoutInset* inset = plot_->axisRect()->insetLayout();
    for (int i = 0; i < inset->elementCount(); ++i)
        if (inset->elementAt(i) == legend_) {
            wasInset_ = true;
            insetAlignment_ = inset->insetAlignment(i);
        }
    if (wasInset_) {
        inset->take(legend_);
        inset->simplify();
        QCPLayoutGrid* layout = plot_->plotLayout();
        layout->insertRow(layout->rowCount());
        layout->addElement(layout->rowCount() - 1, 0, legend_);
        layout->setRowStretchFactor(layout->rowCount() - 1, 0.001);
    }
    // The wrap first: setFillOrder rearranges the entries by it.
    legend_->setWrap(legendColumnsThatFit(legend_, width));
    legend_->setFillOrder(QCPLayoutGrid::foColumnsFirst, true);
}

LegendBelowAxes::~LegendBelowAxes()
{
    if (wasInset_) {
        plot_->plotLayout()->take(legend_);
        plot_->plotLayout()->simplify();
        plot_->axisRect()->insetLayout()->addElement(legend_, insetAlignment_);
    }
    legend_->setWrap(wrap_);
    legend_->setFillOrder(QCPLayoutGrid::FillOrder(order_), true);
}

bool exportPlot(QCustomPlot* plot, const QString& path, QString* error, int width, int height)
{
    if (!canExportTo(path, error))
        return false;
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
    if (!canExportTo(path, error))
        return false;
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
    std::vector<QCPAbstractPlottable*> inLegend;  // the view's own entries, put back afterwards
    for (const auto& [color, text] : decoration.legend) {
        QCPGraph* entry = plot->addGraph();  // no data: only its legend swatch shows
        entry->setName(text);
        entry->setPen(QPen(color, 8));
        entry->setLineStyle(QCPGraph::lsLine);
        entries.push_back(entry);
    }
    const int width = std::max(plot->width(), 320), height = std::max(plot->height(), 240);
    std::optional<LegendBelowAxes> legendBelow;
    if (!entries.empty()) {
        // Only the entries of the decoration in the legend, in rows of their own below the axes.
        for (int i = 0; i < plot->plottableCount(); ++i)
            if (QCPAbstractPlottable* p = plot->plottable(i);
                std::find(entries.begin(), entries.end(), p) == entries.end() && plot->legend->hasItemWithPlottable(p)) {
                inLegend.push_back(p);
                p->removeFromLegend();
            }
        plot->legend->setVisible(true);
        legendBelow.emplace(plot, width);
    }
    const QString suffix = QFileInfo(path).suffix().toLower();
    bool ok;
    if (suffix == QLatin1String("png")) {
        ok = plot->savePng(path, width, height, decoration.scale);
        if (!ok && error)
            *error = QStringLiteral("could not write %1").arg(path);
    } else {
        ok = exportPlot(plot, path, error, width, height);
    }
    legendBelow.reset();
    for (QCPGraph* entry : entries)
        plot->removeGraph(entry);
    for (QCPAbstractPlottable* p : inLegend)
        p->addToLegend();
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
    QString text;
    auto writeRow = [&text](const QStringList& row) {
        QStringList fields;
        fields.reserve(row.size());
        for (const QString& f : row)
            fields << csvField(f);
        text += fields.join(QLatin1Char(',')) + QLatin1Char('\n');
    };
    writeRow(header);
    for (const auto& row : rows)
        writeRow(row);
    // Whole or not at all, never over a device, a FIFO or a link (gigacheck/safe_write.hpp).
    return writeExportFile(path, text.toUtf8(), error);
}

bool writeExportFile(const QString& path, const QByteArray& bytes, QString* error)
{
    try {
        writeFileAtomically(path.toStdString(), std::string_view(bytes.constData(), std::size_t(bytes.size())), "file");
        return true;
    } catch (const InputError& e) {
        if (error)
            *error = QString::fromStdString(e.what());
        return false;
    }
}

}  // namespace gigacheck::ui
