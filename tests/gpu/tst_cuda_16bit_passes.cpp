// The BF16 / FP16 checksum passes on the device (engine/src/abft/cuda/checksums_16bit.cu): the fused
// pass that reads FP32 operands once, rounds them in registers and writes the 16-bit copies gives
// the copies of the two-step path it replaced (rounding in place, then converting) byte for byte and
// the same checksums and bounds, and leaves the FP32 operands unwritten; the protected product on
// operands already in 16 bits raises no false alarm at odd shapes and several distributions and
// corrects one fault. Both formats, also with C's sums from the CUTLASS kernel's epilogue and with B's
// checksum column taken once before the product (operands prepared at entry), and BF16 with C's
// checksum column taken by the kernel from B's checksum columns (clean, a fault corrected, an operand
// struck after entry caught; FP16 keeps the pass). The run path end to end: tst_cuda_16bit.
#include "gpu_available.hpp"

#ifdef GIGACHECK_HAVE_CUDA
#include "gemm/cuda/passes_16bit_test_support.hpp"
#endif

#include "gigacheck/types.hpp"

#include <QtTest>

#include <cmath>
#include <random>
#include <vector>

using namespace gigacheck;

Q_DECLARE_METATYPE(gigacheck::InputFormat)

namespace {

// LargePositive: thousands, so that c_A and r_B reach millions (beyond FP16's 65504).
enum class OperandValues { Uniform, Positive, WideExponents, LargePositive };

[[maybe_unused]] std::vector<float> randomMatrix(std::int64_t rows, std::int64_t cols, OperandValues d, unsigned seed)
{
    std::mt19937 gen(seed);
    std::uniform_real_distribution<float> uniform(-1.0f, 1.0f), positive(0.0f, 1.0f), exponent(-6.0f, 6.0f);
    std::vector<float> x(std::size_t(rows * cols));
    for (float& v : x) {
        switch (d) {
        case OperandValues::Uniform: v = uniform(gen); break;
        case OperandValues::Positive: v = positive(gen); break;
        case OperandValues::WideExponents: v = std::copysign(std::exp2(exponent(gen)), uniform(gen)); break;
        case OperandValues::LargePositive: v = 2048.0f + 2048.0f * positive(gen); break;
        }
    }
    return x;
}

struct Dims {
    std::int64_t m, n, q;
};
// Extents off the passes' strips (256 columns per warp, 8 per lane) and tiles, one row, one column.
[[maybe_unused]] const Dims kShapes[] = {{1, 1, 1}, {7, 13, 5}, {64, 64, 64}, {257, 129, 300}, {300, 517, 263}, {1025, 256, 1031}};

void addFormats()
{
    QTest::addColumn<InputFormat>("format");
    QTest::addRow("bf16") << InputFormat::Bf16;
    QTest::addRow("f16") << InputFormat::F16;
}

#ifdef GIGACHECK_HAVE_CUDA
// The fault added at (100, 200) is the one correction, and the correction is the checksum's
// difference: within the threshold's order of the clean cell.
void checkFaultAt100x200Corrected(const cuda::Protected16Result& r)
{
    QCOMPARE(QString::fromStdString(r.verdict), QString("corrected"));
    QCOMPARE(r.corrections, 1);
    QCOMPARE(r.row, std::int64_t(100));
    QCOMPARE(r.col, std::int64_t(200));
    QVERIFY2(std::fabs(r.corrected - r.clean) < 1e-2 * (1.0 + std::fabs(r.clean)),
             qPrintable(QString("%1 vs %2").arg(r.corrected).arg(r.clean)));
}

// C's sums as a product with sums from the kernel leaves them after its check: every line's sum is C's
// (to FP32 rounding of the kernel's partial sums); with the fault of delta at (100, 200), its row's and
// column's sums are the ones checked, the faulted cell's in place of the corrected one's.
void checkSumsLeft(const cuda::Protected16Result& r, double delta, const QString& where)
{
    const QString sums = QString("%1: row sums off by %2, column sums by %3")
                             .arg(where)
                             .arg(r.rowSumDifference)
                             .arg(r.colSumDifference);
    QVERIFY2(r.rowSumDifference < 1e-5 && r.colSumDifference < 1e-5, qPrintable(sums));
    if (delta == 0)
        return;
    QCOMPARE(r.faultAfter, double(float(r.faultBefore) + float(delta)));
    const double gap = r.faultAfter - r.corrected;
    for (const double left : {r.faultRowSumGap, r.faultColSumGap})
        QVERIFY2(std::fabs(left - gap) < 1e-3 * std::fabs(gap),
                 qPrintable(QString("%1: the fault's line sums exceed C's by %2, not %3").arg(where).arg(left).arg(gap)));
}
#endif

}  // namespace

