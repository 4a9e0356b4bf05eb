// The engine thread: a run fills the timeline live, cancel stops it within 1 s and keeps a
// partial record, failures are reported without harm, and the next run always works.
#include "ui/uitestmain.hpp"
#include "ui/uitestruns.hpp"

#include <engine/enginecontroller.hpp>
#include <window/mainwindow.hpp>
#include <views/timelineview.hpp>

using namespace gigacheck;
using namespace gigacheck::ui;

namespace {

RunConfig smallRun()
{
    RunConfig c;
    c.shape = Shape{384, 320, 448};
    c.memCapBytes = 256 * 1024;
    c.strategy = StrategyKind::S2;
    c.backend = BackendKind::Cpu;
    return c;
}

RunConfig longRun() { return test::longCpuRun(); }

}  // namespace

class TestEngineRun : public QObject {
    Q_OBJECT
private slots:
    void runFillsTheTimelineWithItsSpans()
    {
        MainWindow window;
        window.setConfig(smallRun());
        QSignalSpy finished(&window, &MainWindow::runFinished);
        QSignalSpy batches(window.engine(), &EngineController::spansArrived);
        window.startRun();
        QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty(), 60000);
        const RunRecord record = test::blockedRunOf(finished);
        QCOMPARE(record.status, std::string("ok"));
        QVERIFY(record.spans.size() > 20);
        QVERIFY(batches.count() >= 1);  // spans arrived through the live signal, not only at the end
        const TimelineModel& model = window.timeline()->model();
        QCOMPARE(model.spanCount(), record.spans.size());
        // Every queue of the run has its lane, and the model's end is the record's last span.
        double end = 0;
        for (const Span& s : record.spans)
            end = std::max(end, s.end);
        QCOMPARE(model.endTime(), end);
        bool h2d = false, compute = false, d2h = false;
        for (int i = 0; i < model.laneCount(); ++i) {
            h2d |= model.lane(i).queue == Queue::H2D && !model.lane(i).spans.empty();
            compute |= model.lane(i).queue == Queue::Compute && !model.lane(i).spans.empty();
            d2h |= model.lane(i).queue == Queue::D2H && !model.lane(i).spans.empty();
        }
        QVERIFY(h2d && compute && d2h);
        QVERIFY(window.lastRecord() != nullptr);
    }

    void cancelStopsWithinOneSecondAndTheNextRunWorks()
    {
        MainWindow window;
        window.setConfig(longRun());
        QSignalSpy finished(&window, &MainWindow::runFinished);
        QSignalSpy batches(window.engine(), &EngineController::spansArrived);
        window.startRun();
        QTRY_VERIFY_WITH_TIMEOUT(batches.count() >= 2, 60000);  // the run is under way
        QElapsedTimer clock;
        clock.start();
        window.cancelRun();
        QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty(), 1000);
        qInfo("cancel took %lld ms", clock.elapsed());
        const RunRecord partial = test::blockedRunOf(finished);
        QCOMPARE(partial.status, std::string("cancelled"));
        QVERIFY(!partial.spans.empty());
        // Partial: fewer products than the plan has.
        int products = 0;
        for (const Span& s : partial.spans)
            products += s.kind == OpKind::Product;
        QVERIFY(products < partial.plan.productCount());

        finished.clear();
        window.setConfig(smallRun());
        window.startRun();
        QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty(), 60000);
        QCOMPARE(test::blockedRunOf(finished).status, std::string("ok"));
    }

    void badInputIsReportedAndTheNextRunWorks()
    {
        MainWindow window;
        RunConfig bad = smallRun();
        bad.memCapBytes = 1024;  // nothing fits in 1 KiB
        bad.strategy = StrategyKind::S3;
        window.setConfig(bad);
        QSignalSpy failed(&window, &MainWindow::runFailed);
        QSignalSpy finished(&window, &MainWindow::runFinished);
        window.startRun();
        QTRY_VERIFY_WITH_TIMEOUT(!failed.isEmpty(), 30000);
        const QString message = failed.first().first().toString();
        qInfo("reported: %s", qPrintable(message));
        QVERIFY(!message.isEmpty());
        QVERIFY(finished.isEmpty());
        QVERIFY(!window.engine()->isRunning());

        window.setConfig(smallRun());
        window.startRun();
        QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty(), 60000);
        QCOMPARE(test::blockedRunOf(finished).status, std::string("ok"));
    }

    void aNewRunSupersedesTheOldOne()
    {
        // Starting again while a run goes on cancels it; only the new job's results arrive.
        EngineController engine;
        QSignalSpy finished(&engine, &EngineController::runFinished);
        QSignalSpy batches(&engine, &EngineController::spansArrived);
        engine.start(longRun());
        QTRY_VERIFY_WITH_TIMEOUT(batches.count() >= 1, 60000);
        const quint64 second = engine.start(smallRun());
        QCOMPARE(engine.currentJob(), second);
        QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty(), 60000);
        // The worker finishes the old job before it starts the new one, so a stale result would
        // already have arrived by now.
        QCOMPARE(finished.count(), 1);
        const auto r = blockedRecordOf(finished.first().first().value<RecordPtr>());
        QVERIFY(r);
        QCOMPARE(r->status, std::string("ok"));
        QVERIFY(r->config.shape == smallRun().shape);
    }
};

GIGACHECK_UI_TEST_MAIN(TestEngineRun)
#include "tst_enginerun.moc"
