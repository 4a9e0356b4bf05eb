// --gemm tf32x3 on the CPU backend, which emulates the GPU's three TF32 products exactly (operands
// split on the host, three FP32 products of the parts in the GPU's order; gigacheck/tf32x3.hpp):
// what the split keeps of an FP32 value, the product's error against an FP64 product (FP32-like,
// far below plain TF32's), and ABFT on it (clean runs raise no alarm, one fault is corrected).
#include "gigacheck/blocked_gemm/run.hpp"
#include "gigacheck/tf32x3.hpp"

#include "engine/gemm_run_helpers.hpp"

#include <QtTest>

#include <cmath>
#include <random>

using namespace gigacheck;

namespace {

bool isTf32(float x) { return (tf32Bits(x) & kTf32DroppedBits) == 0; }

RunConfig tf32x3Run(Shape shape, StrategyKind s, GemmVariant gemm = GemmVariant::Tf32x3)
{
    RunConfig cfg;
    cfg.shape = shape;
    cfg.backend = BackendKind::Cpu;
    cfg.strategy = s;
    cfg.gemm = gemm;
    cfg.reference = ReferenceMode::Full;
    cfg.memCapBytes = s == StrategyKind::None ? 0 : 3 * 256 * 256 * 4 / 4;  // s1-s4: several blocks
    return cfg;
}

// max |C - A B| / max |A B| over C, with A B in FP64 from the inputs as generated.
double maxRelativeError(const HostMatrix& a, const HostMatrix& b, const HostMatrix& c)
{
    double worst = 0, largest = 0;
    for (std::int64_t i = 0; i < c.rows(); ++i)
        for (std::int64_t j = 0; j < c.cols(); ++j) {
            double ref = 0;
            for (std::int64_t k = 0; k < a.cols(); ++k)
                ref += a.at(i, k) * b.at(k, j);
            worst = std::max(worst, std::fabs(c.at(i, j) - ref));
            largest = std::max(largest, std::fabs(ref));
        }
    return worst / largest;
}

// The product's error of one variant on the same inputs (the same seed), without ABFT.
double productError(GemmVariant gemm, Shape shape, Distribution dist)
{
    RunConfig cfg = tf32x3Run(shape, StrategyKind::None, gemm);
    cfg.abft = false;
    cfg.distribution = dist;
    HostMatrix a, b;
    const test::FinishedRun run = test::runKeepingC(cfg, test::copyInputsTo(a, b));
    if (run.record.status != "ok")
        qFatal("%s", run.record.error.c_str());
    return maxRelativeError(a, b, run.c);
}

}  // namespace

class TestTf32x3 : public QObject {
    Q_OBJECT
private slots:
    void splitPartsAreTf32AndKeepTheValue();
    void splitIsExactWhereTheResidualFitsTf32();
    void emulationErrorIsFp32Like_data();
    void emulationErrorIsFp32Like();
    void protectedRunsAreCleanAndCorrectOneFault();
    void everyBitEndsVerifiedCorrect();
};

// Both parts are TF32 values (what cuBLAS TF32 then multiplies unchanged); big + small is x to
// within one FP32 ulp of x (x - big can have 12 significant bits, small keeps 11).
void TestTf32x3::splitPartsAreTf32AndKeepTheValue()
{
    std::mt19937 rng(7);
    std::normal_distribution<float> normal(0.0f, 1.0f);
    int exact = 0;
    constexpr int kValues = 100000;
    for (int i = 0; i < kValues; ++i) {
        const float x = normal(rng) * std::ldexp(1.0f, int(rng() % 40) - 20);
        const Tf32Split s = splitTf32(x);
        QVERIFY(isTf32(s.big) && isTf32(s.small));
        QCOMPARE(s.big, roundToTf32(x));
        QVERIFY(std::fabs(s.small) <= std::ldexp(std::fabs(x), -11));
        const double off = std::fabs(double(x) - double(s.big) - double(s.small));
        QVERIFY(off <= double(std::nextafter(std::fabs(x), INFINITY) - std::fabs(x)));  // one ulp of x
        exact += off == 0 ? 1 : 0;
    }
    qInfo("big + small == x for %.1f %% of normal FP32 values", 100.0 * exact / kValues);
    QVERIFY(exact > kValues / 2);
    // Infinities and NaNs stay in big.
    QCOMPARE(splitTf32(INFINITY).big, INFINITY);
    QCOMPARE(splitTf32(INFINITY).small, 0.0f);
    QVERIFY(std::isnan(splitTf32(NAN).big));
}

