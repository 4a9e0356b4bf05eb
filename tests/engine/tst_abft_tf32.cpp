// The TF32 detection threshold (abft.hpp, README "Detection threshold"), on the host with
// emulated TF32: the inputs of the main product are rounded to 10 mantissa bits (to nearest and,
// as tensor cores may do, by truncation) and the products accumulated in FP32, while the
// checksum row / column come from the unrounded FP32 operands, as on the device.
#include "gigacheck/abft.hpp"
#include "gigacheck/matrix.hpp"

#include <QtTest>

#include <cmath>
#include <cstring>
#include <random>

using namespace gigacheck;

namespace {

enum class Rounding { Nearest, Truncate };

// FP32 -> TF32: keep 10 of the 23 mantissa bits.
float toTf32(float x, Rounding r)
{
    std::uint32_t bits = 0;
    std::memcpy(&bits, &x, 4);
    if (r == Rounding::Nearest)
        bits += 0x1000u;  // half of the dropped 13 bits: ties away from zero, as cvt.rna does
    bits &= ~0x1fffu;
    float y = 0;
    std::memcpy(&y, &bits, 4);
    return y;
}

enum class Data { Uniform, Normal, Wide, Positive, Offset };

void fill(std::vector<float>& v, Data d, std::uint64_t seed)
{
    std::mt19937_64 gen(seed);
    std::uniform_real_distribution<double> u01(0.0, 1.0);
    std::normal_distribution<double> normal;
    for (float& x : v) {
        switch (d) {
        case Data::Uniform: x = float(2 * u01(gen) - 1); break;
        case Data::Normal: x = float(normal(gen)); break;
        case Data::Wide: x = float((u01(gen) < 0.5 ? -1 : 1) * std::pow(10.0, 6 * u01(gen) - 3)); break;
        case Data::Positive: x = float(u01(gen)); break;
        case Data::Offset: x = float(100 + u01(gen)); break;
        }
    }
}

// C_cr of one augmented block as the device makes it with cublas-tf32.
struct Tf32Block {
    std::int64_t m, n, q;
    std::vector<float> a, b, c;  // a: (m+1) x n, b: n x (q+1), c: (m+1) x (q+1)
    BoundAccumulator bound;

    Tf32Block(std::int64_t m_, std::int64_t n_, std::int64_t q_, Data d, Rounding r, std::uint64_t seed)
        : m(m_), n(n_), q(q_), a(std::size_t((m_ + 1) * n_)), b(std::size_t(n_ * (q_ + 1))),
          c(std::size_t((m_ + 1) * (q_ + 1)))
    {
        std::vector<float> plainA(std::size_t(m * n)), plainB(std::size_t(n * q));
        fill(plainA, d, seed);
        fill(plainB, d, seed + 1);
        for (std::int64_t i = 0; i < m; ++i)
            for (std::int64_t k = 0; k < n; ++k)
                a[std::size_t(i * n + k)] = plainA[std::size_t(i * n + k)];
        for (std::int64_t k = 0; k < n; ++k)
            for (std::int64_t j = 0; j < q; ++j)
                b[std::size_t(k * (q + 1) + j)] = plainB[std::size_t(k * q + j)];
        columnChecksum(BlockView<float>{a.data(), m, n, n});
        rowChecksum(BlockView<float>{b.data(), n, q, q + 1});
        // Main part: TF32 inputs, FP32 accumulation.
        for (std::int64_t i = 0; i < m; ++i)
            for (std::int64_t j = 0; j < q; ++j) {
                float s = 0;
                for (std::int64_t k = 0; k < n; ++k)
                    s += toTf32(at(a, i, k, n), r) * toTf32(at(b, k, j, q + 1), r);
                c[std::size_t(i * (q + 1) + j)] = s;
            }
        // Checksum column (corner included) and row: FP32 operands, summed in double.
        for (std::int64_t i = 0; i <= m; ++i) {
            double s = 0;
            for (std::int64_t k = 0; k < n; ++k)
                s += double(at(a, i, k, n)) * double(at(b, k, q, q + 1));
            c[std::size_t(i * (q + 1) + q)] = float(s);
        }
        for (std::int64_t j = 0; j < q; ++j) {
            double s = 0;
            for (std::int64_t k = 0; k < n; ++k)
                s += double(at(a, m, k, n)) * double(at(b, k, j, q + 1));
            c[std::size_t(m * (q + 1) + j)] = float(s);
        }
        bound.reset(m, q);
        accumulateBound(bound, BlockView<const float>{a.data(), m, n, n}, BlockView<const float>{b.data(), n, q, q + 1});
    }
    static float at(const std::vector<float>& v, std::int64_t r, std::int64_t col, std::int64_t ld)
    {
        return v[std::size_t(r * ld + col)];
    }
    BlockView<float> view() { return {c.data(), m, q, q + 1}; }
};

}  // namespace

