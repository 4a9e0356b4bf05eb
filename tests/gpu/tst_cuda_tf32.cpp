// TF32 on the device (abft README "TF32", gigacheck/tf32.hpp).
// * Which rounding cuBLAS's TF32 GEMM applies to unrounded FP32 inputs on this device: its result
//   is compared with three models computed exactly on the host (products of the inputs rounded to
//   nearest, truncated to TF32, or not rounded), per shape; the one within FP32 accumulation
//   round-off is reported ("hypothesis: ..."). Informative: the engine does not depend on it.
// * What the engine does depend on, asserted: inputs already in TF32 are multiplied exactly (the
//   GEMM's result is within FP32 accumulation of the exact product of those values), whatever
//   rounding or kernel the library picks for the shape.
// * Protected cublas-tf32 products of several shapes and distributions verify clean (the operands
//   rounded in the checksum passes, FP32 thresholds), a fault ten times smaller than the former
//   bound's smallest threshold is corrected, flips of bits 15-22 of a 256^3 cell (silent before)
//   are corrected end to end, and blocked runs raise no false alarm.
#include "gpu_available.hpp"
#include "tf32_models.hpp"

#include "gigacheck/matrix.hpp"
#include "gigacheck/blocked_gemm/run.hpp"
#include "gigacheck/tf32.hpp"
#include "engine/gemm_run_helpers.hpp"

#ifdef GIGACHECK_HAVE_CUDA
#include "../../engine/src/families/blocked_gemm/cuda/test_support.hpp"
#endif

#include <cmath>
#include <cstring>
#include <vector>

using namespace gigacheck;

namespace {

enum class Data { Uniform, Normal, Wide, Positive, Offset };

HostMatrix makeMatrix(std::int64_t rows, std::int64_t cols, Data d, std::uint64_t seed)
{
    if (d == Data::Positive || d == Data::Offset)
        return test::offsetUniformMatrix(rows, cols, d == Data::Offset ? 100.0 : 0.0, seed);
    HostMatrix m(Precision::F32, rows, cols);
    fillRandom(m, d == Data::Uniform ? Distribution::Uniform : d == Data::Normal ? Distribution::Normal : Distribution::Wide,
               seed, 0);
    return m;
}

HostMatrix roundedCopy(const HostMatrix& m)
{
    HostMatrix out(Precision::F32, m.rows(), m.cols());
    std::memcpy(out.data(), m.data(), m.bytes());
    roundBlockToTf32(out.as<float>(), m.rows(), m.cols(), m.cols());
    return out;
}

enum class Hypothesis { Nearest, Truncate, Unrounded };
const char* nameOf(Hypothesis h)
{
    return h == Hypothesis::Nearest ? "round to nearest" : h == Hypothesis::Truncate ? "truncation" : "unrounded FP32";
}

// The hypothesis's rounding of an FP32 input, for test::worstOverBound.
auto roundingOf(Hypothesis h)
{
    return [h](float x) {
        return h == Hypothesis::Nearest ? roundToTf32(x) : h == Hypothesis::Truncate ? truncateToTf32(x) : x;
    };
}

const struct {
    int m, n, q;
} kHypothesisShapes[] = {{256, 256, 256}, {1, 300, 77}, {300, 1, 250}, {257, 129, 31}, {64, 4096, 64}, {512, 1024, 384}};

}  // namespace

class TestCudaTf32 : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { GIGACHECK_REQUIRE_CUDA_DEVICE(); }
    void whichRoundingCublasApplies_data();
    void whichRoundingCublasApplies();
    void tf32InputsAreMultipliedExactly_data();
    void tf32InputsAreMultipliedExactly();
    void flipsThatWereSilentAreCorrected();
    void cleanProductsVerifyClean_data();
    void cleanProductsVerifyClean();
    void detectsTenTimesSmallerFault();
    void blockedRunsHaveNoFalseAlarm();
};

void TestCudaTf32::whichRoundingCublasApplies_data()
{
    QTest::addColumn<int>("m");
    QTest::addColumn<int>("n");
    QTest::addColumn<int>("q");
    for (const auto& s : kHypothesisShapes)
        QTest::addRow("%dx%dx%d", s.m, s.n, s.q) << s.m << s.n << s.q;
}

