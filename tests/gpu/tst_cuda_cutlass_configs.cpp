// Every K-major configuration of the CUTLASS TF32 kernel (B^T: both operands in shared memory; the
// tile / cluster shapes and tile swizzles cutlass_tf32_gemm.cu lists) gives cuBLAS TF32's product
// (the same sampled error against an FP64 host product), and the configuration the tuner picks for a
// shape (config -1) is one of them, gives the same product, and stays the pick on a second call.
// Hopper only (sm_90a kernels): skipped elsewhere.
#include "gpu_available.hpp"

#include "families/blocked_gemm/cuda/measure.hpp"
#include "gemm/cuda/fused_kmajor_test_support.hpp"

#include <QtTest>

#include <algorithm>
#include <cmath>
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

    // C += A B with C's sums from the epilogue, as the online family's panel products run it, in every
    // K-major configuration (the tuner may keep any of them for a panel's shape): C within TF32 round-off of the FP64 host
    // product of the operands plus C0, and each row and column sum within FP32 summation of the sum
    // of the C written (a tile's sums dropped or added twice would be off by a whole tile's part).
    void everyKMajorConfigurationAccumulatesWithItsSums()
    {
        const std::int64_t m = 1000, n = 520, q = 1288;  // partial tiles at every edge, a shallow depth
        HostMatrix a(Precision::F32, m, n), b(Precision::F32, n, q), c0(Precision::F32, m, q);
        fillRandom(a, Distribution::Uniform, 11, 1);
        fillRandom(b, Distribution::Uniform, 11, 2);
        fillRandom(c0, Distribution::Uniform, 11, 3);
        const std::vector<cuda::CutlassConfigRun> runs = cuda::everyKMajorConfigAccumulatingOnDevice(a, b, c0);
        for (const cuda::CutlassConfigRun& r : runs) {
            const std::string& name = r.name;
            QVERIFY2(r.error.empty(), (name + ": " + r.error).c_str());
            double worst = 0;
            for (std::int64_t i = 0; i < m; i += 37)
                for (std::int64_t j = 0; j < q; j += 29) {
                    double exact = c0.at(i, j), scale = std::abs(c0.at(i, j));
                    for (std::int64_t k = 0; k < n; ++k) {
                        exact += a.at(i, k) * b.at(k, j);
                        scale += std::abs(a.at(i, k) * b.at(k, j));
                    }
                    worst = std::max(worst, std::abs(r.c.at(i, j) - exact) / scale);
                }
            QVERIFY2(worst < 2e-3, (name + ": C off by " + std::to_string(worst) + " of sum |a b|").c_str());
            // Line `line` of C (a row, or with byColumn a column) against its sum from the epilogue.
            const auto lineSumMatches = [&](bool byColumn, std::int64_t line) {
                double sum = 0, abs = 0;
                for (std::int64_t x = 0; x < (byColumn ? m : q); ++x) {
                    const double v = byColumn ? r.c.at(x, line) : r.c.at(line, x);
                    sum += v;
                    abs += std::abs(v);
                }
                const double epilogue = (byColumn ? r.colSums : r.rowSums)[std::size_t(line)];
                return std::abs(epilogue - sum) <= 1e-5 * abs;
            };
            for (std::int64_t i = 0; i < m; ++i)
                QVERIFY2(lineSumMatches(false, i), (name + ": row sum " + std::to_string(i)).c_str());
            for (std::int64_t j = 0; j < q; ++j)
                QVERIFY2(lineSumMatches(true, j), (name + ": column sum " + std::to_string(j)).c_str());
        }
        QVERIFY2(runs.size() >= 4, "every K-major configuration ran");
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
