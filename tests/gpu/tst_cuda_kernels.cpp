// The GEMM kernels (naive, tiled 8/16/32, optimized BK 8/16, cuBLAS, cuBLAS TF32) against an
// OpenBLAS twin on odd shapes, FP32 and FP64, with the error bound of each arithmetic; and the
// cuBLASLt configuration the tuner keeps for a shape (gemm_tuning.hpp), with and without C.
#include "gpu_available.hpp"

#include "gigacheck/abft.hpp"
#include "gigacheck/matrix.hpp"

#ifdef GIGACHECK_HAVE_CUDA
#include "../../engine/src/families/blocked_gemm/cuda/test_support.hpp"
#endif

#include <cblas.h>

#include <cmath>

using namespace gigacheck;

Q_DECLARE_METATYPE(gigacheck::GemmVariant)
Q_DECLARE_METATYPE(gigacheck::Precision)

class TestCudaKernels : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { GIGACHECK_REQUIRE_CUDA_DEVICE(); }
    void variantsMatchOpenBlas_data();
    void variantsMatchOpenBlas();
    void tiledRefusesOtherTiles();
    void tunedConfigurationMatchesReference_data();
    void tunedConfigurationMatchesReference();
    void longProductBorrowsAShorterDepthsConfiguration();
};

void TestCudaKernels::variantsMatchOpenBlas_data()
{
    QTest::addColumn<GemmVariant>("variant");
    QTest::addColumn<int>("tile");
    QTest::addColumn<int>("bk");
    QTest::addColumn<Precision>("precision");
    QTest::addColumn<int>("m");
    QTest::addColumn<int>("n");
    QTest::addColumn<int>("q");
    struct V {
        const char* name;
        GemmVariant v;
        int tile, bk;
    };
    const V variants[] = {{"naive", GemmVariant::Naive, 32, 16},       {"tiled8", GemmVariant::Tiled, 8, 16},
                          {"tiled16", GemmVariant::Tiled, 16, 16},     {"tiled32", GemmVariant::Tiled, 32, 16},
                          {"optimized-bk8", GemmVariant::Optimized, 32, 8}, {"optimized", GemmVariant::Optimized, 32, 16},
                          {"cublas", GemmVariant::Cublas, 32, 16},     {"cublas-tf32", GemmVariant::CublasTf32, 32, 16}};
    const int shapes[][3] = {{1, 1, 1}, {37, 53, 29}, {130, 257, 131}, {256, 128, 256}, {5, 700, 3}};
    for (const V& v : variants)
        for (Precision p : {Precision::F32, Precision::F64})
            for (const auto& s : shapes) {
                if (v.v == GemmVariant::CublasTf32 && p == Precision::F64)
                    continue;
                QTest::addRow("%s-%s-%dx%dx%d", v.name, p == Precision::F32 ? "f32" : "f64", s[0], s[1], s[2])
                    << v.v << v.tile << v.bk << p << s[0] << s[1] << s[2];
            }
}

void TestCudaKernels::variantsMatchOpenBlas()
{
#ifdef GIGACHECK_HAVE_CUDA
    QFETCH(GemmVariant, variant);
    QFETCH(int, tile);
    QFETCH(int, bk);
    QFETCH(Precision, precision);
    QFETCH(int, m);
    QFETCH(int, n);
    QFETCH(int, q);
    HostMatrix a(precision, m, n), b(precision, n, q), c(precision, m, q);
    fillRandom(a, Distribution::Normal, 7, 0);
    fillRandom(b, Distribution::Normal, 7, 1);
    c.fill(std::nan(""));  // poisoned: every element must be written
    cuda::gemmOnDevice(variant, tile, bk, a, b, c);

    // FP64 twin and the bound |C - C_ref| <= gamma * (|A| |B|), gamma = 2 n u (+ slack).
    const double u = unitRoundoff(precision, variant == GemmVariant::CublasTf32);
    for (int i = 0; i < m; ++i)
        for (int j = 0; j < q; ++j) {
            double ref = 0, mag = 0;
            for (int k = 0; k < n; ++k) {
                ref += a.at(i, k) * b.at(k, j);
                mag += std::fabs(a.at(i, k) * b.at(k, j));
            }
            const double got = c.at(i, j);
            if (!(std::fabs(got - ref) <= 2.0 * (n + 2) * u * mag + 1e-300))
                QFAIL(qPrintable(QStringLiteral("C(%1,%2) = %3, reference %4 (|A||B| = %5)")
                                     .arg(i).arg(j).arg(got, 0, 'g', 17).arg(ref, 0, 'g', 17).arg(mag)));
        }
#endif
}

void TestCudaKernels::tunedConfigurationMatchesReference_data()
{
    QTest::addColumn<int>("m");
    QTest::addColumn<int>("n");
    QTest::addColumn<int>("q");
    QTest::addColumn<bool>("accumulate");
    // A panel product of the online family's kind (C += A_j B_j), a plain one, and an odd shape.
    QTest::addRow("panel-accumulate") << 768 << 256 << 384 << true;
    QTest::addRow("plain") << 512 << 320 << 448 << false;
    QTest::addRow("odd-accumulate") << 131 << 77 << 53 << true;
}

