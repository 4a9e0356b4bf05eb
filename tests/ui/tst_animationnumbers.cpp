// Issue 12, the animation with real numbers: the detect step lists each mismatching row and column
// with its residual against the threshold, the correct step plugs the run's values into the
// correction, and no step cites section numbers of the seed that students do not have.
#include "ui/uitestmain.hpp"

#include <models/animationmodel.hpp>

#include <gigacheck/blocked_gemm/run.hpp>

#include <cmath>

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
        QCOMPARE(steps.size(), std::size_t(5));
        const VerifyResult& res = r.verifications[0].result;

        // The column sums' step has the column's numbers, the row sums' step the row's.
        const QString columns = steps[1].explanation;
        QVERIFY2(columns.contains(QStringLiteral("column 7: |control − stored| = <b>%1</b>").arg(res.colResidual[0], 0, 'g', 4)),
                 qPrintable(columns));
        QVERIFY(!columns.contains(QStringLiteral("row 5:")));
        const QString rows = steps[2].explanation;
        QVERIFY2(rows.contains(QStringLiteral("row 5: |control − stored| = <b>%1</b>").arg(res.rowResidual[0], 0, 'g', 4)),
                 qPrintable(rows));
        QVERIFY(rows.contains(QStringLiteral("× the threshold")));

        const QString correct = steps[4].explanation;
        const Correction& fix = res.corrections[0];
        const CorrectionNumbers shown = correctionNumbers(fix.before, fix.after);
        QVERIFY2(correct.contains(QStringLiteral("C[5, 7] = %1 − (%2) = <b>%3</b>").arg(shown.before, shown.error, shown.after)),
                 qPrintable(correct));
        QVERIFY(qAbs(shown.before.toDouble() - fix.before) <= 1e-5 * qMax(1.0, qAbs(fix.before)));
        QVERIFY(qAbs(shown.after.toDouble() - fix.after) <= 1e-5 * qMax(1.0, qAbs(fix.before)));

        for (const AnimationStep& s : steps)
            QVERIFY2(!s.explanation.contains(QStringLiteral("§")) && !s.explanation.contains(QStringLiteral("seed")),
                     qPrintable(s.explanation));
    }

    // The shown numbers add up: before − (error) = after, digit for digit, at one precision.
    void theCorrectionsNumbersAddUp_data()
    {
        QTest::addColumn<double>("before");
        QTest::addColumn<double>("after");
        QTest::newRow("audit: each at 'g' 6 gave 5.05443 for 5.06") << -1858.4912345 << 5.0544321;
        QTest::newRow("small") << 0.123456789 << 0.120000123;
        QTest::newRow("large") << 987654321.987 << 12.5;
        QTest::newRow("negative result") << 3.25 << -7.0000049;
        QTest::newRow("huge") << 3.5e20 << 1.0;
    }

    void theCorrectionsNumbersAddUp()
    {
        QFETCH(double, before);
        QFETCH(double, after);
        const CorrectionNumbers shown = correctionNumbers(before, after);
        const auto decimals = [](const QString& s) { return s.contains(QLatin1Char('.')) ? s.size() - s.indexOf(QLatin1Char('.')) - 1 : 0; };
        QVERIFY2(decimals(shown.before) == decimals(shown.error) && decimals(shown.error) == decimals(shown.after),
                 qPrintable(shown.before + QLatin1Char(' ') + shown.error + QLatin1Char(' ') + shown.after));
        if (shown.before.contains(QLatin1Char('e')))
            return;  // scientific: same precision, no exact decimal sum to check
        // Exact in integer units of the last decimal.
        const double unit = std::pow(10.0, decimals(shown.before));
        const qint64 b = qRound64(shown.before.toDouble() * unit), e = qRound64(shown.error.toDouble() * unit),
                     a = qRound64(shown.after.toDouble() * unit);
        QVERIFY2(b - e == a, qPrintable(shown.before + QStringLiteral(" − (") + shown.error + QStringLiteral(") = ") + shown.after));
        QVERIFY(qAbs(shown.before.toDouble() - before) <= 0.5 / unit * 1.0001);
        QVERIFY(qAbs(shown.after.toDouble() - after) <= 0.5 / unit * 1.0001);
    }
};

GIGACHECK_UI_TEST_MAIN(TestAnimationNumbers)
#include "tst_animationnumbers.moc"
