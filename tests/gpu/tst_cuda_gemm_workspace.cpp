// The GEMM's workspace on the device (gigacheck/blocked_gemm/plan.hpp, GemmVariant): where the block
// products multiply copies of the blocks (BF16 / FP16 inputs, tf32x3) or the CUTLASS kernel leaves
// partial sums of C's rows, the plan's workspace buffers -- charged to --mem -- hold them, and no
// product takes memory of its own beside the cap; the run ends verified, its buffers within the cap.
// The CPU side (the accounting) is tests/engine/tst_plan.
#include "blocked_device_runs.hpp"
#include "gpu_available.hpp"

#include "gigacheck/blocked_gemm/run.hpp"

#ifdef GIGACHECK_HAVE_CUDA
#include "../../engine/src/gemm/cuda/scratch_testing.hpp"
#endif

#include <QtTest>

using namespace gigacheck;

Q_DECLARE_METATYPE(gigacheck::StrategyKind)
Q_DECLARE_METATYPE(gigacheck::GemmVariant)

class TestCudaGemmWorkspace : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { GIGACHECK_REQUIRE_CUDA_DEVICE(); }
    void productsUseThePlansWorkspace_data();
    void productsUseThePlansWorkspace();
};

void TestCudaGemmWorkspace::productsUseThePlansWorkspace_data()
{
    QTest::addColumn<GemmVariant>("gemm");
    QTest::addColumn<StrategyKind>("strategy");
    for (GemmVariant g : {GemmVariant::CublasBf16, GemmVariant::CublasF16, GemmVariant::Tf32x3, GemmVariant::CutlassTf32})
        for (StrategyKind k : {StrategyKind::S1, StrategyKind::S3})
            QTest::addRow("%s %s", toString(g).data(), toString(k).data()) << g << k;
}

void TestCudaGemmWorkspace::productsUseThePlansWorkspace()
{
#ifdef GIGACHECK_HAVE_CUDA
    QFETCH(GemmVariant, gemm);
    QFETCH(StrategyKind, strategy);
    if (gemm == GemmVariant::CutlassTf32 && !whyNoCutlassKernels().empty())
        QSKIP(("cutlass-tf32 runs cuBLAS TF32 here: " + whyNoCutlassKernels()).c_str());
    // Widths and depths multiples of 8: the CUTLASS kernels take every block.
    RunConfig cfg = test::withBitFlip(test::deviceRun(gemm, {512, 384, 448}, strategy), 27);
    cfg.memCapBytes = bytesForBlocks(strategy, Precision::F32, true, 128, 96, 128, gemm);
    (void)runGemm(cfg);  // the first run of the process also warms the device up (its own scratch)
    const std::size_t before = cuda::testing::streamScratchRequests();
    const RunRecord r = runGemm(cfg);
    QCOMPARE(cuda::testing::streamScratchRequests(), before);
    QVERIFY2(r.status == "ok", r.error.c_str());
    QVERIFY(r.reference.passed);
    QVERIFY(r.plan.bytesNeeded <= cfg.memCapBytes);
    QVERIFY(r.metrics.peakBufferBytes <= cfg.memCapBytes);
    int workspaces = 0;
    for (const BufferSpec& b : r.plan.buffers)
        workspaces += b.role == BufferRole::Workspace ? 1 : 0;
    QCOMPARE(workspaces, strategy == StrategyKind::S1 ? 1 : 2);
    QVERIFY(r.plan.productCount() > 1);
#else
    QSKIP("GPU test skipped: no CUDA backend in this build");
#endif
}

QTEST_GUILESS_MAIN(TestCudaGemmWorkspace)
#include "tst_cuda_gemm_workspace.moc"