class TestCuda16BitPasses : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { GIGACHECK_REQUIRE_CUDA_DEVICE(); }
    void fusedPassMatchesTwoStep_data() { addFormats(); }
    void fusedPassMatchesTwoStep();
    void cleanProductsRaiseNoFalseAlarm_data() { addFormats(); }
    void cleanProductsRaiseNoFalseAlarm();
    void oneFaultIsCorrected_data() { addFormats(); }
    void oneFaultIsCorrected();
    void sumsFromTheEpilogue_data();
    void sumsFromTheEpilogue();
    void operandStruckAfterEntryCaught_data();
    void operandStruckAfterEntryCaught();
    void checksumColumnByTheKernel();
    void checksumsByProductsBesideTheKernel();
};

void TestCuda16BitPasses::fusedPassMatchesTwoStep()
{
#ifdef GIGACHECK_HAVE_CUDA
    QFETCH(InputFormat, format);
    for (const Dims& d : kShapes) {
        for (OperandValues dist : {OperandValues::Uniform, OperandValues::WideExponents}) {
            const auto a = randomMatrix(d.m, d.n, dist, 11), b = randomMatrix(d.n, d.q, dist, 12);
            const cuda::Passes16Comparison r = cuda::compareFusedWithTwoStep(format, a, b, d.m, d.n, d.q);
            const QString where = QString("%1 x %2 x %3").arg(d.m).arg(d.n).arg(d.q);
            QVERIFY2(r.copiesBitExact, qPrintable(where));
            QVERIFY2(r.operandsUntouched, qPrintable(where));
            // Both sum the same rounded values in double; only the order of the partial sums differs.
            QVERIFY2(r.checksumDifference < 1e-6, qPrintable(where + QString(": %1").arg(r.checksumDifference)));
            QVERIFY2(r.boundDifference < 1e-12, qPrintable(where + QString(": %1").arg(r.boundDifference)));
        }
    }
#endif
}

void TestCuda16BitPasses::cleanProductsRaiseNoFalseAlarm()
{
#ifdef GIGACHECK_HAVE_CUDA
    QFETCH(InputFormat, format);
    unsigned seed = 100;
    for (const Dims& d : kShapes) {
        for (OperandValues dist : {OperandValues::Uniform, OperandValues::Positive, OperandValues::WideExponents}) {
            const auto a = randomMatrix(d.m, d.n, dist, ++seed), b = randomMatrix(d.n, d.q, dist, ++seed);
            const cuda::Protected16Result r = cuda::protectedProductOf16BitOnDevice(format, a, b, d.m, d.n, d.q);
            const QString where = QString("%1 x %2 x %3, distribution %4").arg(d.m).arg(d.n).arg(d.q).arg(int(dist));
            QVERIFY2(r.verdict == "clean", qPrintable(where + ": " + QString::fromStdString(r.verdict)));
            QCOMPARE(r.corrections, 0);
            QVERIFY2(r.maxCleanResidualRatio < 1.0, qPrintable(where));
        }
    }
#endif
}

void TestCuda16BitPasses::oneFaultIsCorrected()
{
#ifdef GIGACHECK_HAVE_CUDA
    QFETCH(InputFormat, format);
    const Dims d{300, 517, 263};
    const auto a = randomMatrix(d.m, d.n, OperandValues::Uniform, 7), b = randomMatrix(d.n, d.q, OperandValues::Uniform, 8);
    const cuda::Protected16Result r =
        cuda::protectedProductOf16BitOnDevice(format, a, b, d.m, d.n, d.q, 100, 200, 1000.0);
    checkFaultAt100x200Corrected(r);
#endif
}

