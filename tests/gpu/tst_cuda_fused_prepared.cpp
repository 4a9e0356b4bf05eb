// The fused TF32 product on operands prepared at entry (abft/cuda/prepared_operands.hpp): A's and
// B's checksums and B^T made once, then per product one pass over A and one over B^T beside the
// CUTLASS kernel, C's sums from its epilogue.
// * on unrounded inputs of several shapes and distributions it ends clean (largest clean residual /
//   threshold printed), with the C of the fused product whose checksums are taken per product, and
//   leaves A and B as they were;
// * a fault in C (an added value, a flip of a high exponent bit) is located and corrected to the
//   clean value;
// * a cell of A or of B^T changed in device memory AFTER its checksums were taken -- the fault the
//   per-product checksums cannot see, since they are taken over the faulty operand -- is never
//   passed as clean or "corrected" as one cell: the run ends uncorrectable (a run recomputes);
// * with C's checksum column taken by the kernel (B^T's checksum rows multiplied as four more columns
//   of C) instead of the pass over A: clean, the same C as the pass's, faults in C corrected and
//   faults in A or B^T after entry caught, as with the pass; where C's width is no multiple of the
//   tile's 128 columns the forced way says why it cannot run.
// Hopper only (sm_90a kernels): skipped elsewhere.
#include "gpu_available.hpp"
#include "tf32_models.hpp"

#include "gigacheck/matrix.hpp"

#ifdef GIGACHECK_HAVE_CUDA
#include "gemm/cuda/fused_kmajor_test_support.hpp"
#endif

#include <QtTest>

#include <algorithm>
#include <array>
#include <cmath>

using namespace gigacheck;
using test::Data;

Q_DECLARE_METATYPE(test::Data)

class TestCudaFusedPrepared : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        GIGACHECK_REQUIRE_CUDA_DEVICE();
        GIGACHECK_REQUIRE_CUTLASS_KERNELS();
    }
    void cleanAndSameProduct_data();
    void cleanAndSameProduct();
    void faultInCCorrected_data();
    void faultInCCorrected();
    void operandFaultAfterEntryCaught_data();
    void operandFaultAfterEntryCaught();
    void sumsByPassAgree_data();
    void sumsByPassAgree();
    void checksumColumnByKernel_data();
    void checksumColumnByKernel();
    void checksumColumnByKernelRefusesOtherWidths();
};

namespace {

void shapeColumns()
{
    QTest::addColumn<int>("m");
    QTest::addColumn<int>("n");
    QTest::addColumn<int>("q");
    QTest::addColumn<Data>("data");
}

// The same C up to 1e-6 of its largest entry (the same kernel on the same rounded operands); the
// largest difference printed.
bool sameProduct(const HostMatrix& c, const HostMatrix& reference)
{
    double worst = 0, largest = 0;
    for (std::int64_t i = 0; i < reference.rows(); ++i)
        for (std::int64_t j = 0; j < reference.cols(); ++j) {
            worst = std::max(worst, std::fabs(c.at(i, j) - reference.at(i, j)));
            largest = std::max(largest, std::fabs(reference.at(i, j)));
        }
    qInfo("C differs by %.3g (max |C| %.3g)", worst, largest);
    return worst <= 1e-6 * largest;
}

}  // namespace

void TestCudaFusedPrepared::cleanAndSameProduct_data()
{
    shapeColumns();
    // n and q multiples of 4 (the kernel's TMA copies); a depth past one 512-column chunk of the passes;
    // 4500 x 1036 x 4228: enough rows for the whole-row pass (the others take the chunked one).
    for (const auto& s : {std::array<int, 3>{256, 256, 256}, {260, 516, 132}, {100, 1020, 36}, {513, 1388, 260},
                          {33, 4, 12}, {2048, 2048, 2048}, {4500, 1036, 4228}})
        for (const Data d : {Data::Uniform, Data::Positive, Data::Wide})
            QTest::addRow("%dx%dx%d-%s", s[0], s[1], s[2], test::nameOf(d)) << s[0] << s[1] << s[2] << d;
}