class TestAbftTf32 : public QObject {
    Q_OBJECT
private slots:
    void modelPerPrecision();
    void checksumScalesFollowTheirDefinition();
    void fp32ThresholdsUnchanged();
    void noFalsePositives_data();
    void noFalsePositives();
    void detectsTenTimesSmallerFaults();
    void faultCannotRaiseItsOwnThreshold();
};

void TestAbftTf32::modelPerPrecision()
{
    const RoundoffModel f32 = roundoffModel(Precision::F32), tf32 = roundoffModel(Precision::F32, true);
    const RoundoffModel f64 = roundoffModel(Precision::F64, true);  // no TF32 for doubles
    QCOMPARE(f32.uAccumulate, std::ldexp(1.0, -24));
    QCOMPARE(f32.uInput, 0.0);
    QCOMPARE(tf32.uAccumulate, std::ldexp(1.0, -24));
    QCOMPARE(tf32.uInput, std::ldexp(1.0, -11));
    QCOMPARE(f64.uAccumulate, std::ldexp(1.0, -53));
    QCOMPARE(f64.uInput, 0.0);
}

// 2 x 2 x 2 by hand: rowChecksumScale[i] = sum_k a_ik^2 r_k^2, colChecksumScale[j] = sum_k c_k^2 b_kj^2.
void TestAbftTf32::checksumScalesFollowTheirDefinition()
{
    std::vector<double> a = {1, 2, 3, 4, 0, 0}, b = {5, 6, 0, 7, 8, 0};
    columnChecksum(BlockView<double>{a.data(), 2, 2, 2});  // c_A = (4, 6)
    rowChecksum(BlockView<double>{b.data(), 2, 2, 3});     // r_B = (11, 15)
    BoundAccumulator acc;
    acc.reset(2, 2);
    accumulateBound(acc, BlockView<const double>{a.data(), 2, 2, 2}, BlockView<const double>{b.data(), 2, 2, 3});
    QCOMPARE(acc.rowChecksumScale[0], 1.0 * 121 + 4.0 * 225);
    QCOMPARE(acc.rowChecksumScale[1], 9.0 * 121 + 16.0 * 225);
    QCOMPARE(acc.rowChecksumScale[2], 16.0 * 121 + 36.0 * 225);  // checksum row: c_A
    QCOMPARE(acc.colChecksumScale[0], 16.0 * 25 + 36.0 * 49);
    QCOMPARE(acc.colChecksumScale[1], 16.0 * 36 + 36.0 * 64);
    QCOMPARE(acc.colChecksumScale[2], 16.0 * 121 + 36.0 * 225);  // checksum column: r_B

    // The TF32 threshold of row 0 from its pieces.
    const Thresholds t = thresholds(acc, roundoffModel(Precision::F32, true), 4.0);
    const double uA = std::ldexp(1.0, -24), uI = std::ldexp(1.0, -11);
    const double q0 = acc.rowScale[0] + acc.rowChecksumScale[0];
    QCOMPARE(t.row[0], 4.0 * (uA * (2 + 2 + 2) + 2 * std::sqrt(2.0) * uI) * std::sqrt(q0));
    QCOMPARE(t.sumFactor, 4 * uI);
}

void TestAbftTf32::fp32ThresholdsUnchanged()
{
    Tf32Block blk(40, 70, 30, Data::Normal, Rounding::Nearest, 3);
    const Thresholds before = thresholds(blk.bound, std::ldexp(1.0, -24), 4.0);
    const Thresholds now = thresholds(blk.bound, roundoffModel(Precision::F32), 4.0);
    QCOMPARE(now.sumFactor, 0.0);
    QVERIFY(now.row == before.row);
    QVERIFY(now.col == before.col);
}

