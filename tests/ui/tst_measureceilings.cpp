// Issue 12 item 5, "a roofline for this machine": Measure this machine… (the Roofline view's
// button and Run › Measure this machine…) measures the ceilings of the device Matrix setup picks
// on a worker thread, with progress per point; on success they are stored where `gigacheck
// devices --measure` stores them and drawn as the roofs at once; Cancel stores nothing and keeps
// the roofs; closing the window mid-measurement neither waits nor crashes; a run is refused
// meanwhile; a device that is not there is a clear message. HOME and XDG_CONFIG_HOME point at a
// temporary folder per test. The completed measurement is the quick one (CeilingsMeasurer::
// setQuick: a full CPU measurement takes 5-10 s here); cancel and close use the full one, which is
// certain to be still going when they come.
#include "ui/uitestmain.hpp"

#include <engine/backgroundjobs.hpp>
#include <engine/ceilingsmeasurer.hpp>
#include <session/labsession.hpp>
#include <views/rooflineview.hpp>
#include <window/mainwindow.hpp>

#include <gigacheck/bench.hpp>

#include <QAction>
#include <QComboBox>
#include <QFile>
#include <QPointer>
#include <QProgressBar>
#include <QPushButton>
#include <QStatusBar>
#include <QTemporaryDir>

using namespace gigacheck;
using namespace gigacheck::ui;

namespace {

constexpr int kGenerous = 120000;  // ms: a loaded 2-core machine stretches anything

void chooseBackend(MainWindow& window, BackendKind backend)
{
    auto* box = window.findChild<QComboBox*>(QStringLiteral("backend"));
    box->setCurrentIndex(box->findData(int(backend)));
}

DeviceInfo thisCpu()
{
    std::string why;
    for (const DeviceInfo& d : listDevices(&why))
        if (d.backend == BackendKind::Cpu)
            return d;
    return {};
}

}  // namespace

class TestMeasureCeilings : public QObject {
    Q_OBJECT
private slots:
    void init()
    {
        home_ = std::make_unique<QTemporaryDir>();
        QVERIFY(home_->isValid());
        qputenv("HOME", home_->path().toUtf8());
        qputenv("XDG_CONFIG_HOME", (home_->path() + QStringLiteral("/config")).toUtf8());
        path_ = QString::fromStdString(defaultCeilingsPath());
        QVERIFY(path_.startsWith(home_->path()));
    }

    void theButtonMeasuresStoresAndShowsMeasuredRoofs()
    {
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        chooseBackend(window, BackendKind::Cpu);
        window.ceilingsMeasurer()->setQuick(true);
        RooflineView* roofline = window.roofline();
        QVERIFY(!roofline->showsMeasuredRoofs());  // nothing stored yet: the CPU's datasheet preset
        QSignalSpy progress(window.ceilingsMeasurer(), &CeilingsMeasurer::progressed);

        roofline->measureButton()->click();
        QVERIFY(window.ceilingsMeasurer()->isRunning());
        QCOMPARE(window.currentView(), MainWindow::View::Roofline);
        auto* bar = roofline->findChild<QProgressBar*>(QStringLiteral("measureProgress"));
        QVERIFY(bar && !bar->isHidden());
        QVERIFY(roofline->measureButton()->isHidden());
        QVERIFY(!window.findChild<QAction*>(QStringLiteral("measureAction"))->isEnabled());

        QTRY_VERIFY_WITH_TIMEOUT(!window.ceilingsMeasurer()->isRunning(), kGenerous);
        // Stored where the CLI stores them, for this machine's CPU.
        QVERIFY(QFile::exists(path_));
        DeviceInfo stored = thisCpu();
        QVERIFY(loadCeilings(path_.toStdString(), stored));
        QVERIFY(stored.ceilings.gflopsF32 > 0);
        // Drawn at once, said in the status bar, the button back.
        QVERIFY(roofline->showsMeasuredRoofs());
        QCOMPARE(roofline->activeCeilings().gflopsF32, stored.ceilings.gflopsF32);
        QVERIFY(roofline->findChild<QComboBox*>(QStringLiteral("roofSource"))->currentText().startsWith(QStringLiteral("measured: CPU")));
        QVERIFY2(window.statusBar()->currentMessage().contains(QStringLiteral("measured roofs")),
                 qPrintable(window.statusBar()->currentMessage()));
        QVERIFY(!roofline->measureButton()->isHidden());
        QVERIFY(bar->isHidden());
        QVERIFY(window.findChild<QAction*>(QStringLiteral("measureAction"))->isEnabled());
        // Progress came per point, in order, done <= total, ending with every point done.
        QVERIFY(progress.count() >= 2);
        int lastDone = -1;
        for (const QList<QVariant>& p : progress) {
            QVERIFY(p.at(1).toInt() > lastDone);
            QVERIFY(p.at(1).toInt() <= p.at(2).toInt());
            lastDone = p.at(1).toInt();
        }
        QCOMPARE(progress.last().at(0).toString(), QStringLiteral("done"));
        QCOMPARE(progress.last().at(1).toInt(), progress.last().at(2).toInt());

        // A new view (the next launch) finds them without a run: this machine's CPU.
        RooflineView fresh;
        QVERIFY(fresh.showsMeasuredRoofs());
    }

