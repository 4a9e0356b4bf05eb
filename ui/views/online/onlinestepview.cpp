#include "views/online/onlinestepview.hpp"

#include "engine/onlinerun.hpp"
#include "models/runverdict.hpp"
#include "session/labsession.hpp"
#include "views/plotstyle.hpp"

#include <qcustomplot.h>

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSlider>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace gigacheck::ui {

OnlineStepView::OnlineStepView(QWidget* parent) : QWidget(parent)
{
    plot_ = new QCustomPlot(this);
    plot_->setObjectName(QStringLiteral("onlineStepPlot"));
    plot_->setMinimumHeight(160);
    map_ = new QCPColorMap(plot_->xAxis, plot_->yAxis);
    // Blue below zero, white at zero, red above: the heatmap's reading of C.
    QCPColorGradient diverging;
    diverging.setColorStopAt(0.0, QColor(0x2c, 0x5c, 0xa8));
    diverging.setColorStopAt(0.5, QColor(0xff, 0xff, 0xff));
    diverging.setColorStopAt(1.0, QColor(0xc6, 0x28, 0x28));
    map_->setGradient(diverging);
    map_->setInterpolate(false);
    map_->removeFromLegend();
    plot_->yAxis->setRangeReversed(true);  // row 0 at the top, as C is written
    plot_->xAxis->setLabel(QStringLiteral("columns of C (cells) | checksums"));
    plot_->yAxis->setLabel(QStringLiteral("rows | checksums"));
    open_ = plot_->addGraph();
    open_->setLineStyle(QCPGraph::lsNone);
    open_->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCross, QPen(QColor(0xd3, 0x2f, 0x2f), 2.5), Qt::NoBrush, 12));
    open_->setName(QStringLiteral("fault, not caught yet"));
    caught_ = plot_->addGraph();
    caught_->setLineStyle(QCPGraph::lsNone);
    caught_->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(QColor(0x2e, 0x9d, 0x4a), 2.5), Qt::NoBrush, 12));
    caught_->setName(QStringLiteral("caught by a check"));
    // No legend over the cells: the text under the slider says what the marks are.
    applyPalette(plot_, palette());

    slider_ = new QSlider(Qt::Horizontal, this);
    slider_->setObjectName(QStringLiteral("onlineStepSlider"));
    slider_->setRange(0, 0);
    play_ = new QPushButton(QStringLiteral("Play"), this);
    replay_ = new QPushButton(QStringLiteral("Replay steps on the CPU"), this);
    replay_->setToolTip(QStringLiteral("This record keeps no picture of C per step: run its configuration (same seed and "
                                       "faults) again on the CPU to see them"));
    replay_->hide();
    text_ = new QLabel(this);
    text_->setObjectName(QStringLiteral("onlineStepText"));
    text_->setWordWrap(true);
    timer_ = new QTimer(this);
    timer_->setInterval(450);

    auto* controls = new QHBoxLayout;
    controls->addWidget(new QLabel(QStringLiteral("Step"), this));
    controls->addWidget(slider_, 1);
    controls->addWidget(play_);
    controls->addWidget(replay_);
    // The run's verdict in every view's words (models/runverdict), on a line of its own that
    // wraps: beside the slider it was cut off at 1366 pixels, and it never widens the window.
    verdict_ = new QLabel(this);
    verdict_->setObjectName(QStringLiteral("onlineStepVerdict"));
    verdict_->setWordWrap(true);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(plot_, 1);
    layout->addLayout(controls);
    layout->addWidget(verdict_);
    layout->addWidget(text_);

    connect(slider_, &QSlider::valueChanged, this, &OnlineStepView::showPosition);
    connect(play_, &QPushButton::clicked, this, [this] {
        if (timer_->isActive()) {
            timer_->stop();
        } else {
            if (slider_->value() >= slider_->maximum())
                slider_->setValue(0);
            timer_->start();
        }
        play_->setText(timer_->isActive() ? QStringLiteral("Pause") : QStringLiteral("Play"));
    });
    connect(timer_, &QTimer::timeout, this, [this] {
        if (slider_->value() >= slider_->maximum()) {
            timer_->stop();
            play_->setText(QStringLiteral("Play"));
            return;
        }
        slider_->setValue(slider_->value() + 1);
    });
    connect(replay_, &QPushButton::clicked, this, [this] {
        if (!model_.run())
            return;
        emit replayRequested(cpuReplayOf(model_.run()->record.config));
    });
    showPosition(0);
}

