#include "views/gallery/galleryroofline.hpp"

#include "views/legendfit.hpp"
#include "views/plotstyle.hpp"

#include <qcustomplot.h>

#include <QFontMetrics>

#include <algorithm>
#include <map>

namespace gigacheck::ui::gallery {

namespace {

constexpr int kLegendRow = 3;  // under the title, the note and the axes

// Shows the legend in its row, or takes it out of the layout: an empty legend's maximum width is
// its margins and a layout column is no wider than its narrowest element allows, so left in
// place, hidden, it narrowed the axes to the note's width (half the plot).
void showLegend(QCustomPlot* plot, bool shown)
{
    QCPLayoutGrid* layout = plot->plotLayout();
    const bool inLayout = layout->hasElement(kLegendRow, 0) && layout->element(kLegendRow, 0) == plot->legend;
    if (shown && !inLayout)
        layout->addElement(kLegendRow, 0, plot->legend);
    else if (!shown && inLayout)
        layout->take(plot->legend);  // the row stays, empty: the grid keeps its shape
    plot->legend->setVisible(shown);
}

// Log-log axes with a few labels (a narrow plot beside the sweep: labels that do not collide).
void useLogAxes(QCustomPlot* plot)
{
    for (QCPAxis* axis : {plot->xAxis, plot->yAxis}) {
        axis->setScaleType(QCPAxis::stLogarithmic);
        auto ticker = QSharedPointer<QCPAxisTickerLog>(new QCPAxisTickerLog);
        ticker->setTickCount(4);
        ticker->setSubTickCount(0);
        axis->setTicker(ticker);
    }
    plot->xAxis->grid()->setVisible(true);
    plot->xAxis->setLabel(QStringLiteral("FLOP / byte"));
    plot->yAxis->setLabel(QStringLiteral("GFLOP/s"));
}

void clear(QCustomPlot* plot)
{
    plot->clearPlottables();
    plot->clearItems();
}

// The reduced matmul: each kernel filled at its FLOPs over the least device-memory traffic, hollow
// at its FLOPs over the bytes its loads request (what tiling changes), under the roofs.
void drawRoofline(const KernelPlot& k, const std::vector<SweepPoint>& points, const QStringList& names, const QPalette& palette)
{
    QCustomPlot* plot = k.plot;
    useLogAxes(plot);
    std::vector<SweepPoint> last;
    for (const SweepPoint& p : largestPointOfEachKernel(points))
        if (p.flops > 0 && p.memoryBytes > 0)
            last.push_back(p);
    double xLo = 1e30, xHi = 0, yLo = 1e30, yHi = 0, memoryRoof = 0, computeRoof = 0;
    QString source;
    for (const SweepPoint& p : last) {
        const QColor colour = accentColor(int(names.indexOf(p.variant)));
        const double gflops = p.flops / (p.ms * 1e-3) / 1e9;
        QCPGraph* g = plot->addGraph();
        g->setName(p.variant);
        g->setLineStyle(QCPGraph::lsNone);
        g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, colour, 9));
        const double x = p.flops / p.memoryBytes;
        g->addData(x, gflops);
        xLo = std::min(xLo, x), xHi = std::max(xHi, x);
        if (p.requestedBytes > 0) {  // the same kernel against what its loads ask of the caches
            QCPGraph* h = plot->addGraph();
            h->setName(p.variant + QStringLiteral(" (requested bytes)"));
            h->setLineStyle(QCPGraph::lsNone);
            h->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(colour, 2), Qt::NoBrush, 9));
            h->addData(p.flops / p.requestedBytes, gflops);
            h->removeFromLegend();
            xLo = std::min(xLo, p.flops / p.requestedBytes);
        }
        yLo = std::min(yLo, gflops), yHi = std::max(yHi, gflops);
        if (p.memoryRoofGBs > 0 && p.computeRoofGflops > 0)
            memoryRoof = p.memoryRoofGBs, computeRoof = p.computeRoofGflops, source = p.roofSource;
    }
    std::int64_t atN = 0;
    for (const SweepPoint& p : last)
        atN = std::max(atN, p.n);
    k.title->setText(atN ? QStringLiteral("Roofline: each kernel at N = %1").arg(atN) : QStringLiteral("Roofline"));
    // Short lines: beside the sweep plot at 1366 x 768 this panel is about 260 px wide.
    QString note = QStringLiteral("FLOPs over: ● least traffic ○ bytes loaded");
    if (!last.empty() && memoryRoof > 0) {
        const double ridge = computeRoof / memoryRoof;
        const double lo = std::min(xLo, ridge) / 4, hi = std::max(xHi, ridge) * 4;
        QCPGraph* r = plot->addGraph();
        r->setName(QStringLiteral("roofs"));
        note += QStringLiteral("\nroofs %1 GB/s · %2 GFLOP/s, %3").arg(memoryRoof, 0, 'f', 0).arg(computeRoof, 0, 'f', 0).arg(source);
        r->setPen(QPen(palette.color(QPalette::WindowText), 1.5, Qt::DashLine));
        r->addData(lo, memoryRoof * lo);
        r->addData(ridge, computeRoof);
        r->addData(hi, computeRoof);
        xLo = lo, xHi = hi;
        yLo = std::min(yLo, memoryRoof * lo), yHi = std::max(yHi, computeRoof);
    } else if (!last.empty()) {
        note += QStringLiteral("\nroofs unknown: gigacheck devices --measure");
    }
    k.note->setText(last.empty() ? QStringLiteral("sweep to place each kernel") : note);
    showLegend(plot, !last.empty());
    if (last.empty()) {
        plot->xAxis->setRange(0.01, 100);
        plot->yAxis->setRange(1, 1e5);
    } else {
        plot->xAxis->setRange(xLo / 2, xHi * 2);
        plot->yAxis->setRange(yLo / 3, yHi * 3);
    }
}

