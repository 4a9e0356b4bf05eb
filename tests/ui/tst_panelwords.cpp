// Issue 12, what the panels say after the audit: the run log counts the faults the repair pass
// corrected by recompute, the plan preview warns of a plan a run would refuse, sizes beside a cap
// in MiB are in binary units (setup, report), the Report tab speaks the lab's words and not the
// CLI's, and the error animation of a run does not outlive a change of shape.
#include "ui/uitestmain.hpp"
#include "ui/uitestruns.hpp"

#include <models/labwords.hpp>
#include <panels/runpanel.hpp>
#include <views/animationpanel.hpp>
#include <views/reportview.hpp>
#include <window/mainwindow.hpp>

#include <gigacheck/blocked_gemm/plan.hpp>

#include <QLabel>
#include <QMessageBox>
#include <QSettings>
#include <QSpinBox>

using namespace gigacheck;
using namespace gigacheck::ui;

namespace {

// One block: two faults neither in a row nor a column of each other are ambiguous for the
// checksums, and the repair pass recomputes the block.
RunConfig twoAmbiguousFaults()
{
    RunConfig c;
    c.shape = Shape{64, 48, 72};
    c.memCapBytes = 1024 * 1024;
    c.strategy = StrategyKind::S1;
    c.backend = BackendKind::Cpu;
    c.faults.at = {FaultAt{2, 3, {}, {}}, FaultAt{30, 50, {}, {}}};
    return c;
}

RunRecord runToTheEnd(MainWindow& window)
{
    QSignalSpy finished(&window, &MainWindow::runFinished);
    window.startRun();
    if (!QTest::qWaitFor([&] { return !finished.isEmpty(); }, 60000))
        return {};
    return test::blockedRunOf(finished);
}

}  // namespace

class TestPanelWords : public QObject {
    Q_OBJECT

private slots:
    void init() { QSettings().clear(); }

    void theRunLogCountsFaultsCorrectedByRecompute()
    {
        MainWindow window;
        window.setConfig(twoAmbiguousFaults());
        const RunRecord r = runToTheEnd(window);
        QCOMPARE(r.status, std::string("ok"));
        QCOMPARE(r.faults.correctedByRecompute, 2);
        const QString log = window.runPanel()->logText();
        QVERIFY2(log.contains(QStringLiteral("2 injected, 2 detected, 0 corrected, 2 corrected by recompute, 0 uncorrectable")),
                 qPrintable(log));
    }

    void aPlanARunWouldRefuseIsWarnedBeforeTheRun()
    {
        MainWindow window;
        RunConfig c;
        c.shape = Shape{4096, 4096, 4096};
        c.memCapBytes = 16 * 1024;
        c.strategy = StrategyKind::S1;
        c.backend = BackendKind::Cpu;
        window.setConfig(c);
        auto* summary = window.findChild<QLabel*>(QStringLiteral("planSummary"));
        QVERIFY(summary);
        QVERIFY2(summary->text().contains(QStringLiteral("A run would refuse this plan")), qPrintable(summary->text()));
        QVERIFY(summary->text().contains(QLocale(QLocale::English).toString(qint64(kMaxScheduleProducts))));

        c.memCapBytes = 64 * 1024 * 1024;  // a plan a run takes: no warning
        window.setConfig(c);
        QVERIFY2(!summary->text().contains(QStringLiteral("refuse")), qPrintable(summary->text()));
    }

    void sizesBesideACapInMiBAreBinary()
    {
        MainWindow window;
        RunConfig c = twoAmbiguousFaults();
        c.shape = Shape{1024, 1024, 1024};
        c.faults.at.clear();
        window.setConfig(c);  // the cap reads "1MiB"
        auto* host = window.findChild<QLabel*>(QStringLiteral("hostMemory"));
        QVERIFY(host);
        QCOMPARE(host->text(), QStringLiteral("host memory for A, B, C: 12 MiB"));  // 3 × 1024² doubles, not "12.58 MB"
    }

    void theReportSpeaksTheLabsWords()
    {
        MainWindow window;
        window.setConfig(twoAmbiguousFaults());
        QCOMPARE(runToTheEnd(window).status, std::string("ok"));
        const QString report = window.report()->text();
        QVERIFY2(!report.contains(QStringLiteral("--backend")) && !report.contains(QStringLiteral("--mem")) &&
                     !report.contains(QStringLiteral("run gigacheck")),
                 qPrintable(report));
        QVERIFY2(report.contains(QStringLiteral("backend cpu chosen in Matrix setup")), qPrintable(report));
        // The plan's sizes in the cap's units: "needed … KiB of cap 1 MiB", no decimal megabytes beside it.
        const qsizetype needed = report.indexOf(QStringLiteral("  needed "));
        QVERIFY(needed >= 0);
        const QString line = report.mid(needed, report.indexOf(QLatin1Char('\n'), needed) - needed);
        QVERIFY2(line.contains(QStringLiteral("of cap 1 MiB")) && !line.contains(QStringLiteral(" MB")) &&
                     !line.contains(QStringLiteral(" kB")),
                 qPrintable(line));
    }

    void theCliWordsBecomeTheLabs()
    {
        QCOMPARE(inLabWords(QStringLiteral("--backend cpu: requested")), QStringLiteral("backend cpu chosen in Matrix setup"));
        QCOMPARE(inLabWords(QStringLiteral("nothing fits; raise --mem")), QStringLiteral("nothing fits; raise the memory cap"));
        QVERIFY(!inLabWords(QStringLiteral("roofs only (datasheet) (run gigacheck devices --measure)")).contains(QStringLiteral("run gigacheck")));
    }

    void theAnimationDoesNotOutliveAShapeChange()
    {
        MainWindow window;
        window.setConfig(twoAmbiguousFaults());
        QCOMPARE(runToTheEnd(window).status, std::string("ok"));
        QVERIFY(!window.animation()->steps().empty());
        window.animation()->goTo(int(window.animation()->steps().size()) - 1);
        int steps = 0;
        const AnimationStep* shown = &window.animation()->steps().back();
        connect(window.animation(), &AnimationPanel::stepChanged, this, [&](const AnimationStep* step) {
            ++steps;
            shown = step;
        });
        window.findChild<QSpinBox*>(QStringLiteral("shapeM"))->setValue(200);
        QVERIFY(window.animation()->steps().empty());
        QCOMPARE(window.animation()->current(), -1);
        QVERIFY(steps > 0);
        QCOMPARE(shown, nullptr);  // the heatmap highlights nothing
        for (QMessageBox* box : window.findChildren<QMessageBox*>())
            box->close();
    }
};

GIGACHECK_UI_TEST_MAIN(TestPanelWords)
#include "tst_panelwords.moc"