// C's sums from the CUTLASS kernel's epilogue (the check reads no C), BF16 and FP16, B's checksum
// column per product or prepared once: clean at shapes the kernel takes (n, q multiples of 8), one
// fault corrected. Hopper with CUTLASS only.
void TestCuda16BitPasses::sumsFromTheEpilogue_data()
{
    QTest::addColumn<int>("format");
    QTest::addColumn<bool>("prepared");
    QTest::newRow("bf16") << int(InputFormat::Bf16) << false;
    QTest::newRow("bf16, B prepared") << int(InputFormat::Bf16) << true;
    QTest::newRow("f16") << int(InputFormat::F16) << false;
    QTest::newRow("f16, B prepared") << int(InputFormat::F16) << true;
}

void TestCuda16BitPasses::sumsFromTheEpilogue()
{
#ifdef GIGACHECK_HAVE_CUDA
    QFETCH(int, format);
    QFETCH(bool, prepared);
    if (const std::string why = whyNoCutlassKernels(); !why.empty())
        QSKIP(("the CUTLASS kernels cannot run here: " + why).c_str());
    const InputFormat f = InputFormat(format);
    const Dims shapes[] = {{8, 8, 8}, {257, 136, 264}, {300, 520, 264}, {1025, 256, 1032}};
    unsigned seed = 300;
    for (const Dims& d : shapes) {
        for (OperandValues values : {OperandValues::Uniform, OperandValues::Positive, OperandValues::WideExponents}) {
            const auto a = randomMatrix(d.m, d.n, values, ++seed), b = randomMatrix(d.n, d.q, values, ++seed);
            const cuda::Protected16Result r =
                cuda::protectedProductOf16BitOnDevice(f, a, b, d.m, d.n, d.q, -1, -1, 0, true, prepared);
            const QString where = QString("%1 x %2 x %3, values %4").arg(d.m).arg(d.n).arg(d.q).arg(int(values));
            QVERIFY2(r.verdict == "clean", qPrintable(where + ": " + QString::fromStdString(r.verdict)));
            QVERIFY2(r.maxCleanResidualRatio < 1.0, qPrintable(where));
        }
    }
    const Dims d{300, 520, 264};
    const auto a = randomMatrix(d.m, d.n, OperandValues::Uniform, 7), b = randomMatrix(d.n, d.q, OperandValues::Uniform, 8);
    const cuda::Protected16Result r =
        cuda::protectedProductOf16BitOnDevice(f, a, b, d.m, d.n, d.q, 100, 200, 1000.0, true, prepared);
    checkFaultAt100x200Corrected(r);
#endif
}

// Operands prepared at entry: a cell of A or B that changes in device memory afterwards moves a
// whole row (column) of C away from the checksums taken at entry, and the product ends
// uncorrectable, never clean nor "corrected" as one cell.
void TestCuda16BitPasses::operandStruckAfterEntryCaught_data()
{
    QTest::addColumn<int>("format");
    QTest::addColumn<QChar>("operand");
    for (InputFormat f : {InputFormat::Bf16, InputFormat::F16})
        for (char operand : {'a', 'b'})
            QTest::addRow("%s-%c", f == InputFormat::Bf16 ? "bf16" : "f16", operand) << int(f) << QChar(operand);
}

void TestCuda16BitPasses::operandStruckAfterEntryCaught()
{
#ifdef GIGACHECK_HAVE_CUDA
    QFETCH(int, format);
    QFETCH(QChar, operand);
    if (const std::string why = whyNoCutlassKernels(); !why.empty())
        QSKIP(("the CUTLASS kernels cannot run here: " + why).c_str());
    const Dims d{513, 392, 264};
    const auto a = randomMatrix(d.m, d.n, OperandValues::Uniform, 41), b = randomMatrix(d.n, d.q, OperandValues::Uniform, 42);
    const cuda::Protected16Result r = cuda::protectedProductOf16BitOnDevice(
        InputFormat(format), a, b, d.m, d.n, d.q, -1, -1, 0, true, true, char(operand.toLatin1()));
    QCOMPARE(QString::fromStdString(r.verdict), QStringLiteral("uncorrectable"));
    QCOMPARE(r.corrections, 0);
#endif
}

