#include "rooflineview.hpp"
#include "views/legendfit.hpp"

#include "export/plotexport.hpp"
#include "plotstyle.hpp"

#include "session/labsession.hpp"

#include <gigacheck/bench.hpp>

#include "core/cpu/device_info.hpp"

#include <qcustomplot.h>

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <vector>

namespace gigacheck::ui {

namespace {
constexpr double kMinIntensity = 1e-2, kMaxIntensity = 1e4;
constexpr double kCloseRoofs = 1.5;        // compute roofs nearer than this ratio share a label height
constexpr double kComputeLabelStep = 5.0;  // each compute label sits this factor left of the previous
constexpr int kRunColors = 6;              // plotstyle's accentColor cycles six colours
}

RooflineView::RooflineView(QWidget* parent) : QWidget(parent)
{
    presets_ = loadCeilingPresets();
    thisCpu_ = cpuDeviceInfo();
    plot_ = new QCustomPlot(this);
    plot_->setObjectName(QStringLiteral("rooflinePlot"));
    for (QCPAxis* axis : {plot_->xAxis, plot_->yAxis}) {
        axis->setScaleType(QCPAxis::stLogarithmic);
        axis->setTicker(QSharedPointer<QCPAxisTickerLog>(new QCPAxisTickerLog));
        axis->setNumberFormat(QStringLiteral("eb"));
        axis->setNumberPrecision(0);
    }
    plot_->xAxis->setLabel(QStringLiteral("arithmetic intensity (FLOP/byte)"));
    plot_->yAxis->setLabel(QStringLiteral("performance (GFLOP/s)"));
    plot_->legend->setVisible(true);
    plot_->legend->setFont(plotFont(font(), 8));
    // The legend in a row under the axes, as the gallery's roofline: inside it hid the operation
    // triangles and the points, which gather in any corner.
    plot_->axisRect()->insetLayout()->take(plot_->legend);
    plot_->plotLayout()->addElement(1, 0, plot_->legend);
    plot_->plotLayout()->setRowStretchFactor(1, 0.001);
    plot_->legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    plot_->legend->setWrap(2);
    keepLegendFitting(plot_);  // as many columns as the plot is wide
    plot_->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);

    source_ = new QComboBox(this);
    source_->setObjectName(QStringLiteral("roofSource"));
    source_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    source_->setMinimumContentsLength(24);
    source_->addItem(QStringLiteral("ceilings of the run's device (measured, else matching datasheet)"));
    for (const auto& p : presets_)
        source_->addItem(p.name);
    note_ = new QLabel(this);
    note_->setObjectName(QStringLiteral("rooflineNote"));
    note_->setTextFormat(Qt::RichText);
    note_->setWordWrap(true);
    measure_ = new QPushButton(QStringLiteral("Measure this machine…"), this);
    measure_->setObjectName(QStringLiteral("measureCeilings"));
    measure_->setToolTip(QStringLiteral("Measure the roofs of the device chosen in Matrix setup (the CPU or a GPU), as "
                                        "gigacheck devices --measure does, and store them for the roofline and the planner"));
    measureProgress_ = new QProgressBar(this);
    measureProgress_->setObjectName(QStringLiteral("measureProgress"));
    measureProgress_->setTextVisible(true);
    measureProgress_->hide();
    measureCancel_ = new QPushButton(QStringLiteral("Cancel"), this);
    measureCancel_->setObjectName(QStringLiteral("measureCancel"));
    measureCancel_->hide();
    auto* bar = new QHBoxLayout;
    bar->addWidget(new QLabel(QStringLiteral("Roofs:"), this));
    bar->addWidget(source_, 1);
    bar->addWidget(measure_);
    bar->addWidget(measureProgress_, 1);
    bar->addWidget(measureCancel_);
    connect(measure_, &QPushButton::clicked, this, &RooflineView::measureRequested);
    connect(measureCancel_, &QPushButton::clicked, this, [this] {
        measureCancel_->setEnabled(false);
        measureProgress_->setFormat(QStringLiteral("cancelling after this point…"));
        emit measureCancelRequested();
    });
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(bar);
    layout->addWidget(plot_, 1);
    layout->addWidget(note_);
    connect(source_, qOverload<int>(&QComboBox::currentIndexChanged), this, &RooflineView::rebuild);
    rebuild();
}

