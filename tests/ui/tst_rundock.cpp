// One Start / Cancel and one progress bar for every family: the Run dock starts the Strassen run
// when Strassen is the family shown and the sweep when the Kernel gallery is, follows its progress
// to 100 % and cancels it; background work is one run job at a time (BackgroundJobs), a second
// Start is refused with the reason; a new Strassen run never shows the previous run's verdict.
#include "ui/uitestmain.hpp"

#include <engine/backgroundjobs.hpp>
#include <panels/runpanel.hpp>
#include <views/gallery/galleryview.hpp>
#include <views/strassen/strassenview.hpp>
#include <window/familyviews.hpp>
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
    view->findChild<QComboBox*>(QStringLiteral("galleryFamily"))->setCurrentIndex(0);
    view->findChild<QComboBox*>(QStringLiteral("galleryBackend"))->setCurrentIndex(0);
    auto* list = view->findChild<QListWidget*>(QStringLiteral("galleryVariants"));
    for (int i = 0; i < list->count(); ++i)
        list->item(i)->setCheckState(list->item(i)->text() == QLatin1String("naive4p") ? Qt::Checked : Qt::Unchecked);
    const QList<QSpinBox*> spins = view->findChildren<QSpinBox*>();
    spins[1]->setValue(12);
    spins[0]->setValue(12);
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
        QVERIFY(!run->startButton()->isEnabled());
        QVERIFY(run->cancelButton()->isEnabled());
        QCOMPARE(window.strassenView()->verdictText(), QStringLiteral("running…"));
        auto* sweep = window.strassenView()->findChild<QPushButton*>(QStringLiteral("strassenSweep"));
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

    void oneRunJobAtATime()
    {
        MainWindow window;
        gallery::GalleryView* view = slowGallerySweep(window);
        window.startRun();  // F5
        QVERIFY(view->sweeping());

        // Another family's Start while the sweep goes on: refused, and said why.
        smallStrassenRun(window);
        QSignalSpy failed(window.strassenView(), &strassenlab::StrassenView::runFailed);
        window.startRun();
        QVERIFY(!window.strassenView()->running());
        QVERIFY2(window.statusBar()->currentMessage().contains(QStringLiteral("gallery sweep is running")),
                 qPrintable(window.statusBar()->currentMessage()));
        // The view asked directly is refused by the job queue itself.
        window.strassenView()->startRun();
        QVERIFY(!window.strassenView()->running());
        QCOMPARE(failed.count(), 1);
        QVERIFY(failed.first().first().toString().contains(QStringLiteral("gallery sweep is running")));
        // Nor does a checked GEMM run start beside it.
        window.views()->setFamily(LabFamily::AbftGemm);
        window.showView(MainWindow::View::Heatmap);
        window.startRun();
        QVERIFY(!window.session()->isRunning());

        window.cancelRun();  // Esc: the job going on, whichever family is shown
        QTRY_VERIFY_WITH_TIMEOUT(!BackgroundJobs::instance()->busy(), kGenerous);
        QVERIFY(!view->sweeping());
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
