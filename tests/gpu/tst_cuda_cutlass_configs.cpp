// Every K-major configuration of the CUTLASS TF32 kernel (B^T: both operands in shared memory; the
// tile / cluster shapes and tile swizzles cutlass_tf32_gemm.cu lists) gives cuBLAS TF32's product
// (the same sampled error against an FP64 host product), and the configuration the tuner picks for a
// shape (config -1) is one of them, gives the same product, and stays the pick on a second call.
// Hopper only (sm_90a kernels): skipped elsewhere.
#include "gpu_available.hpp"

#include "families/blocked_gemm/cuda/measure.hpp"

#include <QtTest>

#include <algorithm>
#include <string>
#include <vector>

using namespace gigacheck;

namespace {

// TF32 products: relative error ~1e-4 of sum |a||b| at most; a wrong layout or tile gives ~0.1.
void verifySameProduct(const cuda::GemmTiming& fused, const cuda::GemmTiming& cublas)
{
    const std::string what = fused.kernel + ": " + std::to_string(fused.relError) + " vs cuBLAS TF32 " +
                             std::to_string(cublas.relError);
    QVERIFY2(fused.relError < 1e-3, what.c_str());
    QVERIFY2(fused.relError <= 2 * cublas.relError + 1e-7, what.c_str());
}

std::string withoutLayout(std::string kernel)
{
    const std::string suffix = " B K-major";
    if (kernel.size() >= suffix.size() && kernel.compare(kernel.size() - suffix.size(), suffix.size(), suffix) == 0)
        kernel.resize(kernel.size() - suffix.size());
    return kernel;
}

}  // namespace

class TestCudaCutlassConfigs : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        GIGACHECK_REQUIRE_CUDA_DEVICE();
        GIGACHECK_REQUIRE_CUTLASS_KERNELS();
    }

    void everyKMajorConfigurationComputesTheSameProduct()
    {
        // 1536: partial tiles at the edges of 128 x 256 (and of a 2 x 2 cluster); 2048: whole ones.
        for (std::int64_t n : {1536, 2048}) {
            const cuda::GemmTiming cublas = cuda::timeGemm(GemmVariant::CublasTf32, 0, 16, Precision::F32, n, 1);
            const cuda::GemmTiming first = cuda::timeGemm(GemmVariant::CutlassTf32, 0, 16, Precision::F32, n, 1, true);
            QVERIFY2(first.kernelsKMajor.size() >= 2, "more than the default runs B^T");
            QCOMPARE(first.kernelsKMajor.front(), 0);  // the default runs both layouts
            QCOMPARE(first.kernelsBAsItLies.front(), 0);
            for (int config : first.kernelsKMajor) {
                const cuda::GemmTiming r =
                    config == 0 ? first : cuda::timeGemm(GemmVariant::CutlassTf32, config, 16, Precision::F32, n, 1, true);
                QVERIFY2(r.kernel.find("K-major") != std::string::npos, r.kernel.c_str());
                verifySameProduct(r, cublas);
            }
        }
    }

    void tunedPickIsAKMajorConfigurationAndStable()
    {
        const std::int64_t n = 2048;  // the smallest extent the tuner times configurations at
        const cuda::GemmTiming cublas = cuda::timeGemm(GemmVariant::CublasTf32, 0, 16, Precision::F32, n, 1);
        const cuda::GemmTiming tuned = cuda::timeGemm(GemmVariant::CutlassTf32, -1, 16, Precision::F32, n, 1, true);
        QVERIFY2(!tuned.picked.empty(), "the tuner names its pick");
        std::vector<std::string> kMajorNames;
        for (int config : tuned.kernelsKMajor)
            kMajorNames.push_back(
                withoutLayout(cuda::timeGemm(GemmVariant::CutlassTf32, config, 16, Precision::F32, 256, 1, true).kernel));
        QVERIFY2(std::find(kMajorNames.begin(), kMajorNames.end(), tuned.picked) != kMajorNames.end(),
                 tuned.picked.c_str());
        verifySameProduct(tuned, cublas);

        const cuda::GemmTiming again = cuda::timeGemm(GemmVariant::CutlassTf32, -1, 16, Precision::F32, n, 1, true);
        QCOMPARE(QString::fromStdString(again.picked), QString::fromStdString(tuned.picked));
        verifySameProduct(again, cublas);
    }

    void smallShapesRunTheDefault()
    {
        const cuda::GemmTiming small = cuda::timeGemm(GemmVariant::CutlassTf32, -1, 16, Precision::F32, 1024, 1, true);
        const cuda::GemmTiming first = cuda::timeGemm(GemmVariant::CutlassTf32, 0, 16, Precision::F32, 256, 1, true);
        QCOMPARE(QString::fromStdString(small.picked), QString::fromStdString(withoutLayout(first.kernel)));
    }
};

QTEST_GUILESS_MAIN(TestCudaCutlassConfigs)
#include "tst_cuda_cutlass_configs.moc"
