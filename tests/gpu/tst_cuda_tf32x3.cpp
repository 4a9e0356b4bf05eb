// --gemm tf32x3 on the device (three cuBLAS TF32 products of the operands' big and small parts,
// gemm/cuda/gemm_tf32x3.hpp): the product's error against an FP64 product is within 2x of cuBLAS
// SGEMM's on the same inputs and far below cuBLAS TF32's; protected runs of every strategy verify
// clean, and one fault is detected and corrected. The CPU emulation of the same is
// tests/engine/tst_tf32x3.
#include "gpu_available.hpp"

#include "gigacheck/blocked_gemm/run.hpp"
#include "gigacheck/matrix.hpp"

#include <QtTest>

#include <algorithm>
#include <cmath>
#include <cstring>

using namespace gigacheck;

namespace {

RunConfig deviceRun(GemmVariant g, Shape shape, StrategyKind k)
{
    RunConfig c;
    c.shape = shape;
    c.strategy = k;
    c.precision = Precision::F32;
    c.gemm = g;
    c.backend = BackendKind::Cuda;
    c.reference = ReferenceMode::Full;
    // Several blocks with several k steps; none in one block.
    c.memCapBytes = k == StrategyKind::None ? 0 : bytesForBlocks(k, Precision::F32, true, 64, 48, 64);
    return c;
}

// max |C - A B| / max |A B| of one variant's plain product, A B in FP64 from the generated inputs.
double productError(GemmVariant g, Shape shape, Distribution d)
{
    RunConfig cfg = deviceRun(g, shape, StrategyKind::None);
    cfg.abft = false;
    cfg.distribution = d;
    HostMatrix a, b, c;
    RunHooks hooks;
    hooks.onInputs = [&](HostMatrix& ha, HostMatrix& hb) {
        a = HostMatrix(Precision::F32, ha.rows(), ha.cols());
        b = HostMatrix(Precision::F32, hb.rows(), hb.cols());
        std::memcpy(a.data(), ha.data(), ha.bytes());
        std::memcpy(b.data(), hb.data(), hb.bytes());
    };
    hooks.resultOut = &c;
    const RunRecord r = runGemm(cfg, hooks);
    if (r.status != "ok")
        qFatal("%s", r.error.c_str());
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
                const QByteArray where = QStringLiteral("%1x%2x%3 %4 %5")
                                             .arg(shape.m)
                                             .arg(shape.n)
                                             .arg(shape.q)
                                             .arg(toString(k).data(), toString(d).data())
                                             .toLatin1();
                QVERIFY2(r.status == "ok", (where + ": " + QByteArray(r.error.c_str())).constData());
                QVERIFY2(r.faults.falsePositives == 0 && r.faults.detected == 0, where.constData());
                QVERIFY2(r.verifiedCorrect(), where.constData());
            }
        RunConfig cfg = deviceRun(GemmVariant::Tf32x3, {200, 160, 180}, k);
        cfg.faults.model = FaultModel::BitFlip;
        cfg.faults.bit = 26;
        cfg.faults.at.push_back({17, 33, std::nullopt, std::nullopt});
        const RunRecord r = runGemm(cfg);
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
            RunConfig cfg = deviceRun(GemmVariant::Tf32x3, {200, 160, 180}, k);
            cfg.faults.model = FaultModel::BitFlip;
            cfg.faults.bit = bit;
            cfg.faults.at.push_back({17, 33, std::nullopt, std::nullopt});
            const RunRecord r = runGemm(cfg);
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