void TestCudaFusedPrepared::cleanAndSameProduct()
{
#ifdef GIGACHECK_HAVE_CUDA
    QFETCH(int, m);
    QFETCH(int, n);
    QFETCH(int, q);
    QFETCH(Data, data);
    const HostMatrix a = test::unrounded(m, n, data, 181), b = test::unrounded(n, q, data, 182);
    const cuda::FusedProtectedRun run = cuda::preparedProtectedProductOnDevice(a, b);
    qInfo("largest clean residual / threshold %.3g (largest threshold %.3g)", run.maxCleanResidualRatio,
          run.maxThreshold);
    QVERIFY(run.fusedSums);
    QCOMPARE(QString::fromStdString(run.verdict), QStringLiteral("clean"));
    QCOMPARE(run.corrections, 0);
    QVERIFY2(run.maxCleanResidualRatio < 1.0, qPrintable(QString::number(run.maxCleanResidualRatio)));
    QVERIFY2(run.maxCleanResidualRatio > 0.0, "no residual measured: the checks compared nothing");
    QVERIFY2(run.aUnchanged, "the product wrote A");
    QVERIFY2(run.bUnchanged, "the product wrote B's main part");
    // The same kernel on the same rounded operands as the per-product path: the same C.
    const cuda::FusedProtectedRun perProduct = cuda::fusedProtectedProductOnDevice(a, b);
    QVERIFY2(sameProduct(run.c, perProduct.c), "C differs from the per-product path's");
#endif
}

void TestCudaFusedPrepared::faultInCCorrected_data()
{
    shapeColumns();
    QTest::addColumn<int>("bit");  // -1: a value added instead
    for (const auto& s : {std::array<int, 3>{256, 256, 256}, {513, 388, 260}, {1024, 1020, 1028}, {4500, 1036, 4228}})
        for (const Data d : {Data::Uniform, Data::Wide}) {
            QTest::addRow("%dx%dx%d-%s-add", s[0], s[1], s[2], test::nameOf(d)) << s[0] << s[1] << s[2] << d << -1;
            QTest::addRow("%dx%dx%d-%s-bit29", s[0], s[1], s[2], test::nameOf(d)) << s[0] << s[1] << s[2] << d << 29;
        }
}

void TestCudaFusedPrepared::faultInCCorrected()
{
#ifdef GIGACHECK_HAVE_CUDA
    QFETCH(int, m);
    QFETCH(int, n);
    QFETCH(int, q);
    QFETCH(Data, data);
    QFETCH(int, bit);
    const HostMatrix a = test::unrounded(m, n, data, 191), b = test::unrounded(n, q, data, 192);
    const cuda::FusedProtectedRun clean = cuda::preparedProtectedProductOnDevice(a, b);
    QCOMPARE(QString::fromStdString(clean.verdict), QStringLiteral("clean"));
    cuda::FusedFault fault;  // the row's largest cell: even a flip that shrinks it shows
    fault.row = m / 3;
    fault.col = test::largestColumnOfRow(clean.c, fault.row);
    fault.delta = 100 * clean.maxThreshold;
    fault.bit = bit;
    const cuda::FusedProtectedRun faulty = cuda::preparedProtectedProductOnDevice(a, b, fault);
    QCOMPARE(QString::fromStdString(faulty.verdict), QStringLiteral("corrected"));
    QCOMPARE(faulty.corrections, 1);
    QCOMPARE(faulty.row, fault.row);
    QCOMPARE(faulty.col, fault.col);
    const double cleanValue = clean.c.at(fault.row, fault.col), fixed = faulty.c.at(fault.row, fault.col);
    qInfo("cell %.9g, faulty %.9g, corrected %.9g", cleanValue, faulty.before, fixed);
    QVERIFY2(std::fabs(fixed - cleanValue) <= clean.maxThreshold,
             qPrintable(QStringLiteral("corrected %1, clean %2").arg(fixed, 0, 'g', 9).arg(cleanValue, 0, 'g', 9)));
#endif
}

void TestCudaFusedPrepared::operandFaultAfterEntryCaught_data()
{
    shapeColumns();
    QTest::addColumn<QChar>("operand");
    // Signed data: one-signed data's checks carry a term of the column's whole sum (abft.hpp), which
    // a change of one row of C must exceed.
    for (const auto& s : {std::array<int, 3>{256, 256, 256}, {513, 388, 260}, {1024, 1020, 1028}, {4500, 1036, 4228}})
        for (const char operand : {'a', 'b'})
            QTest::addRow("%dx%dx%d-%c", s[0], s[1], s[2], operand) << s[0] << s[1] << s[2] << Data::Uniform
                                                                    << QChar(operand);
}