    void cancelStoresNothingAndKeepsTheRoofs()
    {
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        chooseBackend(window, BackendKind::Cpu);
        RooflineView* roofline = window.roofline();
        const std::string before = roofline->activeCeilings().source;
        QSignalSpy progress(window.ceilingsMeasurer(), &CeilingsMeasurer::progressed);
        QSignalSpy cancelled(window.ceilingsMeasurer(), &CeilingsMeasurer::cancelled);
        QSignalSpy measured(window.ceilingsMeasurer(), &CeilingsMeasurer::measured);

        window.findChild<QAction*>(QStringLiteral("measureAction"))->trigger();  // the menu's route
        QVERIFY(window.ceilingsMeasurer()->isRunning());
        QTRY_VERIFY_WITH_TIMEOUT(!progress.isEmpty(), kGenerous);  // under way
        auto* cancel = roofline->findChild<QPushButton*>(QStringLiteral("measureCancel"));
        QVERIFY(cancel && !cancel->isHidden());
        cancel->click();
        QTRY_VERIFY_WITH_TIMEOUT(!window.ceilingsMeasurer()->isRunning(), kGenerous);
        QCOMPARE(cancelled.count(), 1);
        QCOMPARE(measured.count(), 0);
        // Stopped within the measurement: far fewer points than it has.
        QVERIFY(progress.last().at(1).toInt() < progress.last().at(2).toInt());
        QVERIFY(!QFile::exists(path_));
        QCOMPARE(roofline->activeCeilings().source, before);
        QVERIFY(!roofline->showsMeasuredRoofs());
        QVERIFY2(window.statusBar()->currentMessage().contains(QStringLiteral("nothing stored")),
                 qPrintable(window.statusBar()->currentMessage()));
        QVERIFY(!roofline->measureButton()->isHidden());
    }

    void closingDuringAMeasurementNeitherWaitsNorCrashes()
    {
        auto* window = new MainWindow;
        window->show();
        QVERIFY(QTest::qWaitForWindowExposed(window));
        chooseBackend(*window, BackendKind::Cpu);
        QSignalSpy progress(window->ceilingsMeasurer(), &CeilingsMeasurer::progressed);
        window->measureCeilings();
        QTRY_VERIFY_WITH_TIMEOUT(!progress.isEmpty(), kGenerous);
        QCOMPARE(CeilingsMeasurer::workersRunning(), 1);
        // A run would skew the roofs: it waits in the queue while they are measured, and says so.
        window->startRun();
        QVERIFY(!window->session()->isRunning());
        QCOMPARE(BackgroundJobs::instance()->queuedNames().size(), 1);
        QVERIFY2(window->statusBar()->currentMessage().contains(QStringLiteral("queued: starts after the ceilings measurement")),
                 qPrintable(window->statusBar()->currentMessage()));

        QVERIFY(window->close());
        delete window;  // the measurer goes with it; its worker is told to stop and ends alone
        QTRY_COMPARE_WITH_TIMEOUT(CeilingsMeasurer::workersRunning(), 0, kGenerous);
        QTest::qWait(50);  // whatever the worker posted finds no window
        QVERIFY(!QFile::exists(path_));
        // The run queued by the window that is gone is dropped, not started.
        QTRY_VERIFY_WITH_TIMEOUT(BackgroundJobs::instance()->queuedNames().isEmpty(), kGenerous);
        QVERIFY(!BackgroundJobs::instance()->busy());
    }

    void aGpuThatIsNotThereIsAClearMessage()
    {
        std::string why;
        for (const DeviceInfo& d : listDevices(&why))
            if (d.backend == BackendKind::Cuda)
                QSKIP("a CUDA device is present: the no-GPU message cannot be shown");
        MainWindow window;
        chooseBackend(window, BackendKind::Cuda);
        window.measureCeilings();
        QVERIFY(!window.ceilingsMeasurer()->isRunning());
        QVERIFY2(window.statusBar()->currentMessage().startsWith(QStringLiteral("Cannot measure the ceilings: no CUDA")),
                 qPrintable(window.statusBar()->currentMessage()));
        QVERIFY(!QFile::exists(path_));
    }

private:
    std::unique_ptr<QTemporaryDir> home_;
    QString path_;
};

GIGACHECK_UI_TEST_MAIN(TestMeasureCeilings)
#include "tst_measureceilings.moc"
