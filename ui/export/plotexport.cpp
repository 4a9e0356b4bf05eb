#include "plotexport.hpp"

#include <qcustomplot.h>

#include <QFile>
#include <QFileInfo>
#include <QSaveFile>
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