void RooflineView::subscribe(LabSession* session)
{
    connect(session, &LabSession::historyChanged, this, [this, session] { setRuns(session->history()); });
}

void RooflineView::setRuns(std::vector<RecordPtr> runs)
{
    runs_ = std::move(runs);
    rebuild();
}

void RooflineView::setRuns(const std::vector<RunRecord>& runs)
{
    std::vector<RecordPtr> shared;
    for (const RunRecord& r : runs)
        shared.push_back(std::make_shared<const RunRecord>(r));
    setRuns(std::move(shared));
}

const RooflineRun& RooflineView::summaryOf(const RecordPtr& run, double h2dGBs)
{
    for (const CachedSummary& c : cache_)
        if (c.run == run && c.h2dGBs == h2dGBs)
            return c.summary;
    cache_.push_back({run, h2dGBs, summarizeRun(*run, runLabel(*run), h2dGBs)});
    return cache_.back().summary;
}

Ceilings RooflineView::activeCeilings() const
{
    const int choice = source_->currentIndex();
    if (choice > 0)
        return presets_[std::size_t(choice - 1)].ceilings;
    return ceilingsForDevice(runs_.empty() ? thisCpu_ : runs_.back()->devices.front(), presets_);
}

void RooflineView::setMeasuring(bool measuring)
{
    measure_->setVisible(!measuring);
    measureProgress_->setVisible(measuring);
    measureCancel_->setVisible(measuring);
    measureCancel_->setEnabled(true);
    if (measuring) {
        measureProgress_->setRange(0, 0);  // busy until the first point says how many there are
        measureProgress_->setFormat(QStringLiteral("starting…"));
    }
}

void RooflineView::showMeasureProgress(const QString& stage, int done, int total)
{
    measureProgress_->setRange(0, std::max(total, 1));
    measureProgress_->setValue(std::clamp(done, 0, std::max(total, 1)));
    if (measureCancel_->isEnabled())  // else "cancelling…" stays: a point reported before the click
        measureProgress_->setFormat(QStringLiteral("%1 (%2 of %3 done)").arg(stage).arg(done).arg(total));
}

void RooflineView::showMeasured(const DeviceInfo& device)
{
    const QString name = QStringLiteral("measured: %1").arg(QString::fromStdString(device.name));
    auto same = std::find_if(presets_.begin(), presets_.end(), [&name](const CeilingPreset& p) { return p.name == name; });
    int index = 0;
    if (same != presets_.end()) {
        same->ceilings = device.ceilings;
        index = int(same - presets_.begin()) + 1;
    } else {
        presets_.insert(presets_.begin(), CeilingPreset{name, QString(), device.ceilings});
        source_->insertItem(1, name);
        index = 1;
    }
    if (source_->currentIndex() == index)
        rebuild();
    else
        source_->setCurrentIndex(index);  // rebuilds
}

bool RooflineView::showsMeasuredRoofs() const
{
    return QString::fromStdString(activeCeilings().source).startsWith(QLatin1String("measured"));
}