void OnlineStepView::subscribe(LabSession* session)
{
    connect(session, &LabSession::recordChanged, this, [this, session] { setRun(session->online()); });
    connect(this, &OnlineStepView::replayRequested, session,
            [session](const OnlineConfig& c) { session->startOnline(c, false); });
}

void OnlineStepView::setRun(OnlinePtr run)
{
    timer_->stop();
    play_->setText(QStringLiteral("Play"));
    model_.setRun(std::move(run));
    const QString verdict = model_.run() ? runVerdictOf(model_.run()->record).summary() : QString();
    verdict_->setText(verdict);
    verdict_->setToolTip(verdict);
    const StepFrames* frames = model_.run() ? &model_.run()->frames : nullptr;
    const bool hasFrames = frames && !frames->frames.empty();
    replay_->setVisible(model_.run() && !hasFrames && model_.count() > 0 && !model_.isTmr());  // TMR has no frames to replay
    if (hasFrames) {
        const int k = frames->checksums;
        map_->data()->setSize(frames->gridCols + k, frames->gridRows + k);
        map_->data()->setRange(QCPRange(0, frames->gridCols + k - 1), QCPRange(0, frames->gridRows + k - 1));
        // One colour scale for the whole run, from C's cells in the last frame (the largest sums,
        // faults corrected): C is seen growing, a fault and the checksums saturate.
        float top = 0;
        const StepFrame& last = frames->frames.back();
        for (int y = 0; y < frames->gridRows; ++y)
            for (int x = 0; x < frames->gridCols; ++x) {
                const float v = last.cells[std::size_t(y * (frames->gridCols + k) + x)];
                if (std::isfinite(v))
                    top = std::max(top, std::abs(v));
            }
        map_->setDataRange(QCPRange(-std::max(top, 1e-30f), std::max(top, 1e-30f)));
        plot_->xAxis->setRange(-0.5, frames->gridCols + k - 0.5);
        plot_->yAxis->setRange(-0.5, frames->gridRows + k - 0.5);
    } else {
        map_->data()->clear();
        if (model_.isTmr()) {
            // No picture of C per step (the replicas are whole products): C's cells as the axes,
            // where the faults strike and the vote settles them.
            const Shape& s = model_.run()->record.config.shape;
            plot_->xAxis->setRange(-0.5, double(s.q) - 0.5);
            plot_->yAxis->setRange(-0.5, double(s.m) - 0.5);
        }
    }
    plot_->xAxis->setLabel(model_.isTmr() ? QStringLiteral("columns of C") : QStringLiteral("columns of C (cells) | checksums"));
    plot_->yAxis->setLabel(model_.isTmr() ? QStringLiteral("rows of C") : QStringLiteral("rows | checksums"));
    const QSignalBlocker block(slider_);
    slider_->setRange(0, std::max(0, model_.count() - 1));
    // Where the story is: the first fault, else the start.
    int start = 0;
    for (int i = 0; i < model_.count(); ++i)
        if (model_.position(i).phase == OnlineStepModel::Phase::Fault) {
            start = i;
            break;
        }
    slider_->setValue(start);
    showPosition(start);
}

int OnlineStepView::position() const
{
    return slider_->value();
}

void OnlineStepView::setPosition(int position)
{
    slider_->setValue(position);
}

QString OnlineStepView::verdictText() const
{
    return verdict_->text();
}

QString OnlineStepView::description() const
{
    return text_->text();
}

