#include "views/strassen/strassenplots.hpp"

#include "views/plotstyle.hpp"

#include <qcustomplot.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

namespace gigacheck::ui::strassenlab {

namespace {

QString variantName(StrassenVariant v)
{
    switch (v) {
    case StrassenVariant::Winograd:
        return QStringLiteral("Strassen-Winograd");
    case StrassenVariant::Workspace:
        return QStringLiteral("workspace");
    case StrassenVariant::Accumulate:
        return QStringLiteral("accumulate");
    case StrassenVariant::Msmes:
        break;
    }
    return QStringLiteral("classic (msmes)");
}
// One accent per variant, the same on every plot.
int variantColour(StrassenVariant v) { return int(v); }

QCPGraph* seriesGraph(QCustomPlot* plot, const QString& name, int colour)
{
    QCPGraph* g = plot->addGraph();
    g->setName(name);
    g->setPen(QPen(accentColor(colour), 2 * plotScale()));
    g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, 7 * plotScale()));
    return g;
}

void emptyMessage(QCustomPlot* plot, const QString& text)
{
    auto* item = new QCPItemText(plot);
    item->position->setType(QCPItemPosition::ptAxisRectRatio);
    item->position->setCoords(0.5, 0.5);
    item->setText(text);
    item->setFont(plotFont(plot->font(), 10));
    item->setColor(plot->xAxis->labelColor());
}

}  // namespace

void plotStageTimes(QCustomPlot* plot, const std::vector<StageTime>& stages)
{
    plot->clearPlottables();
    plot->clearItems();
    plot->legend->setVisible(false);
    plot->yAxis->setLabel(QStringLiteral("time (ms)"));
    plot->xAxis->setLabel(QStringLiteral("level · stage (the thesis's Table 3.2)"));
    if (stages.empty()) {
        emptyMessage(plot, QStringLiteral("Run (or open a record) to see the time per stage"));
        plot->xAxis->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
        plot->replot(QCustomPlot::rpQueuedReplot);
        return;
    }
    auto ticker = QSharedPointer<QCPAxisTickerText>(new QCPAxisTickerText);
    // One bars plottable per level, so each level has its colour.
    std::map<int, QCPBars*> bars;
    double top = 0;
    for (std::size_t i = 0; i < stages.size(); ++i) {
        const StageTime& s = stages[i];
        QCPBars*& b = bars[s.level];
        if (!b) {
            b = new QCPBars(plot->xAxis, plot->yAxis);
            b->setName(QStringLiteral("level %1").arg(s.level));
            b->setBrush(accentColor(s.level));
            b->setPen(QPen(accentColor(s.level).darker(130), plotScale()));
            b->setWidth(0.7);
        }
        b->addData(double(i), s.seconds * 1e3);
        top = std::max(top, s.seconds * 1e3);
        // Level 0, stage 0: ops outside the recipe (the peeled fringe's products, the faults).
        ticker->addTick(double(i), s.level == 0 && s.stage == 0 ? QStringLiteral("fringe") : QStringLiteral("%1·%2").arg(s.level).arg(s.stage));
    }
    plot->legend->setVisible(bars.size() > 1);
    plot->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignLeft);
    plot->xAxis->setTicker(ticker);
    plot->xAxis->setRange(-0.7, double(stages.size()) - 0.3);
    plot->yAxis->setRange(0, top * 1.15 + 1e-9);
    plot->replot(QCustomPlot::rpQueuedReplot);
}

