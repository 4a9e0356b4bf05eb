// The checksum passes of many panel products at once (panelChecksumIncrements,
// engine/src/abft/cuda/abft_device.hpp: the online family's step-sums path makes every step's
// checksums with it beside its kernel): each panel's shares, summed up to that panel, must be the
// checksums that checksumProducts accumulates panel by panel -- C's checksum column, row and corner
// to FP32 rounding (the two add in different orders), the bounds' scales to double rounding -- on
// shapes whose extents are not multiples of the passes' tiles and strips.
#include "gpu_available.hpp"

#include "gigacheck/matrix.hpp"

#ifdef GIGACHECK_HAVE_CUDA
#include "../../engine/src/gemm/cuda/passes_16bit_test_support.hpp"
#endif

#include <random>
#include <vector>

class TestCudaPanelIncrements : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { GIGACHECK_REQUIRE_CUDA_DEVICE(); }
    void sharesSumToTheAccumulatedChecksums_data();
    void sharesSumToTheAccumulatedChecksums();
};

void TestCudaPanelIncrements::sharesSumToTheAccumulatedChecksums_data()
{
    QTest::addColumn<int>("m");
    QTest::addColumn<int>("n");
    QTest::addColumn<int>("q");
    QTest::addColumn<int>("depth");
    QTest::addRow("1x32x1, one panel") << 1 << 32 << 1 << 32;
    QTest::addRow("5x64x7, two panels") << 5 << 64 << 7 << 32;
    QTest::addRow("129x96x257, three") << 129 << 96 << 257 << 32;
    QTest::addRow("300x256x130, four") << 300 << 256 << 130 << 64;
    QTest::addRow("1025x1024x513, eight") << 1025 << 1024 << 513 << 128;
}

void TestCudaPanelIncrements::sharesSumToTheAccumulatedChecksums()
{
#ifdef GIGACHECK_HAVE_CUDA
    QFETCH(int, m);
    QFETCH(int, n);
    QFETCH(int, q);
    QFETCH(int, depth);
    std::mt19937 gen(std::uint32_t(m * 7 + q));
    std::uniform_real_distribution<float> value(-1.0f, 1.0f);
    std::vector<float> a(std::size_t(m) * std::size_t(n)), b(std::size_t(n) * std::size_t(q));
    for (float& x : a)
        x = value(gen);
    for (float& x : b)
        x = value(gen);
    const gigacheck::cuda::PanelIncrementsComparison r = gigacheck::cuda::comparePanelIncrements(a, b, m, n, q, depth);
    QCOMPARE(r.panels, n / depth);
    QVERIFY2(r.largestLine > 0.1, qPrintable(QStringLiteral("largest checksum %1").arg(r.largestLine)));
    QVERIFY2(r.lineDifference <= 1e-5, qPrintable(QStringLiteral("checksum lines differ by %1").arg(r.lineDifference)));
    QVERIFY2(r.boundDifference <= 1e-10, qPrintable(QStringLiteral("bounds differ by %1").arg(r.boundDifference)));
#else
    QSKIP("GPU test skipped: built without CUDA");
#endif
}

QTEST_GUILESS_MAIN(TestCudaPanelIncrements)
#include "tst_cuda_panel_increments.moc"