// BF16 operands prepared with B's checksum columns: where C's width is a multiple of 128 the kernel
// takes C's checksum column (as the TF32 product's does), clean on three distributions, one fault
// corrected, A or B struck after entry caught. FP16 prepared the same way keeps the pass (its range
// cannot hold r_B's parts in general) and stays clean.
void TestCuda16BitPasses::checksumColumnByTheKernel()
{
#ifdef GIGACHECK_HAVE_CUDA
    if (const std::string why = whyNoCutlassKernels(); !why.empty())
        QSKIP(("the CUTLASS kernels cannot run here: " + why).c_str());
    const InputFormat bf16 = InputFormat::Bf16;
    const Dims shapes[] = {{256, 264, 256}, {300, 520, 128}, {1025, 392, 1024}};
    unsigned seed = 500;
    for (const Dims& d : shapes)
        for (OperandValues values : {OperandValues::Uniform, OperandValues::Positive, OperandValues::WideExponents}) {
            const auto a = randomMatrix(d.m, d.n, values, ++seed), b = randomMatrix(d.n, d.q, values, ++seed);
            const cuda::Protected16Result r =
                cuda::protectedProductOf16BitOnDevice(bf16, a, b, d.m, d.n, d.q, -1, -1, 0, true, true, 0, true);
            const QString where = QString("%1 x %2 x %3, values %4").arg(d.m).arg(d.n).arg(d.q).arg(int(values));
            qInfo("%s: largest clean residual / threshold %.3g", qPrintable(where), r.maxCleanResidualRatio);
            QVERIFY2(r.checksumColumnByKernel, qPrintable(where + ": the pass took the checksum column"));
            QVERIFY2(r.verdict == "clean", qPrintable(where + ": " + QString::fromStdString(r.verdict)));
            QVERIFY2(r.maxCleanResidualRatio > 0.0 && r.maxCleanResidualRatio < 1.0, qPrintable(where));
        }
    const Dims d{300, 520, 256};
    const auto a = randomMatrix(d.m, d.n, OperandValues::Uniform, 9), b = randomMatrix(d.n, d.q, OperandValues::Uniform, 10);
    const cuda::Protected16Result fixed =
        cuda::protectedProductOf16BitOnDevice(bf16, a, b, d.m, d.n, d.q, 100, 200, 1000.0, true, true, 0, true);
    QVERIFY(fixed.checksumColumnByKernel);
    checkFaultAt100x200Corrected(fixed);
    for (const char operand : {'a', 'b'}) {
        const cuda::Protected16Result struck =
            cuda::protectedProductOf16BitOnDevice(bf16, a, b, d.m, d.n, d.q, -1, -1, 0, true, true, operand, true);
        QVERIFY(struck.checksumColumnByKernel);
        QCOMPARE(QString::fromStdString(struck.verdict), QStringLiteral("uncorrectable"));
        QCOMPARE(struck.corrections, 0);
    }
    const cuda::Protected16Result f16 = cuda::protectedProductOf16BitOnDevice(InputFormat::F16, a, b, d.m, d.n, d.q,
                                                                               -1, -1, 0, true, true, 0, true);
    QVERIFY(!f16.checksumColumnByKernel);
    QCOMPARE(QString::fromStdString(f16.verdict), QStringLiteral("clean"));
#endif
}