void RooflineView::rebuild()
{
    plot_->clearGraphs();
    plot_->clearItems();
    const Ceilings c = activeCeilings();
    roofs_ = roofsFrom(c);
    double peak = 1;
    for (const Roof& r : roofs_)
        if (!r.memory)
            peak = std::max(peak, r.value);

    // Compute roofs close to the next one up (H200 measured: FP32 51 vs FP64 56 TFLOP/s) carry
    // their label under the line, and compute labels step leftwards, so no two labels overlap.
    std::vector<const Roof*> compute;
    for (const Roof& r : roofs_)
        if (!r.memory)
            compute.push_back(&r);
    std::vector<const Roof*> byValue = compute;
    std::stable_sort(byValue.begin(), byValue.end(), [](const Roof* a, const Roof* b) { return a->value < b->value; });
    std::vector<const Roof*> labelBelow;
    for (std::size_t i = 0; i + 1 < byValue.size(); ++i)
        if (byValue[i + 1]->value < byValue[i]->value * kCloseRoofs)
            labelBelow.push_back(byValue[i]);

    const QColor fg = palette().color(QPalette::WindowText);
    int roofIndex = 0;
    int computeIndex = 0;
    double lowest = peak;
    for (const Roof& r : roofs_) {
        QCPGraph* g = plot_->addGraph();
        const QColor color = r.memory ? QColor(0x7f, 0x8c, 0x8d) : fg;
        g->setPen(QPen(color, (r.memory ? 1.5 : 2) * plotScale(), r.memory && r.label.startsWith(QLatin1String("host")) ? Qt::DashLine : Qt::SolidLine));
        g->setName(QStringLiteral("%1: %2 %3").arg(r.label).arg(r.value, 0, 'g', 4).arg(r.memory ? QStringLiteral("GB/s") : QStringLiteral("GFLOP/s")));
        if (r.memory) {
            // y = bandwidth * intensity up to the highest compute roof.
            const double ridge = std::min(peak / r.value, kMaxIntensity);
            g->setData({kMinIntensity, ridge}, {r.value * kMinIntensity, r.value * ridge});
            lowest = std::min(lowest, r.value * kMinIntensity);
        } else {
            g->setData({kMinIntensity, kMaxIntensity}, {r.value, r.value});
        }
        auto* label = new QCPItemText(plot_);
        if (r.memory) {
            // Memory roofs are labelled at different heights so parallel lines do not share a spot,
            // the text hanging right and down from the line: a rising line never crosses it, and
            // its left end never leaves the plot (a centred label lost "m" of "memory" at 1366x768).
            const double at = std::max(std::min(peak / r.value, kMaxIntensity) / std::pow(8.0, 1 + roofIndex % 3),
                                       kMinIntensity * 1.5);
            label->position->setCoords(at, r.value * at);
            label->setPositionAlignment(Qt::AlignTop | Qt::AlignLeft);
            label->setPadding(QMargins(6, 2, 0, 0));
        } else {
            const bool below = std::find(labelBelow.begin(), labelBelow.end(), &r) != labelBelow.end();
            label->position->setCoords(kMaxIntensity / 3 / std::pow(kComputeLabelStep, computeIndex++), r.value);
            label->setPositionAlignment((below ? Qt::AlignTop : Qt::AlignBottom) | Qt::AlignHCenter);
        }
        label->setText(r.label);
        label->setColor(color);
        label->setFont(plotFont(font(), 8));
        ++roofIndex;
    }

    summaries_.clear();
    // Forget the summaries of runs no longer shown.
    std::erase_if(cache_, [this](const CachedSummary& s) { return std::find(runs_.begin(), runs_.end(), s.run) == runs_.end(); });
    double minY = lowest, maxY = peak;
    // A run's colour comes from the run (its label and time), not its place in the list: it stays
    // when the run is reopened or others are added.
    std::vector<QString> colorKeys;
    for (const RecordPtr& run : runs_)
        colorKeys.push_back(runColorKey(*run));
    runColors_ = runColorIndices(colorKeys, kRunColors);
    for (std::size_t i = 0; i < runs_.size(); ++i) {
        summaries_.push_back(summaryOf(runs_[i], c.h2dGBs));
        const QColor color = accentColor(runColors_[i]);
        for (const RooflinePoint& p : summaries_.back().points) {
            QCPGraph* g = plot_->addGraph();
            g->setLineStyle(QCPGraph::lsNone);
            const auto shape = p.kind == RooflinePoint::Kind::Measured ? QCPScatterStyle::ssDisc
                               : p.kind == RooflinePoint::Kind::Naive  ? QCPScatterStyle::ssCircle
                                                                       : QCPScatterStyle::ssTriangle;
            g->setScatterStyle(QCPScatterStyle(shape, color, p.kind == RooflinePoint::Kind::Measured ? color : Qt::transparent,
                                               (p.kind == RooflinePoint::Kind::Operation ? 7 : 10) * plotScale()));
            g->setName(QStringLiteral("%1: %2 GFLOP/s").arg(p.label).arg(p.gflops, 0, 'g', 3));
            g->addData(p.intensity, p.gflops);
            if (p.kind == RooflinePoint::Kind::Operation) {
                // Kinds are labelled on the plot, not in the legend, which stays short.
                g->removeFromLegend();
                auto* text = new QCPItemText(plot_);
                text->position->setCoords(p.intensity, p.gflops);
                text->setPositionAlignment(Qt::AlignLeft | Qt::AlignVCenter);
                text->setPadding(QMargins(8, 0, 0, 0));
                text->setText(p.label.section(QLatin1Char(' '), -1));
                text->setColor(color);
                text->setFont(plotFont(font(), 7));
            }
            minY = std::min(minY, p.gflops);
            maxY = std::max(maxY, p.gflops);
        }
        // The seed's figure 20 joins each measured point to its naive twin.
        const auto& pts = summaries_.back().points;
        auto measured = std::find_if(pts.begin(), pts.end(), [](const RooflinePoint& p) { return p.kind == RooflinePoint::Kind::Measured; });
        auto naive = std::find_if(pts.begin(), pts.end(), [](const RooflinePoint& p) { return p.kind == RooflinePoint::Kind::Naive; });
        if (measured != pts.end() && naive != pts.end()) {
            auto* arrow = new QCPItemLine(plot_);
            arrow->start->setCoords(measured->intensity, measured->gflops);
            arrow->end->setCoords(naive->intensity, naive->gflops);
            arrow->setPen(QPen(color, 1, Qt::DotLine));
            arrow->setHead(QCPLineEnding::esSpikeArrow);
        }
    }
    plot_->xAxis->setRange(kMinIntensity, kMaxIntensity);
    plot_->yAxis->setRange(std::max(minY / 4, 1e-4), maxY * 4);
    applyPalette(plot_, palette());
    // Datasheet presets are someone else's machine: say so, and why a naive point may sit above
    // the compute roof.
    const bool datasheet = QString::fromStdString(c.source).startsWith(QLatin1String("datasheet"));
    const QString datasheetWords =
        datasheet ? QStringLiteral(" These roofs are an illustrative datasheet machine, not this one, and a naive point "
                                   "(link bandwidth × intensity, not capped by any compute roof) can sit above them; "
                                   "<b>Measure this machine…</b> (or <tt>gigacheck devices --measure</tt>) once and the "
                                   "roofs are this machine's measured ceilings.")
                  : QString();
    note_->setText(QStringLiteral("Roofs: %1. Run points use host-link intensity (flops / bytes over H2D + D2H) "
                                  "and GFLOP/s over the execution time; hollow circles are the paper's naive "
                                  "points (intensity × H2D bandwidth); triangles are operation kinds at their "
                                  "own intensity and busy-time rate.%2")
                       .arg(c.source.empty() ? QStringLiteral("none known") : QString::fromStdString(c.source).toHtmlEscaped(),
                            datasheetWords));
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

QColor RooflineView::runColor(std::size_t run) const
{
    return accentColor(run < runColors_.size() ? runColors_[run] : 0);
}

QString RooflineView::noteText() const
{
    return note_->text();
}

bool RooflineView::exportCsv(const QString& path, QString* error) const
{
    std::vector<QStringList> rows;
    for (const RooflineRun& run : summaries_)
        for (const RooflinePoint& p : run.points)
            rows.push_back({run.label, p.label,
                            p.kind == RooflinePoint::Kind::Measured ? QStringLiteral("measured")
                            : p.kind == RooflinePoint::Kind::Naive  ? QStringLiteral("naive")
                                                                    : QStringLiteral("operation"),
                            QString::number(p.intensity, 'g', 9), QString::number(p.gflops, 'g', 9)});
    for (const Roof& r : roofs_)
        rows.push_back({QStringLiteral("roof"), r.label, r.memory ? QStringLiteral("GB/s") : QStringLiteral("GFLOP/s"),
                        QString(), QString::number(r.value, 'g', 9)});
    return writeCsv(path, {QStringLiteral("run"), QStringLiteral("point"), QStringLiteral("kind"),
                           QStringLiteral("intensity_flop_per_byte"), QStringLiteral("gflops")},
                    rows, error);
}

void RooflineView::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::PaletteChange)
        rebuild();
    QWidget::changeEvent(event);
}

}  // namespace gigacheck::ui
