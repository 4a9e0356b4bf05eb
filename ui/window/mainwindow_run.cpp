// MainWindow's one Start / Cancel (the Run dock, F5, Esc, the Run menu) for every family: the
// checked GEMM run the panels describe, the Strassen run, the kernel gallery's sweep or the fq
// sweep, whichever the family selector and the view shown say. Each is a run job of
// BackgroundJobs, so one runs at a time, the next ones wait in its queue, and the Run dock shows
// the progress, cancels the run going on and empties the queue.
#include "mainwindow.hpp"

#include "engine/backgroundjobs.hpp"
#include "engine/ceilingsmeasurer.hpp"
#include "models/rooflinemodel.hpp"
#include "models/runverdict.hpp"
#include "panels/runpanel.hpp"
#include "panels/onlineschemebox.hpp"
#include "panels/strategypanel.hpp"
#include "views/gallery/galleryview.hpp"
#include "views/online/fqsweepmodel.hpp"
#include "views/online/onlinesweepview.hpp"
#include "views/strassen/strassenview.hpp"
#include "window/confighistory.hpp"
#include "window/familyviews.hpp"

#include <QLabel>
#include <QPushButton>
#include <QStatusBar>

namespace gigacheck::ui {

MainWindow::RunTarget MainWindow::runTarget() const
{
    switch (tabs_->family()) {
    case LabFamily::Strassen:
        return RunTarget::Strassen;
    case LabFamily::Gallery:
        return RunTarget::Gallery;
    case LabFamily::AbftGemm:
        break;
    }
    return currentView() == View::OnlineSweep ? RunTarget::FqSweep : RunTarget::CheckedGemm;
}

void MainWindow::connectRunDock()
{
    run_->followJobs(BackgroundJobs::instance());
    // The busy state in the status bar too, where it shows with the Run dock closed.
    auto* busy = new QLabel(this);
    busy->setObjectName(QStringLiteral("busyJob"));
    busy->hide();
    statusBar()->addPermanentWidget(busy);
    connect(BackgroundJobs::instance(), &BackgroundJobs::busyChanged, busy, [busy](bool on) {
        busy->setText(on ? QStringLiteral("● %1").arg(BackgroundJobs::instance()->runName()) : QString());
        busy->setVisible(on);
    });
    connect(tabs_, &QTabWidget::currentChanged, this, &MainWindow::updateRunTarget);
    connect(tabs_, &FamilyViews::familyChanged, this, &MainWindow::updateRunTarget);
    connect(strassen_, &strassenlab::StrassenView::runFinished, this, [this] {
        const QString text = QStringLiteral("Strassen run: %1").arg(strassen_->verdictText());
        run_->log(text);
        statusBar()->showMessage(text);
    });
    connect(strassen_, &strassenlab::StrassenView::runFailed, this, [this](const QString& message) {
        run_->log(QStringLiteral("Strassen run failed: %1").arg(message));
        statusBar()->showMessage(QStringLiteral("Strassen run failed: %1").arg(message), 10000);
    });
    updateRunTarget();
}

void MainWindow::updateRunTarget()
{
    const RunTarget target = runTarget();
    switch (target) {
    case RunTarget::CheckedGemm:
        run_->setStartText(QStringLiteral("▶ Start run"), QStringLiteral("Run the product set up in the panels (F5)"));
        break;
    case RunTarget::Strassen:
        run_->setStartText(QStringLiteral("▶ Start run"), QStringLiteral("Run the Strassen product set up above the steps (F5)"));
        break;
    case RunTarget::Gallery:
        run_->setStartText(QStringLiteral("▶ Start sweep"), QStringLiteral("Sweep the checked kernels over the sizes chosen (F5)"));
        break;
    case RunTarget::FqSweep:
        run_->setStartText(QStringLiteral("▶ Start sweep"), QStringLiteral("Sweep the check frequency fq (F5)"));
        break;
    }
    // The scheme (blocked, online, offline, TMR) belongs to the checked GEMM run only.
    strategy_->schemeBox()->setVisible(target == RunTarget::CheckedGemm);
}

void MainWindow::startRun()
{
    history_->flush();  // what runs is a step of its own, undoable
    // A run asked for while another goes on (a checked GEMM run, a Strassen run, a sweep, a
    // measurement) waits in BackgroundJobs' queue with what is set up now; none is dropped.
    // A view shows one result: its own run or sweep going on or waiting is not asked for again.
    const auto once = [this](bool pending, const QString& what) {
        if (pending)
            statusBar()->showMessage(QStringLiteral("The %1 goes on or waits in the queue already: one at a time, "
                                                    "its view shows one result (Esc cancels the run going on).")
                                         .arg(what),
                                     8000);
        return !pending;
    };
    switch (runTarget()) {
    case RunTarget::Strassen:
        showView(View::Strassen);
        if (once(strassen_->running(), strassenlab::StrassenView::runJobName()))
            strassen_->startRun();
        return;
    case RunTarget::Gallery:
        if (once(gallery_->sweeping(), gallery::GalleryView::jobName()))
            gallery_->startSweep();
        return;
    case RunTarget::FqSweep:
        if (once(onlineSweep_->model()->running(), FqSweepModel::jobName()))
            onlineSweep_->start();
        return;
    case RunTarget::CheckedGemm:
        break;
    }
    RunConfig c;
    QString error;
    if (!currentConfig(&c, &error) || !operandsReady(&error)) {
        reportError(error);
        return;
    }
    const bool compare = run_->compareWithPrevious();
    const std::optional<OnlineConfig> online = currentOnlineConfig(&error);
    // The scheme for an online run, not a strategy.
    const QString label = online ? onlineRunLabel(*online) : blockedRunLabel(c);
    const auto shown = [this, label] {
        statusBar()->showMessage(QStringLiteral("Running %1 …").arg(label));
        showView(View::Timeline);
    };
    std::function<void()> begin;
    if (online)
        begin = [this, o = *online, compare, shown] {
            session_->startOnline(o, compare);
            shown();
        };
    else
        begin = [this, c, compare, shown] {
            session_->start(c, compare);
            shown();
        };
    const quint64 queued = BackgroundJobs::instance()->enqueue(QStringLiteral("checked GEMM run (%1)").arg(label), this, begin);
    if (queued) {
        const QString text = QStringLiteral("Run %1 %2.").arg(label, BackgroundJobs::instance()->queuedNote(queued));
        run_->log(text);
        statusBar()->showMessage(text, 10000);
    }
}

void MainWindow::cancelRun()
{
    if (session_->isRunning()) {
        run_->log(QStringLiteral("cancel requested"));
        session_->cancel();
        return;
    }
    if (BackgroundJobs::instance()->busy()) {  // a Strassen run, a sweep, a measurement
        run_->log(QStringLiteral("cancel requested: %1").arg(BackgroundJobs::instance()->runName()));
        BackgroundJobs::instance()->cancelRun();
    }
}

}  // namespace gigacheck::ui