// 16-bit operands prepared with c_A's and r_B's parts (BF16 as they are, FP16 scaled by powers of
// two): where the kernel leaves SMs idle, two cuBLASLt products on those SMs make C's checksum row and
// column during the kernel -- clean on three distributions with residuals inside the thresholds
// (WideExponents spreads c_A's and r_B's elements over many binades, LargePositive takes them past
// FP16's range: FP16's scaled parts must hold both), one fault corrected to the clean value, A or B struck after entry caught. The product
// runs twice on the same buffers (the second launch replays the products' graph) and the second is
// checked. Where the kernel's checksum column pays too the side products go first; without the parts
// the kernel takes the column.
void TestCuda16BitPasses::checksumsByProductsBesideTheKernel()
{
#ifdef GIGACHECK_HAVE_CUDA
    if (const std::string why = whyNoCutlassKernels(); !why.empty())
        QSKIP(("the CUTLASS kernels cannot run here: " + why).c_str());
    const Dims shapes[] = {{256, 264, 264}, {300, 520, 136}, {1025, 392, 1000}, {2048, 2048, 2048}};
    unsigned seed = 700;
    for (const InputFormat format : {InputFormat::Bf16, InputFormat::F16}) {
        const QString name = format == InputFormat::Bf16 ? "BF16" : "FP16";
        for (const Dims& d : shapes)
            for (OperandValues values : {OperandValues::Uniform, OperandValues::Positive, OperandValues::WideExponents,
                                         OperandValues::LargePositive}) {
                const auto a = randomMatrix(d.m, d.n, values, ++seed), b = randomMatrix(d.n, d.q, values, ++seed);
                const cuda::Protected16Result r = cuda::protectedProductOf16BitOnDevice(format, a, b, d.m, d.n, d.q, -1,
                                                                                        -1, 0, true, true, 0, true, true);
                const QString where =
                    QString("%1 %2 x %3 x %4, values %5").arg(name).arg(d.m).arg(d.n).arg(d.q).arg(int(values));
                qInfo("%s: largest clean residual / threshold %.3g", qPrintable(where), r.maxCleanResidualRatio);
                QVERIFY2(r.checksumsBySideProducts, qPrintable(where + ": the side products did not run"));
                QVERIFY2(!r.checksumColumnByKernel, qPrintable(where));
                QVERIFY2(r.verdict == "clean", qPrintable(where + ": " + QString::fromStdString(r.verdict)));
                QVERIFY2(r.maxCleanResidualRatio > 0.0 && r.maxCleanResidualRatio < 1.0, qPrintable(where));
                checkSumsLeft(r, 0, where);
            }
        for (const Dims& d : {Dims{300, 520, 264}, Dims{512, 520, 1000}}) {
            const auto a = randomMatrix(d.m, d.n, OperandValues::Uniform, 9);
            const auto b = randomMatrix(d.n, d.q, OperandValues::Uniform, 10);
            const cuda::Protected16Result fixed = cuda::protectedProductOf16BitOnDevice(
                format, a, b, d.m, d.n, d.q, 100, 200, 1000.0, true, true, 0, true, true);
            QVERIFY(fixed.checksumsBySideProducts);
            checkFaultAt100x200Corrected(fixed);
            checkSumsLeft(fixed, 1000.0, name + QString(" %1 x %2 x %3, one fault").arg(d.m).arg(d.n).arg(d.q));
            for (const char operand : {'a', 'b'}) {
                const cuda::Protected16Result struck = cuda::protectedProductOf16BitOnDevice(
                    format, a, b, d.m, d.n, d.q, -1, -1, 0, true, true, operand, true, true);
                QVERIFY(struck.checksumsBySideProducts);
                QCOMPARE(QString::fromStdString(struck.verdict), QStringLiteral("uncorrectable"));
                QCOMPARE(struck.corrections, 0);
            }
        }
    }
    const InputFormat bf16 = InputFormat::Bf16;
    const Dims paysColumn{300, 520, 256};
    const auto a = randomMatrix(paysColumn.m, paysColumn.n, OperandValues::Uniform, 11);
    const auto b = randomMatrix(paysColumn.n, paysColumn.q, OperandValues::Uniform, 12);
    const cuda::Protected16Result beside = cuda::protectedProductOf16BitOnDevice(
        bf16, a, b, paysColumn.m, paysColumn.n, paysColumn.q, -1, -1, 0, true, true, 0, true, true);
    QVERIFY(beside.checksumsBySideProducts && !beside.checksumColumnByKernel);
    QCOMPARE(QString::fromStdString(beside.verdict), QStringLiteral("clean"));
    const cuda::Protected16Result byKernel = cuda::protectedProductOf16BitOnDevice(
        bf16, a, b, paysColumn.m, paysColumn.n, paysColumn.q, -1, -1, 0, true, true, 0, true, false);
    QVERIFY(byKernel.checksumColumnByKernel && !byKernel.checksumsBySideProducts);
    QCOMPARE(QString::fromStdString(byKernel.verdict), QStringLiteral("clean"));
#endif
}

QTEST_GUILESS_MAIN(TestCuda16BitPasses)
#include "tst_cuda_16bit_passes.moc"
