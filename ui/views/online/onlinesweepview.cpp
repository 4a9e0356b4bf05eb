#include "views/online/onlinesweepview.hpp"

#include "engine/backgroundjobs.hpp"

#include "views/plotstyle.hpp"

#include <gigacheck/backend.hpp>

#include <qcustomplot.h>

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>

namespace gigacheck::ui {

OnlineSweepView::OnlineSweepView(QWidget* parent) : QWidget(parent)
{
    model_ = new FqSweepModel(this);
    n_ = new QSpinBox(this);
    n_->setObjectName(QStringLiteral("sweepN"));
    n_->setRange(16, 32768);
    n_->setValue(512);
    panel_ = new QSpinBox(this);
    panel_->setObjectName(QStringLiteral("sweepPanel"));
    panel_->setRange(1, 8192);
    panel_->setValue(32);
    trials_ = new QSpinBox(this);
    trials_->setObjectName(QStringLiteral("sweepTrials"));
    trials_->setRange(1, 100);
    trials_->setValue(6);
    trials_->setToolTip(QStringLiteral("Random placements (cells and steps) per fq and fault count"));
    backend_ = new QComboBox(this);
    backend_->addItem(QStringLiteral("CPU"), int(BackendKind::Cpu));
    if (cudaCompiledIn())
        backend_->addItem(QStringLiteral("GPU"), int(BackendKind::Cuda));
    status_ = new QLabel(this);
    status_->setWordWrap(true);
    status_->setText(QStringLiteral("fq = 1, 2, 4, 8 and offline (end); 1, 2, 4, 8 faults at random cells and steps. "
                                    "The same sweep as `gigacheck bench online`."));

    auto* controls = new QHBoxLayout;
    const auto add = [&](const QString& label, QWidget* w) {
        controls->addWidget(new QLabel(label, this));
        controls->addWidget(w);
    };
    add(QStringLiteral("N"), n_);
    add(QStringLiteral("b"), panel_);
    add(QStringLiteral("trials"), trials_);
    controls->addWidget(backend_);
    controls->addStretch(1);

    plot_ = new QCustomPlot(this);
    plot_->setObjectName(QStringLiteral("sweepPlot"));
    plot_->setMinimumHeight(200);
    auto ticker = QSharedPointer<QCPAxisTickerText>(new QCPAxisTickerText);
    ticker->addTicks({1, 2, 3, 4, 5}, {QStringLiteral("1"), QStringLiteral("2"), QStringLiteral("4"), QStringLiteral("8"),
                                       QStringLiteral("end (offline)")});
    plot_->xAxis->setTicker(ticker);
    plot_->xAxis->setLabel(QStringLiteral("check every fq steps"));
    plot_->xAxis->setRange(0.5, 5.5);
    plot_->yAxis->setLabel(QStringLiteral("overhead over the plain product (%)"));
    plot_->yAxis2->setVisible(true);
    plot_->yAxis2->setLabel(QStringLiteral("runs ending correctable (%)"));
    plot_->yAxis2->setRange(0, 105);
    // The legend in a row of its own under the axes: the lines stay uncovered.
    auto* legendRow = new QCPLayoutGrid;
    plot_->plotLayout()->addElement(1, 0, legendRow);
    legendRow->setMargins(QMargins(5, 0, 5, 5));
    legendRow->addElement(0, 0, plot_->legend);
    plot_->legend->setFillOrder(QCPLegend::foColumnsFirst);
    plot_->legend->setWrap(3);
    plot_->legend->setVisible(true);
    plot_->legend->setFont(font());
    plot_->plotLayout()->setRowStretchFactor(1, 0.001);
    applyPalette(plot_, palette());

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(controls);
    layout->addWidget(status_);
    layout->addWidget(plot_, 1);

    connect(model_, &FqSweepModel::progress, this, [this](double f) {
        status_->setText(QStringLiteral("Sweeping… %1 %").arg(int(100 * f)));
    });
    connect(model_, &FqSweepModel::finished, this, [this] {
        const FqSweepResult& r = *model_->result();
        status_->setText(QStringLiteral("%1: plain product %2 ms; overhead = compute time / plain − 1 (median of %3), "
                                        "%4 placements per point")
                             .arg(QString::fromStdString(r.device))
                             .arg(r.plainSeconds * 1e3, 0, 'f', 2)
                             .arg(r.options.reps)
                             .arg(r.options.trials));
        replot();
    });
    connect(model_, &FqSweepModel::failed, this, [this](const QString& message) {
        status_->setText(QStringLiteral("Sweep stopped: %1").arg(message));
    });
    replot();
}

FqSweepOptions OnlineSweepView::options() const
{
    FqSweepOptions o;
    o.n = n_->value();
    o.panel = std::min(panel_->value(), n_->value());
    o.trials = trials_->value();
    o.reps = reps_;
    return o;
}

void OnlineSweepView::setOptions(const FqSweepOptions& o)
{
    n_->setValue(int(o.n));
    panel_->setValue(int(o.panel));
    trials_->setValue(o.trials);
    reps_ = o.reps;
}

void OnlineSweepView::start()
{
    if (!model_->start(options(), BackendKind(backend_->currentData().toInt())))
        return;  // its sweep goes on or waits already
    const QString queued = BackgroundJobs::instance()->queuedNote(model_->job());
    status_->setText(queued.isEmpty() ? QStringLiteral("Sweeping…") : QStringLiteral("Sweep %1").arg(queued));
}

void OnlineSweepView::replot()
{
    plot_->clearGraphs();
    const double scale = plotScale();
    const auto position = [](int fq) { return fq == 0 ? 5.0 : fq == 1 ? 1.0 : fq == 2 ? 2.0 : fq == 4 ? 3.0 : fq == 8 ? 4.0 : 0.0; };
    QCPGraph* overhead = plot_->addGraph(plot_->xAxis, plot_->yAxis);
    overhead->setName(QStringLiteral("overhead, no fault"));
    overhead->setPen(QPen(accentColor(0), 2.5 * scale));
    overhead->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, 8 * scale));
    if (const auto& r = model_->result()) {
        double lo = 0, hi = 1;
        for (const FqSweepRow& row : r->rows) {
            if (position(row.checkEvery) == 0)
                continue;
            overhead->addData(position(row.checkEvery), 100 * row.overhead);
            lo = std::min(lo, 100 * row.overhead);
            hi = std::max(hi, 100 * row.overhead);
        }
        plot_->yAxis->setRange(lo - 0.1 * (hi - lo), hi + 0.1 * (hi - lo));
        for (std::size_t i = 0; i < r->options.faultCounts.size(); ++i) {
            QCPGraph* g = plot_->addGraph(plot_->xAxis, plot_->yAxis2);
            g->setName(QStringLiteral("%1 fault(s) correctable").arg(r->options.faultCounts[i]));
            QPen pen(accentColor(int(i) + 1), 1.8 * scale, Qt::DashLine);
            g->setPen(pen);
            g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssSquare, 7 * scale));
            for (const FqSweepRow& row : r->rows)
                if (position(row.checkEvery) > 0)
                    g->addData(position(row.checkEvery), 100.0 * row.correctable[i] / r->options.trials);
        }
    } else {
        plot_->yAxis->setRange(0, 10);
    }
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

void OnlineSweepView::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::PaletteChange)
        applyPalette(plot_, palette());
    QWidget::changeEvent(event);
}

}  // namespace gigacheck::ui
