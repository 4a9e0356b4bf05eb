// The fused TF32 product whose CUTLASS kernel reads B^T (both operands K-major in shared memory):
// * the kernel gives cuBLAS TF32's product (same sampled error against an FP64 host product as the
//   kernel that reads B as it lies);
// * on unrounded FP32 inputs it multiplies the operands ROUNDED TO NEAREST TF32 (roundToTf32): its
//   result is within FP32 accumulation round-off of the exact product of the rounded inputs, and
//   (all-positive data, where the two differ by far more) not of the inputs truncated to TF32 (an
//   H200 measured 0.07-0.38 of the bound for rounding, 3-3000 for truncation). The protected
//   product's checksums rest on this; both distances are printed;
// * the protected product built on it -- B's checksum and B^T from one read of B, A and B rounded
//   in registers by the checksum passes, C's sums from the epilogue -- ends clean on unrounded inputs
//   of several shapes and distributions (largest clean residual / threshold printed), corrects one
//   added fault and one flip of a high exponent bit to the clean value, and leaves A and B in memory
//   byte for byte as they were.
// Hopper only (sm_90a kernels): skipped elsewhere.
#include "gpu_available.hpp"
#include "tf32_models.hpp"

#include "families/blocked_gemm/cuda/measure.hpp"
#include "gigacheck/matrix.hpp"
#include "gigacheck/tf32.hpp"

#ifdef GIGACHECK_HAVE_CUDA
#include "gemm/cuda/fused_kmajor_test_support.hpp"
#endif

#include <QtTest>

#include <cmath>
#include <vector>

using namespace gigacheck;

namespace {

using test::Data;
using test::nameOf;
using test::unrounded;

struct ProductShape {
    int m, n, q;
};
// n and q multiples of 4 (the kernel's TMA copies), several of them odd multiples; m anything.
const ProductShape kShapes[] = {{256, 256, 256}, {260, 516, 132}, {100, 1020, 36}, {513, 388, 260}, {33, 4, 12}};

}  // namespace

Q_DECLARE_METATYPE(Data)

class TestCudaFusedKMajor : public QObject {
    Q_OBJECT
private slots:
    void kernelMultipliesRoundedOperands_data();
    void kernelMultipliesRoundedOperands();
    void cleanOnUnroundedInputs_data();
    void cleanOnUnroundedInputs();
    void faultsCorrectedToCleanValue_data();
    void faultsCorrectedToCleanValue();

