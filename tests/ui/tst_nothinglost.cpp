// Nothing lost: Start during a run, by every route (button, F5, menu, a direct call), queues the
// next run and never cuts the one going on, a shape change drops only the faults outside C and says so, closing during a run
// asks (Cancel keeps it, Save keeps its partial record, Discard closes), a failed run never
// replaces the comparison lanes, and a record loaded for comparison stays until removed.
#include "ui/uitestmain.hpp"
#include "ui/uitestruns.hpp"

#include <engine/backgroundjobs.hpp>
#include <engine/enginecontroller.hpp>
#include <panels/runpanel.hpp>
#include <session/labsession.hpp>
#include <views/heatmapview.hpp>
#include <views/timelineview.hpp>
#include <window/mainwindow.hpp>

#include <QAbstractButton>
#include <QFileDialog>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QStatusBar>
#include <QTemporaryDir>

using namespace gigacheck;
using namespace gigacheck::ui;

namespace {

RunConfig smallRun()
{
    RunConfig c;
    c.shape = Shape{256, 192, 224};
    c.memCapBytes = 128 * 1024;
    c.strategy = StrategyKind::S2;
    c.backend = BackendKind::Cpu;
    return c;
}

bool runToTheEnd(MainWindow& window)
{
    QSignalSpy finished(&window, &MainWindow::runFinished);
    window.startRun();
    return QTest::qWaitFor([&] { return !finished.isEmpty(); }, 60000) &&
           test::blockedRunOf(finished).status == "ok";
}

// Starts the long run and waits until it is under way.
bool startLongRun(MainWindow& window)
{
    window.setConfig(test::longCpuRun());
    QSignalSpy batches(window.engine(), &EngineController::spansArrived);
    window.startRun();
    return QTest::qWaitFor([&] { return batches.count() >= 2; }, 60000);
}

QMessageBox* closeQuestion(MainWindow& window)
{
    for (QMessageBox* box : window.findChildren<QMessageBox*>(QStringLiteral("closeDuringRun")))
        if (box->isVisible())
            return box;
    return nullptr;
}

QStringList laneRuns(const TimelineModel& model)
{
    QStringList runs;
    for (int i = 0; i < model.runCount(); ++i)
        runs << QString::fromStdString(model.runLabel(i));
    return runs;
}

}  // namespace

class TestNothingLost : public QObject {
    Q_OBJECT

private slots:
    void init() { QSettings().clear(); }

