#include "timelineview.hpp"

#include "export/plotexport.hpp"
#include "plotstyle.hpp"
#include "models/timelinemapper.hpp"
#include "timelineplottable.hpp"

#include "models/recomputespans.hpp"
#include "models/repairpass.hpp"

#include <gigacheck/blocked_gemm/cost_model.hpp>
#include "models/runverdict.hpp"
#include "session/labsession.hpp"

#include <qcustomplot.h>

#include <QLabel>
#include <QCheckBox>
#include <QToolTip>
#include <QVBoxLayout>

namespace gigacheck::ui {

namespace {

QString blockText(const BlockIndex& b)
{
    return QStringLiteral("(%1, %2, %3)").arg(b.i).arg(b.j).arg(b.k);
}

QString durationText(double seconds)
{
    if (seconds < 1e-3)
        return QStringLiteral("%1 µs").arg(seconds * 1e6, 0, 'f', 1);
    if (seconds < 1)
        return QStringLiteral("%1 ms").arg(seconds * 1e3, 0, 'f', 3);
    return QStringLiteral("%1 s").arg(seconds, 0, 'f', 3);
}

}  // namespace

TimelineView::TimelineView(QWidget* parent) : QWidget(parent)
{
    plot_ = new QCustomPlot(this);
    plot_->setObjectName(QStringLiteral("timelinePlot"));
    plot_->setNotAntialiasedElements(QCP::aeAll);  // crisp 1-pixel spans
    plot_->xAxis->setLabel(QStringLiteral("time since run start (s)"));
    plot_->yAxis->setRangeReversed(true);
    plot_->yAxis->grid()->setVisible(false);
    plot_->yAxis->setTicker(QSharedPointer<QCPAxisTickerText>(new QCPAxisTickerText));
    plot_->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    plot_->axisRect()->setRangeDrag(Qt::Horizontal);
    plot_->axisRect()->setRangeZoom(Qt::Horizontal);
    spans_ = new TimelinePlottable(plot_->xAxis, plot_->yAxis, &model_);
    spans_->setName(QStringLiteral("spans"));
    plot_->xAxis->setRange(0, 1);
    plot_->yAxis->setRange(-0.5, 2.5);
    applyPalette(plot_, palette());

    legend_ = new QLabel(this);
    legend_->setTextFormat(Qt::RichText);
    legend_->setWordWrap(true);
    updateLegend(0);

    verdict_ = new QLabel(this);  // the run's verdict in the words of every view (models/runverdict)
    verdict_->setObjectName(QStringLiteral("timelineVerdict"));
    verdict_->setWordWrap(true);
    verdict_->setTextFormat(Qt::PlainText);
    verdict_->setVisible(false);

    cpuNote_ = new QLabel(this);  // its text quotes the shown run: updateCpuNote
    cpuNote_->setObjectName(QStringLiteral("timelineCpuNote"));
    cpuNote_->setWordWrap(true);
    cpuNote_->setVisible(false);

    // Short: a check box does not wrap, and a long text widened the window past a 1366-pixel
    // screen in presentation mode; the rest is its tooltip.
    predicted_ = new QCheckBox(QStringLiteral("predicted lanes (cost model)"), this);
    predicted_->setToolTip(QStringLiteral("The cost model's timeline of this run after the measured lanes; each op's "
                                          "predicted and measured time and the error in the span's tooltip"));
    predicted_->setObjectName(QStringLiteral("timelinePredicted"));
    connect(predicted_, &QCheckBox::toggled, this, [this](bool on) {
        if (on && shownRecord_)
            showPrediction(*shownRecord_);
        if (!on)
            for (int run = 0; run < model_.runCount(); ++run)
                if (model_.predictionOf(run) >= 0) {
                    model_.removeRunsFrom(run);
                    updateLanes();
                    scheduleReplot();
                    break;
                }
    });

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(verdict_);
    layout->addWidget(plot_, 1);
    layout->addWidget(legend_);
    layout->addWidget(predicted_);
    layout->addWidget(cpuNote_);

    connect(plot_, &QCustomPlot::mouseWheel, this, [this] { follow_ = false; });
    connect(plot_, &QCustomPlot::mousePress, this, [this] { follow_ = false; });
    connect(plot_, &QCustomPlot::mouseDoubleClick, this, [this] { resetZoom(); });
    connect(plot_, &QCustomPlot::mouseMove, this, [this](QMouseEvent* e) {
        const QString text = tooltipAt(e->pos());
        if (text.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(e->globalPosition().toPoint(), text, plot_);
    });
    // Keep the view inside the run: never pan into negative time.
    connect(plot_->xAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this, [this](const QCPRange& r) {
        if (r.lower < 0 && r.size() > 0)
            plot_->xAxis->setRange(0, r.size());
    });
}

void TimelineView::subscribe(LabSession* session)
{
    connect(session, &LabSession::runStarted, this, [this, session](bool keepPrevious) {
        // Only a run that ended well is a "previous run"; a failed or cancelled one never is.
        showComparisons(session->baseline(), keepPrevious ? lastGood_ : RecordPtr());
        shownRecord_.reset();
        clearRecomputeMark();
        verdict_->setVisible(false);
        currentRun_ = model_.addRun(session->startedName().toStdString());
        follow_ = true;
        updateLanes();
        resetZoom();
    });
    connect(session, &LabSession::spansArrived, this, &TimelineView::addSpans);
    connect(session, &LabSession::recordChanged, this, [this](const RecordPtr& r, LabSession::Origin origin) {
        // Every family's lanes from its record's spans, named by what ran (a blocked run's
        // strategy, auto's choice included; an online run's scheme).
        const QString name = runNameOf(*r);
        if (origin == LabSession::Origin::File)
            beginRun(name, false);
        else if (currentRun_ >= 0 && model_.runLabel(currentRun_) != name.toStdString()) {
            model_.setRunLabel(currentRun_, name.toStdString());
            updateLanes();
        }
        clearRecomputeMark();
        const OnlineRecord* online = onlineRecordOf(*r);
        const int recompute = online ? recomputeFirstOp(r->spans, online->recomputed) : -1;
        if (recompute >= 0)
            setRunSpansWithRecompute(r->spans, recompute, online->recomputeSeconds);
        else
            setRunSpans(r->spans);  // after a live run: the same spans, nothing rebuilt
        verdict_->setText(QStringLiteral("Verdict — %1").arg(runVerdictOf(*r).summary()));
        verdict_->setVisible(true);
        // Why S2-S4 seem not to overlap on the CPU (a note about the strategies: blocked GEMM's
        // records only).
        const bool cpuBlocked = r->devices.front().backend == BackendKind::Cpu && blockedRecordOf(*r);
        cpuNote_->setVisible(cpuBlocked);
        if (cpuBlocked)
            updateCpuNote();
        shownRecord_ = r;
        labelPrediction(*r);
        if (predicted_->isChecked())
            showPrediction(*r);
        if (r->status == "ok")
            lastGood_ = r;
    });
    connect(session, &LabSession::runFailed, this, [this, session] {
        // A failed run leaves no lanes: what was shown for comparison stays as it was.
        showComparisons(session->baseline(), previousShown_);
        clearRecomputeMark();
        currentRun_ = -1;
        updateLanes();
        resetZoom();
    });
    auto showWithCurrent = [this, session] {
        showComparisons(session->baseline(), RecordPtr());
        if (const RecordPtr& current = session->record(); current && current != session->baseline()) {
            currentRun_ = model_.addRun(runNameOf(*current).toStdString());
            model_.addSpans(currentRun_, current->spans);
        } else {
            currentRun_ = -1;
        }
        updateLanes();
        resetZoom();
    };
    connect(session, &LabSession::baselineAdded, this, showWithCurrent);
    connect(session, &LabSession::baselineRemoved, this, showWithCurrent);
}

void TimelineView::updateCpuNote()
{
    // The CPU's "loads" are memory copies far shorter than a product, so the load lanes are busy a
    // few per cent of the run and drawn pale (each column as opaque as it is busy); zoomed in, the
    // next load sits beside the running product.
    const auto percent = [](double share) {
        return share < 0.1 ? QString::number(100 * share, 'f', 1) : QString::number(std::lround(100 * share));
    };
    cpuNote_->setText(QStringLiteral("<i>CPU backend: a block load is a memory copy far shorter than a product; in this "
                                     "run the load (H2D) lanes were busy %1 % of the time, the compute lanes %2 %, so "
                                     "the loads show only as a pale red tint (a lane is drawn as strong as it is busy). "
                                     "S2–S4's overlap is there but too short to see whole: zoom in (wheel) on a "
                                     "product's start to see the next block load while it computes. On a GPU the "
                                     "copies cross PCIe and take a visible share.</i>")
                          .arg(percent(model_.busyShare(currentRun_, Queue::H2D)),
                               percent(model_.busyShare(currentRun_, Queue::Compute))));
}

void TimelineView::showComparisons(const RecordPtr& fromFile, const RecordPtr& previous)
{
    model_.clear();
    if (fromFile) {
        model_.addRun(runNameOf(*fromFile).toStdString() + " (file)");
        model_.addSpans(0, fromFile->spans);
    }
    if (previous && previous != fromFile) {
        const int run = model_.addRun(runNameOf(*previous).toStdString() + " (previous run)");
        model_.addSpans(run, previous->spans);
    }
    previousShown_ = previous;
}

void TimelineView::beginRun(const QString& label, bool keepPrevious)
{
    if (keepPrevious)
        model_.keepOnlyLastRun();
    else
        model_.clear();
    currentRun_ = model_.addRun(label.toStdString());
    follow_ = true;
    updateLanes();
    resetZoom();
}

void TimelineView::addSpans(const QVector<Span>& spans)
{
    if (currentRun_ < 0)
        currentRun_ = model_.addRun("run");
    model_.addSpans(currentRun_, spans.constData(), std::size_t(spans.size()));
    updateLegend(legendRoles_ | rolesOf(spans.constData(), std::size_t(spans.size())));
    if (model_.laneCount() != lanesShown_)
        updateLanes();
    if (follow_)
        plot_->xAxis->setRange(0, std::max(model_.endTime() * 1.02, 1e-6));
    scheduleReplot();
}

void TimelineView::setRunSpans(const std::vector<Span>& spans)
{
    // Live spans already are the record's spans: nothing to rebuild.
    if (currentRun_ >= 0 && currentRun_ == model_.runCount() - 1 && model_.spanCount(currentRun_) == spans.size()) {
        resetZoom();
        return;
    }
    // Rebuild the current run from the record (exactly its spans, whatever arrived live); the
    // comparison runs before it stay as they are.
    std::string label = currentRun_ >= 0 ? model_.runLabel(currentRun_) : std::string("run");
    if (currentRun_ >= 0)
        model_.removeRunsFrom(currentRun_);
    else
        model_.clear();
    currentRun_ = model_.addRun(label);
    model_.addSpans(currentRun_, spans);
    updateLanes();
    resetZoom();
}

void TimelineView::setRunSpansWithRecompute(const std::vector<Span>& spans, int firstRecomputeOp, double seconds)
{
    // The first pass and the recompute as two runs on one time axis: the recompute's lanes follow,
    // named "<scheme> recompute", and a line with its label marks where it began.
    const std::string label = currentRun_ >= 0 ? model_.runLabel(currentRun_) : std::string("run");
    if (currentRun_ >= 0)
        model_.removeRunsFrom(currentRun_);
    std::vector<Span> first, again;
    for (const Span& s : spans)
        (s.opId < firstRecomputeOp ? first : again).push_back(s);
    currentRun_ = model_.addRun(label);
    model_.addSpans(currentRun_, first);
    const int recomputeRun = model_.addRun(label + " recompute");
    model_.addSpans(recomputeRun, again);
    updateLanes();
    double start = 0;
    if (!again.empty())
        start = std::min_element(again.begin(), again.end(), [](const Span& a, const Span& b) { return a.start < b.start; })->start;
    int firstLane = 0;
    while (firstLane < model_.laneCount() && model_.lane(firstLane).run != recomputeRun)
        ++firstLane;
    auto* line = new QCPItemStraightLine(plot_);
    line->point1->setCoords(start, 0);
    line->point2->setCoords(start, 1);
    line->setPen(QPen(roleColor(OpRole::Recompute), 1.5, Qt::DashLine));
    auto* text = new QCPItemText(plot_);
    text->setObjectName(QStringLiteral("recomputeLabel"));
    text->position->setCoords(start, firstLane - 0.5);
    // Beside the line, on the side with room: a late recompute's label reads leftwards into the first pass.
    const bool late = start > 0.5 * model_.endTime();
    text->setPositionAlignment((late ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignBottom);
    // Two lines: on one, a recompute starting near the middle of a 1366-pixel screen's timeline had
    // its label cut at the plot's edge ("npute: the whole product again").
    text->setTextAlignment(late ? Qt::AlignRight : Qt::AlignLeft);
    text->setText(late ? QStringLiteral(" recompute: the whole product again \n%1 ▸ ").arg(durationText(seconds))
                       : QStringLiteral(" ◂ recompute: the whole product again \n%1 ").arg(durationText(seconds)));
    text->setColor(roleColor(OpRole::Recompute));
    text->setBrush(QBrush(QColor(255, 255, 255, 200)));
    recomputeItems_ = {line, text};
    recomputeText_ = text->text();
    resetZoom();
}

void TimelineView::clearRecomputeMark()
{
    for (QCPAbstractItem* item : recomputeItems_)
        plot_->removeItem(item);
    recomputeItems_.clear();
    recomputeText_.clear();
}

QString TimelineView::verdictText() const
{
    return verdict_->text();
}

void TimelineView::labelPrediction(const RecordEnvelope& r)
{
    // The cost model predicts blocked GEMM schedules only: no box beside another family's run.
    predicted_->setVisible(blockedRecordOf(r) != nullptr);
    // The cost model's lanes are only as good as its rates: without measured ones they are a guess.
    const bool calibrated = !r.devices.empty() && hasMeasuredRates(r.devices.front().ceilings);
    predicted_->setText(calibrated ? QStringLiteral("predicted lanes (cost model)")
                                   : QStringLiteral("predicted lanes (cost model, uncalibrated)"));
    predicted_->setToolTip(calibrated ? QStringLiteral("The cost model's timeline of this run after the measured lanes; each op's "
                                                       "predicted and measured time and the error in the span's tooltip")
                                      : QStringLiteral("The cost model had no measured rates for this device (datasheet roofs and "
                                                       "assumptions): its lanes are a guess. gigacheck devices --measure measures them."));
}

void TimelineView::showPrediction(const RecordEnvelope& r)
{
    // The cost model predicts blocked GEMM schedules only.
    const RunRecord* blocked = blockedRecordOf(r);
    if (currentRun_ < 0 || !blocked || blocked->predictedSpans.empty())
        return;
    model_.addPredictedRun(currentRun_, blocked->predictedSpans);
    updateLanes();
    resetZoom();
}

void TimelineView::clear()
{
    model_.clear();
    currentRun_ = -1;
    updateLanes();
    scheduleReplot();
}

void TimelineView::resetZoom()
{
    follow_ = true;
    plot_->xAxis->setRange(0, std::max(model_.endTime() * 1.02, 1e-6));
    plot_->yAxis->setRange(-0.5, std::max(model_.laneCount(), 1) - 0.5);
    scheduleReplot();
}

void TimelineView::updateLanes()
{
    auto ticker = qSharedPointerCast<QCPAxisTickerText>(plot_->yAxis->ticker());
    ticker->clear();
    for (int i = 0; i < model_.laneCount(); ++i)
        ticker->addTick(i, QString::fromStdString(model_.laneLabel(i)));
    lanesShown_ = model_.laneCount();
    plot_->yAxis->setRange(-0.5, std::max(model_.laneCount(), 1) - 0.5);
    updateLegend(shownRoles());
}

void TimelineView::scheduleReplot()
{
    // Queued: many batches within one event-loop pass cost one replot.
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

QString TimelineView::tooltipAt(const QPoint& pixel) const
{
    const QRect area = plot_->axisRect()->rect();
    if (!area.contains(pixel))
        return {};
    const QCPRange vr = plot_->yAxis->range();
    LaneMapper lm{vr.lower, vr.upper, plot_->yAxis->coordToPixel(vr.lower),
                  plot_->yAxis->coordToPixel(vr.upper) - plot_->yAxis->coordToPixel(vr.lower)};
    const int lane = lm.laneAt(pixel.y(), model_.laneCount());
    if (lane < 0)
        return {};
    const double t = plot_->xAxis->pixelToCoord(pixel.x());
    const double tolerance = 2 * std::abs(plot_->xAxis->pixelToCoord(1) - plot_->xAxis->pixelToCoord(0));
    const Span* s = model_.spanAt(lane, t, tolerance);
    if (!s)
        return endsTooltip(model_.runEnds(model_.lane(lane).run), t);
    QString prediction;
    if (const Span* measured = model_.measuredTwin(model_.lane(lane).run, s->opId)) {
        const double p = s->end - s->start, m = measured->end - measured->start;
        prediction = QStringLiteral("<br><i>predicted</i> by the cost model; measured %1, error %2")
                         .arg(durationText(m))
                         .arg(m > 0 ? QStringLiteral("%1 %").arg(100 * (p / m - 1), 0, 'f', 1) : QStringLiteral("-"));
    }
    return prediction.isEmpty() ? tooltipText(s) : tooltipText(s) + prediction;
}

QString TimelineView::endsTooltip(const RunEnds& e, double t) const
{
    if (!e.hasProduct)
        return {};
    if (t >= e.start && t < e.firstProduct)
        return QStringLiteral("<b>fill</b>: %1 before the first product starts (its first loads)<br>"
                              "fill + drain: %2 of the run's %3 with no product running")
            .arg(durationText(e.fill()), durationText(e.fill() + e.drain()), durationText(e.end - e.start));
    if (t > e.lastProduct && t <= e.end)
        return QStringLiteral("<b>drain</b>: %1 after the last product ends (the last store)<br>"
                              "fill + drain: %2 of the run's %3 with no product running")
            .arg(durationText(e.drain()), durationText(e.fill() + e.drain()), durationText(e.end - e.start));
    return {};
}

QString TimelineView::tooltipText(const Span* s) const
{
    const QString head = s->kind == OpKind::Recompute ? repairPassText(shownRecord_ ? blockedRecordOf(*shownRecord_) : nullptr, *s)
                                                      : QStringLiteral("<b>%1</b>").arg(kindLabel(s->kind));
    return QStringLiteral("%1 (op %2)<br>block %3, stream %4<br>%5 bytes, %6 flops<br>"
                          "%7 … %8 s, duration %9")
        .arg(head)
        .arg(s->opId)
        .arg(blockText(s->block))
        .arg(s->stream)
        .arg(QString::fromStdString(formatBytes(s->bytes)))
        .arg(s->flops, 0, 'g', 4)
        .arg(s->start, 0, 'f', 6)
        .arg(s->end, 0, 'f', 6)
        .arg(durationText(s->end - s->start));
}

std::vector<std::pair<QColor, QString>> TimelineView::legendEntries() const
{
    auto entries = legendEntriesOf(shownRoles());
    // An export's legend says what a pale column is, as the view's does.
    QColor pale = roleColor(OpRole::Load);
    pale.setAlphaF(0.25f);
    entries.emplace_back(pale, QStringLiteral("pale: partly idle"));
    return entries;
}

// Bit r: a span of role r is shown (any family's kinds, by gigacheck::roleOf).
std::uint32_t TimelineView::rolesOf(const Span* spans, std::size_t count)
{
    std::uint32_t roles = 0;
    for (std::size_t i = 0; i < count; ++i)
        roles |= 1u << unsigned(roleOf(spans[i].kind));
    return roles;
}

std::uint32_t TimelineView::shownRoles() const
{
    std::uint32_t roles = 0;
    for (int lane = 0; lane < model_.laneCount(); ++lane)
        roles |= rolesOf(model_.lane(lane).spans.data(), model_.lane(lane).spans.size());
    return roles;
}

// The legend lists the roles of the spans shown, in the lab's order; before any run, blocked
// GEMM's (the default scheme).
std::vector<std::pair<QColor, QString>> TimelineView::legendEntriesOf(std::uint32_t roles)
{
    if (roles == 0)
        for (OpRole r : {OpRole::Load, OpRole::Checksum, OpRole::Product, OpRole::Inject, OpRole::Verify, OpRole::Store,
                         OpRole::Recompute})
            roles |= 1u << unsigned(r);
    std::vector<std::pair<QColor, QString>> entries;
    for (unsigned r = 0; r <= unsigned(OpRole::Other); ++r)
        if (roles & (1u << r))
            entries.emplace_back(roleColor(OpRole(r)), roleLabel(OpRole(r)));
    return entries;
}

void TimelineView::updateLegend(std::uint32_t roles)
{
    if (roles == legendRoles_)
        return;
    legendRoles_ = roles;
    QStringList legend;
    for (const auto& [color, label] : legendEntriesOf(roles))
        legend << QStringLiteral("<span style='color:%1'>■</span> %2").arg(color.name(), label);
    legend << QStringLiteral("<span style='color:gray'>┆▒┆</span> fill / drain: no product running");
    legend << QStringLiteral("<span style='color:#f3c9c9'>■</span> pale: partly idle");
    legend_->setText(legend.join(QStringLiteral("&nbsp;&nbsp;")) +
                     QStringLiteral("&nbsp;&nbsp;&nbsp;<i>wheel: zoom, drag: pan, double-click: whole run</i>"));
}

bool TimelineView::exportCsv(const QString& path, QString* error) const
{
    std::vector<QStringList> rows;
    rows.reserve(model_.spanCount());
    for (int lane = 0; lane < model_.laneCount(); ++lane) {
        const TimelineLane& l = model_.lane(lane);
        for (const Span& s : l.spans)
            rows.push_back({QString::fromStdString(model_.runLabel(l.run)), QString::fromStdString(model_.laneLabel(lane)),
                            QString::number(s.opId), kindLabel(s.kind), QString::number(s.block.i),
                            QString::number(s.block.j), QString::number(s.block.k), QString::number(s.start, 'g', 12),
                            QString::number(s.end, 'g', 12), QString::number(s.bytes, 'g', 12),
                            QString::number(s.flops, 'g', 12)});
    }
    return writeCsv(path,
                    {QStringLiteral("run"), QStringLiteral("lane"), QStringLiteral("op"), QStringLiteral("kind"),
                     QStringLiteral("block_i"), QStringLiteral("block_j"), QStringLiteral("block_k"),
                     QStringLiteral("start_s"), QStringLiteral("end_s"), QStringLiteral("bytes"),
                     QStringLiteral("flops")},
                    rows, error);
}

void TimelineView::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::PaletteChange) {
        applyPalette(plot_, palette());
        plot_->replot();
    }
    QWidget::changeEvent(event);
}

}  // namespace gigacheck::ui