    void initTestCase()
    {
        GIGACHECK_REQUIRE_CUDA_DEVICE();
        GIGACHECK_REQUIRE_CUTLASS_KERNELS();
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

void TestCudaFusedKMajor::kernelMultipliesRoundedOperands_data()
{
    QTest::addColumn<int>("m");
    QTest::addColumn<int>("n");
    QTest::addColumn<int>("q");
    QTest::addColumn<Data>("data");
    for (const ProductShape& s : kShapes)
        for (const Data d : {Data::Uniform, Data::Positive})
            QTest::addRow("%dx%dx%d-%s", s.m, s.n, s.q, nameOf(d)) << s.m << s.n << s.q << d;
}

void TestCudaFusedKMajor::kernelMultipliesRoundedOperands()
{
#ifdef GIGACHECK_HAVE_CUDA
    QFETCH(int, m);
    QFETCH(int, n);
    QFETCH(int, q);
    QFETCH(Data, data);
    const HostMatrix a = unrounded(m, n, data, 71), b = unrounded(n, q, data, 72);
    HostMatrix c(Precision::F32, m, q);
    cuda::fusedKMajorGemmOnDevice(a, b, c);
    const double truncated = test::worstOverBound(a, b, c, [](float x) { return truncateToTf32(x); });
    const double nearest = test::worstOverBound(a, b, c, [](float x) { return roundToTf32(x); });
    qInfo("hypothesis (kernel rounds to nearest TF32): |C - round-to-nearest model| / bound %.3g, "
          "|C - truncation model| / bound %.3g",
          nearest, truncated);
    QVERIFY2(nearest <= 1.0, qPrintable(QStringLiteral("C is not the product of the operands rounded to nearest "
                                                       "TF32: %1 of the FP32 accumulation bound (truncation: %2)")
                                            .arg(nearest)
                                            .arg(truncated)));
    // All-positive inputs: truncation lowers every product by ~2^-11 of its size on average, far
    // beyond the accumulation bound, so the two models are told apart here.
    if (data == Data::Positive)
        QVERIFY2(truncated > 1.0, qPrintable(QStringLiteral("C is as close to the truncation model (%1 of the "
                                                            "bound): the test cannot tell the models apart")
                                                 .arg(truncated)));
#endif
}

void TestCudaFusedKMajor::cleanOnUnroundedInputs_data()
{
    QTest::addColumn<int>("m");
    QTest::addColumn<int>("n");
    QTest::addColumn<int>("q");
    QTest::addColumn<Data>("data");
    for (const ProductShape& s : kShapes)
        for (const Data d : {Data::Uniform, Data::Positive, Data::Wide})
            QTest::addRow("%dx%dx%d-%s", s.m, s.n, s.q, nameOf(d)) << s.m << s.n << s.q << d;
    for (const Data d : {Data::Uniform, Data::Positive, Data::Wide})
        QTest::addRow("2048x2048x2048-%s", nameOf(d)) << 2048 << 2048 << 2048 << d;
}

void TestCudaFusedKMajor::cleanOnUnroundedInputs()
{
#ifdef GIGACHECK_HAVE_CUDA
    QFETCH(int, m);
    QFETCH(int, n);
    QFETCH(int, q);
    QFETCH(Data, data);
    const HostMatrix a = unrounded(m, n, data, 81), b = unrounded(n, q, data, 82);
    const cuda::FusedProtectedRun run = cuda::fusedProtectedProductOnDevice(a, b);
    qInfo("largest clean residual / threshold %.3g (largest threshold %.3g)", run.maxCleanResidualRatio,
          run.maxThreshold);
    QVERIFY(run.fusedSums);
    QVERIFY(run.roundedInRegisters);
    QCOMPARE(QString::fromStdString(run.verdict), QStringLiteral("clean"));
    QCOMPARE(run.corrections, 0);
    QVERIFY2(run.maxCleanResidualRatio < 1.0, qPrintable(QString::number(run.maxCleanResidualRatio)));
    // The point of rounding in registers: the operands are read, never written.
    QVERIFY2(run.aUnchanged, "the protected product wrote A");
    QVERIFY2(run.bUnchanged, "the protected product wrote B's main part");
#endif
}

void TestCudaFusedKMajor::faultsCorrectedToCleanValue_data()
{
    QTest::addColumn<int>("m");
    QTest::addColumn<int>("n");
    QTest::addColumn<int>("q");
    QTest::addColumn<Data>("data");
    QTest::addColumn<int>("bit");  // -1: a value added instead
    for (const ProductShape& s : {ProductShape{256, 256, 256}, ProductShape{513, 388, 260}, ProductShape{1024, 1020, 1028}})
        for (const Data d : {Data::Uniform, Data::Wide}) {
            QTest::addRow("%dx%dx%d-%s-add", s.m, s.n, s.q, nameOf(d)) << s.m << s.n << s.q << d << -1;
            // Bit 29, the exponent's 64: the cell scaled by 2^64 or 2^-64 (finite either way), an
            // error the correction from the line's other cells must undo whole.
            QTest::addRow("%dx%dx%d-%s-bit29", s.m, s.n, s.q, nameOf(d)) << s.m << s.n << s.q << d << 29;
        }
}

void TestCudaFusedKMajor::faultsCorrectedToCleanValue()
{
#ifdef GIGACHECK_HAVE_CUDA
    QFETCH(int, m);
    QFETCH(int, n);
    QFETCH(int, q);
    QFETCH(Data, data);
    QFETCH(int, bit);
    const HostMatrix a = unrounded(m, n, data, 91), b = unrounded(n, q, data, 92);
    const cuda::FusedProtectedRun clean = cuda::fusedProtectedProductOnDevice(a, b);
    QCOMPARE(QString::fromStdString(clean.verdict), QStringLiteral("clean"));
    // The row's largest cell: far above any threshold, so even a flip that shrinks it shows.
    cuda::FusedFault fault;
    fault.row = m / 3;
    fault.col = test::largestColumnOfRow(clean.c, fault.row);
    fault.delta = 100 * clean.maxThreshold;  // ignored by a bit flip
    fault.bit = bit;
    const cuda::FusedProtectedRun faulty = cuda::fusedProtectedProductOnDevice(a, b, fault);
    QCOMPARE(QString::fromStdString(faulty.verdict), QStringLiteral("corrected"));
    QCOMPARE(faulty.corrections, 1);
    QCOMPARE(faulty.row, fault.row);
    QCOMPARE(faulty.col, fault.col);
    const double cleanValue = clean.c.at(fault.row, fault.col), fixed = faulty.c.at(fault.row, fault.col);
    qInfo("cell %.9g, faulty %.9g, corrected %.9g (clean thresholds up to %.3g)", cleanValue, faulty.before, fixed,
          clean.maxThreshold);
    // Rebuilt from the line's other cells and its checksum: off by that line's round-off, which
    // stays below its threshold.
    QVERIFY2(std::fabs(fixed - cleanValue) <= clean.maxThreshold,
             qPrintable(QStringLiteral("corrected %1, clean %2").arg(fixed, 0, 'g', 9).arg(cleanValue, 0, 'g', 9)));
    QVERIFY(faulty.aUnchanged);
    QVERIFY(faulty.bUnchanged);
#endif
}

QTEST_GUILESS_MAIN(TestCudaFusedKMajor)
#include "tst_cuda_fused_kmajor.moc"