    // Start during a run, by every route, never cuts the run going on: it queues the next one.
    void startDuringARunQueuesByEveryRoute()
    {
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.activateWindow();
        QVERIFY(startLongRun(window));
        const quint64 job = window.engine()->currentJob();
        auto* start = window.findChild<QAction*>(QStringLiteral("startAction"));
        QVERIFY(start);
        QVERIFY(start->isEnabled());
        QCOMPARE(window.runPanel()->startButton()->text(), QStringLiteral("+ Queue next"));
        start->trigger();                      // Run › Start
        QTest::keyClick(&window, Qt::Key_F5);  // its shortcut
        QCOMPARE(window.engine()->currentJob(), job);
        QVERIFY(window.engine()->isRunning());
        QCOMPARE(BackgroundJobs::instance()->queuedNames().size(), 2);
        QVERIFY2(window.statusBar()->currentMessage().contains(QStringLiteral("queued: starts after the checked GEMM run")),
                 qPrintable(window.statusBar()->currentMessage()));
        window.runPanel()->clearQueueButton()->click();
        QVERIFY(BackgroundJobs::instance()->queuedNames().isEmpty());
        window.startRun();  // a direct call: queued as well
        QCOMPARE(BackgroundJobs::instance()->queuedNames().size(), 1);
        QCOMPARE(window.engine()->currentJob(), job);

        // Cancel ends the run going on; the queued one starts in its turn and is cancelled too.
        QSignalSpy finished(&window, &MainWindow::runFinished);
        window.cancelRun();
        QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty(), 5000);
        QTRY_VERIFY_WITH_TIMEOUT(window.engine()->currentJob() != job && window.engine()->isRunning(), 5000);
        QVERIFY(BackgroundJobs::instance()->queuedNames().isEmpty());
        window.cancelRun();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 2, 5000);
        QTRY_VERIFY_WITH_TIMEOUT(!BackgroundJobs::instance()->busy(), 5000);
        QCOMPARE(window.runPanel()->startButton()->text(), QStringLiteral("▶ Start run"));
        if (QMessageBox* box = closeQuestion(window))
            box->close();
    }

    void aShapeChangeKeepsTheFaultsInsideAndSaysSo()
    {
        MainWindow window;
        RunConfig c = smallRun();
        c.faults.at = {FaultAt{10, 20, std::nullopt, std::nullopt}, FaultAt{200, 200, std::nullopt, std::nullopt},
                       FaultAt{90, 5, std::nullopt, std::nullopt}};
        window.setConfig(c);
        QCOMPARE(window.heatmap()->faults().size(), std::size_t(3));
        window.findChild<QSpinBox*>(QStringLiteral("shapeM"))->setValue(100);
        QCOMPARE(window.heatmap()->faults().size(), std::size_t(2));
        QCOMPARE(window.heatmap()->faults()[0].row, 10);
        QCOMPARE(window.heatmap()->faults()[1].row, 90);
        const QString said = window.statusBar()->currentMessage();
        QVERIFY2(said.contains(QStringLiteral("1 placed fault(s) fell outside")) && said.contains(QStringLiteral("2 kept")),
                 qPrintable(said));
        QVERIFY(window.runPanel()->logText().contains(QStringLiteral("fell outside")));
        // Growing the shape again keeps every fault.
        window.findChild<QSpinBox*>(QStringLiteral("shapeQ"))->setValue(400);
        QCOMPARE(window.heatmap()->faults().size(), std::size_t(2));
    }

    // Typing 8192 into m passes through 8, 81 and 819: none of them may be applied (each would
    // drop the faults outside that C); the shape counts once the typing is done.
    void typingANewSizeKeepsTheFaultsUntilItIsDone()
    {
        MainWindow window;
        RunConfig c = smallRun();
        c.shape = Shape{4096, 64, 4096};
        c.faults.at = {FaultAt{3000, 3000, std::nullopt, std::nullopt}, FaultAt{100, 4000, std::nullopt, std::nullopt},
                       FaultAt{4095, 10, std::nullopt, std::nullopt}};
        window.setConfig(c);
        QCOMPARE(window.heatmap()->faults().size(), std::size_t(3));
        auto* m = window.findChild<QSpinBox*>(QStringLiteral("shapeM"));
        QVERIFY(m);
        m->setFocus();
        m->selectAll();
        for (const QChar digit : QStringLiteral("8192")) {
            QTest::keyClicks(m, QString(digit));
            QCOMPARE(window.heatmap()->faults().size(), std::size_t(3));  // nothing applied mid-word
        }
        QTest::keyClick(m, Qt::Key_Return);
        QCOMPARE(m->value(), 8192);
        RunConfig typed;
        QVERIFY(window.currentConfig(&typed, nullptr));
        QCOMPARE(typed.shape.m, std::int64_t(8192));
        QCOMPARE(window.heatmap()->faults().size(), std::size_t(3));  // all still inside the larger C
        QVERIFY(!window.statusBar()->currentMessage().contains(QStringLiteral("fell outside")));

        // A smaller size typed and confirmed drops only what falls outside, once.
        m->selectAll();
        QTest::keyClicks(m, QStringLiteral("2000"));
        QCOMPARE(window.heatmap()->faults().size(), std::size_t(3));
        QTest::keyClick(m, Qt::Key_Return);
        QCOMPARE(window.heatmap()->faults().size(), std::size_t(1));
        QCOMPARE(window.heatmap()->faults()[0].row, 100);
        const QString said = window.statusBar()->currentMessage();
        QVERIFY2(said.contains(QStringLiteral("2 placed fault(s) fell outside")) && said.contains(QStringLiteral("1 kept")),
                 qPrintable(said));
    }

    void closingDuringARunAsksAndCancelKeepsItRunning()
    {
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(startLongRun(window));
        QVERIFY(!window.close());
        QMessageBox* box = closeQuestion(window);
        QVERIFY(box);
        box->button(QMessageBox::Cancel)->click();
        QTRY_VERIFY(!closeQuestion(window));
        QVERIFY(window.isVisible());
        QVERIFY(window.engine()->isRunning());

        QVERIFY(!window.close());
        box = closeQuestion(window);
        QVERIFY(box);
        box->button(QMessageBox::Discard)->click();
        QTRY_VERIFY_WITH_TIMEOUT(!window.isVisible(), 5000);
    }

    void closingDuringARunCanSaveThePartialRecord()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("partial-run-s1-3072x8192x3072.json"));  // the name the dialog offers
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(startLongRun(window));
        QVERIFY(!window.close());
        QMessageBox* box = closeQuestion(window);
        QVERIFY(box);
        box->button(QMessageBox::Save)->click();
        QFileDialog* dialog = nullptr;
        QTRY_VERIFY_WITH_TIMEOUT((dialog = window.findChild<QFileDialog*>(QStringLiteral("saveRecordDialog"))) &&
                                     dialog->isVisible(),
                                 10000);
        QVERIFY(!window.engine()->isRunning());  // stopped before asking where
        QVERIFY(window.isVisible());
        dialog->setDirectory(dir.path());
        static_cast<QDialog*>(dialog)->accept();  // public in QDialog
        QTRY_VERIFY_WITH_TIMEOUT(!window.isVisible(), 5000);
        QVERIFY2(QFile::exists(path), qPrintable(QDir(dir.path()).entryList().join(QLatin1Char(' ')) + window.statusBar()->currentMessage()));
        const RunRecord saved = loadRecord(path.toStdString());
        QCOMPARE(saved.status, std::string("cancelled"));
        QVERIFY(!saved.spans.empty());
    }

    // File > Save of a finished run: the title names the file and no longer says "(not saved)".
    void savingARunNamesTheFileInTheTitle()
    {
        QTemporaryDir dir;
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.setConfig(smallRun());
        QSignalSpy finished(&window, &MainWindow::runFinished);
        window.startRun();
        QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty(), 60000);
        QVERIFY2(window.windowTitle().contains(QStringLiteral("(not saved)")), qPrintable(window.windowTitle()));
        QAction* save = nullptr;  // File > Save run record… (Ctrl+S)
        for (QAction* a : window.findChildren<QAction*>())
            if (a->shortcut() == QKeySequence(QKeySequence::Save))
                save = a;
        QVERIFY(save);
        save->trigger();
        QFileDialog* dialog = nullptr;
        QTRY_VERIFY_WITH_TIMEOUT((dialog = window.findChild<QFileDialog*>(QStringLiteral("saveRecordDialog"))) &&
                                     dialog->isVisible(),
                                 10000);
        dialog->setDirectory(dir.path());
        const QString name = QFileInfo(dialog->selectedFiles().value(0)).fileName();
        static_cast<QDialog*>(dialog)->accept();
        QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(dir.filePath(name)), 5000);
        QVERIFY2(!window.windowTitle().contains(QStringLiteral("(not saved)")), qPrintable(window.windowTitle()));
        QVERIFY2(window.windowTitle().contains(name), qPrintable(window.windowTitle()));
    }

    // The run ended while the question was open: Save offers to save a finished run, named as one.
    void aRunThatFinishesWhileAskingIsSavedAsFinished()
    {
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.setConfig(smallRun());
        QSignalSpy finished(&window, &MainWindow::runFinished);
        window.startRun();
        QVERIFY(window.engine()->isRunning());
        QVERIFY(!window.close());
        QMessageBox* box = closeQuestion(window);
        QVERIFY(box);
        QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty(), 60000);
        QCOMPARE(test::blockedRunOf(finished).status, std::string("ok"));
        box->button(QMessageBox::Save)->click();
        QFileDialog* dialog = nullptr;
        QTRY_VERIFY_WITH_TIMEOUT((dialog = window.findChild<QFileDialog*>(QStringLiteral("saveRecordDialog"))) &&
                                     dialog->isVisible(),
                                 10000);
        const QString offered = QFileInfo(dialog->selectedFiles().value(0)).fileName();
        QCOMPARE(offered, QStringLiteral("run-s2-256x192x224.json"));
        QVERIFY(!dialog->windowTitle().contains(QStringLiteral("stopped")));
        dialog->close();
    }

    void aFailedRunKeepsTheComparisonLanes()
    {
        MainWindow window;
        window.setConfig(smallRun());
        window.runPanel()->setCompareWithPrevious(true);
        QVERIFY(runToTheEnd(window));
        const std::size_t good = window.timeline()->model().spanCount();
        QVERIFY(good > 0);

        RunConfig tiny = smallRun();
        tiny.strategy = StrategyKind::S1;
        tiny.memCapBytes = 512;  // nothing fits: the run fails
        window.setConfig(tiny);
        QSignalSpy failed(&window, &MainWindow::runFailed);
        window.startRun();
        QTRY_VERIFY_WITH_TIMEOUT(!failed.isEmpty(), 20000);
        const TimelineModel& model = window.timeline()->model();
        QCOMPARE(laneRuns(model), QStringList{QStringLiteral("s2 (previous run)")});
        QCOMPARE(model.spanCount(), good);

        // The next run compares with the last run that ended well, not with the failed one.
        RunConfig next = smallRun();
        next.strategy = StrategyKind::S4;
        window.setConfig(next);
        QVERIFY(runToTheEnd(window));
        QCOMPARE(laneRuns(model), (QStringList{QStringLiteral("s2 (previous run)"), QStringLiteral("s4")}));
        QCOMPARE(model.spanCount(0), good);
        for (QMessageBox* box : window.findChildren<QMessageBox*>())
            box->close();
    }

    void aCancelledRunIsNotThePreviousRun()
    {
        MainWindow window;
        window.setConfig(smallRun());
        window.runPanel()->setCompareWithPrevious(true);
        QVERIFY(runToTheEnd(window));
        QVERIFY(startLongRun(window));
        QSignalSpy finished(&window, &MainWindow::runFinished);
        window.cancelRun();
        QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty(), 5000);
        window.setConfig(smallRun());
        QVERIFY(runToTheEnd(window));
        QCOMPARE(laneRuns(window.timeline()->model()), (QStringList{QStringLiteral("s2 (previous run)"), QStringLiteral("s2")}));
    }

    void aComparisonRecordStaysUntilRemoved()
    {
        MainWindow window;
        QString error;
        const QString baseline = QStringLiteral(GIGACHECK_TEST_DATA "/../../resources/records/cpu-1024-s4.json");
        QVERIFY2(window.compareWithRecord(baseline, &error), qPrintable(error));
        window.setConfig(smallRun());
        window.runPanel()->setCompareWithPrevious(false);
        QVERIFY(runToTheEnd(window));
        QVERIFY(runToTheEnd(window));
        const TimelineModel& model = window.timeline()->model();
        QCOMPARE(laneRuns(model), (QStringList{QStringLiteral("s4 (file)"), QStringLiteral("s2")}));
        QCOMPARE(model.spanCount(0), loadRecord(baseline.toStdString()).spans.size());
        QVERIFY(window.session()->baseline());

        window.session()->removeBaseline();
        QCOMPARE(laneRuns(model), QStringList{QStringLiteral("s2")});
        QVERIFY(!window.session()->baseline());
        QVERIFY(runToTheEnd(window));
        QCOMPARE(laneRuns(model), QStringList{QStringLiteral("s2")});
    }
};

GIGACHECK_UI_TEST_MAIN(TestNothingLost)
#include "tst_nothinglost.moc"
