// The views of an online ABFT run read its own record: the session's current record is the
// OnlineRecord itself (no blocked GEMM record made up for it), and the timeline's lanes, the
// Report, the Run log, the status bar, the heatmap and the file names take their spans, counts,
// verdict and names from it; a blocked run after it gets its plan and cost-model box back.
#include "ui/uitestmain.hpp"
#include "ui/windowrun.hpp"

#include <models/familyrecord.hpp>
#include <models/rooflinemodel.hpp>
#include <models/runverdict.hpp>
#include <panels/onlineschemebox.hpp>
#include <panels/runpanel.hpp>
#include <panels/strategypanel.hpp>
#include <session/labsession.hpp>
#include <views/heatmapview.hpp>
#include <views/reportview.hpp>
#include <views/timelineview.hpp>
#include <window/closeguard.hpp>
#include <window/mainwindow.hpp>

#include <gigacheck/online_abft.hpp>

#include <QCheckBox>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTemporaryDir>

#include <set>

using namespace gigacheck;
using namespace gigacheck::ui;

namespace {

// Starts the run the panels describe; the record MainWindow::runFinished carried (null on failure).
RecordPtr runAndWait(MainWindow& window)
{
    QSignalSpy finished(&window, &MainWindow::runFinished);
    QSignalSpy failed(&window, &MainWindow::runFailed);
    window.startRun();
    for (int i = 0; i < 600 && finished.isEmpty() && failed.isEmpty(); ++i)
        finished.wait(200);
    if (!failed.isEmpty())
        qWarning() << "run failed:" << failed.front().front().toString();
    if (finished.isEmpty())
        qWarning() << "no run:" << window.statusBar()->currentMessage();
    return finished.isEmpty() ? nullptr : finished.first().first().value<RecordPtr>();
}

QString lastLine(const QString& text)
{
    return text.trimmed().section(QLatin1Char('\n'), -1);
}

// The spans of every lane of run `run` of the timeline, as (op, start) pairs.
std::multiset<std::pair<int, double>> timelineSpans(const TimelineModel& m, int run)
{
    std::multiset<std::pair<int, double>> spans;
    for (int lane = 0; lane < m.laneCount(); ++lane)
        if (m.lane(lane).run == run)
            for (const Span& s : m.lane(lane).spans)
                spans.insert({s.opId, s.start});
    return spans;
}

std::multiset<std::pair<int, double>> recordSpans(const std::vector<Span>& spans)
{
    std::multiset<std::pair<int, double>> out;
    for (const Span& s : spans)
        out.insert({s.opId, s.start});
    return out;
}

}  // namespace

