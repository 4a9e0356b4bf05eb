// The Strassen view's work: a run, an opened record and the sweep, each on a worker thread,
// with their Cancel.
#include "views/strassen/strassenview.hpp"

#include "views/plotstyle.hpp"
#include "views/strassen/strassenblockswidget.hpp"
#include "views/strassen/strassenplots.hpp"
#include "views/strassen/strassenverdict.hpp"

#include <gigacheck/backend.hpp>

#include <qcustomplot.h>

#include <QCheckBox>
#include <QComboBox>
#include <QEvent>
#include <QFontMetrics>
#include <QFormLayout>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPointer>
#include <QPushButton>
#include <QRegularExpression>
#include <QScrollArea>
#include <QSlider>
#include <QSpinBox>
#include <QSplitter>
#include <QTabBar>
#include <QTabWidget>
#include <QThread>
#include <QTimer>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace gigacheck::ui::strassenlab {

namespace {

QString qs(std::string_view s)
{
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

}  // namespace

void StrassenView::startRun()
{
    if (running())
        return;
    StrassenConfig c;
    QString error;
    if (!currentConfig(&c, &error)) {
        setStatus(error, true);
        emit runFailed(error);
        return;
    }
    struct Outcome {
        std::optional<StrassenResult> result;
        std::shared_ptr<const Schedule> schedule;
        QString error;
    };
    runCancel_ = std::make_shared<std::atomic<bool>>(false);
    auto cancel = runCancel_;
    QPointer<StrassenView> self(this);
    runThread_ = QThread::create([self, cancel, c] {
        auto outcome = std::make_shared<Outcome>();
        try {
            auto backend = makeStrassenBackend(c);
            outcome->result = runStrassen(c, *backend, nullptr, cancel.get());
            // The schedule the run executed (deterministic): op ids of its spans -> recipe steps.
            StrassenConfig plain = outcome->result->config;
            outcome->schedule = std::make_shared<const Schedule>(buildStrassenSchedule(plain));
        } catch (const std::exception& e) {
            outcome->error = QString::fromStdString(e.what());
        }
        QMetaObject::invokeMethod(
            self,
            [self, outcome] {
                if (!self)
                    return;
                if (!outcome->error.isEmpty() || !outcome->result) {
                    self->setStatus(QStringLiteral("Run failed: %1").arg(outcome->error), true);
                    emit self->runFailed(outcome->error);
                    return;
                }
                self->result_ = std::move(outcome->result);
                self->schedule_ = outcome->schedule;
                self->showResult();
                if (self->result_->status == "failed") {
                    self->setStatus(QStringLiteral("Run failed: %1").arg(QString::fromStdString(self->result_->error)), true);
                    emit self->runFailed(QString::fromStdString(self->result_->error));
                    return;
                }
                self->setStatus(QStringLiteral("Run %1 on %2: %3")
                                    .arg(self->result_->status == "cancelled" ? QStringLiteral("cancelled") : QStringLiteral("finished"),
                                         QString::fromStdString(self->result_->device.name), verdictHeadline(*self->result_)));
                emit self->runFinished();
            },
            Qt::QueuedConnection);
    });
    connect(runThread_, &QThread::finished, this, [this] {
        runThread_->deleteLater();
        runThread_ = nullptr;
        setRunning(false);
    });
    setRunning(true);
    // Not the last run's verdict beside a run that has not ended.
    verdict_->setText(QStringLiteral("running…"));
    verdict_->setStyleSheet(QString());
    setStatus(QStringLiteral("running %1×%2×%3, %4, %5 level(s)…")
                  .arg(c.shape.m)
                  .arg(c.shape.n)
                  .arg(c.shape.q)
                  .arg(qs(toString(c.variant)))
                  .arg(c.levels));
    runThread_->start();
}

void StrassenView::cancelRun()
{
    if (runCancel_)
        runCancel_->store(true);
}

bool StrassenView::openRecordFile(const QString& path, QString* error)
{
    try {
        // The engine's loader: the readers' size and depth limits, errors naming the file.
        const StrassenResult r = loadStrassenRecord(path.toStdString());
        StrassenConfig c = r.config;
        // The record says whether a decomposition ran (one device too); old records: devices > 1.
        c.distribute = c.distribute || c.devices > 1;
        std::shared_ptr<const Schedule> schedule;
        try {
            schedule = std::make_shared<const Schedule>(buildStrassenSchedule(c));
            if (!spansFitSchedule(*schedule, r.spans))
                schedule.reset();  // a record of another build: stage times only, no per-step times
        } catch (const std::exception&) {
            schedule.reset();
        }
        result_ = r;
        result_->config.distribute = c.distribute;
        schedule_ = schedule;
        setConfig(result_->config);
        showResult();
        setStatus(QStringLiteral("opened %1").arg(path));
        return true;
    } catch (const std::exception& e) {
        if (error)
            *error = QString::fromStdString(e.what());
        return false;
    }
}

void StrassenView::startSweep()
{
    if (sweeping())
        return;
    StrassenConfig c;
    QString error;
    if (!currentConfig(&c, &error)) {
        setStatus(error, true);
        return;
    }
    SweepRequest request;
    request.precision = c.precision;
    request.tf32 = c.tf32;
    request.backend = c.backend;
    request.levels = std::max(1, c.levels);
    request.multiTargetKernel = c.multiTargetKernel;
    request.distribution = c.distribution;
    request.fromExponent = 7;
    request.toExponent = sweepToBox_->value();
    request.errorN = std::min<std::int64_t>(std::int64_t(1) << sweepToBox_->value(), 256);
    sweep_.clear();
    replotAll();
    sweepCancel_ = std::make_shared<std::atomic<bool>>(false);
    auto cancel = sweepCancel_;
    QPointer<StrassenView> self(this);
    sweepThread_ = QThread::create([self, cancel, request] {
        runSweep(
            request,
            [self](const SweepPoint& p) {
                QMetaObject::invokeMethod(
                    self,
                    [self, p] {
                        if (!self)
                            return;
                        self->sweep_.push_back(p);
                        if (!p.error.isEmpty())
                            self->setStatus(QStringLiteral("sweep at N = %1: %2").arg(p.n).arg(p.error), true);
                        plotSpeedup(self->speedupPlot_, self->sweep_);
                        plotErrorVsLevels(self->errorPlot_, self->sweep_);
                        plotRecoveryVsLevels(self->recoveryPlot_, self->sweep_);
                    },
                    Qt::QueuedConnection);
            },
            *cancel);
    });
    connect(sweepThread_, &QThread::finished, this, [this] {
        sweepThread_->deleteLater();
        sweepThread_ = nullptr;
        sweepButton_->setText(QStringLiteral("Sweep"));
        if (!status_->styleSheet().contains(QLatin1String("dc2626")))
            setStatus(QStringLiteral("sweep: %1 points measured").arg(sweep_.size()));
        emit sweepFinished();
    });
    sweepButton_->setText(QStringLiteral("Stop"));
    setStatus(QStringLiteral("sweeping N = 128 … %1 and levels 0 … 4 at N = %2…").arg(std::int64_t(1) << request.toExponent).arg(request.errorN));
    plotTabs_->setCurrentWidget(speedupPlot_);
    sweepThread_->start();
}

void StrassenView::stopSweep()
{
    if (sweepCancel_)
        sweepCancel_->store(true);
}

}  // namespace gigacheck::ui::strassenlab