void plotSpeedup(QCustomPlot* plot, const std::vector<SweepPoint>& points)
{
    plot->clearGraphs();
    plot->clearItems();
    plot->xAxis->setScaleType(QCPAxis::stLogarithmic);
    auto ticker = QSharedPointer<QCPAxisTickerLog>(new QCPAxisTickerLog);
    ticker->setLogBase(2);
    plot->xAxis->setTicker(ticker);
    plot->xAxis->setLabel(QStringLiteral("N (M = N = Q); 1 = the plain GEMM, same backend"));
    plot->yAxis->setLabel(QStringLiteral("speedup vs GEMM"));
    plot->legend->setVisible(true);
    std::map<StrassenVariant, QCPGraph*> graphs;
    double lo = 1, hi = 1, nLo = 0, nHi = 0;
    for (const SweepPoint& p : points) {
        if (p.kind != SweepPoint::Kind::Speedup || !p.error.isEmpty() || p.seconds <= 0)
            continue;
        QCPGraph*& g = graphs[p.variant];
        if (!g)
            g = seriesGraph(plot, QStringLiteral("%1, %2 level(s)").arg(variantName(p.variant)).arg(p.levels),
                            variantColour(p.variant));
        g->addData(double(p.n), p.speedup());
        lo = std::min(lo, p.speedup());
        hi = std::max(hi, p.speedup());
        nLo = nLo == 0 ? double(p.n) : std::min(nLo, double(p.n));
        nHi = std::max(nHi, double(p.n));
    }
    if (graphs.empty()) {
        emptyMessage(plot, QStringLiteral("Sweep to measure the speedup vs N"));
        plot->xAxis->setRange(64, 4096);
        plot->yAxis->setRange(0, 2);
    } else {
        // 1 = as fast as the plain GEMM.
        auto* one = new QCPItemStraightLine(plot);
        one->point1->setCoords(1, 1);
        one->point2->setCoords(2, 1);
        one->setPen(QPen(plot->xAxis->basePen().color(), plotScale(), Qt::DashLine));
        // The legend (four variants) at the top middle: the curves start high at the smallest N
        // and end high at the largest, where a corner legend covered their last points.
        plot->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignHCenter);
        plot->xAxis->setRange(nLo / 1.4, nHi * 1.4);
        const double pad = std::max(0.05, (hi - lo) * 0.2);
        plot->yAxis->setRange(std::max(0.0, lo - pad), hi + pad);
    }
    plot->replot(QCustomPlot::rpQueuedReplot);
}

void plotRecoveryVsLevels(QCustomPlot* plot, const std::vector<SweepPoint>& points)
{
    plot->clearGraphs();
    plot->clearItems();
    for (QCPAxis* axis : {plot->yAxis, plot->yAxis2}) {
        axis->setScaleType(QCPAxis::stLogarithmic);
        axis->setTicker(QSharedPointer<QCPAxisTickerLog>(new QCPAxisTickerLog));
        axis->setNumberFormat(QStringLiteral("eb"));
        axis->setNumberPrecision(0);
    }
    plot->yAxis2->setVisible(true);
    plot->yAxis2->setTickLabels(true);
    auto ticker = QSharedPointer<QCPAxisTickerFixed>(new QCPAxisTickerFixed);
    ticker->setTickStep(1);
    plot->xAxis->setTicker(ticker);
    plot->xAxis->setLabel(QStringLiteral("levels"));
    plot->yAxis->setLabel(QStringLiteral("max error of recovered A, B (ulps) —"));
    plot->yAxis2->setLabel(QStringLiteral("elements of A, B changed - -"));
    plot->legend->setVisible(true);
    // Per variant: the worse operand's max ulps (solid, left axis), the changed elements of A and
    // B together (dashed, right axis). A level with nothing changed has no point on a log axis.
    std::map<StrassenVariant, std::pair<QCPGraph*, QCPGraph*>> graphs;
    double ulpsHi = 1, changedHi = 1, n = 0;
    for (const SweepPoint& p : points) {
        if (p.kind != SweepPoint::Kind::Error || !p.error.isEmpty() || p.levels == 0)
            continue;
        n = double(p.n);
        auto& [ulps, changed] = graphs[p.variant];
        if (!ulps) {
            ulps = seriesGraph(plot, variantName(p.variant) + QStringLiteral(" ulps"), variantColour(p.variant));
            changed = seriesGraph(plot, variantName(p.variant) + QStringLiteral(" changed"), variantColour(p.variant));
            changed->setValueAxis(plot->yAxis2);
            QPen dashed = changed->pen();
            dashed.setStyle(Qt::DashLine);
            changed->setPen(dashed);
            changed->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssSquare, 6 * plotScale()));
        }
        const double worst = std::max(p.recovery.maxUlpsA, p.recovery.maxUlpsB);
        const double count = double(p.recovery.changedA + p.recovery.changedB);
        if (worst > 0)
            ulps->addData(double(p.levels), worst);
        if (count > 0)
            changed->addData(double(p.levels), count);
        ulpsHi = std::max(ulpsHi, worst);
        changedHi = std::max(changedHi, count);
    }
    plot->xAxis->setRange(0.6, 4.4);
    plot->yAxis->setRange(0.5, ulpsHi * 4);
    plot->yAxis2->setRange(0.5, changedHi * 4);
    if (graphs.empty()) {
        emptyMessage(plot, QStringLiteral("Sweep to measure the recovery of A and B per level"));
    } else {
        auto* title = new QCPItemText(plot);
        title->position->setType(QCPItemPosition::ptAxisRectRatio);
        title->position->setCoords(0.02, 0.04);
        title->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
        title->setText(QStringLiteral("N = %1: A and B after the in-place sums are undone, against the originals").arg(n));
        title->setFont(plotFont(plot->font(), 9));
        title->setColor(plot->xAxis->labelColor());
    }
    plot->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignBottom | Qt::AlignRight);
    plot->replot(QCustomPlot::rpQueuedReplot);
}

