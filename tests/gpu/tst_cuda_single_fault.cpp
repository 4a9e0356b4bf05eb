// Issue 15 item 1 on the device: one bit flip of any bit at (17, 33) of a 200 x 160 x 180 product,
// FP32 / FP64 and TF32 (cublas-tf32), strategies none and s2, ends verified correct with every
// cell within the reference tolerance. Under TF32 the operands are rounded to TF32 before their
// checksums (gigacheck/tf32.hpp), so the threshold is FP32's: a flip either is detected and
// corrected (the repair pass recomputes the cell as a dot product over the rounded operands: as
// accurate as an untouched cell, checked against exact dot products) or stays within the
// reference tolerance. Also the CUDA decide kernel's one-axis rule against the host reference
// (same verdicts and corrected cells where both saw the same mismatches), TF32 included: the CPU
// backend emulates it with the same operand rounding.
#include "blocked_device_runs.hpp"
#include "gpu_available.hpp"

#include "gigacheck/matrix.hpp"
#include "gigacheck/blocked_gemm/run.hpp"
#include "gigacheck/tf32.hpp"

#include <QtTest>

#include <algorithm>
#include <cmath>

using namespace gigacheck;

Q_DECLARE_METATYPE(gigacheck::StrategyKind)
Q_DECLARE_METATYPE(gigacheck::GemmVariant)
Q_DECLARE_METATYPE(gigacheck::Precision)

namespace {

RunConfig flipAt(StrategyKind k, GemmVariant g, Precision p, int bit)
{
    return test::withBitFlip(test::deviceRun(g, {200, 160, 180}, k, p), bit);
}

}  // namespace

class TestCudaSingleFault : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { GIGACHECK_REQUIRE_CUDA_DEVICE(); }
    void everyBitEndsVerifiedCorrect_data();
    void everyBitEndsVerifiedCorrect();
    void deviceDecidesAsTheHost_data();
    void deviceDecidesAsTheHost();
};

void TestCudaSingleFault::everyBitEndsVerifiedCorrect_data()
{
    QTest::addColumn<StrategyKind>("strategy");
    QTest::addColumn<GemmVariant>("gemm");
    QTest::addColumn<Precision>("precision");
    for (StrategyKind k : {StrategyKind::None, StrategyKind::S2}) {
        QTest::addRow("%s/cublas-tf32", toString(k).data()) << k << GemmVariant::CublasTf32 << Precision::F32;
        QTest::addRow("%s/cutlass-tf32", toString(k).data()) << k << GemmVariant::CutlassTf32 << Precision::F32;
        QTest::addRow("%s/cublas-f32", toString(k).data()) << k << GemmVariant::Cublas << Precision::F32;
        QTest::addRow("%s/cublas-f64", toString(k).data()) << k << GemmVariant::Cublas << Precision::F64;
    }
}

void TestCudaSingleFault::everyBitEndsVerifiedCorrect()
{
    QFETCH(StrategyKind, strategy);
    QFETCH(GemmVariant, gemm);
    QFETCH(Precision, precision);
    if (gemm == GemmVariant::CutlassTf32)  // C's sums from the GEMM's epilogue, the fault in its arithmetic
        GIGACHECK_REQUIRE_CUTLASS_KERNELS();
    const int bits = precision == Precision::F32 ? 32 : 64;
    for (int bit = 0; bit < bits; ++bit) {
        const RunConfig cfg = flipAt(strategy, gemm, precision, bit);
        HostMatrix c;
        RunHooks hooks;
        hooks.resultOut = &c;
        const RunRecord r = runGemm(cfg, hooks);
        const QByteArray what = QByteArray("bit ") + QByteArray::number(bit) + ":\n" +
                                QByteArray::fromStdString(formatReport(r));
        QVERIFY2(r.status == "ok", what.constData());
        QCOMPARE(r.faults.uncorrectable, 0);
        QVERIFY2(r.reference.passed, what.constData());
        QVERIFY2(r.verifiedCorrect(), what.constData());
        QCOMPARE(r.faults.corrected + r.faults.correctedByRecompute, r.faults.detected);

        // TF32, a detected fault: the corrected cell is as accurate as the untouched cells of its row
        // (exact: double dot products of the rounded operands). FP32 / FP64 cells are judged by
        // the reference tolerance above.
        if (!multipliesInTf32(gemm) || r.faults.detected == 0)
            continue;
        HostMatrix a(precision, cfg.shape.m, cfg.shape.n), b(precision, cfg.shape.n, cfg.shape.q);
        fillRandom(a, cfg.distribution, cfg.seed, 1);
        fillRandom(b, cfg.distribution, cfg.seed, 2);
        double untouched = 0, faulty = 0;
        for (std::int64_t j = 0; j < cfg.shape.q; ++j) {
            double exact = 0;  // of the operands the TF32 product multiplies
            for (std::int64_t k = 0; k < cfg.shape.n; ++k)
                exact += double(roundToTf32(float(a.at(17, k)))) * double(roundToTf32(float(b.at(k, j))));
            const double err = std::abs(c.at(17, j) - exact);
            if (j == 33)
                faulty = err;
            else
                untouched = std::max(untouched, err);
        }
        QVERIFY2(faulty <= untouched, (what + "\nfaulty cell error " + QByteArray::number(faulty) +
                                       " > untouched " + QByteArray::number(untouched)).constData());
    }
}