// Reports, per shape, which hypothesis the library's result matches (within FP32 accumulation:
// worst |C - model| / bound <= 1) and by how much the others miss. Not asserted: the engine rounds
// the operands itself, so any of the three (or a mix over shapes) is fine for it.
void TestCudaTf32::whichRoundingCublasApplies()
{
#ifdef GIGACHECK_HAVE_CUDA
    QFETCH(int, m);
    QFETCH(int, n);
    QFETCH(int, q);
    const HostMatrix a = makeMatrix(m, n, Data::Uniform, 31), b = makeMatrix(n, q, Data::Uniform, 32);
    HostMatrix c(Precision::F32, m, q);
    cuda::gemmOnDevice(GemmVariant::CublasTf32, 32, 16, a, b, c);
    QString line;
    const char* matched = nullptr;
    int matches = 0;
    for (Hypothesis h : {Hypothesis::Nearest, Hypothesis::Truncate, Hypothesis::Unrounded}) {
        const double w = test::worstOverBound(a, b, c, roundingOf(h));
        line += QStringLiteral("%1 %2  ").arg(QString::fromLatin1(nameOf(h))).arg(w, 0, 'g', 3);
        if (w <= 1.0) {
            matched = nameOf(h);
            ++matches;
        }
    }
    qInfo("cublas-tf32 %dx%dx%d, worst |C - model| / FP32 accumulation bound: %s-> hypothesis: %s", m, n, q,
          qPrintable(line), matches == 1 ? matched : matches == 0 ? "none matches" : "ambiguous");
#endif
}

void TestCudaTf32::tf32InputsAreMultipliedExactly_data() { whichRoundingCublasApplies_data(); }

// The property the engine relies on (gigacheck/tf32.hpp): given inputs that are TF32 values, the
// TF32 GEMM multiplies exactly those values, for every shape (tensor-core or not).
void TestCudaTf32::tf32InputsAreMultipliedExactly()
{
#ifdef GIGACHECK_HAVE_CUDA
    QFETCH(int, m);
    QFETCH(int, n);
    QFETCH(int, q);
    const HostMatrix a = roundedCopy(makeMatrix(m, n, Data::Normal, 33)), b = roundedCopy(makeMatrix(n, q, Data::Normal, 34));
    HostMatrix c(Precision::F32, m, q);
    cuda::gemmOnDevice(GemmVariant::CublasTf32, 32, 16, a, b, c);
    const double w = test::worstOverBound(a, b, c, roundingOf(Hypothesis::Unrounded));
    qInfo("TF32 inputs: worst |C - exact| / FP32 accumulation bound %.3g", w);
    QVERIFY(w <= 1.0);
#endif
}

// 256^3, uniform, through runGemm: flips of bits 15-22 of a cell with |C| in [8, 16) were silent
// data corruptions under the former scheme (threshold ~0.8); now detected, corrected, verified.
void TestCudaTf32::flipsThatWereSilentAreCorrected()
{
#ifdef GIGACHECK_HAVE_CUDA
    RunConfig probe;
    probe.shape = {256, 256, 256};
    probe.backend = BackendKind::Cuda;
    probe.gemm = GemmVariant::CublasTf32;
    probe.reference = ReferenceMode::Full;
    const test::FinishedRun clean = test::runKeepingC(probe);
    QVERIFY(clean.record.verifiedCorrect());
    const auto [row, col] = test::cellWithMagnitude(clean.c, 8, 16, 128 * 256);
    QVERIFY(row >= 0);
    for (StrategyKind s : {StrategyKind::None, StrategyKind::S1, StrategyKind::S2, StrategyKind::S3, StrategyKind::S4})
        for (int bit = 15; bit <= 22; ++bit) {
            RunConfig cfg = probe;
            cfg.strategy = s;
            cfg.memCapBytes = s == StrategyKind::None ? 0 : 3 * 256 * 256 * 4 / 4;
            cfg.faults.model = FaultModel::BitFlip;
            cfg.faults.bit = bit;
            cfg.faults.at.push_back({row, col, std::nullopt, std::nullopt});
            const RunRecord r = runGemm(cfg);
            const QByteArray what = QByteArray(toString(s).data()) + " bit " + QByteArray::number(bit) + ":\n" +
                                    QByteArray::fromStdString(formatReport(r));
            QVERIFY2(r.status == "ok", what.constData());
            QVERIFY2(r.faults.detected == 1, what.constData());
            QVERIFY2(r.verifiedCorrect() && r.reference.passed, what.constData());
            QCOMPARE(r.faults.falsePositives, 0);
        }
#endif
}

void TestCudaTf32::cleanProductsVerifyClean_data()
{
    QTest::addColumn<int>("m");
    QTest::addColumn<int>("n");
    QTest::addColumn<int>("q");
    QTest::addColumn<int>("data");
    const struct { int m, n, q; } shapes[] = {{1, 1, 1}, {157, 93, 131}, {1000, 3001, 777}, {4096, 4096, 4096}, {2048, 16384, 2048}};
    const char* names[] = {"uniform", "normal", "wide", "positive", "offset"};
    for (const auto& s : shapes)
        for (int d = 0; d < 5; ++d)
            QTest::addRow("%dx%dx%d-%s", s.m, s.n, s.q, names[d]) << s.m << s.n << s.q << d;
}