void plotErrorVsLevels(QCustomPlot* plot, const std::vector<SweepPoint>& points)
{
    plot->clearGraphs();
    plot->clearItems();
    plot->yAxis->setScaleType(QCPAxis::stLogarithmic);
    plot->yAxis->setTicker(QSharedPointer<QCPAxisTickerLog>(new QCPAxisTickerLog));
    plot->yAxis->setNumberFormat(QStringLiteral("eb"));
    plot->yAxis->setNumberPrecision(0);
    auto ticker = QSharedPointer<QCPAxisTickerFixed>(new QCPAxisTickerFixed);
    ticker->setTickStep(1);
    plot->xAxis->setTicker(ticker);
    plot->xAxis->setLabel(QStringLiteral("levels (0: the plain GEMM)"));
    plot->yAxis->setLabel(QStringLiteral("rel. error of C"));
    plot->legend->setVisible(true);
    std::map<StrassenVariant, QCPGraph*> graphs;
    double lo = 0, hi = 0, n = 0;
    QCPGraph* plain = nullptr;
    for (const SweepPoint& p : points) {
        if (p.kind != SweepPoint::Kind::Error || !p.error.isEmpty() || p.relError <= 0)
            continue;
        n = double(p.n);
        if (p.levels == 0) {
            // The plain GEMM belongs to both curves: it starts each.
            for (StrassenVariant v : {StrassenVariant::Msmes, StrassenVariant::Winograd}) {
                QCPGraph*& g = graphs[v];
                if (!g)
                    g = seriesGraph(plot, variantName(v), variantColour(v));
                g->addData(0, p.relError);
            }
            plain = graphs[StrassenVariant::Msmes];
        } else {
            QCPGraph*& g = graphs[p.variant];
            if (!g)
                g = seriesGraph(plot, variantName(p.variant), variantColour(p.variant));
            g->addData(double(p.levels), p.relError);
        }
        lo = lo == 0 ? p.relError : std::min(lo, p.relError);
        hi = std::max(hi, p.relError);
    }
    (void)plain;
    if (graphs.empty()) {
        emptyMessage(plot, QStringLiteral("Sweep to measure the error of C per level"));
        plot->xAxis->setRange(-0.5, 4.5);
        plot->yAxis->setRange(1e-8, 1e-5);
    } else {
        plot->xAxis->setRange(-0.4, 4.4);
        plot->yAxis->setRange(lo / 3, hi * 3);
        auto* title = new QCPItemText(plot);
        title->position->setType(QCPItemPosition::ptAxisRectRatio);
        title->position->setCoords(0.02, 0.04);
        title->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
        title->setText(QStringLiteral("N = %1: max |C − C_ref| / max |C_ref|, FP64 reference").arg(n));
        title->setFont(plotFont(plot->font(), 9));
        title->setColor(plot->xAxis->labelColor());
    }
    plot->replot(QCustomPlot::rpQueuedReplot);
}