void OnlineStepView::showPosition(int position)
{
    plot_->clearItems();
    open_->data()->clear();
    caught_->data()->clear();
    const StepFrames* frames = model_.run() ? &model_.run()->frames : nullptr;
    const StepFrame* frame = model_.frame(position);
    QString text = model_.describe(position);
    if (frames && frame) {
        const int k = frames->checksums, gc = frames->gridCols, gr = frames->gridRows;
        for (int y = 0; y < gr + k; ++y)
            for (int x = 0; x < gc + k; ++x)
                map_->data()->setCell(x, y, double(frame->cells[std::size_t(y * (gc + k) + x)]));
        // The checksum rows / columns beyond these lines.
        const QPen border(palette().color(QPalette::Mid), 1.5 * plotScale());
        auto* h = new QCPItemStraightLine(plot_);
        h->point1->setCoords(0, gr - 0.5);
        h->point2->setCoords(1, gr - 0.5);
        h->setPen(border);
        auto* v = new QCPItemStraightLine(plot_);
        v->point1->setCoords(gc - 0.5, 0);
        v->point2->setCoords(gc - 0.5, 1);
        v->setPen(border);
        // The check of this position: its mismatching rows and columns.
        if (const VerifyEvent* e = model_.checkAt(position)) {
            const QColor band = e->result.verdict == Verdict::Uncorrectable ? QColor(211, 47, 47, 60) : QColor(46, 157, 74, 50);
            const auto gridOf = [](std::int64_t i, std::int64_t n, int g, int (StepFrames::*cell)(std::int64_t) const,
                                   const StepFrames& f) { return i < n ? (f.*cell)(i) : g + int(i - n); };
            for (std::int64_t r : e->result.mismatchRows) {
                const int y = gridOf(r, frames->resultRows, gr, &StepFrames::cellRow, *frames);
                auto* rect = new QCPItemRect(plot_);
                rect->topLeft->setCoords(-0.5, y - 0.5);
                rect->bottomRight->setCoords(gc + k - 0.5, y + 0.5);
                rect->setPen(Qt::NoPen);
                rect->setBrush(band);
            }
            for (std::int64_t c : e->result.mismatchCols) {
                const int x = gridOf(c, frames->resultCols, gc, &StepFrames::cellCol, *frames);
                auto* rect = new QCPItemRect(plot_);
                rect->topLeft->setCoords(x - 0.5, -0.5);
                rect->bottomRight->setCoords(x + 0.5, gr + k - 0.5);
                rect->setPen(Qt::NoPen);
                rect->setBrush(band);
            }
        }
        for (const OnlineStepModel::FaultState& s : model_.faultsAt(position)) {
            const auto& f = *s.fault;
            double x = 0, y = 0;
            switch (f.target) {
            case OnlineTarget::A: y = frames->cellRow(f.row), x = gc / 2.0; break;        // spreads along row r of C
            case OnlineTarget::B: y = gr / 2.0, x = frames->cellCol(f.col); break;        // along column c of C
            default:
                y = f.row < frames->resultRows ? frames->cellRow(f.row) : gr + int(f.row - frames->resultRows);
                x = f.col < frames->resultCols ? frames->cellCol(f.col) : gc + int(f.col - frames->resultCols);
            }
            (s.caught ? caught_ : open_)->addData(x, y);
        }
        text += QStringLiteral("  — red ×: struck, not caught yet; green ○: caught by a check; shaded: the lines the "
                               "check found off");
        if (frames->replayedOnCpu)
            text += QStringLiteral("  (frames replayed on the CPU: the run was on the device)");
    } else if (model_.isTmr() && frame == nullptr && position >= 0 && position < model_.count()) {
        showTmrPosition(position);
        text += QStringLiteral("  — red ×: struck in a replica, not voted on yet; green ○: outvoted by the other two");
    } else if (model_.run() && model_.count() > 0) {
        text += QStringLiteral("  (no picture of C per step in this record)");
    }
    text_->setText(text);
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

void OnlineStepView::showTmrPosition(int position)
{
    const OnlineStepModel::Position& p = model_.position(position);
    const Shape& s = model_.run()->record.config.shape;
    // C as one grey rectangle: the replica the position is at, or C after the vote.
    auto* c = new QCPItemRect(plot_);
    c->topLeft->setCoords(-0.5, -0.5);
    c->bottomRight->setCoords(double(s.q) - 0.5, double(s.m) - 0.5);
    c->setPen(QPen(palette().color(QPalette::Mid), 1.5 * plotScale()));
    c->setBrush(QColor(128, 128, 128, 70));
    auto* label = new QCPItemText(plot_);
    label->position->setType(QCPItemPosition::ptAxisRectRatio);
    label->position->setCoords(0.5, 0.04);
    label->setPositionAlignment(Qt::AlignTop | Qt::AlignHCenter);
    label->setFont(plot_->xAxis->labelFont());
    label->setColor(palette().color(QPalette::WindowText));
    label->setText(p.phase == OnlineStepModel::Phase::Check
                       ? QStringLiteral("C after the vote")
                       : QStringLiteral("replica C%1 (%2 of %3)").arg(p.step).arg(p.step + 1).arg(OnlineStepModel::kTmrReplicas));
    for (const OnlineStepModel::FaultState& f : model_.faultsAt(position))
        (f.caught ? caught_ : open_)->addData(double(f.fault->col), double(f.fault->row));
}

void OnlineStepView::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::PaletteChange)
        applyPalette(plot_, palette());
    QWidget::changeEvent(event);
}

}  // namespace gigacheck::ui
