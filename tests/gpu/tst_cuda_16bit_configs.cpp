// Every configuration of the CUTLASS 16-bit kernel (cutlass_16bit_gemm.cu: tiles, clusters, swizzles)
// writes the C plain cuBLAS writes on the same BF16 / FP16 operands and C's row and column sums, with
// C = A B and with C += A B: the tuner picks among them by speed alone. Hopper only (sm_90a kernels):
// skipped elsewhere.
#include "gpu_available.hpp"

#ifdef GIGACHECK_HAVE_CUDA
#include "gemm/cuda/passes_16bit_test_support.hpp"
#endif

#include <QtTest>

#include <random>
#include <vector>

using namespace gigacheck;

class TestCuda16BitConfigs : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { GIGACHECK_REQUIRE_CUDA_DEVICE(); }
    void everyConfigurationGivesCublasProductAndSums();
};

void TestCuda16BitConfigs::everyConfigurationGivesCublasProductAndSums()
{
#ifdef GIGACHECK_HAVE_CUDA
    if (const std::string why = whyNoCutlassKernels(); !why.empty())
        QSKIP(("the CUTLASS kernels cannot run here: " + why).c_str());
    std::mt19937 gen(44);
    std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
    auto random = [&](std::int64_t rows, std::int64_t cols) {
        std::vector<float> x(std::size_t(rows * cols));
        for (float& v : x)
            v = uniform(gen);
        return x;
    };
    // Off the tiles in both directions, and several tiles and rounds.
    struct Dims {
        std::int64_t m, n, q;
    };
    const Dims shapes[] = {{200, 136, 264}, {1100, 520, 1032}};
    QVERIFY(cuda::cutlass16BitConfigurations() > 0);
    for (const Dims& d : shapes) {
        const auto a = random(d.m, d.n), b = random(d.n, d.q);
        for (InputFormat f : {InputFormat::Bf16, InputFormat::F16})
            for (bool accumulate : {false, true})
                for (int config = 0; config < cuda::cutlass16BitConfigurations(); ++config) {
                    const cuda::Config16Check r = cuda::check16BitConfig(f, a, b, d.m, d.n, d.q, config, accumulate);
                    const QString where = QString("config %1, %2 x %3 x %4, %5, accumulate %6")
                                              .arg(config).arg(d.m).arg(d.n).arg(d.q)
                                              .arg(f == InputFormat::F16 ? "f16" : "bf16").arg(int(accumulate));
                    QVERIFY2(r.refused.empty(), qPrintable(where + ": " + QString::fromStdString(r.refused)));
                    // Both accumulate in FP32 over the same 16-bit products, in their own orders.
                    QVERIFY2(r.cDifference < 1e-5, qPrintable(where + ": C " + QString::number(r.cDifference)));
                    QVERIFY2(r.rowSumDifference < 1e-5, qPrintable(where + ": row sums " + QString::number(r.rowSumDifference)));
                    QVERIFY2(r.colSumDifference < 1e-5, qPrintable(where + ": column sums " + QString::number(r.colSumDifference)));
                }
    }
#else
    QSKIP("GPU test skipped: no CUDA backend in this build");
#endif
}

QTEST_GUILESS_MAIN(TestCuda16BitConfigs)
#include "tst_cuda_16bit_configs.moc"