// The transpose: a bar per kernel at its GB/s (the record's bytes over its kernel time), the
// memory roof dashed across them (on the GPU the device copy each run measures, else the
// device's ceilings) and each bar's share of it above the bar.
void drawBandwidth(const KernelPlot& k, const std::vector<SweepPoint>& points, const QStringList& names, const QPalette& palette)
{
    QCustomPlot* plot = k.plot;
    std::vector<SweepPoint> last = largestPointOfEachKernel(points);
    std::sort(last.begin(), last.end(),
              [&](const SweepPoint& a, const SweepPoint& b) { return names.indexOf(a.variant) < names.indexOf(b.variant); });
    plot->xAxis->setScaleType(QCPAxis::stLinear);
    plot->yAxis->setScaleType(QCPAxis::stLinear);
    auto labels = QSharedPointer<QCPAxisTickerText>(new QCPAxisTickerText);
    plot->xAxis->setTicker(labels);
    plot->yAxis->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
    plot->xAxis->setLabel(QString());
    plot->xAxis->grid()->setVisible(false);  // a line through each bar would say nothing
    plot->yAxis->setLabel(QStringLiteral("GB/s"));
    double roof = 0, top = 0;
    QString source;
    std::int64_t atN = 0;
    for (std::size_t i = 0; i < last.size(); ++i) {
        const SweepPoint& p = last[i];
        auto* bar = new QCPBars(plot->xAxis, plot->yAxis);
        bar->setName(p.variant);
        const QColor colour = accentColor(int(names.indexOf(p.variant)));
        bar->setPen(QPen(colour.darker(130)));
        bar->setBrush(colour);
        bar->setWidth(0.7);
        bar->addData(double(i), p.rate);
        bar->removeFromLegend();  // the axis names the kernel under its bar
        labels->addTick(double(i), p.variant);
        top = std::max(top, p.rate);
        atN = std::max(atN, p.n);
        if (p.memoryRoofGBs > 0)
            roof = p.memoryRoofGBs, source = p.roofSource;
    }
    // Kernel names that would run into each other under their bars (a narrow plot beside the docks)
    // are slanted instead.
    const QFontMetrics metrics(plot->xAxis->tickLabelFont());
    int namesWidth = 0;
    for (const SweepPoint& p : last)
        namesWidth += metrics.horizontalAdvance(p.variant) + metrics.horizontalAdvance(QLatin1Char(' '));
    const int room = plot->axisRect()->width() > 0 ? plot->axisRect()->width() : plot->width() * 3 / 4;
    plot->xAxis->setTickLabelRotation(namesWidth > room ? -35 : 0);  // ending under their bars: the last one stays inside
    if (roof > 0) {
        for (std::size_t i = 0; i < last.size(); ++i) {
            auto* share = new QCPItemText(plot);
            share->position->setCoords(double(i), last[i].rate);
            share->setPositionAlignment(Qt::AlignHCenter | Qt::AlignBottom);
            share->setText(QStringLiteral("%1 %").arg(100 * last[i].rate / roof, 0, 'f', 0));
            share->setColor(palette.color(QPalette::WindowText));
            share->setFont(plot->xAxis->tickLabelFont());
        }
        QCPGraph* r = plot->addGraph();
        r->setName(QStringLiteral("memory roof"));
        r->removeFromLegend();  // the note says what the dashed line is: a legend row would not fit beside the sweep
        r->setPen(QPen(palette.color(QPalette::WindowText), 1.5, Qt::DashLine));
        r->addData(-0.5, roof);
        r->addData(double(last.size()) - 0.5, roof);
        top = std::max(top, roof);
    }
    k.title->setText(atN ? QStringLiteral("Bandwidth: each kernel at N = %1").arg(atN) : QStringLiteral("Bandwidth"));
    // Short lines: beside the sweep plot at 1366 x 768 this panel is about 260 px wide.
    if (last.empty())
        k.note->setText(QStringLiteral("A transpose does no arithmetic:\nits roof is the memory bandwidth.\nSweep to place each kernel."));
    else if (roof > 0)
        k.note->setText(QStringLiteral("No arithmetic: the memory roof\n(- - %1 GB/s, %2) bounds it;\n% of that roof on each bar")
                            .arg(roof, 0, 'f', 0)
                            .arg(source) +
                        // A small matrix is read from the caches, faster than the memory.
                        (top > roof ? QStringLiteral(";\nover 100 %: the matrix fits in cache") : QString()));
    else
        k.note->setText(QStringLiteral("No arithmetic: the memory roof\nbounds it (unknown here:\ngigacheck devices --measure)"));
    showLegend(plot, false);
    plot->xAxis->setRange(-0.6, std::max(1.0, double(last.size())) - 0.4);
    plot->yAxis->setRange(0, top > 0 ? top * 1.2 : 10);
}

}  // namespace

