// The GUI thread never stalls: during a run of >= 10 s with >= 10 000 spans drawn live on the
// timeline, a 5 ms timer measures the longest gap of the event loop; it must stay under 50 ms.
#include "ui/uitestmain.hpp"

#include <enginecontroller.hpp>
#include <mainwindow.hpp>
#include <runpanel.hpp>
#include <timelineview.hpp>

using namespace gigacheck;
using namespace gigacheck::ui;

class TestStall : public QObject {
    Q_OBJECT
private slots:
    void eventLoopStaysResponsiveDuringALongRun()
    {
        MainWindow window;
        window.resize(1400, 900);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));

        // Many small blocks under a small cap: lots of operations, each doing real work.
        RunConfig c;
        c.shape = Shape{qEnvironmentVariableIntValue("STALL_M") ? qEnvironmentVariableIntValue("STALL_M") : 1536,
                        qEnvironmentVariableIntValue("STALL_N") ? qEnvironmentVariableIntValue("STALL_N") : 1536,
                        qEnvironmentVariableIntValue("STALL_Q") ? qEnvironmentVariableIntValue("STALL_Q") : 1536};
        c.memCapBytes = qEnvironmentVariableIntValue("STALL_CAP_KIB") ? qEnvironmentVariableIntValue("STALL_CAP_KIB") * 1024ull
                                                                       : 192ull * 1024;
        c.strategy = StrategyKind::S2;
        c.backend = BackendKind::Cpu;
        c.reference = ReferenceMode::Sample;
        c.faults.at = {FaultAt{10, 20, {}, {}}};
        window.setConfig(c);
        window.showView(MainWindow::View::Timeline);

        QSignalSpy finished(&window, &MainWindow::runFinished);
        QSignalSpy batches(window.engine(), &EngineController::spansArrived);
        QElapsedTimer clock, gap;
        qint64 longestGap = 0;
        QTimer probe;
        probe.setInterval(5);
        connect(&probe, &QTimer::timeout, this, [&] {
            longestGap = std::max(longestGap, gap.restart());
        });
        clock.start();
        gap.start();
        probe.start();
        window.startRun();
        QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty(), 120000);
        probe.stop();
        const qint64 runMs = clock.elapsed();
        const RunRecord record = finished.first().first().value<RunRecord>();
        const std::size_t spans = window.timeline()->model().spanCount();
        qInfo("run %.1f s, %zu spans in %lld batches, longest event-loop stall %lld ms (timer interval 5 ms)",
              runMs / 1000.0, spans, qlonglong(batches.count()), longestGap);
        QCOMPARE(record.status, std::string("ok"));
        QCOMPARE(spans, record.spans.size());
        QVERIFY2(runMs >= 10000, qPrintable(QStringLiteral("run lasted only %1 ms").arg(runMs)));
        QVERIFY2(spans >= 10000, qPrintable(QStringLiteral("only %1 spans").arg(spans)));
        QVERIFY2(longestGap < 50, qPrintable(QStringLiteral("longest stall %1 ms").arg(longestGap)));
    }
};

GIGACHECK_UI_TEST_MAIN(TestStall)
#include "tst_stall.moc"
