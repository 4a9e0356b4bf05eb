// The check's two sums kernels on the device (engine/src/abft/cuda/abft_kernels.cu): the lean one,
// used by a check that runs beside another stream's GEMM (VerifyCall::besideGemm: the online
// family's column blocks), and the wide one decide alike — the same verdict, the same corrected
// cell with the same value, and (FP32) the same largest clean residual ratio up to the order in
// which the double sums meet — on shapes whose extents are not multiples of the kernels' strips and
// tiles (one row, one column, a strip and a row tile plus one), FP32 and FP64, clean, with one
// fault in C and with one in its checksum row.
#include "gpu_available.hpp"

#include "gigacheck/abft.hpp"
#include "gigacheck/matrix.hpp"

#ifdef GIGACHECK_HAVE_CUDA
#include "../../engine/src/families/blocked_gemm/cuda/test_support.hpp"
#endif

#include <cmath>

using namespace gigacheck;

Q_DECLARE_METATYPE(gigacheck::Precision)

class TestCudaCheckSums : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { GIGACHECK_REQUIRE_CUDA_DEVICE(); }
    void leanAndWideSumsDecideAlike_data();
    void leanAndWideSumsDecideAlike();
};

void TestCudaCheckSums::leanAndWideSumsDecideAlike_data()
{
    QTest::addColumn<int>("m");
    QTest::addColumn<int>("n");
    QTest::addColumn<int>("q");
    QTest::addColumn<Precision>("precision");
    struct Shape {
        int m, n, q;
    };
    // 257 columns: one lean strip (256 FP32 columns) plus one; 1025 rows: lean tiles of >= 128 rows.
    const Shape shapes[] = {{1, 1, 1}, {1, 40, 300}, {300, 17, 1}, {129, 64, 257}, {1025, 96, 513}, {700, 300, 1100}};
    for (const Shape& s : shapes)
        for (const Precision p : {Precision::F32, Precision::F64})
            QTest::addRow("%dx%dx%d-%s", s.m, s.n, s.q, p == Precision::F32 ? "f32" : "f64") << s.m << s.n << s.q << p;
}

void TestCudaCheckSums::leanAndWideSumsDecideAlike()
{
#ifdef GIGACHECK_HAVE_CUDA
    QFETCH(int, m);
    QFETCH(int, n);
    QFETCH(int, q);
    QFETCH(Precision, precision);
    HostMatrix a(precision, m, n), b(precision, n, q);
    fillRandom(a, Distribution::Uniform, 41, 0);
    fillRandom(b, Distribution::Uniform, 42, 0);
    const RoundoffModel model = roundoffModel(precision, false);
    const cuda::DeviceFault faults[] = {
        {},                        // clean
        {m / 2, q / 3, 0.5},       // one cell of C
        {m, (q - 1) / 2, 0.25},    // the checksum row
    };
    for (const cuda::DeviceFault& fault : faults) {
        const cuda::ProtectedProduct wide = cuda::protectedProductOnDevice(GemmVariant::Cublas, a, b, model, fault, false);
        const cuda::ProtectedProduct lean = cuda::protectedProductOnDevice(GemmVariant::Cublas, a, b, model, fault, true);
        const QString at = QStringLiteral("fault row %1 col %2").arg(fault.row).arg(fault.col);
        QCOMPARE(QString::fromStdString(lean.verdict), QString::fromStdString(wide.verdict));
        QVERIFY2(wide.verdict != "uncorrectable", qPrintable(at));
        QCOMPARE(QString::fromStdString(wide.verdict), QString::fromLatin1(fault.row < 0 ? "clean" : "corrected"));
        QCOMPARE(lean.corrections, wide.corrections);
        QCOMPARE(lean.row, wide.row);
        QCOMPARE(lean.col, wide.col);
        if (fault.row >= 0 && fault.row < m)  // a cell of C: both restore it from the same column sums
            QVERIFY2(std::fabs(lean.after - wide.after) <= 1e-9 * (1 + std::fabs(wide.after)), qPrintable(at));
        // FP32: the sums' own (double) order changes the ratio by ~1e-10 at most. FP64: by as much as
        // the stored round-off itself, so only "clean stays clean" (the verdicts above) is asserted.
        if (precision == Precision::F32)
            QVERIFY2(std::fabs(lean.maxCleanResidualRatio - wide.maxCleanResidualRatio) <=
                         1e-6 * (1 + wide.maxCleanResidualRatio),
                     qPrintable(at + QStringLiteral(": clean ratio lean %1, wide %2")
                                         .arg(lean.maxCleanResidualRatio)
                                         .arg(wide.maxCleanResidualRatio)));
        QCOMPARE(lean.minThreshold, wide.minThreshold);
        QCOMPARE(lean.maxThreshold, wide.maxThreshold);
    }
#endif
}

QTEST_GUILESS_MAIN(TestCudaCheckSums)
#include "tst_cuda_check_sums.moc"