void TestCudaFusedPrepared::operandFaultAfterEntryCaught()
{
#ifdef GIGACHECK_HAVE_CUDA
    QFETCH(int, m);
    QFETCH(int, n);
    QFETCH(int, q);
    QFETCH(Data, data);
    QFETCH(QChar, operand);
    const HostMatrix a = test::unrounded(m, n, data, 201), b = test::unrounded(n, q, data, 202);
    cuda::OperandFault fault;
    fault.operand = char(operand.toLatin1());
    // A's cell (m / 3, n / 2) or B's (n / 2, q / 3), changed by 64 times the operand's largest entry:
    // a whole row (A) or column (B) of C moves far beyond round-off.
    const HostMatrix& hit = fault.operand == 'a' ? a : b;
    double largest = 0;
    for (std::int64_t e = 0; e < hit.rows() * hit.cols(); ++e)
        largest = std::max(largest, std::fabs(double(hit.as<float>()[e])));
    fault.row = fault.operand == 'a' ? m / 3 : n / 2;
    fault.col = fault.operand == 'a' ? n / 2 : q / 3;
    fault.delta = 64 * largest;
    const cuda::FusedProtectedRun run = cuda::preparedProtectedProductOnDevice(a, b, {}, fault);
    qInfo("verdict %s, %d corrections", run.verdict.c_str(), run.corrections);
    QCOMPARE(QString::fromStdString(run.verdict), QStringLiteral("uncorrectable"));
    QCOMPARE(run.corrections, 0);
#endif
}

void TestCudaFusedPrepared::sumsByPassAgree_data()
{
    shapeColumns();
    for (const auto& s : {std::array<int, 3>{513, 388, 260}, {4500, 1036, 4228}})
        for (const Data d : {Data::Uniform, Data::Wide})
            QTest::addRow("%dx%dx%d-%s", s[0], s[1], s[2], test::nameOf(d)) << s[0] << s[1] << s[2] << d;
}

// C's sums from a pass over C instead of the epilogue: the same verdicts, clean and with one fault.
void TestCudaFusedPrepared::sumsByPassAgree()
{
#ifdef GIGACHECK_HAVE_CUDA
    QFETCH(int, m);
    QFETCH(int, n);
    QFETCH(int, q);
    QFETCH(Data, data);
    const HostMatrix a = test::unrounded(m, n, data, 211), b = test::unrounded(n, q, data, 212);
    const cuda::FusedProtectedRun clean = cuda::preparedProtectedProductOnDevice(a, b, {}, {}, true);
    qInfo("largest clean residual / threshold %.3g", clean.maxCleanResidualRatio);
    QCOMPARE(QString::fromStdString(clean.verdict), QStringLiteral("clean"));
    QVERIFY2(clean.maxCleanResidualRatio > 0.0 && clean.maxCleanResidualRatio < 1.0,
             qPrintable(QString::number(clean.maxCleanResidualRatio)));
    cuda::FusedFault fault;
    fault.row = m / 2;
    fault.col = q / 5;
    fault.bit = 29;
    const cuda::FusedProtectedRun faulty = cuda::preparedProtectedProductOnDevice(a, b, fault, {}, true);
    QCOMPARE(QString::fromStdString(faulty.verdict), QStringLiteral("corrected"));
    QCOMPARE(faulty.row, fault.row);
    QCOMPARE(faulty.col, fault.col);
    const double cleanValue = clean.c.at(fault.row, fault.col), fixed = faulty.c.at(fault.row, fault.col);
    QVERIFY2(std::fabs(fixed - cleanValue) <= clean.maxThreshold,
             qPrintable(QStringLiteral("corrected %1, clean %2").arg(fixed, 0, 'g', 9).arg(cleanValue, 0, 'g', 9)));
    cuda::OperandFault hit;  // a row of A off after entry: caught as with the epilogue's sums
    hit.operand = 'a';
    hit.row = m / 3;
    hit.col = n / 2;
    hit.delta = data == Data::Uniform ? 64.0 : 0.0;
    if (data == Data::Uniform) {
        const cuda::FusedProtectedRun operand = cuda::preparedProtectedProductOnDevice(a, b, {}, hit, true);
        QCOMPARE(QString::fromStdString(operand.verdict), QStringLiteral("uncorrectable"));
    }
#endif
}

void TestCudaFusedPrepared::checksumColumnByKernel_data()
{
    shapeColumns();
    // C's widths multiples of 128 (the checksum rows in a tile row of their own); a depth past the
    // pass's 512-column chunks; 4500 x 1036 x 4224 with many tiles in both directions.
    for (const auto& s : {std::array<int, 3>{256, 256, 256}, {260, 516, 128}, {100, 1020, 256}, {513, 1388, 384},
                          {2048, 2048, 2048}, {4500, 1036, 4224}})
        for (const Data d : {Data::Uniform, Data::Positive, Data::Wide})
            QTest::addRow("%dx%dx%d-%s", s[0], s[1], s[2], test::nameOf(d)) << s[0] << s[1] << s[2] << d;
}