std::vector<SweepPoint> largestPointOfEachKernel(const std::vector<SweepPoint>& points)
{
    std::map<QString, SweepPoint> last;
    for (const SweepPoint& p : points)
        if (p.error.isEmpty() && p.ms > 0 && (!last.count(p.variant) || p.n >= last[p.variant].n))
            last[p.variant] = p;
    std::vector<SweepPoint> out;
    for (auto& [variant, p] : last)
        out.push_back(p);
    return out;
}

KernelPlot makeKernelPlot(QCustomPlot* plot)
{
    KernelPlot k;
    k.plot = plot;
    useLogAxes(plot);
    plot->legend->setVisible(true);
    plot->legend->setFont(plot->font());
    plot->plotLayout()->insertRow(0);
    k.title = new QCPTextElement(plot, QStringLiteral("Roofline"), plot->font());
    plot->plotLayout()->addElement(0, 0, k.title);
    plot->plotLayout()->insertRow(1);
    k.note = new QCPTextElement(plot, QString(), plot->font());
    plot->plotLayout()->addElement(1, 0, k.note);
    // The legend in a row under the axes: inside it would hide the points, which gather at any corner.
    plot->axisRect()->insetLayout()->take(plot->legend);
    plot->plotLayout()->addElement(kLegendRow, 0, plot->legend);
    plot->plotLayout()->setRowStretchFactor(kLegendRow, 0.001);
    plot->legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    plot->legend->setWrap(2);
    keepLegendFitting(plot);  // as many columns as the plot is wide
    return k;
}

void drawKernelPlot(const KernelPlot& k, Family family, const std::vector<SweepPoint>& points, const QStringList& names,
                    const QPalette& palette)
{
    clear(k.plot);
    if (family == Family::Transpose)
        drawBandwidth(k, points, names, palette);
    else
        drawRoofline(k, points, names, palette);
    k.plot->replot(QCustomPlot::rpQueuedReplot);
}

}  // namespace gigacheck::ui::gallery
