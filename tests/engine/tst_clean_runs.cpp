// Issue 15 item 3 on the CPU backend: over a thousand clean products (odd, skinny and 1-wide
// shapes; FP32 and FP64; uniform, normal and wide data; every strategy with small blocks) raise
// no alarm: no verification is anything but clean, nothing is repaired, the reference agrees.
#include "gigacheck/blocked_gemm/run.hpp"

#include <QtTest>

using namespace gigacheck;

Q_DECLARE_METATYPE(gigacheck::StrategyKind)
Q_DECLARE_METATYPE(gigacheck::Precision)

class TestCleanRuns : public QObject {
    Q_OBJECT
private slots:
    void noFalseAlarm_data();
    void noFalseAlarm();
};

void TestCleanRuns::noFalseAlarm_data()
{
    QTest::addColumn<StrategyKind>("strategy");
    QTest::addColumn<Precision>("precision");
    for (StrategyKind k : {StrategyKind::None, StrategyKind::S1, StrategyKind::S2, StrategyKind::S3, StrategyKind::S4})
        for (Precision p : {Precision::F32, Precision::F64})
            QTest::addRow("%s/%s", toString(k).data(), toString(p).data()) << k << p;
}

void TestCleanRuns::noFalseAlarm()
{
    QFETCH(StrategyKind, strategy);
    QFETCH(Precision, precision);
    const Shape shapes[] = {{1, 1, 1},   {1, 37, 1},  {37, 1, 29}, {1, 64, 53}, {53, 64, 1},  {17, 5, 23},
                            {33, 65, 31}, {64, 3, 2}, {3, 200, 5}, {45, 45, 45}, {2, 300, 3}, {29, 130, 19}};
    int runs = 0, maxRatioPermille = 0;
    for (const Shape& s : shapes)
        for (Distribution d : {Distribution::Uniform, Distribution::Normal, Distribution::Wide})
            for (std::uint64_t seed = 1; seed <= 3; ++seed) {
                RunConfig c;
                c.shape = s;
                c.strategy = strategy;
                c.precision = precision;
                c.distribution = d;
                c.seed = seed;
                c.backend = BackendKind::Cpu;
                c.reference = ReferenceMode::Full;
                c.memCapBytes = strategy == StrategyKind::None ? 0 : bytesForBlocks(strategy, precision, true, 16, 24, 16);
                const RunRecord r = runGemm(c);
                const QByteArray what = QByteArray::fromStdString(formatReport(r));
                QVERIFY2(r.status == "ok", what.constData());
                QVERIFY2(r.faults.blocksCorrected == 0 && r.faults.blocksUncorrectable == 0, what.constData());
                QCOMPARE(r.faults.falsePositives, 0);
                QVERIFY(r.repairs.empty());
                QVERIFY2(r.verifiedCorrect(), what.constData());
                maxRatioPermille = std::max(maxRatioPermille, int(1000 * r.faults.maxCleanResidualRatio));
                ++runs;
            }
    QCOMPARE(runs, 12 * 3 * 3);  // x 10 rows: 1080 clean products
    qInfo("largest clean residual / threshold: %d permille", maxRatioPermille);
}

QTEST_APPLESS_MAIN(TestCleanRuns)
#include "tst_clean_runs.moc"
