// One Start / Cancel and one progress bar for every family: the Run dock starts the Strassen run
// when Strassen is the family shown and the sweep when the Kernel gallery is, follows its progress
// to 100 % and cancels it; background work is one run job at a time (BackgroundJobs), a second
// Start waits in the queue with what was set up when it was asked for, starts when the first
// ends, and can be taken out of the queue before; a new Strassen run never shows the previous
// run's verdict.
#include "ui/uitestmain.hpp"

#include <engine/backgroundjobs.hpp>
#include <panels/runpanel.hpp>
#include <views/gallery/galleryview.hpp>
#include <views/strassen/strassenview.hpp>
#include <window/familyviews.hpp>
#include <models/familyrecord.hpp>
#include <window/mainwindow.hpp>

#include <QComboBox>
#include <QLabel>
#include <QListWidget>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QStatusBar>
#include <QThread>

#include <atomic>

using namespace gigacheck;
using namespace gigacheck::ui;

namespace {

constexpr int kGenerous = 120000;  // ms: a loaded 2-core machine stretches anything

void smallStrassenRun(MainWindow& window)
{
    window.views()->setFamily(LabFamily::Strassen);
    StrassenConfig c;
    c.shape = {64, 64, 64};
    c.levels = 1;
    c.backend = BackendKind::Cpu;
    window.strassenView()->setConfig(c);
}

// The reduced matmul's naive 4p kernel at N = 2^12 on the CPU: a sweep certain to be still going
// when the test cancels it.
gallery::GalleryView* slowGallerySweep(MainWindow& window)
{
    window.views()->setFamily(LabFamily::Gallery);
    auto* view = window.findChild<gallery::GalleryView*>();
    // The gallery's set-up lives in the docks (Matrix setup, Algorithm).
    window.findChild<QComboBox*>(QStringLiteral("galleryFamily"))->setCurrentIndex(0);
    window.findChild<QComboBox*>(QStringLiteral("galleryBackend"))->setCurrentIndex(0);
    auto* list = window.findChild<QListWidget*>(QStringLiteral("galleryVariants"));
    for (int i = 0; i < list->count(); ++i)
        list->item(i)->setCheckState(list->item(i)->text() == QLatin1String("naive4p") ? Qt::Checked : Qt::Unchecked);
    window.findChild<QSpinBox*>(QStringLiteral("galleryTo"))->setValue(12);
    window.findChild<QSpinBox*>(QStringLiteral("galleryFrom"))->setValue(12);
    return view;
}

}  // namespace

class TestRunDock : public QObject {
    Q_OBJECT
private slots:
    void startTextFollowsTheFamily()
    {
        MainWindow window;
        RunPanel* run = window.runPanel();
        window.views()->setFamily(LabFamily::AbftGemm);
        QCOMPARE(run->startButton()->text(), QStringLiteral("▶ Start run"));
        window.views()->setFamily(LabFamily::Gallery);
        QCOMPARE(run->startButton()->text(), QStringLiteral("▶ Start sweep"));
        window.views()->setFamily(LabFamily::Strassen);
        QCOMPARE(run->startButton()->text(), QStringLiteral("▶ Start run"));
        window.views()->setFamily(LabFamily::AbftGemm);
        window.showView(MainWindow::View::OnlineSweep);
        QCOMPARE(run->startButton()->text(), QStringLiteral("▶ Start sweep"));
    }

    void strassenRunFromTheRunDockEndsWithAVerdict()
    {
        MainWindow window;
        window.resize(1366, 768);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        smallStrassenRun(window);
        RunPanel* run = window.runPanel();
        QVERIFY(run->startButton()->isVisible());  // the Run dock stays beside the Strassen view
        QSignalSpy finished(window.strassenView(), &strassenlab::StrassenView::runFinished);
        run->startButton()->click();
        QVERIFY(window.strassenView()->running());
        QVERIFY(BackgroundJobs::instance()->busy());
        QCOMPARE(BackgroundJobs::instance()->runName(), strassenlab::StrassenView::runJobName());
        QVERIFY(run->startButton()->isEnabled());  // it queues the next run
        QCOMPARE(run->startButton()->text(), QStringLiteral("+ Queue next"));
        QVERIFY(run->cancelButton()->isEnabled());
        QCOMPARE(window.strassenView()->verdictText(), QStringLiteral("running…"));
        auto* sweep = window.findChild<QPushButton*>(QStringLiteral("strassenSweep"));
        QVERIFY(sweep && !sweep->isEnabled());  // no sweep beside the run
        auto* busy = window.statusBar()->findChild<QLabel*>(QStringLiteral("busyJob"));
        QVERIFY(busy && busy->isVisible());
        QCOMPARE(busy->text(), QStringLiteral("● Strassen run"));
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kGenerous);
        QVERIFY(sweep->isEnabled());
        QVERIFY(!busy->isVisible());
        QVERIFY(!BackgroundJobs::instance()->busy());
        QVERIFY2(window.strassenView()->verdictText().startsWith(QStringLiteral("VERIFIED")),
                 qPrintable(window.strassenView()->verdictText()));
        QCOMPARE(run->progressBar()->value(), run->progressBar()->maximum());
        QCOMPARE(run->etaText(), QStringLiteral("done"));
        QVERIFY(run->startButton()->isEnabled());
        QCOMPARE(run->startButton()->text(), QStringLiteral("▶ Start run"));
        QVERIFY(!run->cancelButton()->isEnabled());
        QVERIFY2(run->logText().contains(QStringLiteral("Strassen run: VERIFIED")), qPrintable(run->logText()));

