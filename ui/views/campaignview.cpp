#include "campaignview.hpp"
#include "views/legendfit.hpp"

#include "export/plotexport.hpp"
#include "plotstyle.hpp"

#include <qcustomplot.h>

#include <QEvent>
#include <QFontMetrics>
#include <QHeaderView>
#include <QLabel>
#include <QScrollArea>
#include <QSplitter>
#include <QTableView>
#include <QToolTip>
#include <QVBoxLayout>

namespace gigacheck::ui {

namespace {
constexpr double kBarWidth = 0.8;  // in keys: bars of neighbouring bits keep a gap

QString qs(const std::string& s) { return QString::fromStdString(s); }

double fraction(const OutcomeCounts& counts, Outcome o)
{
    return counts.total ? double(counts[o]) / double(counts.total) : 0.0;
}
}  // namespace

CampaignView::CampaignView(QWidget* parent) : QWidget(parent)
{
    model_ = new CampaignModel(this);
    plot_ = new QCustomPlot(this);
    plot_->setObjectName(QStringLiteral("campaignPlot"));
    plot_->yAxis->setLabel(QStringLiteral("fraction of runs"));
    plot_->yAxis->setRange(0, 1.0);
    plot_->legend->setVisible(true);
    plot_->legend->setFont(plotFont(font(), 8));
    // The legend in a row under the chart: inside it would hide the top of the bars, which all reach 1.
    plot_->axisRect()->insetLayout()->take(plot_->legend);
    plot_->plotLayout()->addElement(1, 0, plot_->legend);
    plot_->plotLayout()->setRowStretchFactor(1, 0.001);
    plot_->legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    plot_->legend->setWrap(3);
    keepLegendFitting(plot_);  // as many columns as the plot is wide
    // Stacked bottom-up in the order of the outcome table: masked at the base, false alarms on top.
    QCPBars* below = nullptr;
    for (Outcome o : kOutcomes) {
        auto* bars = new QCPBars(plot_->xAxis, plot_->yAxis);
        bars->setName(outcomeLabel(o));
        bars->setWidth(kBarWidth);
        bars->setPen(Qt::NoPen);
        bars->setBrush(outcomeColor(o));
        bars->setStackingGap(0);
        if (below)
            bars->moveAbove(below);
        below = bars;
        bars_[std::size_t(o)] = bars;
    }

    summary_ = new QLabel(this);
    summary_->setObjectName(QStringLiteral("campaignSummary"));
    summary_->setTextFormat(Qt::PlainText);
    summary_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    table_ = new QTableView(this);
    table_->setObjectName(QStringLiteral("campaignRuns"));
    table_->setModel(model_);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->verticalHeader()->hide();

    hint_ = new QLabel(QStringLiteral("Click a bar segment (or double-click a run) to re-run that run and "
                                           "watch it in the error animation."),
                            this);
    hint_->setWordWrap(true);
    // The summary is long (a table per bit): it scrolls, so that the chart keeps its share.
    auto* summaryScroll = new QScrollArea(this);
    summaryScroll->setWidget(summary_);
    summaryScroll->setWidgetResizable(true);
    plot_->setMinimumHeight(260);
    auto* lower = new QSplitter(Qt::Horizontal, this);
    lower->addWidget(summaryScroll);
    lower->addWidget(table_);
    summaryScroll->setMinimumWidth(380);
    lower->setStretchFactor(0, 1);
    lower->setStretchFactor(1, 1);
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(plot_);
    split->addWidget(lower);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(hint_);
    layout->addWidget(split, 1);

    connect(plot_, &QCustomPlot::beforeReplot, this, &CampaignView::labelTicks);
    plot_->setMouseTracking(true);
    connect(plot_, &QCustomPlot::mousePress, this, [this](QMouseEvent* event) {
        if (event->button() != Qt::LeftButton)
            return;
        if (const auto segment = segmentAt(event->position()))
            openSegment(*segment);
    });
    connect(plot_, &QCustomPlot::mouseMove, this, [this](QMouseEvent* event) { onMouseMove(event->position()); });
    connect(table_, &QTableView::doubleClicked, this,
            [this](const QModelIndex& index) { openRun(std::size_t(index.row())); });
    applyPalette(plot_, palette());
    rebuild();
}

void CampaignView::setCampaign(const CampaignResult& campaign)
{
    model_->setCampaign(campaign);
    summary_->setText(qs(formatCampaignReport(campaign)));
    table_->resizeColumnsToContents();
    rebuild();
}

void CampaignView::rebuild()
{
    const auto& groups = model_->groups();
    QVector<double> keys;
    for (std::size_t g = 0; g < groups.size(); ++g)
        keys << double(g);
    for (Outcome o : kOutcomes) {
        QVector<double> values;
        for (const CampaignGroup& g : groups)
            values << fraction(g.counts, o);
        bars_[std::size_t(o)]->setData(keys, values, true);
    }
    labelStep_ = 0;  // labelled again before the replot, for the plot's width
    plot_->xAxis->setLabel(model_->groupsAreBits() ? QStringLiteral("flipped bit (0 = least significant)")
                                                   : QStringLiteral("fault target"));
    plot_->xAxis->setRange(-0.6, std::max<double>(double(groups.size()) - 0.4, 0.6));
    plot_->yAxis->setRange(0, 1.0);
    plot_->replot();
}

int CampaignView::tickLabelStepFor(int axisPixels) const
{
    const auto& groups = model_->groups();
    if (groups.empty())
        return 1;
    const QFontMetrics metrics(plot_->xAxis->tickLabelFont());
    int widest = 0;
    for (const CampaignGroup& g : groups)
        widest = std::max(widest, metrics.horizontalAdvance(qs(g.key)));
    const double perBar = double(std::max(axisPixels, 1)) / double(groups.size());
    const double needed = widest + metrics.horizontalAdvance(QStringLiteral("  "));
    int step = 1;
    while (step * perBar < needed && std::size_t(step) < groups.size())
        step *= 2;
    return step;
}

void CampaignView::labelTicks()
{
    // Every bar keeps its place; only every step-th is labelled, so that the labels never run
    // together ("1011121314") on a narrow plot. Targets are words: they turn upright instead.
    const auto& groups = model_->groups();
    const bool bits = model_->groupsAreBits();
    const int step = bits ? tickLabelStepFor(plot_->axisRect()->width()) : 1;
    const bool upright = !bits && tickLabelStepFor(plot_->axisRect()->width()) > 1;
    if (step == labelStep_ && upright == (plot_->xAxis->tickLabelRotation() != 0))
        return;
    labelStep_ = step;
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    for (std::size_t g = 0; g < groups.size(); g += std::size_t(step))
        ticker->addTick(double(g), qs(groups[g].key));
    plot_->xAxis->setTicker(ticker);
    plot_->xAxis->setTickLabelRotation(upright ? 90 : 0);
}

std::optional<CampaignView::Segment> CampaignView::segmentAt(const QPointF& pixel) const
{
    const auto& groups = model_->groups();
    if (groups.empty() || !plot_->axisRect()->rect().contains(pixel.toPoint()))
        return std::nullopt;
    const double x = plot_->xAxis->pixelToCoord(pixel.x());
    const double y = plot_->yAxis->pixelToCoord(pixel.y());
    const int group = int(std::lround(x));
    if (group < 0 || std::size_t(group) >= groups.size() || std::abs(x - group) > kBarWidth / 2)
        return std::nullopt;
    double base = 0;
    for (Outcome o : kOutcomes) {
        const double height = fraction(groups[std::size_t(group)].counts, o);
        if (height > 0 && y >= base && y < base + height)
            return Segment{group, o};
        base += height;
    }
    return std::nullopt;
}

bool CampaignView::openSegment(const Segment& segment)
{
    const auto run = model_->runFor(segment.group, segment.outcome);
    return run && openRun(*run);
}

bool CampaignView::openRun(std::size_t index)
{
    if (index >= model_->campaign().runs.size())
        return false;
    const CampaignRun& run = model_->campaign().runs[index];
    table_->selectRow(int(index));
    if (!campaignRunsReplayInLab(model_->campaign().config)) {
        // The replay opens the blocked GEMM's animation; another family's run replays on the command line.
        hint_->setText(QStringLiteral("Run %1 of this %2 campaign ended %3; the lab replays blocked, online and "
                                      "Strassen runs. Reproduce it with: %4")
                           .arg(run.index)
                           .arg(qs(model_->campaign().config.family), outcomeLabel(run.outcome),
                                qs(reproduceCommand(model_->campaign().config, run))));
        return false;
    }
    if (const std::optional<OnlineConfig> online = model_->onlineRunConfig(index)) {
        const CampaignConfig& c = model_->campaign().config;
        QString what = QStringLiteral("%1 campaign run %2: ").arg(qs(c.scheme)).arg(run.index);
        what += run.bit >= 0 ? QStringLiteral("bit %1 into %2").arg(bitsText(run), qs(targetKey(run)))
                             : QStringLiteral("target %1").arg(qs(targetKey(run)));
        what += QStringLiteral(", %1, ended %2").arg(qs(campaignRunVaries(c, run)), outcomeLabel(run.outcome));
        emit onlineRunRequested(*online, what);
        return true;
    }
    if (const std::optional<StrassenConfig> strassen = model_->strassenRunConfig(index)) {
        QString what = QStringLiteral("Strassen campaign run %1: L%2, ").arg(run.index).arg(run.level);
        what += run.bit >= 0 ? QStringLiteral("bit %1 into %2").arg(bitsText(run), qs(targetKey(run)))
                             : QStringLiteral("target %1").arg(qs(targetKey(run)));
        what += QStringLiteral(", ended %1").arg(outcomeLabel(run.outcome));
        emit strassenRunRequested(*strassen, what);
        return true;
    }
    if (run.operand && !run.afterChecksums) {
        // The engine worker has no operand-fault hook: a replay without the fault would mislead.
        // (After the checksums the run's faults are result faults: those replay.)
        hint_->setText(QStringLiteral("Run %1 corrupted operand %2 before its checksums: the lab cannot replay "
                                      "operand faults yet (the campaign JSON holds what was flipped).")
                           .arg(run.index)
                           .arg(QChar::fromLatin1(char(run.operand - 'a' + 'A'))));
        return false;
    }
    QString what = QStringLiteral("campaign run %1: ").arg(run.index);
    what += run.bit >= 0 ? QStringLiteral("bit %1 into %2").arg(bitsText(run), qs(targetKey(run)))
                         : QStringLiteral("target %1").arg(qs(targetKey(run)));
    what += QStringLiteral(", %1, ended %2").arg(qs(std::string(toString(run.strategy))), outcomeLabel(run.outcome));
    emit runRequested(model_->runConfig(index), what);
    return true;
}

bool CampaignView::exportCsv(const QString& path, QString* error) const
{
    return writeExportFile(path, QByteArray::fromStdString(campaignRunsCsv(model_->campaign())), error);
}

void CampaignView::onMouseMove(const QPointF& pixel)
{
    const auto segment = segmentAt(pixel);
    if (!segment) {
        QToolTip::hideText();
        return;
    }
    const CampaignGroup& g = model_->groups()[std::size_t(segment->group)];
    const std::int64_t count = g.counts[segment->outcome];
    const Interval ci = wilsonInterval(count, g.counts.total);
    const QString text = QStringLiteral("%1 %2, %3: %4 of %5 runs (%6 %, 95 % interval %7 to %8 %)\n"
                                        "click: re-run one of them")
                             .arg(model_->groupsAreBits() ? QStringLiteral("bit") : QStringLiteral("target"))
                             .arg(qs(g.key))
                             .arg(outcomeLabel(segment->outcome))
                             .arg(count)
                             .arg(g.counts.total)
                             .arg(100.0 * fraction(g.counts, segment->outcome), 0, 'f', 1)
                             .arg(100 * ci.low, 0, 'f', 1)
                             .arg(100 * ci.high, 0, 'f', 1);
    QToolTip::showText(plot_->mapToGlobal(pixel.toPoint()), text, plot_);
}

void CampaignView::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::PaletteChange) {
        applyPalette(plot_, palette());
        plot_->replot();
    }
    QWidget::changeEvent(event);
}

bool CampaignView::openFile(const QString& path, QString* error)
{
    try {
        setCampaign(loadCampaign(path.toStdString()));
        return true;
    } catch (const std::exception& e) {
        if (error)
            *error = QString::fromStdString(e.what());
        return false;
    }
}

}  // namespace gigacheck::ui
