// The fused TF32 product whose CUTLASS kernel reads B^T (both operands K-major in shared memory):
// the kernel gives cuBLAS TF32's product (same sampled error against an FP64 host product as
// the kernel that reads B as it lies), and the protected product built on it — B rounded by its
// checksum pass, laid out K-major, C's sums from the epilogue — ends clean without a fault and
// corrects one injected fault to the clean value. Hopper only (sm_90a kernels): skipped elsewhere.
#include "gpu_available.hpp"

#include "families/blocked_gemm/cuda/measure.hpp"

#include <QtTest>

using namespace gigacheck;

class TestCudaFusedKMajor : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        GIGACHECK_REQUIRE_CUDA_DEVICE();
        if (const std::string why = whyNoCutlassKernels(); !why.empty())
            QSKIP(("GPU test skipped: " + why).c_str());
    }

    void kMajorKernelComputesTheSameProduct()
    {
        for (std::int64_t n : {512, 1536}) {
            const cuda::GemmTiming asItLies = cuda::timeGemm(GemmVariant::CutlassTf32, 0, 16, Precision::F32, n, 1, false);
            const cuda::GemmTiming kMajor = cuda::timeGemm(GemmVariant::CutlassTf32, 0, 16, Precision::F32, n, 1, true);
            const cuda::GemmTiming cublas = cuda::timeGemm(GemmVariant::CublasTf32, 0, 16, Precision::F32, n, 1, false);
            QVERIFY2(kMajor.kernel.find("K-major") != std::string::npos, kMajor.kernel.c_str());
            // TF32 products: relative error ~1e-4 of sum |a||b| at most; a wrong layout gives ~0.1.
            QVERIFY2(kMajor.relError < 1e-3, std::to_string(kMajor.relError).c_str());
            QVERIFY2(kMajor.relError <= 2 * std::max(asItLies.relError, cublas.relError) + 1e-7,
                     (std::to_string(kMajor.relError) + " vs " + std::to_string(asItLies.relError)).c_str());
        }
    }

    void protectedProductIsCleanThenCorrects()
    {
        const std::int64_t n = 1024;
        const cuda::AbftTiming clean = cuda::timeAbftOverhead(Precision::F32, GemmVariant::CublasTf32, n, 0, 1);
        QVERIFY2(clean.fused.ran, clean.fused.why.c_str());
        QCOMPARE(QString::fromStdString(clean.fused.verdict), QString::fromStdString(clean.verdict));
        QCOMPARE(clean.fused.corrections, 0);

        const cuda::AbftTiming faulty = cuda::timeAbftOverhead(Precision::F32, GemmVariant::CublasTf32, n, 1, 1);
        QVERIFY2(faulty.fused.ran, faulty.fused.why.c_str());
        QCOMPARE(faulty.fused.corrections, 1);
        QCOMPARE(QString::fromStdString(faulty.fused.verdict), QString::fromStdString(faulty.verdict));
        QVERIFY2(faulty.fused.correctedRelError < 1e-4, std::to_string(faulty.fused.correctedRelError).c_str());
    }
};

QTEST_GUILESS_MAIN(TestCudaFusedKMajor)
#include "tst_cuda_fused_kmajor.moc"