void TestCudaFusedPrepared::checksumColumnByKernel()
{
#ifdef GIGACHECK_HAVE_CUDA
    using cuda::PreparedColumn;
    QFETCH(int, m);
    QFETCH(int, n);
    QFETCH(int, q);
    QFETCH(Data, data);
    const HostMatrix a = test::unrounded(m, n, data, 221), b = test::unrounded(n, q, data, 222);
    const cuda::FusedProtectedRun clean =
        cuda::preparedProtectedProductOnDevice(a, b, {}, {}, false, PreparedColumn::ByKernel);
    qInfo("largest clean residual / threshold %.3g (largest threshold %.3g)", clean.maxCleanResidualRatio,
          clean.maxThreshold);
    QVERIFY(clean.checksumColumnByKernel);
    QCOMPARE(QString::fromStdString(clean.verdict), QStringLiteral("clean"));
    QCOMPARE(clean.corrections, 0);
    QVERIFY2(clean.maxCleanResidualRatio > 0.0 && clean.maxCleanResidualRatio < 1.0,
             qPrintable(QString::number(clean.maxCleanResidualRatio)));
    QVERIFY2(clean.aUnchanged && clean.bUnchanged, "the product wrote A or B's main part");
    // The pass's way on the same operands: the same C, and its own largest ratio for comparison.
    const cuda::FusedProtectedRun byPass =
        cuda::preparedProtectedProductOnDevice(a, b, {}, {}, false, PreparedColumn::ByPass);
    QVERIFY(!byPass.checksumColumnByKernel);
    QCOMPARE(QString::fromStdString(byPass.verdict), QStringLiteral("clean"));
    qInfo("the pass's largest clean residual / threshold %.3g", byPass.maxCleanResidualRatio);
    QVERIFY2(sameProduct(clean.c, byPass.c), "C differs from the pass's way");

    cuda::FusedFault fault;  // a high exponent bit of the row's largest cell
    fault.row = m / 3;
    fault.col = test::largestColumnOfRow(clean.c, fault.row);
    fault.bit = 29;
    const cuda::FusedProtectedRun faulty =
        cuda::preparedProtectedProductOnDevice(a, b, fault, {}, false, PreparedColumn::ByKernel);
    QCOMPARE(QString::fromStdString(faulty.verdict), QStringLiteral("corrected"));
    QCOMPARE(faulty.corrections, 1);
    QCOMPARE(faulty.row, fault.row);
    QCOMPARE(faulty.col, fault.col);
    const double cleanValue = clean.c.at(fault.row, fault.col), fixed = faulty.c.at(fault.row, fault.col);
    QVERIFY2(std::fabs(fixed - cleanValue) <= clean.maxThreshold,
             qPrintable(QStringLiteral("corrected %1, clean %2").arg(fixed, 0, 'g', 9).arg(cleanValue, 0, 'g', 9)));

    if (data != Data::Uniform)  // signed data: see operandFaultAfterEntryCaught
        return;
    for (const char operand : {'a', 'b'}) {
        cuda::OperandFault hit;
        hit.operand = operand;
        const HostMatrix& x = operand == 'a' ? a : b;
        double top = 0;
        for (std::int64_t e = 0; e < x.rows() * x.cols(); ++e)
            top = std::max(top, std::fabs(double(x.as<float>()[e])));
        hit.row = operand == 'a' ? m / 3 : n / 2;
        hit.col = operand == 'a' ? n / 2 : q / 3;
        hit.delta = 64 * top;
        const cuda::FusedProtectedRun run =
            cuda::preparedProtectedProductOnDevice(a, b, {}, hit, false, PreparedColumn::ByKernel);
        qInfo("operand %c hit after entry: %s, %d corrections", operand, run.verdict.c_str(), run.corrections);
        QCOMPARE(QString::fromStdString(run.verdict), QStringLiteral("uncorrectable"));
        QCOMPARE(run.corrections, 0);
    }
#endif
}

// C's width not a multiple of 128: the forced way says why; the product's own choice takes the pass.
void TestCudaFusedPrepared::checksumColumnByKernelRefusesOtherWidths()
{
#ifdef GIGACHECK_HAVE_CUDA
    const HostMatrix a = test::unrounded(256, 256, Data::Uniform, 231), b = test::unrounded(256, 260, Data::Uniform, 232);
    QString why;
    try {
        (void)cuda::preparedProtectedProductOnDevice(a, b, {}, {}, false, cuda::PreparedColumn::ByKernel);
    } catch (const std::exception& e) {
        why = QString::fromUtf8(e.what());
    }
    QVERIFY2(why.contains(QStringLiteral("multiple of 128")), qPrintable(why));
    const cuda::FusedProtectedRun chosen = cuda::preparedProtectedProductOnDevice(a, b);
    QVERIFY(!chosen.checksumColumnByKernel);
    QCOMPARE(QString::fromStdString(chosen.verdict), QStringLiteral("clean"));
#endif
}

QTEST_GUILESS_MAIN(TestCudaFusedPrepared)
#include "tst_cuda_fused_prepared.moc"
