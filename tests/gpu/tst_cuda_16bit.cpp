// BF16 / FP16 inputs on the device (--gemm cublas-bf16 / cublas-f16: cuBLAS with 16-bit A and B,
// FP32 accumulation and C; with ABFT the checksum passes round the operands in registers and write
// the 16-bit copies the GEMM reads): the product is that of the rounded operands, clean runs of odd shapes raise no alarm,
// a flip of any bit of a cell ends verified correct, random single faults are corrected, FP16
// refuses an operand beyond 65504. The CPU emulation of the same is tests/engine/tst_16bit_runs.
#include "blocked_device_runs.hpp"
#include "gpu_available.hpp"

#include "gigacheck/input_rounding.hpp"
#include "gigacheck/matrix.hpp"
#include "gigacheck/blocked_gemm/run.hpp"
#include "engine/gemm_run_helpers.hpp"

#include <QtTest>

#include <algorithm>
#include <cmath>

using namespace gigacheck;
using test::deviceRun;

Q_DECLARE_METATYPE(gigacheck::StrategyKind)
Q_DECLARE_METATYPE(gigacheck::GemmVariant)

namespace {

void addVariants()
{
    QTest::addColumn<GemmVariant>("gemm");
    QTest::addRow("cublas-bf16") << GemmVariant::CublasBf16;
    QTest::addRow("cublas-f16") << GemmVariant::CublasF16;
}

const char* nameOf(GemmVariant g) { return toString(g).data(); }

}  // namespace

class TestCuda16Bit : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { GIGACHECK_REQUIRE_CUDA_DEVICE(); }
    void productIsThatOfTheRoundedOperands_data() { addVariants(); }
    void productIsThatOfTheRoundedOperands();
    void cleanRunsRaiseNoFalseAlarm_data() { addVariants(); }
    void cleanRunsRaiseNoFalseAlarm();
    void everyBitEndsVerifiedCorrect_data() { addVariants(); }
    void everyBitEndsVerifiedCorrect();
    void randomSingleFaultsAreCorrected_data() { addVariants(); }
    void randomSingleFaultsAreCorrected();
    void f16RefusesOperandsBeyondItsRange();
};

// Without and with ABFT (the plain product converts unrounded operands itself, the protected one
// multiplies the copies its checksum passes wrote): C against exact dot products of the rounded inputs.
void TestCuda16Bit::productIsThatOfTheRoundedOperands()
{
    QFETCH(GemmVariant, gemm);
    const InputFormat f = inputFormatOf(gemm);
    for (bool abft : {false, true}) {
        RunConfig cfg = deviceRun(gemm, {200, 160, 180}, StrategyKind::S2);
        cfg.abft = abft;
        HostMatrix a, b;
        const test::FinishedRun run = test::runKeepingC(cfg, test::copyInputsTo(a, b));
        const RunRecord& r = run.record;
        const HostMatrix& c = run.c;
        QVERIFY2(r.status == "ok", r.error.c_str());
        QVERIFY(r.reference.passed);
        double offRounded = 0, offPlain = 0;
        for (std::int64_t i = 0; i < 200; i += 7)
            for (std::int64_t j = 0; j < 180; ++j) {
                double rounded = 0, plain = 0;
                for (std::int64_t k = 0; k < 160; ++k) {
                    rounded += double(roundToInput(float(a.at(i, k)), f)) * double(roundToInput(float(b.at(k, j)), f));
                    plain += a.at(i, k) * b.at(k, j);
                }
                offRounded = std::max(offRounded, std::fabs(c.at(i, j) - rounded));
                offPlain = std::max(offPlain, std::fabs(c.at(i, j) - plain));
            }
        qInfo("%s, abft %d: largest difference to the rounded-input model %.3g, to the FP32 product %.3g",
              nameOf(gemm), int(abft), offRounded, offPlain);
        QVERIFY(offRounded < 1e-4);           // FP32 accumulation only
        QVERIFY(offPlain > 10 * offRounded);  // the input rounding shows
    }
}

