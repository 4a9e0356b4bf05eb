// The fault report follows every injection to the verification that judged it: a fault that
// slipped through a check must show up as missed, never disappear from the report.
#include "gigacheck/blocked_gemm/record.hpp"

#include <QtTest>

using namespace gigacheck;

class TstFaultReport : public QObject {
    Q_OBJECT

    static RunRecord oneInjection(double before, double after, bool flagged, double threshold)
    {
        RunRecord r;
        // One 8 x 8 x 8 block: a record is checked against its shape and plan when it is read.
        r.config.shape = r.plan.shape = Shape{8, 8, 8};
        r.plan.blockM = r.plan.blockN = r.plan.blockQ = 8;
        InjectEvent e;
        e.opId = 1;
        e.injection.block = {0, 0, 0};
        e.injection.localRow = 2;
        e.injection.localCol = 3;
        e.injection.before = before;
        e.injection.after = after;
        e.injection.applied = true;
        r.injections.push_back(e);
        VerifyEvent v;
        v.opId = 2;
        v.block = {0, 0, 0};
        v.rows = 8;
        v.cols = 8;
        v.result.maxThreshold = threshold;
        if (flagged) {
            v.result.verdict = Verdict::Corrected;
            v.result.mismatchRows = {2};
            v.result.mismatchCols = {3};
            v.result.corrections = {Correction{2, 3, after, before}};
        }
        r.verifications.push_back(v);
        return r;
    }

private slots:
    void correctedFaultIsCounted()
    {
        const FaultReport f = computeFaultReport(oneInjection(1.0, 101.0, true, 0.5));
        QCOMPARE(f.injected, 1);
        QCOMPARE(f.detected, 1);
        QCOMPARE(f.corrected, 1);
        QCOMPARE(f.missed, 0);
        QCOMPARE(f.falsePositives, 0);
    }
    void undetectedLargeFaultIsMissed()
    {
        const FaultReport f = computeFaultReport(oneInjection(1.0, 101.0, false, 0.5));
        QCOMPARE(f.injected, 1);
        QCOMPARE(f.detected, 0);
        QCOMPARE(f.belowThreshold, 0);
        QCOMPARE(f.missed, 1);
    }
    void undetectedTinyFaultIsBelowThreshold()
    {
        const FaultReport f = computeFaultReport(oneInjection(1.0, 1.0 + 1e-9, false, 0.5));
        QCOMPARE(f.belowThreshold, 1);
        QCOMPARE(f.missed, 0);
    }
    void missedSurvivesTheRecordAndTheReport()
    {
        RunRecord r = oneInjection(1.0, 101.0, false, 0.5);
        r.faults = computeFaultReport(r);
        QVERIFY(QString::fromStdString(formatReport(r)).contains(QStringLiteral("missed 1")));
        const RunRecord back = recordFromJson(toJson(r));
        QCOMPARE(back.faults.missed, 1);
    }
};

QTEST_GUILESS_MAIN(TstFaultReport)
#include "tst_fault_report.moc"
