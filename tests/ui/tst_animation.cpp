// The error animation walks detect (column sums, then row sums) -> locate -> correct from real
// verification events, shows
// collinear sets and ambiguous candidates (seed figures 1-3) as such, and plays, pauses, steps.
#include "ui/uitestmain.hpp"

#include <views/animationpanel.hpp>
#include <views/heatmapview.hpp>

#include <gigacheck/blocked_gemm/run.hpp>

using namespace gigacheck;
using namespace gigacheck::ui;

namespace {

RunRecord runWith(const std::vector<FaultAt>& faults)
{
    RunConfig c;
    c.shape = Shape{64, 48, 72};
    c.memCapBytes = 64 << 20;  // one block: every fault lands in the same verification
    c.strategy = StrategyKind::S1;
    c.backend = BackendKind::Cpu;
    c.faults.at = faults;
    return runGemm(c);
}

std::vector<AnimationStage> stagesOf(const std::vector<AnimationStep>& steps)
{
    std::vector<AnimationStage> out;
    for (const auto& s : steps)
        out.push_back(s.stage);
    return out;
}

}  // namespace

class TestAnimation : public QObject {
    Q_OBJECT
private slots:
    void singleFaultStepsDetectLocateCorrect()
    {
        const RunRecord r = runWith({FaultAt{5, 7, {}, {}}});
        QCOMPARE(r.faults.corrected, 1);
        const auto steps = buildAnimation(r.injections, r.verifications);
        QVERIFY(stagesOf(steps) == (std::vector<AnimationStage>{AnimationStage::Inject, AnimationStage::Detect,
                                                                 AnimationStage::Detect, AnimationStage::Locate,
                                                                 AnimationStage::Correct}));
        // Detect, one reduction at a time: the column sums light exactly column 7, then the row sums row 5.
        QVERIFY(steps[1].mismatchRows.empty());
        QCOMPARE(steps[1].mismatchCols, std::vector<std::int64_t>{7});
        QVERIFY(steps[1].title.contains(QStringLiteral("column sums")));
        QCOMPARE(steps[2].mismatchRows, std::vector<std::int64_t>{5});
        QVERIFY(steps[2].mismatchCols.empty());
        QVERIFY(steps[2].title.contains(QStringLiteral("row sums")));
        // Locate: their intersection.
        QCOMPARE(steps[3].mismatchRows, std::vector<std::int64_t>{5});
        QCOMPARE(steps[3].mismatchCols, std::vector<std::int64_t>{7});
        QCOMPARE(steps[3].cells.size(), std::size_t(1));
        QCOMPARE(steps[3].cells[0].row, std::int64_t(5));
        QCOMPARE(steps[3].cells[0].col, std::int64_t(7));
        QVERIFY(!steps[3].ambiguous);
        // Correct: old -> new, the new value undoes the injection.
        QCOMPARE(steps[4].cells.size(), std::size_t(1));
        const Injection& inj = r.injections[0].injection;
        QCOMPARE(steps[4].cells[0].before, inj.after);
        QVERIFY(std::abs(steps[4].cells[0].after - inj.before) <= 1e-3 * std::max(1.0, std::abs(inj.before)));
        // The formula of the step is beside it: each reduction's own.
        QVERIFY(steps[1].explanation.contains(QStringLiteral("c<sub>control</sub>")));
        QVERIFY(!steps[1].explanation.contains(QStringLiteral("r<sub>control</sub>")));
        QVERIFY(steps[2].explanation.contains(QStringLiteral("r<sub>control</sub>")));
        QVERIFY(steps[4].explanation.contains(QStringLiteral("C*<sub>i,q+1</sub>")));
    }

    void collinearFaultsAreLocatedAsASet()
    {
        const RunRecord r = runWith({FaultAt{9, 3, {}, {}}, FaultAt{9, 40, {}, {}}});  // one row, two columns
        QCOMPARE(r.faults.corrected, 2);
        const auto steps = buildAnimation(r.injections, r.verifications);
        const auto locate = std::find_if(steps.begin(), steps.end(), [](const AnimationStep& s) { return s.stage == AnimationStage::Locate; });
        QVERIFY(locate != steps.end());
        QCOMPARE(locate->mismatchRows.size(), std::size_t(1));
        QCOMPARE(locate->mismatchCols.size(), std::size_t(2));
        QCOMPARE(locate->cells.size(), std::size_t(2));
        QVERIFY(!locate->ambiguous);
        QVERIFY(locate->title.contains(QStringLiteral("row-collinear")));
        QCOMPARE(steps.back().stage, AnimationStage::Correct);
        QCOMPARE(steps.back().cells.size(), std::size_t(2));
    }

    void nonCollinearFaultsAreAmbiguousAndUncorrectable()
    {
        const RunRecord r = runWith({FaultAt{2, 3, {}, {}}, FaultAt{30, 50, {}, {}}});
        QCOMPARE(r.faults.correctedByRecompute, 2);  // the repair pass made the block right
        const auto steps = buildAnimation(r.injections, r.verifications);
        QCOMPARE(steps.back().stage, AnimationStage::Uncorrectable);
        // Figure 2: four candidates, two of which are the real faults.
        QCOMPARE(steps.back().cells.size(), std::size_t(4));
        QVERIFY(steps.back().ambiguous);

        // With the record's repairs: one more step, the block recomputed after the run.
        const auto repaired = buildAnimation(r.injections, r.verifications, r.repairs);
        QCOMPARE(repaired.size(), steps.size() + 1);
        QCOMPARE(repaired.back().stage, AnimationStage::CorrectedByRecompute);
        QCOMPARE(stageName(repaired.back().stage), QStringLiteral("corrected by recompute"));
        QVERIFY(repaired.back().title.contains(QStringLiteral("Corrected by recompute")));
    }

    void panelStepsPlaysAndPauses()
    {
        const RunRecord r = runWith({FaultAt{5, 7, {}, {}}});
        AnimationPanel panel;
        HeatmapView heatmap;
        heatmap.setShape(64, 72);
        connect(&panel, &AnimationPanel::stepChanged, &heatmap, &HeatmapView::setStep);
        QSignalSpy changed(&panel, &AnimationPanel::stepChanged);
        panel.setEvents(r.injections, r.verifications);
        QCOMPARE(panel.steps().size(), std::size_t(5));

        std::vector<AnimationStage> seen;
        for (int i = 0; i < 5; ++i) {
            panel.stepForward();
            seen.push_back(panel.steps()[std::size_t(panel.current())].stage);
        }
        QVERIFY(seen == stagesOf(panel.steps()));
        panel.stepForward();  // stays on the last step
        QCOMPARE(panel.current(), 4);
        panel.stepBack();
        QCOMPARE(panel.current(), 3);
        QVERIFY(changed.count() >= 7);

        panel.goTo(0);
        panel.play();
        QVERIFY(panel.playing());
        QTRY_COMPARE_WITH_TIMEOUT(panel.current(), 4, 5 * panel.interval() + 2000);
        QTRY_VERIFY_WITH_TIMEOUT(!panel.playing(), panel.interval() + 2000);  // stops at the end
        panel.play();
        panel.pause();
        QVERIFY(!panel.playing());
    }
};

GIGACHECK_UI_TEST_MAIN(TestAnimation)
#include "tst_animation.moc"