// Values of up to 22 significant bits (the two low mantissa bits clear), and zero, split exactly.
void TestTf32x3::splitIsExactWhereTheResidualFitsTf32()
{
    std::mt19937 rng(11);
    std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
    for (int i = 0; i < 100000; ++i) {
        const float x = tf32FromBits(tf32Bits(uniform(rng)) & ~3u);
        const Tf32Split s = splitTf32(x);
        QCOMPARE(s.big + s.small, x);
        QCOMPARE(double(s.big) + double(s.small), double(x));
    }
    QCOMPARE(splitTf32(0.0f).big, 0.0f);
    QCOMPARE(splitTf32(0.0f).small, 0.0f);
}

void TestTf32x3::emulationErrorIsFp32Like_data()
{
    QTest::addColumn<Shape>("shape");
    QTest::addColumn<Distribution>("dist");
    QTest::addRow("uniform 96x700x80") << Shape{96, 700, 80} << Distribution::Uniform;
    QTest::addRow("normal 64x1500x40") << Shape{64, 1500, 40} << Distribution::Normal;
    QTest::addRow("wide 50x300x70") << Shape{50, 300, 70} << Distribution::Wide;
}

// Against an FP64 product of the inputs: within 2x of the FP32 product's error (OpenBLAS SGEMM on
// the same inputs), and orders of magnitude below plain TF32's (operands rounded to TF32).
void TestTf32x3::emulationErrorIsFp32Like()
{
    QFETCH(Shape, shape);
    QFETCH(Distribution, dist);
    const double fp32 = productError(GemmVariant::Cublas, shape, dist);
    const double tf32x3 = productError(GemmVariant::Tf32x3, shape, dist);
    const double tf32 = productError(GemmVariant::CublasTf32, shape, dist);
    qInfo("max relative error vs FP64: FP32 %.3g, tf32x3 %.3g, TF32 %.3g", fp32, tf32x3, tf32);
    QVERIFY(tf32x3 > 0 && fp32 > 0);
    QVERIFY(tf32x3 <= 2.0 * fp32);
    QVERIFY(tf32x3 * 100.0 < tf32);
}

// ABFT checks a tf32x3 product with the FP32 thresholds (tf32x3RoundoffModel): every strategy
// verifies clean and passes the reference; one bit flip of a cell is detected and corrected.
void TestTf32x3::protectedRunsAreCleanAndCorrectOneFault()
{
    for (StrategyKind s : {StrategyKind::None, StrategyKind::S1, StrategyKind::S2, StrategyKind::S3, StrategyKind::S4}) {
        for (Distribution dist : {Distribution::Uniform, Distribution::Normal, Distribution::Wide}) {
            RunConfig clean = tf32x3Run({256, 200, 160}, s);
            clean.distribution = dist;
            const RunRecord r = runGemm(clean);
            QVERIFY2(r.status == "ok", r.error.c_str());
            QCOMPARE(r.faults.detected, 0);
            QCOMPARE(r.faults.falsePositives, 0);
            QVERIFY(r.reference.passed);
            QVERIFY(r.verifiedCorrect());
        }
        RunConfig faulty = tf32x3Run({256, 200, 160}, s);
        faulty.faults.model = FaultModel::BitFlip;
        faulty.faults.bit = 26;
        faulty.faults.at.push_back({100, 77, std::nullopt, std::nullopt});
        const RunRecord r = runGemm(faulty);
        QVERIFY2(r.status == "ok", r.error.c_str());
        QCOMPARE(r.faults.injected, 1);
        QCOMPARE(r.faults.detected, 1);
        QCOMPARE(r.faults.corrected + r.faults.correctedByRecompute, 1);
        QCOMPARE(r.faults.falsePositives, 0);
        QVERIFY(r.reference.passed);
        QVERIFY(r.verifiedCorrect());
    }
}

// Bit 0 to 31 of one cell, strategies none and s2: every flip ends verified correct with no false
// alarm (small mantissa flips may stay below the FP32 threshold: masked, the reference still
// passes); exponent and sign flips are far above it and detected.
void TestTf32x3::everyBitEndsVerifiedCorrect()
{
    for (StrategyKind k : {StrategyKind::None, StrategyKind::S2})
        for (int bit = 0; bit < 32; ++bit) {
            RunConfig cfg = tf32x3Run({200, 160, 180}, k);
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

QTEST_GUILESS_MAIN(TestTf32x3)
#include "tst_tf32x3.moc"