void TestAbftTf32::noFalsePositives_data()
{
    QTest::addColumn<int>("m");
    QTest::addColumn<int>("n");
    QTest::addColumn<int>("q");
    QTest::addColumn<int>("data");
    QTest::addColumn<int>("rounding");
    const struct { int m, n, q; } shapes[] = {{1, 1, 1}, {17, 300, 9}, {64, 1024, 64}, {128, 2048, 96}};
    const char* names[] = {"uniform", "normal", "wide", "positive", "offset"};
    for (const auto& s : shapes)
        for (int d = 0; d < 5; ++d)
            for (int r = 0; r < 2; ++r)
                QTest::addRow("%dx%dx%d-%s-%s", s.m, s.n, s.q, names[d], r ? "truncate" : "nearest")
                    << s.m << s.n << s.q << d << r;
}

void TestAbftTf32::noFalsePositives()
{
    QFETCH(int, m);
    QFETCH(int, n);
    QFETCH(int, q);
    QFETCH(int, data);
    QFETCH(int, rounding);
    Tf32Block blk(m, n, q, Data(data), Rounding(rounding), 11 + std::uint64_t(m));
    const Thresholds t = thresholds(blk.bound, roundoffModel(Precision::F32, true), 4.0);
    const VerifyResult r = verifyAndCorrect(blk.view(), t);
    qInfo("max clean residual / threshold %.3g", r.maxCleanResidualRatio);
    QVERIFY2(r.verdict == Verdict::Clean, qPrintable(QStringLiteral("%1 rows / %2 cols mismatch")
                                                         .arg(r.mismatchRows.size())
                                                         .arg(r.mismatchCols.size())));
    QVERIFY(r.maxCleanResidualRatio < 1.0);
}

// The old TF32 bound (u = 2^-11 times the growth factor) against the model: a fault a tenth of
// the old smallest threshold is now found and corrected.
void TestAbftTf32::detectsTenTimesSmallerFaults()
{
    for (Rounding rounding : {Rounding::Nearest, Rounding::Truncate}) {
        Tf32Block blk(96, 2048, 80, Data::Uniform, rounding, 5);
        const Thresholds oldT = thresholds(blk.bound, unitRoundoff(Precision::F32, true), 4.0);
        const Thresholds newT = thresholds(blk.bound, roundoffModel(Precision::F32, true), 4.0);
        const double oldMin = *std::min_element(oldT.row.begin(), oldT.row.end());
        const double newMax = *std::max_element(newT.row.begin(), newT.row.end());
        QVERIFY2(newMax * 10 < oldMin, qPrintable(QStringLiteral("old %1, new %2").arg(oldMin).arg(newMax)));

        const std::int64_t i = 40, j = 33;
        const float clean = blk.view()(i, j);
        const double delta = oldMin / 10;
        blk.view()(i, j) = float(clean + delta);
        const VerifyResult r = verifyAndCorrect(blk.view(), newT);
        QVERIFY(r.verdict == Verdict::Corrected);
        QCOMPARE(int(r.corrections.size()), 1);
        QCOMPARE(r.corrections[0].row, i);
        QCOMPARE(r.corrections[0].col, j);
        // The corrected cell carries the TF32 error of its column only: far below the fault.
        QVERIFY(std::fabs(double(blk.view()(i, j)) - double(clean)) < delta / 10);
    }
}

// The sum part of the threshold takes the smaller of |control| and |stored|: an infinite or huge
// checksum cell still mismatches.
void TestAbftTf32::faultCannotRaiseItsOwnThreshold()
{
    for (float bad : {std::numeric_limits<float>::infinity(), 1e30f}) {
        Tf32Block blk(30, 200, 20, Data::Positive, Rounding::Truncate, 9);
        blk.view()(7, 20) = bad;  // checksum column of row 7
        const VerifyResult r = verifyAndCorrect(blk.view(), thresholds(blk.bound, roundoffModel(Precision::F32, true)));
        QVERIFY(r.verdict == Verdict::Corrected);
        QVERIFY(r.checksumsRecomputed);
        QVERIFY(std::isfinite(blk.view()(7, 20)));
    }
}

QTEST_GUILESS_MAIN(TestAbftTf32)
#include "tst_abft_tf32.moc"