void TestCudaTf32::cleanProductsVerifyClean()
{
#ifdef GIGACHECK_HAVE_CUDA
    QFETCH(int, m);
    QFETCH(int, n);
    QFETCH(int, q);
    QFETCH(int, data);
    const HostMatrix a = makeMatrix(m, n, Data(data), 3), b = makeMatrix(n, q, Data(data), 4);
    const cuda::ProtectedProduct r =
        cuda::protectedProductOnDevice(GemmVariant::CublasTf32, a, b, roundoffModel(Precision::F32, true));
    qInfo("max clean residual / threshold %.3g, thresholds %.3g .. %.3g", r.maxCleanResidualRatio, r.minThreshold,
          r.maxThreshold);
    QCOMPARE(QString::fromStdString(r.verdict), QStringLiteral("clean"));
    QVERIFY(r.maxCleanResidualRatio < 1.0);
#endif
}

void TestCudaTf32::detectsTenTimesSmallerFault()
{
#ifdef GIGACHECK_HAVE_CUDA
    const int n = 4096;
    const HostMatrix a = makeMatrix(n, n, Data::Uniform, 5), b = makeMatrix(n, n, Data::Uniform, 6);
    const RoundoffModel oldModel{unitRoundoff(Precision::F32, true), 0.0, false};  // first bound: u = 2^-11 everywhere
    const RoundoffModel model = roundoffModel(Precision::F32, true);
    const cuda::ProtectedProduct oldClean = cuda::protectedProductOnDevice(GemmVariant::CublasTf32, a, b, oldModel);
    const cuda::ProtectedProduct newClean = cuda::protectedProductOnDevice(GemmVariant::CublasTf32, a, b, model);
    qInfo("thresholds: old %.4g .. %.4g, model %.4g .. %.4g; clean residual / threshold %.3g", oldClean.minThreshold,
          oldClean.maxThreshold, newClean.minThreshold, newClean.maxThreshold, newClean.maxCleanResidualRatio);
    QCOMPARE(QString::fromStdString(newClean.verdict), QStringLiteral("clean"));
    QVERIFY(newClean.maxThreshold * 10 < oldClean.minThreshold);

    cuda::DeviceFault fault{n / 3, n / 2, oldClean.minThreshold / 10};
    const cuda::ProtectedProduct before = cuda::protectedProductOnDevice(GemmVariant::CublasTf32, a, b, oldModel, fault);
    const cuda::ProtectedProduct now = cuda::protectedProductOnDevice(GemmVariant::CublasTf32, a, b, model, fault);
    qInfo("fault %.4g: old model %s, TF32 model %s (%.6g -> %.6g)", fault.delta, before.verdict.c_str(),
          now.verdict.c_str(), now.before, now.after);
    QCOMPARE(QString::fromStdString(before.verdict), QStringLiteral("clean"));  // missed by the old bound
    QCOMPARE(QString::fromStdString(now.verdict), QStringLiteral("corrected"));
    QCOMPARE(now.corrections, 1);
    QVERIFY(std::fabs(now.before - now.after - fault.delta) < fault.delta / 10);
#endif
}

// End to end: blocked cublas-tf32 runs (several k steps per block) verify clean; cutlass-tf32 too
// (C's sums from the GEMM's epilogue) where its kernels run.
void TestCudaTf32::blockedRunsHaveNoFalseAlarm()
{
    std::vector<GemmVariant> gemms{GemmVariant::CublasTf32};
    if (const std::string why = whyNoCutlassKernels(); why.empty())
        gemms.push_back(GemmVariant::CutlassTf32);
    else
        qInfo("cutlass-tf32 rows skipped: %s", why.c_str());
    for (GemmVariant gemm : gemms)
    for (StrategyKind s : {StrategyKind::S1, StrategyKind::S3})
        for (Distribution d : {Distribution::Uniform, Distribution::Normal, Distribution::Wide}) {
            RunConfig cfg;
            cfg.shape = {1531, 3001, 1409};
            cfg.backend = BackendKind::Cuda;
            cfg.strategy = s;
            cfg.gemm = gemm;
            cfg.distribution = d;
            cfg.memCapBytes = 12000000;
            cfg.reference = ReferenceMode::None;
            const RunRecord r = runGemm(cfg);
            QVERIFY2(r.status == "ok", r.error.c_str());
            QVERIFY(r.plan.productCount() >= 4);
            QCOMPARE(r.faults.falsePositives, 0);
            for (const VerifyEvent& v : r.verifications)
                QVERIFY(v.result.verdict == Verdict::Clean);
            qInfo("%s %s %s: max clean residual / threshold %.3g", toString(gemm).data(), toString(s).data(),
                  toString(d).data(), r.faults.maxCleanResidualRatio);
        }
}

QTEST_GUILESS_MAIN(TestCudaTf32)
#include "tst_cuda_tf32.moc"