std::vector<LaneInfo> plotLanes(QCustomPlot* plot, const std::vector<Span>& spans, const std::vector<int>& stageOfOp)
{
    plot->clearGraphs();
    plot->clearItems();
    plot->legend->setVisible(true);
    plot->xAxis->setLabel(QStringLiteral("time (ms)"));
    std::vector<LaneInfo> lanes;
    if (spans.empty()) {
        emptyMessage(plot, QStringLiteral("Run (or open a record) to see its stages per stream and device"));
        plot->yAxis->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
        plot->replot(QCustomPlot::rpQueuedReplot);
        return lanes;
    }
    // Lanes sorted by device, then queue (loads, compute, stores), then stream.
    std::map<std::tuple<int, int, int>, std::vector<const Span*>> byLane;
    for (const Span& s : spans)
        byLane[{s.device, int(s.queue), s.stream}].push_back(&s);
    const bool manyDevices = byLane.rbegin()->first != byLane.begin()->first && std::get<0>(byLane.rbegin()->first) > 0;
    auto ticker = QSharedPointer<QCPAxisTickerText>(new QCPAxisTickerText);
    // Colour groups: stage k (accent k), loads/stores, faults. Each group one graph per sub-row,
    // spans drawn as thick horizontal segments separated by NaN gaps.
    std::map<std::pair<int, double>, std::vector<std::pair<double, double>>> segments;  // (group, y) -> spans
    double y = 0;
    const double rowHeight = 1.0;
    for (auto& [key, list] : byLane) {
        const auto [device, queue, stream] = key;
        std::sort(list.begin(), list.end(), [](const Span* a, const Span* b) { return a->start < b->start; });
        std::vector<double> rowEnds;  // greedy: a span goes to the first sub-row free at its start
        LaneInfo lane;
        lane.device = device;
        lane.queue = Queue(queue);
        lane.stream = stream;
        const QString q = lane.queue == Queue::H2D ? QStringLiteral("loads") : lane.queue == Queue::D2H ? QStringLiteral("stores")
                                                                                                        : QStringLiteral("compute s%1").arg(stream);
        lane.label = manyDevices || device > 0 ? QStringLiteral("dev %1 · %2").arg(device).arg(q) : q;
        std::vector<std::size_t> rowOf;
        for (const Span* s : list) {
            std::size_t row = 0;
            while (row < rowEnds.size() && rowEnds[row] > s->start + 1e-12)
                ++row;
            if (row == rowEnds.size())
                rowEnds.push_back(0);
            rowEnds[row] = s->end;
            rowOf.push_back(row);
        }
        // Sub-rows spread over 0.7 of the lane, centred on its tick.
        const double rows = double(rowEnds.size());
        for (std::size_t i = 0; i < list.size(); ++i) {
            const Span* s = list[i];
            const int stage = s->opId >= 0 && s->opId < int(stageOfOp.size()) ? stageOfOp[std::size_t(s->opId)] : -1;
            const int group = s->queue != Queue::Compute ? -1 : stage;
            const double rowY = rows > 1 ? y - 0.35 + 0.7 * double(rowOf[i]) / (rows - 1) : y;
            segments[{group, rowY}].push_back({s->start * 1e3, s->end * 1e3});
        }
        lane.rows = int(std::max<std::size_t>(1, rowEnds.size()));
        ticker->addTick(y, lane.label);
        lanes.push_back(lane);
        y += rowHeight;
    }
    const double barWidth = 10 * plotScale();
    for (auto& [key, intervals] : segments) {
        const int group = key.first;
        // Spans of one sub-row never overlap: start, end, and a NaN gap half-way to the next one
        // (adjacent spans join), so the points stay sorted by time.
        std::sort(intervals.begin(), intervals.end());
        QVector<QCPGraphData> pts;
        for (std::size_t i = 0; i < intervals.size(); ++i) {
            pts.append(QCPGraphData(intervals[i].first, key.second));
            pts.append(QCPGraphData(intervals[i].second, key.second));
            if (i + 1 < intervals.size() && intervals[i + 1].first > intervals[i].second)
                pts.append(QCPGraphData((intervals[i].second + intervals[i + 1].first) / 2, std::nan("")));
        }
        QCPGraph* g = plot->addGraph();
        const QColor colour = group == -1 ? QColor(0x88, 0x88, 0x88) : accentColor(group);
        g->setPen(QPen(colour, barWidth, Qt::SolidLine, Qt::FlatCap));
        g->setLineStyle(QCPGraph::lsLine);
        g->data()->set(pts, true);
        g->setAdaptiveSampling(false);
        g->setName(group == -1 ? QStringLiteral("loads, stores, faults") : QStringLiteral("stage %1").arg(group));
    }
    // One legend entry per colour.
    std::map<QString, bool> seen;
    for (int i = 0; i < plot->graphCount(); ++i) {
        QCPGraph* g = plot->graph(i);
        if (seen[g->name()])
            g->removeFromLegend();
        seen[g->name()] = true;
    }
    plot->yAxis->setTicker(ticker);
    plot->xAxis->rescale(true);
    plot->yAxis->setRange(-0.6, y - 0.4);
    plot->yAxis->setRangeReversed(true);
    plot->replot(QCustomPlot::rpQueuedReplot);
    return lanes;
}

void markLanesInterval(QCustomPlot* plot, double from, double to)
{
    for (int i = plot->itemCount() - 1; i >= 0; --i)
        if (plot->item(i)->property("stepMark").toBool())
            plot->removeItem(i);
    if (from <= to) {
        auto* rect = new QCPItemRect(plot);
        rect->setProperty("stepMark", true);
        rect->topLeft->setTypeY(QCPItemPosition::ptAxisRectRatio);
        rect->bottomRight->setTypeY(QCPItemPosition::ptAxisRectRatio);
        rect->topLeft->setCoords(from * 1e3, 0);
        rect->bottomRight->setCoords(std::max(to, from + 1e-9) * 1e3, 1);
        QColor fill(0xf5, 0x9e, 0x0b, 60);
        rect->setBrush(fill);
        rect->setPen(QPen(QColor(0xf5, 0x9e, 0x0b), plotScale()));
        rect->setLayer(QStringLiteral("background"));
    }
    plot->replot(QCustomPlot::rpQueuedReplot);
}

}  // namespace gigacheck::ui::strassenlab
