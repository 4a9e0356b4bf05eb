// Honest views: the host repair pass after a blocked run is drawn and named as what it did
// ("repair pass: confirm" for a block corrected from its checksums and found clean on the host,
// never "recompute"), and a run with nothing corrected has no repair pass at all; the progress bar
// reaches 100 % only once the run has ended, with Cancel disabled then; the total time holds its
// parts; the cost model's time is labelled uncalibrated where the device's rates were not measured.
#include "ui/uitestmain.hpp"
#include "ui/uitestruns.hpp"

#include <models/repairpass.hpp>
#include <panels/runpanel.hpp>
#include <panels/strategypanel.hpp>
#include <views/plotstyle.hpp>
#include <views/timelineview.hpp>
#include <window/mainwindow.hpp>

#include <gigacheck/blocked_gemm/cost_model.hpp>
#include <gigacheck/blocked_gemm/plan.hpp>

#include <QCheckBox>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QStatusBar>

using namespace gigacheck;
using namespace gigacheck::ui;

namespace {

RunConfig smallRun(std::vector<FaultAt> faults)
{
    RunConfig c;
    c.shape = Shape{128, 96, 128};
    c.memCapBytes = 96 * 1024;
    c.strategy = StrategyKind::S2;
    c.backend = BackendKind::Cpu;
    c.faults.at = std::move(faults);
    return c;
}

RunRecord runToTheEnd(MainWindow& window, const RunConfig& config)
{
    window.setConfig(config);
    QSignalSpy finished(&window, &MainWindow::runFinished);
    window.startRun();
    if (!QTest::qWaitFor([&] { return !finished.isEmpty(); }, 60000))
        return {};
    return test::blockedRunOf(finished);
}

std::vector<const Span*> repairSpans(const RunRecord& r)
{
    std::vector<const Span*> spans;
    for (const Span& s : r.spans)
        if (s.kind == OpKind::Recompute)
            spans.push_back(&s);
    return spans;
}

}  // namespace

class TestHonestViews : public QObject {
    Q_OBJECT

private slots:
    void init() { QSettings().clear(); }

    void theRepairPassIsNamedForWhatItDid()
    {
        QCOMPARE(roleLabel(OpRole::Recompute), QStringLiteral("repair pass"));
        MainWindow window;
        window.show();
        // One fault, corrected from the checksums during the run: the host pass confirms its block.
        const RunRecord corrected = runToTheEnd(window, smallRun({FaultAt{10, 20, {}, {}}}));
        QCOMPARE(QString::fromStdString(corrected.status), QStringLiteral("ok"));
        QCOMPARE(corrected.faults.correctedByRecompute, 0);
        const auto spans = repairSpans(corrected);
        QVERIFY(!spans.empty());
        for (const Span* s : spans) {
            const RepairEvent* e = repairOfSpan(corrected, *s);
            QVERIFY(e);
            QVERIFY(e->outcome == RepairOutcome::Confirmed);
            const QString text = repairPassText(&corrected, *s);
            QVERIFY2(text.contains(QStringLiteral("repair pass: confirm")), qPrintable(text));
            QVERIFY(!text.contains(QStringLiteral("recomputed from A and B")));
        }
        bool legendSaysRepair = false;
        for (const auto& [color, label] : window.timeline()->legendEntries()) {
            QVERIFY(label != QStringLiteral("recompute"));
            legendSaysRepair |= label == QStringLiteral("repair pass");
        }
        QVERIFY(legendSaysRepair);
        // The total holds its parts.
        QVERIFY2(corrected.metrics.totalSeconds >= corrected.metrics.executeSeconds,
                 qPrintable(QStringLiteral("%1 < %2").arg(corrected.metrics.totalSeconds).arg(corrected.metrics.executeSeconds)));

        // Nothing placed, nothing corrected: no repair pass drawn at all.
        const RunRecord clean = runToTheEnd(window, smallRun({}));
        QCOMPARE(QString::fromStdString(clean.status), QStringLiteral("ok"));
        QVERIFY(repairSpans(clean).empty());
        for (const auto& [color, label] : window.timeline()->legendEntries())
            QVERIFY(label != QStringLiteral("repair pass"));
    }

    void progressReachesTheEndOnlyWhenTheRunHas()
    {
        RunPanel panel;
        panel.setRunning(true);
        panel.setProgress(1.0, 0.0);  // every op reported, the run not yet ended
        QVERIFY(panel.progressBar()->value() < panel.progressBar()->maximum());
        QVERIFY(panel.cancelButton()->isEnabled());
        QVERIFY(panel.etaText() != QStringLiteral("done"));
        panel.setRunning(false);
        panel.setProgress(1.0, 0.0);
        QCOMPARE(panel.progressBar()->value(), panel.progressBar()->maximum());
        QCOMPARE(panel.etaText(), QStringLiteral("done"));

        MainWindow window;
        window.show();
        const RunRecord r = runToTheEnd(window, smallRun({}));
        QCOMPARE(QString::fromStdString(r.status), QStringLiteral("ok"));
        RunPanel* run = window.runPanel();
        QCOMPARE(run->progressBar()->value(), run->progressBar()->maximum());
        QVERIFY(!run->cancelButton()->isEnabled());
        QVERIFY(run->startButton()->isEnabled());
        QVERIFY(!window.statusBar()->currentMessage().startsWith(QStringLiteral("Running")));
    }

    void anUncalibratedPredictionSaysSo()
    {
        StrategyPanel panel;
        const Plan plan = makePlan(Shape{256, 256, 256}, Precision::F32, StrategyKind::S2, 1 << 20, true);
        panel.showAutoPlan(plan, 0.0123, false);
        const QString text = panel.findChild<QLabel*>(QStringLiteral("autoChoice"))->text();
        QVERIFY2(text.contains(QStringLiteral("uncalibrated")) && text.contains(QStringLiteral("devices --measure")), qPrintable(text));
        QVERIFY(!text.contains(QStringLiteral("predicted 12.3")));
        panel.showAutoPlan(plan, 0.0123, true);
        QVERIFY(panel.findChild<QLabel*>(QStringLiteral("autoChoice"))->text().contains(QStringLiteral("predicted 12.3 ms")));

        MainWindow window;
        window.show();
        const RunRecord r = runToTheEnd(window, smallRun({}));
        auto* box = window.timeline()->findChild<QCheckBox*>(QStringLiteral("timelinePredicted"));
        QVERIFY(box);
        QCOMPARE(box->text().contains(QStringLiteral("uncalibrated")), !hasMeasuredRates(r.devices.front().ceilings));
    }
};

GIGACHECK_UI_TEST_MAIN(TestHonestViews)
#include "tst_honestviews.moc"
