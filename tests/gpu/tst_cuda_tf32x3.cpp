// --gemm tf32x3 on the device (three cuBLAS TF32 products of the operands' big and small parts,
// gemm/cuda/gemm_tf32x3.hpp): the product's error against an FP64 product is within 2x of cuBLAS
// SGEMM's on the same inputs and far below cuBLAS TF32's; protected runs of every strategy verify
// clean, and one fault is detected and corrected. The CPU emulation of the same is
// tests/engine/tst_tf32x3.
#include "blocked_device_runs.hpp"
#include "gpu_available.hpp"

#include "gigacheck/blocked_gemm/run.hpp"
#include "gigacheck/matrix.hpp"
#include "engine/gemm_run_helpers.hpp"

#include <QtTest>

#include <algorithm>
#include <cmath>

using namespace gigacheck;
using test::deviceRun;

namespace {

// max |C - A B| / max |A B| of one variant's plain product, A B in FP64 from the generated inputs.
double productError(GemmVariant g, Shape shape, Distribution d)
{
    RunConfig cfg = deviceRun(g, shape, StrategyKind::None);
    cfg.abft = false;
    cfg.distribution = d;
    HostMatrix a, b;
    const test::FinishedRun run = test::runKeepingC(cfg, test::copyInputsTo(a, b));
    const HostMatrix& c = run.c;
    if (run.record.status != "ok")
        qFatal("%s", run.record.error.c_str());
    double worst = 0, largest = 0;
    for (std::int64_t i = 0; i < shape.m; ++i)
        for (std::int64_t j = 0; j < shape.q; ++j) {
            double ref = 0;
            for (std::int64_t k = 0; k < shape.n; ++k)
                ref += a.at(i, k) * b.at(k, j);
            worst = std::max(worst, std::fabs(c.at(i, j) - ref));
            largest = std::max(largest, std::fabs(ref));
        }
    return worst / largest;
}

}  // namespace

class TestCudaTf32x3 : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { GIGACHECK_REQUIRE_CUDA_DEVICE(); }
    void errorIsWithinTwiceSgemms();
    void protectedRunsAreCleanAndCorrectOneFault();
    void everyBitEndsVerifiedCorrect();
};

void TestCudaTf32x3::errorIsWithinTwiceSgemms()
{
    const Shape shapes[] = {{256, 2048, 192}, {300, 777, 129}};
    for (const Shape& shape : shapes)
        for (Distribution d : {Distribution::Uniform, Distribution::Normal, Distribution::Wide}) {
            const double sgemm = productError(GemmVariant::Cublas, shape, d);
            const double tf32x3 = productError(GemmVariant::Tf32x3, shape, d);
            const double tf32 = productError(GemmVariant::CublasTf32, shape, d);
            qInfo("%lldx%lldx%lld %s: max relative error vs FP64: SGEMM %.3g, tf32x3 %.3g, TF32 %.3g",
                  static_cast<long long>(shape.m), static_cast<long long>(shape.n), static_cast<long long>(shape.q),
                  toString(d).data(), sgemm, tf32x3, tf32);
            QVERIFY(sgemm > 0);
            QVERIFY(tf32x3 <= 2.0 * sgemm);
            QVERIFY(tf32x3 * 100.0 < tf32);
        }
}

// Odd shapes, every strategy and distribution: no alarm and the reference passes; then one
// exponent-bit flip of a cell is detected and corrected.
void TestCudaTf32x3::protectedRunsAreCleanAndCorrectOneFault()
{
    const Shape shapes[] = {{1, 300, 77}, {129, 3, 65}, {257, 129, 31}, {200, 160, 180}};
    for (StrategyKind k : {StrategyKind::None, StrategyKind::S1, StrategyKind::S2, StrategyKind::S3, StrategyKind::S4}) {
        for (const Shape& shape : shapes)
            for (Distribution d : {Distribution::Uniform, Distribution::Normal, Distribution::Wide}) {
                RunConfig cfg = deviceRun(GemmVariant::Tf32x3, shape, k);
                cfg.distribution = d;
                const RunRecord r = runGemm(cfg);
                const std::string where = test::nameOfRun(shape, k, d);
                QVERIFY2(r.status == "ok", (where + ": " + r.error).c_str());
                QVERIFY2(r.faults.falsePositives == 0 && r.faults.detected == 0, where.c_str());
                QVERIFY2(r.verifiedCorrect(), where.c_str());
            }
        const RunRecord r = runGemm(test::withBitFlip(deviceRun(GemmVariant::Tf32x3, {200, 160, 180}, k), 26));
        QVERIFY2(r.status == "ok", r.error.c_str());
        QCOMPARE(r.faults.injected, 1);
        QCOMPARE(r.faults.detected, 1);
        QCOMPARE(r.faults.corrected + r.faults.correctedByRecompute, 1);
        QCOMPARE(r.faults.falsePositives, 0);
        QVERIFY(r.verifiedCorrect());
    }
}

// Bit 0 to 31 of one cell, strategies none and s2: every flip ends verified correct with no false
// alarm (small mantissa flips may stay below the FP32 threshold: masked, the reference still
// passes); exponent and sign flips are far above it and detected.
void TestCudaTf32x3::everyBitEndsVerifiedCorrect()
{
    for (StrategyKind k : {StrategyKind::None, StrategyKind::S2})
        for (int bit = 0; bit < 32; ++bit) {
            const RunRecord r = runGemm(test::withBitFlip(deviceRun(GemmVariant::Tf32x3, {200, 160, 180}, k), bit));
            const QByteArray where = QStringLiteral("%1 bit %2").arg(toString(k).data()).arg(bit).toLatin1();
            QVERIFY2(r.status == "ok", r.error.c_str());
            QCOMPARE(r.faults.injected, 1);
            QVERIFY2(r.faults.falsePositives == 0, where.constData());
            QVERIFY2(r.verifiedCorrect(), where.constData());
            if (bit >= 23)
                QVERIFY2(r.faults.detected == 1, where.constData());
        }
}

QTEST_GUILESS_MAIN(TestCudaTf32x3)
#include "tst_cuda_tf32x3.moc"
