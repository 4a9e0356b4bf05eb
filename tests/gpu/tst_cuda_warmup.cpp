// The first run of a process is timed like every later one: the backend warms the device up
// (module loading, cuBLAS setup) before the clock starts. Its own executable, so that nothing
// else has touched the device in this process before the first run.
#include "gpu_available.hpp"

#include "gigacheck/blocked_gemm/run.hpp"

using namespace gigacheck;

Q_DECLARE_METATYPE(gigacheck::GemmVariant)
Q_DECLARE_METATYPE(gigacheck::Precision)

namespace {

// Sum of the product spans: what the timeline shows as compute.
double productBusySeconds(const RunRecord& r)
{
    double busy = 0;
    for (const Span& s : r.spans)
        if (s.kind == OpKind::Product)
            busy += s.end - s.start;
    return busy;
}

double firstProductSeconds(const RunRecord& r)
{
    for (const Span& s : r.spans)
        if (s.kind == OpKind::Product)
            return s.end - s.start;
    return 0;
}

}  // namespace

class TestCudaWarmUp : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { GIGACHECK_REQUIRE_CUDA_DEVICE(); }
    void firstRunTimedLikeSecond_data();
    void firstRunTimedLikeSecond();
};

void TestCudaWarmUp::firstRunTimedLikeSecond_data()
{
    QTest::addColumn<GemmVariant>("gemm");
    QTest::addColumn<Precision>("precision");
    QTest::addColumn<int>("n");
    QTest::addColumn<int>("capMiB");
    // The first row is the first run of this process: the case the warm-up is for (the GUI's
    // 4096^3 FP32 under 64 MiB). Products of a few ms each: the first use of a block shape's own
    // cuBLAS kernel (~0.1-0.3 ms) must not dominate the comparison.
    QTest::addRow("cublas-f32") << GemmVariant::Cublas << Precision::F32 << 4096 << 64;
    QTest::addRow("cublas-tf32") << GemmVariant::CublasTf32 << Precision::F32 << 8192 << 256;
    QTest::addRow("cublas-f64") << GemmVariant::Cublas << Precision::F64 << 4096 << 128;
    QTest::addRow("optimized-f32") << GemmVariant::Optimized << Precision::F32 << 4096 << 64;
}

void TestCudaWarmUp::firstRunTimedLikeSecond()
{
    QFETCH(GemmVariant, gemm);
    QFETCH(Precision, precision);
    QFETCH(int, n);
    QFETCH(int, capMiB);
    RunConfig cfg;
    cfg.shape = {n, n, n};
    cfg.precision = precision;
    cfg.backend = BackendKind::Cuda;
    cfg.strategy = StrategyKind::S2;
    cfg.gemm = gemm;
    cfg.memCapBytes = std::uint64_t(capMiB) << 20;  // several blocks
    cfg.reference = ReferenceMode::None;
    std::unique_ptr<Backend> backend = makeBackend(BackendKind::Cuda);  // reused, as the GUI does
    RunHooks hooks;
    hooks.backend = backend.get();
    const RunRecord first = runGemm(cfg, hooks);
    const RunRecord second = runGemm(cfg, hooks);
    QVERIFY2(first.status == "ok" && second.status == "ok", first.error.c_str());
    QVERIFY(first.plan.productCount() > 1);
    const double b1 = productBusySeconds(first), b2 = productBusySeconds(second);
    qInfo("compute busy: first run %.3f ms, second %.3f ms (ratio %.2f); first product span %.3f / %.3f ms", b1 * 1e3,
          b2 * 1e3, b1 / b2, firstProductSeconds(first) * 1e3, firstProductSeconds(second) * 1e3);
    QVERIFY2(b1 <= 1.5 * b2, "the first run's compute took more than 1.5x the second's: warm-up missing");
}

QTEST_GUILESS_MAIN(TestCudaWarmUp)
#include "tst_cuda_warmup.moc"