void TestCudaSingleFault::deviceDecidesAsTheHost_data()
{
    QTest::addColumn<StrategyKind>("strategy");
    QTest::addColumn<Precision>("precision");
    QTest::addColumn<GemmVariant>("gemm");
    for (StrategyKind k : {StrategyKind::None, StrategyKind::S2}) {
        for (Precision p : {Precision::F32, Precision::F64})
            QTest::addRow("%s/%s", toString(k).data(), toString(p).data()) << k << p << GemmVariant::Cublas;
        QTest::addRow("%s/tf32", toString(k).data()) << k << Precision::F32 << GemmVariant::CublasTf32;
        QTest::addRow("%s/cutlass-tf32", toString(k).data()) << k << Precision::F32 << GemmVariant::CutlassTf32;
    }
}

void TestCudaSingleFault::deviceDecidesAsTheHost()
{
    // The device's verdicts (one-axis rule included) match the host reference's on the same
    // schedule and faults; TF32 too, now that both multiply the same rounded operands.
    QFETCH(StrategyKind, strategy);
    QFETCH(Precision, precision);
    QFETCH(GemmVariant, gemm);
    if (gemm == GemmVariant::CutlassTf32)
        GIGACHECK_REQUIRE_CUTLASS_KERNELS();
    const int bits = precision == Precision::F32 ? 32 : 64;
    for (int bit = 0; bit < bits; ++bit) {
        const RunConfig cfg = flipAt(strategy, gemm, precision, bit);
        const RunRecord r = runGemm(cfg);
        const QByteArray what = QByteArray("bit ") + QByteArray::number(bit);
        RunConfig cpuCfg = cfg;
        cpuCfg.backend = BackendKind::Cpu;
        const RunRecord cpu = runGemm(cpuCfg);
        QCOMPARE(cpu.verifications.size(), r.verifications.size());
        for (std::size_t v = 0; v < r.verifications.size(); ++v) {
            const VerifyResult& g = r.verifications[v].result;
            const VerifyResult& h = cpu.verifications[v].result;
            // Near-threshold flips may fall on either side of a threshold on the two backends
            // (their products round differently); where both saw the same mismatches, they decide alike.
            if (g.mismatchRows != h.mismatchRows || g.mismatchCols != h.mismatchCols)
                continue;
            QVERIFY2(g.verdict == h.verdict, what.constData());
            QCOMPARE(g.locatedByLargestResidual, h.locatedByLargestResidual);
            QCOMPARE(g.corrections.size(), h.corrections.size());
            for (std::size_t k = 0; k < g.corrections.size(); ++k) {
                QCOMPARE(g.corrections[k].row, h.corrections[k].row);
                QCOMPARE(g.corrections[k].col, h.corrections[k].col);
            }
        }
    }
}

QTEST_APPLESS_MAIN(TestCudaSingleFault)
#include "tst_cuda_single_fault.moc"