void TestCudaKernels::tunedConfigurationMatchesReference()
{
#ifdef GIGACHECK_HAVE_CUDA
    QFETCH(int, m);
    QFETCH(int, n);
    QFETCH(int, q);
    QFETCH(bool, accumulate);
    HostMatrix a(Precision::F32, m, n), b(Precision::F32, n, q), c(Precision::F32, m, q);
    fillRandom(a, Distribution::Normal, 11, 0);
    fillRandom(b, Distribution::Normal, 11, 1);
    fillRandom(c, Distribution::Normal, 11, 2);
    HostMatrix c0(Precision::F32, m, q);  // HostMatrix copies share their data: fill a second one alike
    fillRandom(c0, Distribution::Normal, 11, 2);
    int configurations = 0;
    const std::string kept = cuda::tunedGemmOnDevice(a, b, c, accumulate, &configurations);
    qInfo("%s: %d cuBLASLt configuration(s) timed, kept %s", QTest::currentDataTag(), configurations, kept.c_str());
    if (m % 4 == 0 && n % 4 == 0 && q % 4 == 0) {  // aligned shapes: cuBLASLt has FP32 kernels for them
        QVERIFY(configurations > 0);
        QVERIFY2(kept.rfind("cuBLASLt", 0) == 0, kept.c_str());
    }
    const double u = unitRoundoff(Precision::F32, false);
    for (int i = 0; i < m; ++i)
        for (int j = 0; j < q; ++j) {
            double ref = accumulate ? c0.at(i, j) : 0.0, mag = accumulate ? std::fabs(c0.at(i, j)) : 0.0;
            for (int k = 0; k < n; ++k) {
                ref += a.at(i, k) * b.at(k, j);
                mag += std::fabs(a.at(i, k) * b.at(k, j));
            }
            const double got = c.at(i, j);
            if (!(std::fabs(got - ref) <= 2.0 * (n + 3) * u * mag + 1e-300))
                QFAIL(qPrintable(QStringLiteral("C(%1,%2) = %3, reference %4 = C0 %5 + AB (%6)")
                                     .arg(i).arg(j).arg(got, 0, 'g', 17).arg(ref, 0, 'g', 17)
                                     .arg(accumulate ? double(c0.at(i, j)) : 0.0, 0, 'g', 17)
                                     .arg(QString::fromStdString(kept))));
        }
#endif
}

// A product too long for the tuner to time every configuration on (online's merged steps at
// 16384) runs the configuration kept for the same product at a shorter depth: the path is taken,
// and its results hold the FP32 bound (rows sampled: the FP64 reference of 1024 x 8192 x 1024).
void TestCudaKernels::longProductBorrowsAShorterDepthsConfiguration()
{
#ifdef GIGACHECK_HAVE_CUDA
    const int m = 1024, n = 8192, q = 1024;
    HostMatrix a(Precision::F32, m, n), b(Precision::F32, n, q), c(Precision::F32, m, q);
    fillRandom(a, Distribution::Normal, 12, 0);
    fillRandom(b, Distribution::Normal, 12, 1);
    fillRandom(c, Distribution::Normal, 12, 2);
    HostMatrix c0(Precision::F32, m, q);
    fillRandom(c0, Distribution::Normal, 12, 2);
    int configurations = 0;
    const std::string kept = cuda::tunedGemmOnDevice(a, b, c, true, &configurations, true);
    qInfo("kept %s", kept.c_str());
    QVERIFY2(kept.find("(kept at depth ") != std::string::npos, kept.c_str());
    QCOMPARE(configurations, 1);
    const double u = unitRoundoff(Precision::F32, false);
    for (int i = 0; i < m; i += 61)
        for (int j = 0; j < q; ++j) {
            double ref = c0.at(i, j), mag = std::fabs(c0.at(i, j));
            for (int k = 0; k < n; ++k) {
                ref += a.at(i, k) * b.at(k, j);
                mag += std::fabs(a.at(i, k) * b.at(k, j));
            }
            QVERIFY2(std::fabs(c.at(i, j) - ref) <= 2.0 * (n + 3) * u * mag,
                     qPrintable(QStringLiteral("C(%1,%2) = %3, reference %4").arg(i).arg(j).arg(c.at(i, j)).arg(ref)));
        }
#endif
}

void TestCudaKernels::tiledRefusesOtherTiles()
{
#ifdef GIGACHECK_HAVE_CUDA
    HostMatrix a(Precision::F32, 4, 4), b(Precision::F32, 4, 4), c(Precision::F32, 4, 4);
    QVERIFY_THROWS_EXCEPTION(InputError, cuda::gemmOnDevice(GemmVariant::Tiled, 12, 16, a, b, c));
#endif
}

QTEST_GUILESS_MAIN(TestCudaKernels)
#include "tst_cuda_kernels.moc"
