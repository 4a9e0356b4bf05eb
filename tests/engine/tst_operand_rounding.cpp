// The operand model of the checksum passes (abft/operand_rounding.hpp): which products take their
// operands rounded to TF32 in registers (the fused CUTLASS kernel reading B^T, which rounds its FP32
// operands to nearest itself: measured by tst_cuda_fused_kmajor) and which round them in place, what
// each model multiplies, and, on a host emulation of the fused product (the kernel multiplying the
// operands rounded to nearest, FP32 accumulation rounding to nearest or toward zero), that checksums
// taken in registers over the rounded operands check clean under the TF32 thresholds and correct a
// fault, while checksums over the truncated operands -- a model that does not match that kernel --
// mismatch far beyond them.
#include "abft/operand_rounding.hpp"
#include "gigacheck/abft.hpp"

#include <QtTest>

#include <functional>

#include <cmath>
#include <random>
#include <vector>

using namespace gigacheck;

namespace {

enum class Data { Uniform, Positive };
enum class Accumulation { Nearest, TowardZero };

float towardZero(double x)
{
    float f = float(x);
    if (std::fabs(double(f)) > std::fabs(x))
        f = std::nextafter(f, 0.0f);
    return f;
}

std::vector<float> randomValues(std::int64_t count, Data d, std::uint64_t seed)
{
    std::mt19937_64 gen(seed);
    std::uniform_real_distribution<double> u(d == Data::Positive ? 0.0 : -1.0, 1.0);
    std::vector<float> v(std::size_t(count), 0.0f);
    for (float& x : v)
        x = float(u(gen));  // FP32 values with low mantissa bits set: not TF32 already
    return v;
}

// An augmented product as the fused path makes it: C's main part from the kernel (the operands
// rounded to nearest, FP32 accumulation), its checksum column / row from the checksum passes, which
// see each operand as `checksums` gives it (c_A, r_B, A r_B and c_A B_r in double, stored in FP32).
struct FusedEmulation {
    std::int64_t m, n, q;
    std::vector<float> a, b, c;  // a: (m+1) x n, b: n x (q+1), c: (m+1) x (q+1)
    BoundAccumulator bound;

    FusedEmulation(std::int64_t m_, std::int64_t n_, std::int64_t q_, Data d, Accumulation acc,
                   const std::function<float(float)>& checksums, std::uint64_t seed)
        : m(m_), n(n_), q(q_), a(std::size_t((m_ + 1) * n_)), b(std::size_t(n_ * (q_ + 1))),
          c(std::size_t((m_ + 1) * (q_ + 1)))
    {
        const std::vector<float> storedA = randomValues(m * n, d, seed), storedB = randomValues(n * q, d, seed + 1);
        // The kernel's product.
        for (std::int64_t i = 0; i < m; ++i)
            for (std::int64_t j = 0; j < q; ++j) {
                float s = 0;
                for (std::int64_t k = 0; k < n; ++k) {
                    const double p = double(roundToTf32(storedA[std::size_t(i * n + k)])) *
                                     double(roundToTf32(storedB[std::size_t(k * q + j)]));
                    s = acc == Accumulation::TowardZero ? towardZero(double(s) + p) : float(double(s) + p);
                }
                c[std::size_t(i * (q + 1) + j)] = s;
            }
        // The checksum passes' view of the operands, their checksums beside them.
        for (std::int64_t i = 0; i < m; ++i)
            for (std::int64_t k = 0; k < n; ++k)
                a[std::size_t(i * n + k)] = checksums(storedA[std::size_t(i * n + k)]);
        for (std::int64_t k = 0; k < n; ++k)
            for (std::int64_t j = 0; j < q; ++j)
                b[std::size_t(k * (q + 1) + j)] = checksums(storedB[std::size_t(k * q + j)]);
        columnChecksum(BlockView<float>{a.data(), m, n, n});
        rowChecksum(BlockView<float>{b.data(), n, q, q + 1});
        for (std::int64_t i = 0; i <= m; ++i) {
            double s = 0;
            for (std::int64_t k = 0; k < n; ++k)
                s += double(a[std::size_t(i * n + k)]) * double(b[std::size_t(k * (q + 1) + q)]);
            c[std::size_t(i * (q + 1) + q)] = float(s);
        }
        for (std::int64_t j = 0; j < q; ++j) {
            double s = 0;
            for (std::int64_t k = 0; k < n; ++k)
                s += double(a[std::size_t(m * n + k)]) * double(b[std::size_t(k * (q + 1) + j)]);
            c[std::size_t(m * (q + 1) + j)] = float(s);
        }
        bound.reset(m, q);
        accumulateBound(bound, BlockView<const float>{a.data(), m, n, n}, BlockView<const float>{b.data(), n, q, q + 1});
    }
    float& at(std::int64_t i, std::int64_t j) { return c[std::size_t(i * (q + 1) + j)]; }
    VerifyResult verify()
    {
        return verifyAndCorrect(BlockView<float>{c.data(), m, q, q + 1},
                                thresholds(bound, roundoffModel(Precision::F32, InputFormat::Tf32)));
    }
};

// The checksum passes' two views: the model (rounded in registers) and a wrong one (truncated).
float inRegisters(float x) { return asMultiplied(x, kTf32InRegisters); }
float truncated(float x) { return truncateToTf32(x); }

}  // namespace

Q_DECLARE_METATYPE(Data)
Q_DECLARE_METATYPE(Accumulation)

