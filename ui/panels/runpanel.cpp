#include "runpanel.hpp"

#include "engine/backgroundjobs.hpp"
#include "models/sizetext.hpp"

#include "models/rooflinemodel.hpp"
#include "models/runverdict.hpp"
#include "session/labsession.hpp"

#include <QCheckBox>
#include <QDateTime>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QVBoxLayout>

#include <algorithm>

namespace gigacheck::ui {

namespace {

QString qs(std::string_view s)
{
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

}  // namespace

RunPanel::RunPanel(QWidget* parent) : QWidget(parent)
{
    start_ = new QPushButton(QStringLiteral("▶ Start run"), this);
    start_->setObjectName(QStringLiteral("startRun"));
    cancel_ = new QPushButton(QStringLiteral("■ Cancel"), this);
    cancel_->setObjectName(QStringLiteral("cancelRun"));
    cancel_->setEnabled(false);
    compare_ = new QCheckBox(QStringLiteral("compare with the previous run"), this);
    compare_->setToolTip(QStringLiteral("Keep the lanes of the last run that ended well beside the new one"));
    progress_ = new QProgressBar(this);
    progress_->setRange(0, 1000);
    progress_->setValue(0);
    progress_->setFormat(QStringLiteral("%p%"));
    eta_ = new QLabel(QStringLiteral("idle"), this);
    queue_ = new QLabel(this);
    queue_->setObjectName(QStringLiteral("runQueue"));
    queue_->setWordWrap(true);
    queue_->hide();
    clearQueue_ = new QPushButton(QStringLiteral("✕ Clear queue"), this);
    clearQueue_->setObjectName(QStringLiteral("clearQueue"));
    clearQueue_->setToolTip(QStringLiteral("Take every waiting run out of the queue (the run going on goes on)"));
    clearQueue_->hide();
    log_ = new QPlainTextEdit(this);
    log_->setObjectName(QStringLiteral("runLog"));
    log_->setReadOnly(true);
    log_->setMaximumBlockCount(5000);
    scaleLogFont();

    auto* buttons = new QHBoxLayout;
    buttons->addWidget(start_);
    buttons->addWidget(cancel_);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(buttons);
    layout->addWidget(compare_);
    layout->addWidget(progress_);
    layout->addWidget(eta_);
    layout->addWidget(queue_);
    layout->addWidget(clearQueue_, 0, Qt::AlignLeft);  // under the names: a narrow dock keeps it whole
    layout->addWidget(log_, 1);
    connect(start_, &QPushButton::clicked, this, &RunPanel::startRequested);
    connect(cancel_, &QPushButton::clicked, this, &RunPanel::cancelRequested);
}

void RunPanel::scaleLogFont()
{
    QFont mono(QStringLiteral("monospace"));
    mono.setStyleHint(QFont::Monospace);
    mono.setPointSizeF(font().pointSizeF() * 0.9);
    log_->setFont(mono);
}

void RunPanel::changeEvent(QEvent* event)
{
    // The log's font is set, so it does not follow the application's: presentation mode and
    // View › Larger text reach it here.
    if (event->type() == QEvent::FontChange)
        scaleLogFont();
    QWidget::changeEvent(event);
}

void RunPanel::setRunning(bool running)
{
    running_ = running;
    progress_->setRange(0, 1000);
    showStart(running);  // Start stays: while a run goes on it queues the next one
    cancel_->setEnabled(running);
    if (running) {
        progress_->setValue(0);
        eta_->setText(QStringLiteral("starting…"));
    } else {
        eta_->setText(QStringLiteral("idle"));
    }
    progress_->setFormat(QStringLiteral("%p%"));
}

void RunPanel::setProgress(double fraction, double etaSeconds)
{
    if (running_ && fraction >= 1.0) {
        // Every op reported, but the run has not ended (the repair pass, the record): never 100 %
        // with Cancel still active.
        progress_->setValue(progress_->maximum() - 1);
        eta_->setText(QStringLiteral("finishing…"));
        return;
    }
    progress_->setRange(0, 1000);  // a job's busy bar becomes a fraction
    progress_->setValue(int(std::min(fraction, 1.0) * 1000));
    if (fraction >= 1.0) {
        eta_->setText(QStringLiteral("done"));
        return;
    }
    eta_->setText(etaSeconds < 0 ? QStringLiteral("running…")
                                 : QStringLiteral("about %1 s left").arg(etaSeconds, 0, 'f', etaSeconds < 10 ? 1 : 0));
}

void RunPanel::showStart(bool busy)
{
    start_->setText(busy ? QStringLiteral("+ Queue next") : startText_);
    start_->setToolTip(busy ? QStringLiteral("Queue what is set up now: it starts when the run going on ends (F5)")
                            : startToolTip_);
}

void RunPanel::setStartText(const QString& text, const QString& toolTip)
{
    startText_ = text;
    startToolTip_ = toolTip;
    showStart(running_);
}

void RunPanel::followJobs(BackgroundJobs* jobs)
{
    connect(clearQueue_, &QPushButton::clicked, jobs, &BackgroundJobs::clearQueue);
    connect(jobs, &BackgroundJobs::queueChanged, this, [this, jobs] {
        const QStringList names = jobs->queuedNames();
        queue_->setText(QStringLiteral("Queued next: %1").arg(names.join(QStringLiteral(", then "))));
        queue_->setVisible(!names.isEmpty());
        clearQueue_->setVisible(!names.isEmpty());
    });
    // Whatever runs, a run job of any kind or the session's: Start queues behind it.
    connect(jobs, &BackgroundJobs::busyChanged, this, &RunPanel::showStart);
    connect(jobs, &BackgroundJobs::jobStarted, this, [this, jobs](quint64 job, const QString& name, JobKind kind) {
        if (kind != JobKind::Run || jobs->isAdopted(job))
            return;  // previews never make the lab busy; the session reports its own runs
        followedJob_ = job;
        setRunning(true);
        progress_->setRange(0, 0);  // busy until the job reports a fraction
        eta_->setText(QStringLiteral("%1…").arg(name));
        log(QStringLiteral("start %1").arg(name));
    });
    connect(jobs, &BackgroundJobs::jobProgress, this, [this](quint64 job, double fraction, double eta) {
        if (job == followedJob_)
            setProgress(fraction, eta);
    });
    connect(jobs, &BackgroundJobs::jobEnded, this, [this](quint64 job, const QString& name, bool cancelled) {
        if (job != followedJob_)
            return;
        followedJob_ = 0;
        const int reached = progress_->maximum() > 0 ? progress_->value() / 10 : 0;
        setRunning(false);
        if (cancelled) {
            progress_->setValue(reached * 10);
            eta_->setText(QStringLiteral("cancelled at %1%").arg(reached));
            log(QStringLiteral("%1 cancelled").arg(name));
            return;
        }
        setProgress(1.0, 0.0);
        log(QStringLiteral("%1 ended").arg(name));
    });
}

void RunPanel::log(const QString& line)
{
    log_->appendPlainText(QDateTime::currentDateTime().toString(QStringLiteral("HH:mm:ss.zzz ")) + line);
}

bool RunPanel::compareWithPrevious() const
{
    return compare_->isChecked();
}

void RunPanel::setCompareWithPrevious(bool on)
{
    compare_->setChecked(on);
}

QString RunPanel::etaText() const
{
    return eta_->text();
}

QString RunPanel::logText() const
{
    return log_->toPlainText();
}

void RunPanel::subscribe(LabSession* session)
{
    connect(session, &LabSession::runStarted, this, [this, session] {
        setRunning(true);
        if (const std::optional<OnlineConfig>& online = session->startedOnline()) {  // its scheme, not a strategy
            log(QStringLiteral("start %1, %2 placed + %3 random fault(s)")
                    .arg(onlineRunLabel(*online))
                    .arg(online->faults.size())
                    .arg(online->randomErrors));
            return;
        }
        if (!session->startedBlocked())
            return;
        const RunConfig& c = *session->startedBlocked();
        log(QStringLiteral("start %1, cap %2, %3 explicit + %4 random fault(s)")
                .arg(blockedRunLabel(c), c.memCapBytes ? sizeText(double(c.memCapBytes), looksBinary(c.memCapBytes))
                                                        : QStringLiteral("the device's memory"))
                .arg(c.faults.at.size())
                .arg(c.faults.count));
    });
    connect(session, &LabSession::progressChanged, this, &RunPanel::setProgress);
    connect(session, &LabSession::injectionsArrived, this, [this](const QVector<InjectEvent>& events) {
        for (const InjectEvent& e : events)
            log(QStringLiteral("inject %1 at block (%2,%3,%4) local (%5,%6): %7 → %8")
                    .arg(qs(toString(e.injection.target)))
                    .arg(e.injection.block.i).arg(e.injection.block.j).arg(e.injection.block.k)
                    .arg(e.injection.localRow).arg(e.injection.localCol)
                    .arg(e.injection.before, 0, 'g', 6).arg(e.injection.after, 0, 'g', 6));
    });
    connect(session, &LabSession::verificationsArrived, this, [this](const QVector<VerifyEvent>& events) {
        for (const VerifyEvent& e : events)
            if (e.result.verdict != Verdict::Clean)
                log(QStringLiteral("verify block (%1,%2): %3, %4 row / %5 col mismatches, %6 correction(s)")
                        .arg(e.block.i).arg(e.block.j).arg(qs(toString(e.result.verdict)))
                        .arg(e.result.mismatchRows.size()).arg(e.result.mismatchCols.size())
                        .arg(e.result.corrections.size()));
    });
    connect(session, &LabSession::recordChanged, this, [this](const RecordPtr& r, LabSession::Origin origin) {
        const RecordEnvelope& record = *r;
        if (origin == LabSession::Origin::File) {
            log(QStringLiteral("opened record: %1, %2 spans, %3 verification(s)")
                    .arg(runLabel(record))
                    .arg(record.spans.size())
                    .arg(record.verifications.size()));
            return;
        }
        setRunning(false);
        if (record.status == "ok")
            setProgress(1.0, 0.0);
        else if (record.status == "cancelled")  // not "idle" beside a bar stopped part-way
            eta_->setText(QStringLiteral("cancelled at %1%").arg(progress_->value() / 10));
        // The verdict and counts every view shows (models/runverdict): each family's from its own record.
        const RunVerdict v = runVerdictOf(record);
        log(QStringLiteral("%1 in %2 s (execute %3 s), %4 GFLOP/s, %5 spans; %6")
                .arg(QString::fromStdString(record.status))
                .arg(record.metrics.totalSeconds, 0, 'f', 3)
                .arg(record.metrics.executeSeconds, 0, 'f', 3)
                .arg(v.gflops, 0, 'f', 2)
                .arg(record.spans.size())
                .arg(v.summary()));
    });
    connect(session, &LabSession::runFailed, this, [this] { setRunning(false); });
}

}  // namespace gigacheck::ui
