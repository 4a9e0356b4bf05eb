// Issue 12, the animation with real numbers: the detect step lists each mismatching row and column
// with its residual against the threshold, the correct step plugs the run's values into the
// correction, and no step cites section numbers of the seed that students do not have.
#include "ui/uitestmain.hpp"

#include <models/animationmodel.hpp>

#include <gigacheck/run.hpp>

using namespace gigacheck;
using namespace gigacheck::ui;

class TestAnimationNumbers : public QObject {
    Q_OBJECT
private slots:
    void stepsCarryTheRunsNumbers()
    {
        RunConfig c;
        c.shape = Shape{64, 48, 72};
        c.memCapBytes = 64 << 20;  // one block
        c.strategy = StrategyKind::S1;
        c.backend = BackendKind::Cpu;
        c.faults.at = {FaultAt{5, 7, {}, {}}};
        const RunRecord r = runGemm(c);
        QCOMPARE(r.faults.corrected, 1);
        const auto steps = buildAnimation(r.injections, r.verifications);
        QCOMPARE(steps.size(), std::size_t(4));
        const VerifyResult& res = r.verifications[0].result;

        const QString detect = steps[1].explanation;
        QVERIFY2(detect.contains(QStringLiteral("row 5: |control − stored| = <b>%1</b>").arg(res.rowResidual[0], 0, 'g', 4)),
                 qPrintable(detect));
        QVERIFY(detect.contains(QStringLiteral("column 7: |control − stored|")));
        QVERIFY(detect.contains(QStringLiteral("× the threshold")));

        const QString correct = steps[3].explanation;
        const Correction& fix = res.corrections[0];
        QVERIFY2(correct.contains(QStringLiteral("C[5, 7] = %1").arg(fix.before, 0, 'g', 6)), qPrintable(correct));
        QVERIFY(correct.contains(QStringLiteral("<b>%1</b>").arg(fix.after, 0, 'g', 6)));

        for (const AnimationStep& s : steps)
            QVERIFY2(!s.explanation.contains(QStringLiteral("§")) && !s.explanation.contains(QStringLiteral("seed")),
                     qPrintable(s.explanation));
    }
};

GIGACHECK_UI_TEST_MAIN(TestAnimationNumbers)
#include "tst_animationnumbers.moc"