class TestOperandRounding : public QObject {
    Q_OBJECT
private slots:
    void modelChoice()
    {
        // Rounding in registers only for TF32 on a kernel that rounds so itself.
        QVERIFY(operandRoundingFor(InputFormat::Tf32, true).roundedInRegisters);
        QVERIFY(!operandRoundingFor(InputFormat::Tf32, false).roundedInRegisters);
        QVERIFY(!operandRoundingFor(InputFormat::Bf16, true).roundedInRegisters);
        QVERIFY(!operandRoundingFor(InputFormat::F16, true).roundedInRegisters);
        QVERIFY(!operandRoundingFor(InputFormat::F32, true).rounds());
        // Only the in-place model writes the operand back.
        QVERIFY(!kTf32InRegisters.writesBack());
        QVERIFY(kTf32InRegisters.rounds());
        QVERIFY(OperandRounding(InputFormat::Tf32).writesBack());
        QVERIFY(OperandRounding(InputFormat::Bf16).writesBack());
        QVERIFY(!OperandRounding(InputFormat::F32).writesBack());
        QVERIFY(operandRoundingFor(InputFormat::Bf16, true).format == InputFormat::Bf16);
    }

    void whatEachModelMultiplies()
    {
        const float ulp = std::ldexp(1.0f, -10);  // TF32's ulp at 1
        const float x = 1.0f + 0.75f * ulp;        // past the half-way point: nearest rounds up
        QCOMPARE(asMultiplied(x, kTf32InRegisters), 1.0f + ulp);
        QCOMPARE(asMultiplied(-x, kTf32InRegisters), -1.0f - ulp);
        QCOMPARE(asMultiplied(1.0f + 0.5f * ulp, kTf32InRegisters), 1.0f + ulp);  // a tie: away from zero
        QCOMPARE(asMultiplied(x, OperandRounding(InputFormat::Tf32)), 1.0f + ulp);
        QCOMPARE(asMultiplied(x, OperandRounding(InputFormat::F32)), x);
        // In registers or in place, the same values: only whether memory is written differs.
        for (const float t : {x, -x, 1.0f + ulp, -3.5f, 0.0f, 1e-30f, 3.4e38f})
            QCOMPARE(asMultiplied(t, kTf32InRegisters), asMultiplied(t, OperandRounding(InputFormat::Tf32)));
        QVERIFY(std::isinf(asMultiplied(INFINITY, kTf32InRegisters)));
        QVERIFY(std::isnan(asMultiplied(NAN, kTf32InRegisters)));
    }

    void checksumsInRegistersCheckClean_data()
    {
        QTest::addColumn<int>("m");
        QTest::addColumn<int>("n");
        QTest::addColumn<int>("q");
        QTest::addColumn<Data>("data");
        QTest::addColumn<Accumulation>("accumulation");
        const struct {
            int m, n, q;
        } shapes[] = {{64, 64, 64}, {33, 260, 12}, {100, 516, 132}};
        for (const auto& s : shapes)
            for (const Data d : {Data::Uniform, Data::Positive})
                for (const Accumulation acc : {Accumulation::Nearest, Accumulation::TowardZero})
                    QTest::addRow("%dx%dx%d-%s-%s", s.m, s.n, s.q, d == Data::Uniform ? "uniform" : "positive",
                                  acc == Accumulation::Nearest ? "nearest" : "toward-zero")
                        << s.m << s.n << s.q << d << acc;
    }

    void checksumsInRegistersCheckClean()
    {
        QFETCH(int, m);
        QFETCH(int, n);
        QFETCH(int, q);
        QFETCH(Data, data);
        QFETCH(Accumulation, accumulation);
        FusedEmulation product(m, n, q, data, accumulation, inRegisters, 5);
        const VerifyResult r = product.verify();
        QVERIFY(r.verdict == Verdict::Clean);
        QVERIFY2(r.maxCleanResidualRatio < 1.0, qPrintable(QString::number(r.maxCleanResidualRatio)));
    }

    void truncatedChecksumsDoNotMatchTheKernel()
    {
        // All-positive inputs: truncation lowers every product by ~2^-11 of its size on average.
        FusedEmulation product(64, 256, 64, Data::Positive, Accumulation::Nearest, truncated, 7);
        const VerifyResult r = product.verify();
        QVERIFY(r.verdict != Verdict::Clean);
        QVERIFY(r.mismatchRows.size() > 1);
        QVERIFY(r.mismatchCols.size() > 1);
    }

    void faultCorrectedToCleanValue()
    {
        FusedEmulation product(64, 260, 64, Data::Uniform, Accumulation::TowardZero, inRegisters, 9);
        const float clean = product.at(21, 40);
        product.at(21, 40) = clean + 0.5f;
        const VerifyResult r = product.verify();
        QVERIFY(r.verdict == Verdict::Corrected);
        qInfo("corrected %.9g, clean %.9g, largest threshold %.3g", double(product.at(21, 40)), double(clean),
              r.maxThreshold);
        QCOMPARE(r.corrections.size(), std::size_t(1));
        QCOMPARE(r.corrections[0].row, std::int64_t(21));
        QCOMPARE(r.corrections[0].col, std::int64_t(40));
        // Rebuilt from its column's other cells and checksum: off by that column's round-off, which
        // stays below its threshold.
        QVERIFY2(std::fabs(double(product.at(21, 40)) - double(clean)) <= r.maxThreshold,
                 qPrintable(QStringLiteral("%1 vs %2, threshold %3")
                                .arg(double(product.at(21, 40)), 0, 'g', 9)
                                .arg(double(clean), 0, 'g', 9)
                                .arg(r.maxThreshold)));
    }
};

QTEST_GUILESS_MAIN(TestOperandRounding)
#include "tst_operand_rounding.moc"