        // A second run: the first one's verdict is not on screen while it goes on.
        run->startButton()->click();
        QCOMPARE(window.strassenView()->verdictText(), QStringLiteral("running…"));
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 2, kGenerous);
        QVERIFY(window.strassenView()->verdictText().startsWith(QStringLiteral("VERIFIED")));
    }

    void cancelInTheRunDockStopsTheGallerySweep()
    {
        MainWindow window;
        gallery::GalleryView* view = slowGallerySweep(window);
        RunPanel* run = window.runPanel();
        QSignalSpy done(view, &gallery::GalleryView::sweepFinished);
        run->startButton()->click();
        QVERIFY(view->sweeping());
        QCOMPARE(BackgroundJobs::instance()->runName(), gallery::GalleryView::jobName());
        QVERIFY(run->cancelButton()->isEnabled());
        run->cancelButton()->click();
        QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, kGenerous);
        QVERIFY(!view->sweeping());
        QVERIFY(!BackgroundJobs::instance()->busy());
        QVERIFY(view->points().empty());  // the stopped point is incomplete: not drawn
        QVERIFY2(run->etaText().startsWith(QStringLiteral("cancelled")), qPrintable(run->etaText()));
        QVERIFY2(run->logText().contains(QStringLiteral("gallery sweep cancelled")), qPrintable(run->logText()));
        QVERIFY(run->startButton()->isEnabled());
    }

    void aSecondRunWaitsInTheQueueAndStartsAfterTheFirst()
    {
        MainWindow window;
        RunPanel* run = window.runPanel();
        gallery::GalleryView* view = slowGallerySweep(window);
        window.startRun();  // F5
        QVERIFY(view->sweeping());
        QVERIFY(run->queueLabel()->isHidden());
        QStringList started;
        QObject scope;  // the connection ends with this test
        connect(BackgroundJobs::instance(), &BackgroundJobs::jobStarted, &scope,
                [&started](quint64, const QString& name) { started << name; });

        // Another family's Start while the sweep goes on: queued, not refused, and said so.
        smallStrassenRun(window);
        QSignalSpy strassenDone(window.strassenView(), &strassenlab::StrassenView::runFinished);
        window.startRun();
        QVERIFY(window.strassenView()->running());  // its run waits
        QCOMPARE(BackgroundJobs::instance()->runName(), gallery::GalleryView::jobName());
        QCOMPARE(BackgroundJobs::instance()->queuedNames(), QStringList{strassenlab::StrassenView::runJobName()});
        QVERIFY2(window.strassenView()->statusText().contains(QStringLiteral("queued: starts after the gallery sweep")),
                 qPrintable(window.strassenView()->statusText()));
        QVERIFY(!run->queueLabel()->isHidden());
        QVERIFY2(run->queueLabel()->text().contains(strassenlab::StrassenView::runJobName()), qPrintable(run->queueLabel()->text()));
        // Its view shows one result: Start again for it is said to be waiting already, not queued twice.
        window.startRun();
        QCOMPARE(BackgroundJobs::instance()->queuedNames().size(), 1);
        QVERIFY2(window.statusBar()->currentMessage().contains(QStringLiteral("waits in the queue already")),
                 qPrintable(window.statusBar()->currentMessage()));
        // A checked GEMM run behind it, with the shape set now (changed before its turn comes).
        window.views()->setFamily(LabFamily::AbftGemm);
        window.showView(MainWindow::View::Heatmap);
        RunConfig c;
        c.shape = Shape{96, 80, 72};
        c.backend = BackendKind::Cpu;
        window.setConfig(c);
        window.startRun();
        QVERIFY(!window.session()->isRunning());
        QCOMPARE(BackgroundJobs::instance()->queuedNames().size(), 2);
        QVERIFY2(window.statusBar()->currentMessage().contains(QStringLiteral("and 1 other queued run")),
                 qPrintable(window.statusBar()->currentMessage()));
        RunConfig later = c;
        later.shape = Shape{32, 32, 32};
        window.setConfig(later);

        // Esc: the sweep ends; the Strassen run starts, then the checked run, each in its turn.
        bool finished = false;
        connect(&window, &MainWindow::runFinished, this, [&finished] { finished = true; });
        window.cancelRun();
        QTRY_VERIFY_WITH_TIMEOUT(finished, kGenerous);
        QCOMPARE(strassenDone.count(), 1);
        QVERIFY(!view->sweeping());
        QCOMPARE(started.size(), 2);
        QCOMPARE(started[0], strassenlab::StrassenView::runJobName());
        QCOMPARE(started[1], QStringLiteral("checked GEMM run"));  // EngineController's run, adopted
        const auto record = blockedRecordOf(window.lastRecord());
        QVERIFY(record);
        QCOMPARE(record->config.shape.m, 96);  // what was set up when Start was pressed
        QCOMPARE(record->config.shape.q, 72);
        QVERIFY(BackgroundJobs::instance()->queuedNames().isEmpty());
        QTRY_VERIFY_WITH_TIMEOUT(run->queueLabel()->isHidden(), kGenerous);
        QTRY_VERIFY_WITH_TIMEOUT(!BackgroundJobs::instance()->busy(), kGenerous);
    }

    void aQueuedRunCanBeTakenOutBeforeItStarts()
    {
        MainWindow window;
        RunPanel* run = window.runPanel();
        gallery::GalleryView* view = slowGallerySweep(window);
        window.startRun();
        QVERIFY(view->sweeping());
        smallStrassenRun(window);
        const QString verdictBefore = window.strassenView()->verdictText();
        window.startRun();
        QVERIFY(window.strassenView()->running());
        QCOMPARE(window.strassenView()->verdictText(), QStringLiteral("running…"));

        // Clear queue: the waiting run is gone, its view as it was; the sweep goes on.
        QVERIFY(run->clearQueueButton()->isVisible() || !run->clearQueueButton()->isHidden());
        run->clearQueueButton()->click();
        QVERIFY(!window.strassenView()->running());
        QCOMPARE(window.strassenView()->verdictText(), verdictBefore);
        QVERIFY(BackgroundJobs::instance()->queuedNames().isEmpty());
        QVERIFY(run->queueLabel()->isHidden());
        QVERIFY(view->sweeping());

        // A queued run of the view itself, cancelled from the view: the same.
        window.startRun();
        QVERIFY(window.strassenView()->running());
        window.strassenView()->cancelRun();
        QVERIFY(!window.strassenView()->running());
        QVERIFY(view->sweeping());

        window.cancelRun();  // Esc: the sweep
        QTRY_VERIFY_WITH_TIMEOUT(!BackgroundJobs::instance()->busy(), kGenerous);
        QTest::qWait(100);  // nothing was left to start
        QVERIFY(!BackgroundJobs::instance()->busy());
        QVERIFY(!window.strassenView()->running());
    }

    // Previews (the planner, a heatmap reduction) run beside a run job and never make the lab busy;
    // a view destroyed during its job is not waited for, and the job ends alone.
    void previewsAreNeverBusyAndOwnersAreNotWaitedFor()
    {
        auto* owner = new QObject;
        std::atomic<bool> release{false};
        bool delivered = false;
        JobSpec preview;
        preview.name = QStringLiteral("test preview");
        preview.owner = owner;
        preview.kind = JobKind::Preview;
        preview.onDone = [&delivered] { delivered = true; };
        const quint64 job = BackgroundJobs::instance()->start(preview, [&release](const JobContext& ctx) {
            while (!release.load() && !ctx.cancelled())
                QThread::msleep(5);
        });
        QVERIFY(job != 0);
        QVERIFY(!BackgroundJobs::instance()->busy());
        QCOMPARE(BackgroundJobs::instance()->running(QStringLiteral("test preview")), 1);
        delete owner;  // returns at once
        release.store(true);
        QTRY_COMPARE_WITH_TIMEOUT(BackgroundJobs::instance()->running(QStringLiteral("test preview")), 0, kGenerous);
        QVERIFY(!delivered);  // the owner was gone: nothing reached it
    }
};

GIGACHECK_UI_TEST_MAIN(TestRunDock)
#include "tst_rundock.moc"