void TestCuda16Bit::cleanRunsRaiseNoFalseAlarm()
{
    QFETCH(GemmVariant, gemm);
    const Shape shapes[] = {{1, 1, 1}, {1, 300, 77}, {300, 1, 25}, {33, 17, 1}, {129, 3, 65}, {257, 129, 31}, {61, 470, 53}};
    for (const Shape& shape : shapes)
        for (StrategyKind k : {StrategyKind::None, StrategyKind::S1, StrategyKind::S3, StrategyKind::S4})
            for (Distribution d : {Distribution::Uniform, Distribution::Normal, Distribution::Wide}) {
                RunConfig cfg = deviceRun(gemm, shape, k);
                cfg.distribution = d;
                const RunRecord r = runGemm(cfg);
                const std::string where = std::string(nameOf(gemm)) + " " + test::nameOfRun(shape, k, d);
                QVERIFY2(r.status == "ok", (where + ": " + r.error).c_str());
                QVERIFY2(r.faults.falsePositives == 0 && r.faults.detected == 0, where.c_str());
                QVERIFY2(r.verifiedCorrect(), where.c_str());
            }
}

// Bit 0 to 31 of cell (17, 33), strategies none and s2.
void TestCuda16Bit::everyBitEndsVerifiedCorrect()
{
    QFETCH(GemmVariant, gemm);
    for (StrategyKind k : {StrategyKind::None, StrategyKind::S2})
        for (int bit = 0; bit < 32; ++bit) {
            const RunRecord r = runGemm(test::withBitFlip(deviceRun(gemm, {200, 160, 180}, k), bit));
            const QByteArray where = QStringLiteral("%1 %2 bit %3").arg(nameOf(gemm), toString(k).data()).arg(bit).toLatin1();
            QVERIFY2(r.status == "ok", r.error.c_str());
            QCOMPARE(r.faults.injected, 1);
            QVERIFY2(r.faults.falsePositives == 0, where.constData());
            QVERIFY2(r.verifiedCorrect(), where.constData());
            if (bit >= 23)  // exponent and sign: far above the threshold
                QVERIFY2(r.faults.detected == 1, where.constData());
        }
}

void TestCuda16Bit::randomSingleFaultsAreCorrected()
{
    QFETCH(GemmVariant, gemm);
    for (StrategyKind k : {StrategyKind::None, StrategyKind::S1, StrategyKind::S2, StrategyKind::S3, StrategyKind::S4})
        for (std::uint64_t seed = 1; seed <= 4; ++seed) {
            RunConfig cfg = deviceRun(gemm, {256, 192, 224}, k);
            cfg.seed = seed;
            cfg.faults.count = 1;
            const RunRecord r = runGemm(cfg);
            const QByteArray where = QStringLiteral("%1 %2 seed %3").arg(nameOf(gemm), toString(k).data()).arg(seed).toLatin1();
            QVERIFY2(r.status == "ok", r.error.c_str());
            QVERIFY2(r.faults.detected == 1 && r.faults.corrected + r.faults.correctedByRecompute == 1, where.constData());
            QVERIFY2(r.verifiedCorrect(), where.constData());
        }
}

void TestCuda16Bit::f16RefusesOperandsBeyondItsRange()
{
    HostMatrix a(Precision::F32, 8, 6), b(Precision::F32, 6, 5);
    for (std::int64_t i = 0; i < a.rows() * a.cols(); ++i)
        a.as<float>()[i] = 0.5f;
    for (std::int64_t i = 0; i < b.rows() * b.cols(); ++i)
        b.as<float>()[i] = 2.0f;
    a.as<float>()[1 * 6 + 4] = -1e5f;
    RunHooks hooks;
    hooks.givenA = &a;
    hooks.givenB = &b;
    RunConfig cfg = deviceRun(GemmVariant::CublasF16, {8, 6, 5}, StrategyKind::None);
    QVERIFY_THROWS_EXCEPTION(InputError, runGemm(cfg, hooks));
    cfg.gemm = GemmVariant::CublasBf16;
    QVERIFY(runGemm(cfg, hooks).verifiedCorrect());
}

QTEST_GUILESS_MAIN(TestCuda16Bit)
#include "tst_cuda_16bit.moc"
