// The TF32 round-off model on the device (abft.hpp, README "Detection threshold"): cublas-tf32
// products of several shapes and distributions verify clean, and a fault ten times smaller than
// the old bound's smallest threshold is found and corrected; end to end through runGemm too.
#include "gpu_available.hpp"

#include "gigacheck/matrix.hpp"
#include "gigacheck/run.hpp"

#ifdef GIGACHECK_HAVE_CUDA
#include "../../engine/src/families/blocked_gemm/cuda/test_support.hpp"
#endif

#include <random>

using namespace gigacheck;

namespace {

enum class Data { Uniform, Normal, Wide, Positive, Offset };

HostMatrix makeMatrix(std::int64_t rows, std::int64_t cols, Data d, std::uint64_t seed)
{
    HostMatrix m(Precision::F32, rows, cols);
    if (d == Data::Uniform || d == Data::Normal || d == Data::Wide) {
        fillRandom(m, d == Data::Uniform ? Distribution::Uniform : d == Data::Normal ? Distribution::Normal : Distribution::Wide,
                   seed, 0);
        return m;
    }
    std::mt19937_64 gen(seed);
    std::uniform_real_distribution<double> u01(0.0, 1.0);
    float* x = static_cast<float*>(m.data());
    for (std::int64_t e = 0; e < rows * cols; ++e)
        x[e] = float((d == Data::Offset ? 100.0 : 0.0) + u01(gen));
    return m;
}

}  // namespace

class TestCudaTf32 : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { GIGACHECK_REQUIRE_CUDA_DEVICE(); }
    void cleanProductsVerifyClean_data();
    void cleanProductsVerifyClean();
    void detectsTenTimesSmallerFault();
    void blockedRunsHaveNoFalseAlarm();
};

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
    const RoundoffModel oldModel{unitRoundoff(Precision::F32, true), 0.0};  // before: u = 2^-11 everywhere
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

// End to end: blocked cublas-tf32 runs (several k steps per block) verify clean.
void TestCudaTf32::blockedRunsHaveNoFalseAlarm()
{
    for (StrategyKind s : {StrategyKind::S1, StrategyKind::S3})
        for (Distribution d : {Distribution::Uniform, Distribution::Normal, Distribution::Wide}) {
            RunConfig cfg;
            cfg.shape = {1531, 3001, 1409};
            cfg.backend = BackendKind::Cuda;
            cfg.strategy = s;
            cfg.gemm = GemmVariant::CublasTf32;
            cfg.distribution = d;
            cfg.memCapBytes = 12000000;
            cfg.reference = ReferenceMode::None;
            const RunRecord r = runGemm(cfg);
            QVERIFY2(r.status == "ok", r.error.c_str());
            QVERIFY(r.plan.productCount() >= 4);
            QCOMPARE(r.faults.falsePositives, 0);
            for (const VerifyEvent& v : r.verifications)
                QVERIFY(v.result.verdict == Verdict::Clean);
            qInfo("%s %s: max clean residual / threshold %.3g", toString(s).data(), toString(d).data(),
                  r.faults.maxCleanResidualRatio);
        }
}

QTEST_GUILESS_MAIN(TestCudaTf32)
#include "tst_cuda_tf32.moc"
