// Issue 15 item 1 on the CPU backend: one bit flip, of any bit, anywhere (inside C, in an edge
// block, in an early k step, in the checksum row or column), in every strategy and precision,
// ends verified correct with every cell within the reference tolerance. The near-threshold
// mantissa flips (FP32 bits 10-16) used to end uncorrectable: one axis fired, the other did not.
#include "gigacheck/blocked_gemm/run.hpp"

#include <QtTest>

#include <algorithm>

using namespace gigacheck;

Q_DECLARE_METATYPE(gigacheck::StrategyKind)
Q_DECLARE_METATYPE(gigacheck::Precision)

namespace {

enum class Where { Inside, Corner, EdgeBlock, EarlyStep, ChecksumRow, ChecksumCol };

constexpr Shape kShape{37, 29, 41};

RunConfig flipConfig(StrategyKind k, Precision p, Where w, int bit)
{
    RunConfig c;
    c.shape = kShape;
    c.strategy = k;
    c.precision = p;
    c.backend = BackendKind::Cpu;
    c.reference = ReferenceMode::Full;
    // Small blocks, so that edge blocks and several k steps exist (None: one block, one step).
    c.memCapBytes = k == StrategyKind::None ? 0 : bytesForBlocks(k, p, true, 16, 12, 16);
    c.faults.model = FaultModel::BitFlip;
    c.faults.bit = bit;
    c.faults.seed = std::uint64_t(bit) + 1;
    switch (w) {
    case Where::Inside: c.faults.at.push_back({17, 33, std::nullopt, std::nullopt}); break;
    case Where::Corner: c.faults.at.push_back({0, 0, std::nullopt, std::nullopt}); break;
    case Where::EdgeBlock: c.faults.at.push_back({36, 40, std::nullopt, std::nullopt}); break;
    case Where::EarlyStep: c.faults.at.push_back({20, 5, std::nullopt, 0}); break;
    case Where::ChecksumRow:
        c.faults.count = 1;
        c.faults.target = FaultTarget::ChecksumRow;
        break;
    case Where::ChecksumCol:
        c.faults.count = 1;
        c.faults.target = FaultTarget::ChecksumCol;
        break;
    }
    return c;
}

}  // namespace

class TestSingleFaultSweep : public QObject {
    Q_OBJECT
private slots:
    void everyBitEndsVerifiedCorrect_data();
    void everyBitEndsVerifiedCorrect();
};

void TestSingleFaultSweep::everyBitEndsVerifiedCorrect_data()
{
    QTest::addColumn<StrategyKind>("strategy");
    QTest::addColumn<Precision>("precision");
    QTest::addColumn<int>("where");
    const std::pair<Where, const char*> places[] = {
        {Where::Inside, "inside"},         {Where::Corner, "corner"},
        {Where::EdgeBlock, "edge-block"},  {Where::EarlyStep, "step0"},
        {Where::ChecksumRow, "checksum-row"}, {Where::ChecksumCol, "checksum-col"}};
    for (StrategyKind k : {StrategyKind::None, StrategyKind::S1, StrategyKind::S2, StrategyKind::S3, StrategyKind::S4})
        for (Precision p : {Precision::F32, Precision::F64})
            for (const auto& [w, label] : places)
                QTest::addRow("%s/%s/%s", toString(k).data(), toString(p).data(), label) << k << p << int(w);
}

void TestSingleFaultSweep::everyBitEndsVerifiedCorrect()
{
    QFETCH(StrategyKind, strategy);
    QFETCH(Precision, precision);
    QFETCH(int, where);
    const int bits = precision == Precision::F32 ? 32 : 64;
    int recomputed = 0, locatedOnOneAxis = 0;
    for (int bit = 0; bit < bits; ++bit) {
        const RunRecord r = runGemm(flipConfig(strategy, precision, Where(where), bit));
        const QByteArray what = QByteArray("bit ") + QByteArray::number(bit) + ": " +
                                QByteArray::fromStdString(formatReport(r));
        QVERIFY2(r.status == "ok", what.constData());
        QVERIFY2(r.faults.injected == 1 && r.faults.missed == 0, what.constData());
        QVERIFY2(r.faults.uncorrectable == 0 && r.faults.falsePositives == 0, what.constData());
        // Every cell within the reference tolerance (full reference), the run verified correct.
        QVERIFY2(r.reference.passed, what.constData());
        QVERIFY2(r.verifiedCorrect(), what.constData());
        // A detected fault is corrected by its verification or, failing that, by the repair pass.
        QVERIFY2(r.faults.corrected + r.faults.correctedByRecompute == r.faults.detected, what.constData());
        recomputed += r.faults.correctedByRecompute;
        locatedOnOneAxis += int(std::count_if(r.verifications.begin(), r.verifications.end(),
                                              [](const VerifyEvent& v) { return v.result.locatedByLargestResidual; }));
    }
    qInfo("%d of %d flips located on one axis, %d corrected by recompute", locatedOnOneAxis, bits, recomputed);
}

QTEST_APPLESS_MAIN(TestSingleFaultSweep)
#include "tst_single_fault_sweep.moc"
