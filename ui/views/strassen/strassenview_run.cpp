// The Strassen view's work: a run, an opened record and the sweep, the run and the sweep as
// background run jobs (BackgroundJobs), with their Cancel.
#include "views/strassen/strassenview.hpp"

#include "engine/backgroundjobs.hpp"

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

namespace {

// The engine's progress (fraction of operations done) as the job's, for the Run dock's bar.
class JobProgressObserver : public RunObserver {
public:
    explicit JobProgressObserver(const JobContext& job) : job_(job) {}
    void onProgress(double fraction) override { job_.setProgress(fraction); }

private:
    const JobContext& job_;
};

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
    run(c, QString());
}

void StrassenView::replayRun(const StrassenConfig& c, const QString& what)
{
    if (running())
        return;
    setConfig(c);  // the controls show its shape, levels, type, backend and faults
    run(c, what);
}

void StrassenView::run(const StrassenConfig& c, const QString& replayed)
{
    struct Outcome {
        std::optional<StrassenResult> result;
        std::shared_ptr<const Schedule> schedule;
        QString error;
    };
    auto outcome = std::make_shared<Outcome>();  // written by the job, read in onDone
    JobSpec spec;
    spec.name = runJobName();
    spec.owner = this;
    spec.onDone = [this, outcome] {
        runJob_ = 0;
        setRunning(false);
        if (!outcome->error.isEmpty() || !outcome->result) {
            setStatus(QStringLiteral("Run failed: %1").arg(outcome->error), true);
            emit runFailed(outcome->error);
            return;
        }
        result_ = std::move(outcome->result);
        schedule_ = outcome->schedule;
        showResult();
        if (result_->status == "failed") {
            setStatus(QStringLiteral("Run failed: %1").arg(QString::fromStdString(result_->error)), true);
            emit runFailed(QString::fromStdString(result_->error));
            return;
        }
        setStatus(QStringLiteral("Run %1 on %2: %3")
                      .arg(result_->status == "cancelled" ? QStringLiteral("cancelled") : QStringLiteral("finished"),
                           QString::fromStdString(result_->devices.front().name), verdictHeadline(*result_)));
        emit runFinished();
    };
    // Taken out of the queue before it started: the previous verdict as it was shown.
    spec.onUnqueued = [this, text = verdict_->text(), style = verdict_->styleSheet(), details = details_->text()] {
        runJob_ = 0;
        setRunning(false);
        verdict_->setText(text);
        verdict_->setStyleSheet(style);
        details_->setText(details);
        setStatus(QStringLiteral("queued run cancelled before it started"));
    };
    const quint64 job = BackgroundJobs::instance()->start(spec, [outcome, c](const JobContext& job) {
        try {
            auto backend = makeStrassenBackend(c);
            JobProgressObserver progress(job);
            outcome->result = runStrassen(c, *backend, &progress, job.cancelFlag());
            // The schedule the run executed (deterministic): op ids of its spans -> recipe steps.
            StrassenConfig plain = outcome->result->config;
            outcome->schedule = std::make_shared<const Schedule>(buildStrassenSchedule(plain));
        } catch (const std::exception& e) {
            outcome->error = QString::fromStdString(e.what());
        }
    });
    runJob_ = job;
    setRunning(true);
    // Not the last run's verdict beside a run that has not ended: its words greyed, its figures gone.
    verdict_->setText(QStringLiteral("running…"));
    verdict_->setStyleSheet(QStringLiteral("color: palette(mid)"));
    details_->setText(QStringLiteral("The previous run's verdict and figures are replaced when this run ends."));
    // A replay says which run it is, its seed and fault model.
    const QString what = !replayed.isEmpty() ? QStringLiteral("%1 (seed %2, fault %3)")
                                                  .arg(replayed)
                                                  .arg(c.seed)
                                                  .arg(qs(toString(c.faultModel)))
                                            : QStringLiteral("%1×%2×%3, %4, %5 level(s)")
                                                  .arg(c.shape.m)
                                                  .arg(c.shape.n)
                                                  .arg(c.shape.q)
                                                  .arg(qs(toString(c.variant)))
                                                  .arg(c.levels);
    const QString queued = BackgroundJobs::instance()->queuedNote(job);
    whenStarted_ = QStringLiteral("running %1…").arg(what);
    setStatus(queued.isEmpty() ? whenStarted_ : QStringLiteral("%1 %2").arg(what, queued));
}

void StrassenView::cancelRun()
{
    if (runJob_)
        BackgroundJobs::instance()->cancel(runJob_);
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
    JobSpec spec;
    spec.name = sweepJobName();
    spec.owner = this;
    spec.onDone = [this] {
        sweepJob_ = 0;
        sweepButton_->setEnabled(!running());
        if (!status_->styleSheet().contains(QLatin1String("dc2626")))
            setStatus(QStringLiteral("sweep: %1 points measured").arg(sweep_.size()));
        emit sweepFinished();
    };
    spec.onUnqueued = [this] {
        sweepJob_ = 0;
        sweepButton_->setEnabled(!running());
        setStatus(QStringLiteral("queued sweep cancelled before it started"));
        emit sweepFinished();
    };
    const quint64 job = BackgroundJobs::instance()->start(spec, [this, request](const JobContext& job) {
        const double total = sweepWork(request);
        double done = 0;
        runSweep(
            request,
            [this, &job, &request, total, &done](const SweepPoint& p) {
                done += pointWork(request, p);
                job.setProgress(done / total);
                job.post([this, p] {  // only while the view exists
                    sweep_.push_back(p);
                    if (!p.error.isEmpty())
                        setStatus(QStringLiteral("sweep at N = %1: %2").arg(p.n).arg(p.error), true);
                    plotSpeedup(speedupPlot_, sweep_);
                    plotErrorVsLevels(errorPlot_, sweep_);
                    plotRecoveryVsLevels(recoveryPlot_, sweep_);
                });
            },
            *job.cancelFlag());
    });
    sweepJob_ = job;
    sweepButton_->setEnabled(false);
    sweep_.clear();
    replotAll();
    const QString queued = BackgroundJobs::instance()->queuedNote(job);
    whenStarted_ = QStringLiteral("sweeping N = 128 … %1 and levels 0 … 4 at N = %2…").arg(std::int64_t(1) << request.toExponent).arg(request.errorN);
    setStatus(queued.isEmpty() ? whenStarted_ : QStringLiteral("sweep %1").arg(queued));
    plotTabs_->setCurrentWidget(speedupPlot_);
}

void StrassenView::stopSweep()
{
    if (sweepJob_)
        BackgroundJobs::instance()->cancel(sweepJob_);
}

}  // namespace gigacheck::ui::strassenlab