class TestOnlineViews : public QObject {
    Q_OBJECT

private:
    // What every view shows of the online record r, named `name` ("online fq 1").
    static void checkViewsRead(MainWindow& window, const OnlineRecord& r, const QString& name)
    {
        // The timeline: one run named by the scheme, exactly the record's spans (never lanes of a
        // blocked strategy's "none").
        const TimelineModel& m = window.timeline()->model();
        QCOMPARE(m.runCount(), 1);
        QCOMPARE(QString::fromStdString(m.runLabel(0)), name);
        QCOMPARE(m.spanCount(0), r.spans.size());
        QVERIFY(timelineSpans(m, 0) == recordSpans(r.spans));
        QVERIFY(m.laneCount() > 0);
        for (int lane = 0; lane < m.laneCount(); ++lane)
            QVERIFY2(m.laneLabel(lane).find("none") == std::string::npos, m.laneLabel(lane).c_str());
        // No cost-model lanes for a schedule the cost model does not predict.
        QVERIFY(window.timeline()->findChild<QCheckBox*>(QStringLiteral("timelinePredicted"))->isHidden());

        // One verdict, from the online record, in the timeline, the Report and the status bar.
        const RunVerdict v = runVerdictOf(r);
        QCOMPARE(v.scheme, name);
        QCOMPARE(window.timeline()->verdictText(), QStringLiteral("Verdict — %1").arg(v.summary()));
        const QString report = window.report()->text();
        QCOMPARE(report, QStringLiteral("Verdict: %1\n\n").arg(v.summary()) + QString::fromStdString(formatOnlineReport(r)));

        // The heatmap draws no block grid: an online run's C is not blocked.
        QVERIFY(!window.heatmap()->gridPlan());

        // Named by scheme and panel width for the roofline and the window; files by the scheme.
        QCOMPARE(runLabel(*window.lastRecord()),
                 QStringLiteral("%1 b=%2 %3×%4×%5").arg(name).arg(r.config.panelWidth()).arg(r.config.shape.m).arg(r.config.shape.n).arg(r.config.shape.q));
        QCOMPARE(CloseGuard::suggestedName(*window.lastRecord()),
                 QStringLiteral("run-%1-%2x%3x%4.json").arg(QString::fromStdString(std::string(toString(r.config.scheme)))).arg(r.config.shape.m).arg(r.config.shape.n).arg(r.config.shape.q));
    }

private slots:
    // A run: the record every view gets is the online run's own record.
    void onlineRunViewsReadItsRecord()
    {
        MainWindow window;
        window.resize(1366, 768);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.setConfig(test::smallCpuRun());
        window.strategyPanel()->schemeBox()->setSettings({Scheme::Online, 16, 1, 1});  // 80 / 16: 5 steps
        window.heatmap()->setFaults({FaultAt{10, 20, {}, {}}, FaultAt{10, 50, {}, {}}});

        const RecordPtr finished = runAndWait(window);
        QVERIFY(finished);
        QVERIFY(window.session()->online());
        const OnlineRecord& r = window.session()->online()->record;
        // The same object everywhere: the signal's record, the session's, the online run's.
        QCOMPARE(finished.get(), static_cast<const RecordEnvelope*>(&r));
        QCOMPARE(window.lastRecord().get(), static_cast<const RecordEnvelope*>(&r));
        QCOMPARE(onlineRecordOf(*finished), &r);
        QVERIFY(!blockedRecordOf(*finished));
        QVERIFY(!blockedRecordOf(finished));
        QCOMPARE(finished->family, std::string(OnlineRecord::kFamily));
        QCOMPARE(resultShapeOf(*finished), test::smallCpuRun().shape);

        // The run as it happened: two faults placed, both caught and corrected.
        QCOMPARE(r.status, std::string("ok"));
        QCOMPARE(r.injections.size(), std::size_t(2));
        const RunVerdict v = runVerdictOf(*finished);
        QCOMPARE(v.injected, 2);
        QCOMPARE(v.detected, 2);
        QCOMPARE(v.corrected + v.correctedByRecompute, 2);
        QCOMPARE(v.uncorrectable, 0);
        QVERIFY(v.kind == RunVerdict::Kind::Verified);

        checkViewsRead(window, r, QStringLiteral("online fq 1"));
        // The Run log's end line: the record's status, span count and verdict.
        const QString log = lastLine(window.runPanel()->logText());
        QVERIFY2(log.startsWith(QStringLiteral("ok in ")) || log.contains(QStringLiteral(" ok in ")), qPrintable(log));
        QVERIFY2(log.contains(QStringLiteral("%1 spans; %2").arg(r.spans.size()).arg(v.summary())), qPrintable(log));
        QCOMPARE(window.statusBar()->currentMessage(), v.statusLine());

        // A blocked run after it: its own record, its plan's grid and the cost-model box back.
        window.strategyPanel()->schemeBox()->setSettings({Scheme::Blocked, 16, 1, 1});
        const RecordPtr blocked = runAndWait(window);
        QVERIFY(blocked);
        QVERIFY(blockedRecordOf(blocked));
        QVERIFY(!onlineRecordOf(*blocked));
        QVERIFY(!window.session()->online());
        QVERIFY(window.heatmap()->gridPlan());
        QVERIFY(!window.timeline()->findChild<QCheckBox*>(QStringLiteral("timelinePredicted"))->isHidden());
        QCOMPARE(runVerdictOf(*blocked).scheme, strategyLabel(blockedRecordOf(blocked)->config));
    }

    // An online record opened from a file: the same views, from the record read.
    void openedOnlineRecordViewsReadIt()
    {
        QTemporaryDir dir;
        OnlineConfig oc;
        oc.shape = {64, 48, 40};
        oc.backend = BackendKind::Cpu;
        oc.panel = 12;
        oc.checkEvery = 2;
        oc.faults = {OnlineFault{OnlineTarget::Result, 5, 6, std::nullopt, 1}};
        const OnlineRecord online = runOnline(oc);
        const QString path = dir.filePath(QStringLiteral("online.json"));
        saveOnlineRecord(online, path.toStdString());

        MainWindow window;
        window.resize(1366, 768);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QString error;
        QVERIFY2(window.openRecord(path, &error), qPrintable(error));
        QVERIFY(window.session()->online());
        const OnlineRecord& r = window.session()->online()->record;
        QCOMPARE(window.lastRecord().get(), static_cast<const RecordEnvelope*>(&r));
        QCOMPARE(r.spans.size(), online.spans.size());
        QCOMPARE(r.injections.size(), online.injections.size());
        checkViewsRead(window, r, QStringLiteral("online fq 2"));
        const RunVerdict v = runVerdictOf(r);
        QCOMPARE(v.injected, 1);
        QCOMPARE(v.detected, 1);
    }
};

GIGACHECK_UI_TEST_MAIN(TestOnlineViews)
#include "tst_onlineviews.moc"
