#include "plotstyle.hpp"

#include <qcustomplot.h>

#include <algorithm>

namespace gigacheck::ui {

namespace {
double gPlotScale = 1.0;

void scaleAxis(QCPAxis* axis, const QFont& font)
{
    axis->setLabelFont(font);
    axis->setTickLabelFont(font);
    axis->setSelectedLabelFont(font);
    axis->setSelectedTickLabelFont(font);
    QPen pen = axis->basePen();
    pen.setWidthF(gPlotScale);
    axis->setBasePen(pen);
}
}  // namespace

double plotScale()
{
    return gPlotScale;
}

void setPlotScale(double scale)
{
    gPlotScale = std::clamp(scale, 0.5, 4.0);
}

QFont plotFont(const QFont& base, double pointSize)
{
    QFont font(base);
    font.setPointSizeF(pointSize * gPlotScale);
    return font;
}

void applyPlotScale(QCustomPlot* plot, const QFont& font)
{
    // Axes take the scaled application font, legends their 8 points at scale, text items are
    // scaled by the ratio to the scale they were drawn at.
    for (QCPAxisRect* rect : plot->axisRects())
        for (QCPAxis* axis : rect->axes())
            scaleAxis(axis, font);
    for (int i = 0; i < plot->plotLayout()->elementCount(); ++i)
        if (auto* scale = qobject_cast<QCPColorScale*>(plot->plotLayout()->elementAt(i)))
            scaleAxis(scale->axis(), font);
    if (plot->legend)
        plot->legend->setFont(plotFont(plot->legend->font(), 8));
    const double drawnAt = plot->property("gigacheckPlotScale").isValid() ? plot->property("gigacheckPlotScale").toDouble() : 1.0;
    for (int i = 0; i < plot->itemCount(); ++i)
        if (auto* text = qobject_cast<QCPItemText*>(plot->item(i))) {
            QFont f = text->font();
            f.setPointSizeF(f.pointSizeF() * gPlotScale / drawnAt);
            text->setFont(f);
        }
    plot->setProperty("gigacheckPlotScale", gPlotScale);
    plot->replot(QCustomPlot::rpQueuedReplot);
}

QColor roleColor(OpRole role)
{
    switch (role) {
    case OpRole::Load: return QColor(0xd6, 0x45, 0x45);      // loads: red, as in the seed's figures
    case OpRole::Checksum: return QColor(0xe8, 0xa3, 0x3d);
    case OpRole::Product: return QColor(0x3b, 0x76, 0xd1);   // compute: blue
    case OpRole::Sums: return QColor(0x8a, 0x9a, 0x2a);      // in-place sums (Strassen's stages, reductions)
    case OpRole::Inject: return QColor(0xb0, 0x3c, 0xd6);
    case OpRole::Verify: return QColor(0x2b, 0xa8, 0x9c);
    case OpRole::Store: return QColor(0x4c, 0xa8, 0x3f);     // stores: green
    // The repair pass after the run: a calm slate, since it mostly confirms (models/repairpass.hpp).
    case OpRole::Recompute: return QColor(0x6c, 0x7a, 0x8f);
    case OpRole::Other: break;
    }
    return Qt::gray;
}

// The legend's words: blocked GEMM's kind names where a role has one (they are what its spans
// say), plain words for the others.
QString roleLabel(OpRole role)
{
    switch (role) {
    case OpRole::Load: return QStringLiteral("copy-h2d");
    case OpRole::Checksum: return QStringLiteral("checksum");
    case OpRole::Product: return QStringLiteral("product");
    case OpRole::Sums: return QStringLiteral("sums");
    case OpRole::Inject: return QStringLiteral("inject");
    case OpRole::Verify: return QStringLiteral("verify");
    case OpRole::Store: return QStringLiteral("copy-d2h");
    case OpRole::Recompute: return QStringLiteral("repair pass");
    case OpRole::Other: break;
    }
    return QStringLiteral("other");
}

QColor kindColor(OpKind kind)
{
    return roleColor(roleOf(kind));
}

QString kindLabel(OpKind kind)
{
    return QString::fromUtf8(toString(kind).data(), qsizetype(toString(kind).size()));
}

QColor accentColor(int index)
{
    // Eight: Strassen's stages 0-7 each keep their own colour (stage 1 and 7 shared one with six).
    static const QColor colors[] = {QColor(0x3b, 0x76, 0xd1), QColor(0xe0, 0x6c, 0x2c), QColor(0x2b, 0xa8, 0x9c),
                                    QColor(0xb0, 0x3c, 0xd6), QColor(0xc9, 0x3a, 0x5e), QColor(0x8a, 0x9a, 0x2a),
                                    QColor(0x7a, 0x55, 0x30), QColor(0x1f, 0x3a, 0x6e)};
    return colors[index % 8];
}

void applyPalette(QCustomPlot* plot, const QPalette& pal)
{
    const QColor fg = pal.color(QPalette::WindowText);
    const QColor bg = pal.color(QPalette::Base);
    QColor grid = fg;
    grid.setAlpha(40);
    plot->setBackground(bg);
    for (QCPAxisRect* rect : plot->axisRects()) {
        rect->setBackground(bg);
        for (QCPAxis* axis : rect->axes()) {
            axis->setBasePen(QPen(fg, 1));
            axis->setTickPen(QPen(fg, 1));
            axis->setSubTickPen(QPen(fg, 1));
            axis->setTickLabelColor(fg);
            axis->setLabelColor(fg);
            axis->grid()->setPen(QPen(grid, 1, Qt::DotLine));
            axis->grid()->setSubGridPen(QPen(grid, 1, Qt::DotLine));
        }
    }
    if (plot->legend) {
        plot->legend->setBrush(bg);
        plot->legend->setTextColor(fg);
        plot->legend->setBorderPen(QPen(grid));
    }
}

}  // namespace gigacheck::ui
