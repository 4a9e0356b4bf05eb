// TF32 ABFT (abft.hpp, abft README "TF32"), on the host with emulated TF32 tensor cores: the
// operands are rounded to TF32 as the engine rounds them (gigacheck/tf32.hpp) and the checksums
// are taken over the rounded values; the exact products are accumulated in FP32 by round to
// nearest or, as tensor cores may, by truncation toward zero after every group of 4 products.
// The threshold is then FP32's (plus the truncation's sum part): no false positive, and flips of
// bits 15-22 of a 256^3 cell, which the former scheme (checksums on the unrounded operands, a
// threshold covering the input rounding) missed, are found and corrected.
#include "gigacheck/abft.hpp"
#include "gigacheck/matrix.hpp"
#include "gigacheck/tf32.hpp"

#include <QtTest>

#include <cmath>
#include <cstring>
#include <random>

using namespace gigacheck;

namespace {

enum class Accumulation { Nearest, Truncate };

// Former scheme's emulation (kept to show what it missed): input rounding by truncation.
float truncated(float x) { return truncateToTf32(x); }

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

// Rounds toward zero to float (a tensor core's accumulator after one block FMA).
float towardZero(double x)
{
    float f = float(x);
    if (std::fabs(double(f)) > std::fabs(x))
        f = std::nextafter(f, 0.0f);
    return f;
}

// One augmented block as the engine makes it under cublas-tf32: A and B rounded to TF32 in place,
// c_A and r_B over the rounded values, the main part as exact TF32 products accumulated in FP32,
// the checksum column / row as the device's passes make them (double, stored as float).
// legacy = the former scheme: checksums over the unrounded operands, the main part over their
// truncation (the input rounding the checksums do not see).
struct Tf32Block {
    std::int64_t m, n, q;
    std::vector<float> a, b, c;  // a: (m+1) x n, b: n x (q+1), c: (m+1) x (q+1)
    BoundAccumulator bound;

    Tf32Block(std::int64_t m_, std::int64_t n_, std::int64_t q_, Data d, Accumulation acc, std::uint64_t seed,
              bool legacy = false)
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
        if (!legacy) {
            roundBlockToTf32(a.data(), m, n, n);
            roundBlockToTf32(b.data(), n, q, q + 1);
        }
        columnChecksum(BlockView<float>{a.data(), m, n, n});
        rowChecksum(BlockView<float>{b.data(), n, q, q + 1});
        const auto input = [legacy](float x) { return legacy ? truncated(x) : x; };
        for (std::int64_t i = 0; i < m; ++i)
            for (std::int64_t j = 0; j < q; ++j) {
                float s = 0;
                for (std::int64_t k0 = 0; k0 < n; k0 += 4) {
                    double group = 0;  // up to 4 exact products (11 x 11 bits fit a double)
                    for (std::int64_t k = k0; k < std::min(n, k0 + 4); ++k)
                        group += double(input(at(a, i, k, n))) * double(input(at(b, k, j, q + 1)));
                    if (acc == Accumulation::Truncate) {
                        s = towardZero(double(s) + group);
                    } else {
                        for (std::int64_t k = k0; k < std::min(n, k0 + 4); ++k)
                            s += input(at(a, i, k, n)) * input(at(b, k, j, q + 1));
                    }
                }
                c[std::size_t(i * (q + 1) + j)] = s;
            }
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

// The model the engine used before it rounded the operands itself: input rounding u_I = 2^-11
// the checksums do not see.
RoundoffModel legacyModel() { return RoundoffModel{std::ldexp(1.0, -24), std::ldexp(1.0, -11), false}; }

float flipped(float x, int bit) { return tf32FromBits(tf32Bits(x) ^ (1u << bit)); }

}  // namespace

class TestAbftTf32 : public QObject {
    Q_OBJECT
private slots:
    void modelPerPrecision();
    void roundingToTf32();
    void checksumScalesFollowTheirDefinition();
    void fp32ThresholdsUnchanged();
    void truncationSumPart();
    void noFalsePositives_data();
    void noFalsePositives();
    void detectsFlipsTheFormerSchemeMissed();
    void everyFlipCorrectedOrWithinTolerance();
    void faultCannotRaiseItsOwnThreshold();
};

void TestAbftTf32::modelPerPrecision()
{
    const RoundoffModel f32 = roundoffModel(Precision::F32), tf32 = roundoffModel(Precision::F32, true);
    const RoundoffModel f64 = roundoffModel(Precision::F64, true);  // no TF32 for doubles
    QCOMPARE(f32.uAccumulate, std::ldexp(1.0, -24));
    QCOMPARE(f32.uInput, 0.0);
    QVERIFY(!f32.tf32Operands);
    // TF32: the checksums see the rounded operands, so only the FP32 accumulation rounds.
    QCOMPARE(tf32.uAccumulate, std::ldexp(1.0, -24));
    QCOMPARE(tf32.uInput, 0.0);
    QVERIFY(tf32.tf32Operands);
    QCOMPARE(f64.uAccumulate, std::ldexp(1.0, -53));
    QCOMPARE(f64.uInput, 0.0);
    QVERIFY(!f64.tf32Operands);
}

// Round to nearest, ties away from zero, of the 13 dropped mantissa bits; truncation for the
// GPU test's other hypothesis; infinities and NaN unchanged; idempotent.
void TestAbftTf32::roundingToTf32()
{
    const float ulp = std::ldexp(1.0f, -10);  // TF32 spacing in [1, 2)
    QCOMPARE(roundToTf32(1.0f + std::ldexp(1.0f, -12)), 1.0f);
    QCOMPARE(roundToTf32(1.0f + std::ldexp(1.0f, -11)), 1.0f + ulp);  // the tie goes away from zero
    QCOMPARE(roundToTf32(-(1.0f + std::ldexp(1.0f, -11))), -(1.0f + ulp));
    QCOMPARE(roundToTf32(1.0f + ulp + std::ldexp(1.0f, -11)), 1.0f + 2 * ulp);
    QCOMPARE(truncateToTf32(1.0f + ulp + std::ldexp(1.0f, -11)), 1.0f + ulp);
    QCOMPARE(roundToTf32(std::nextafter(2.0f, 0.0f)), 2.0f);  // carry into the exponent
    QCOMPARE(truncateToTf32(std::nextafter(2.0f, 0.0f)), 2.0f - ulp);
    QVERIFY(std::isinf(roundToTf32(std::numeric_limits<float>::infinity())));
    QVERIFY(std::isnan(roundToTf32(std::numeric_limits<float>::quiet_NaN())));
    QVERIFY(std::isinf(roundToTf32(std::numeric_limits<float>::max())));  // past TF32's largest
    std::mt19937 gen(7);
    std::uniform_real_distribution<float> u(-100.0f, 100.0f);
    for (int e = 0; e < 10000; ++e) {
        const float x = u(gen), r = roundToTf32(x);
        QCOMPARE(tf32Bits(r) & kTf32DroppedBits, 0u);
        QCOMPARE(roundToTf32(r), r);
        QVERIFY(std::fabs(double(r) - double(x)) <= std::ldexp(std::fabs(double(x)), -11));
    }
}

// 2 x 2 x 2 by hand: rowChecksumScale[i] = sum_k a_ik^2 r_k^2, colChecksumScale[j] = sum_k c_k^2 b_kj^2
// (the scales of the model for operand rounding the checksums do not see).
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

    const Thresholds t = thresholds(acc, legacyModel(), 4.0);
    const double uA = std::ldexp(1.0, -24), uI = std::ldexp(1.0, -11);
    const double q0 = acc.rowScale[0] + acc.rowChecksumScale[0];
    QCOMPARE(t.row[0], 4.0 * (uA * (2 + 2 + 2) + 2 * std::sqrt(2.0) * uI) * std::sqrt(q0));
    QCOMPARE(t.sumFactor, 4 * uI);
}

void TestAbftTf32::fp32ThresholdsUnchanged()
{
    Tf32Block blk(40, 70, 30, Data::Normal, Accumulation::Nearest, 3);
    const Thresholds before = thresholds(blk.bound, std::ldexp(1.0, -24), 4.0);
    const Thresholds now = thresholds(blk.bound, roundoffModel(Precision::F32), 4.0);
    QCOMPARE(now.sumFactor, 0.0);
    QVERIFY(now.row == before.row);
    QVERIFY(now.col == before.col);
}

// TF32 on rounded operands: FP32's thresholds term by term, plus 2 uA depth times the checked sum.
void TestAbftTf32::truncationSumPart()
{
    Tf32Block blk(40, 70, 30, Data::Uniform, Accumulation::Truncate, 3);
    const Thresholds fp32 = thresholds(blk.bound, roundoffModel(Precision::F32), 4.0);
    const Thresholds tf32 = thresholds(blk.bound, roundoffModel(Precision::F32, true), 4.0);
    QVERIFY(tf32.row == fp32.row);
    QVERIFY(tf32.col == fp32.col);
    QCOMPARE(tf32.sumFactor, 2 * std::ldexp(1.0, -24) * 70);
    QCOMPARE(truncationSumFactor(roundoffModel(Precision::F32, true), 70), tf32.sumFactor);
    QCOMPARE(truncationSumFactor(roundoffModel(Precision::F32), 70), 0.0);
}

void TestAbftTf32::noFalsePositives_data()
{
    QTest::addColumn<int>("m");
    QTest::addColumn<int>("n");
    QTest::addColumn<int>("q");
    QTest::addColumn<int>("data");
    QTest::addColumn<int>("accumulation");
    const struct { int m, n, q; } shapes[] = {{1, 1, 1}, {1, 300, 77}, {300, 1, 25}, {17, 300, 9},
                                              {64, 1024, 64}, {128, 2048, 96}};
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
    QFETCH(int, accumulation);
    Tf32Block blk(m, n, q, Data(data), Accumulation(accumulation), 11 + std::uint64_t(m));
    const Thresholds t = thresholds(blk.bound, roundoffModel(Precision::F32, true), 4.0);
    const VerifyResult r = verifyAndCorrect(blk.view(), t);
    qInfo("max clean residual / threshold %.3g", r.maxCleanResidualRatio);
    QVERIFY2(r.verdict == Verdict::Clean, qPrintable(QStringLiteral("%1 rows / %2 cols mismatch")
                                                         .arg(r.mismatchRows.size())
                                                         .arg(r.mismatchCols.size())));
    QVERIFY(r.maxCleanResidualRatio < 1.0);
}

// 256^3, uniform: flips of bits 15-22 of a cell with |C_ij| >= 8 change it by 2^-5 .. 2^2. The
// former scheme's threshold (~0.8 here) let bits 15-22 through (SDC: campaign c7a5b9c); now
// every one is found and corrected, under both accumulations.
void TestAbftTf32::detectsFlipsTheFormerSchemeMissed()
{
    for (Accumulation acc : {Accumulation::Nearest, Accumulation::Truncate}) {
        const Tf32Block clean(256, 256, 256, Data::Uniform, acc, 5);
        const Tf32Block legacyClean(256, 256, 256, Data::Uniform, acc, 5, true);
        std::int64_t row = -1, col = -1;  // the first cell with |C| in [8, 16) (same exponent as 8)
        for (std::int64_t e = 0; e < 256 * 257 && row < 0; ++e)
            if (e % 257 < 256 && std::fabs(clean.c[std::size_t(e)]) >= 8 && std::fabs(clean.c[std::size_t(e)]) < 16) {
                row = e / 257;
                col = e % 257;
            }
        QVERIFY(row >= 0);
        const Thresholds t = thresholds(clean.bound, roundoffModel(Precision::F32, true), 4.0);
        const Thresholds legacyT = thresholds(legacyClean.bound, legacyModel(), 4.0);
        const double tMax = std::max(*std::max_element(t.row.begin(), t.row.end()), *std::max_element(t.col.begin(), t.col.end()));
        const double legacyMin = *std::min_element(legacyT.row.begin(), legacyT.row.end());
        qInfo("thresholds: at most %.4g now, at least %.4g before", tMax, legacyMin);
        for (int bit = 15; bit <= 22; ++bit) {
            Tf32Block now = clean;
            const float was = now.view()(row, col);
            now.view()(row, col) = flipped(was, bit);
            const double change = std::fabs(double(now.view()(row, col)) - double(was));
            const VerifyResult r = verifyAndCorrect(now.view(), t);
            QVERIFY2(r.verdict == Verdict::Corrected, qPrintable(QStringLiteral("bit %1").arg(bit)));
            QCOMPARE(int(r.corrections.size()), 1);
            QCOMPARE(r.corrections[0].row, row);
            QCOMPARE(r.corrections[0].col, col);
            QVERIFY(std::fabs(double(now.view()(row, col)) - double(was)) < t.row[std::size_t(row)]);

            Tf32Block before = legacyClean;
            before.view()(row, col) = flipped(before.view()(row, col), bit);
            const VerifyResult old = verifyAndCorrect(before.view(), legacyT);
            if (bit <= 17)  // below the former threshold: missed
                QVERIFY2(old.verdict == Verdict::Clean && change < legacyMin,
                         qPrintable(QStringLiteral("bit %1 change %2").arg(bit).arg(change)));
        }
    }
}

// Every bit of a cell: corrected back to its clean value, or undetected and then within the
// reference tolerance of the run's check (2 lambda uA (n + max(m, q) + 2) sqrt(scale) >= the
// threshold: masked, never silent corruption).
void TestAbftTf32::everyFlipCorrectedOrWithinTolerance()
{
    const Tf32Block clean(96, 512, 80, Data::Normal, Accumulation::Truncate, 21);
    const Thresholds t = thresholds(clean.bound, roundoffModel(Precision::F32, true), 4.0);
    int detected = 0;
    for (const auto& [row, col] : {std::pair<std::int64_t, std::int64_t>{3, 5}, {50, 79}, {95, 0}})
        for (int bit = 0; bit < 32; ++bit) {
            Tf32Block blk = clean;
            const float was = blk.view()(row, col);
            blk.view()(row, col) = flipped(was, bit);
            const double change = std::fabs(double(blk.view()(row, col)) - double(was));
            const VerifyResult r = verifyAndCorrect(blk.view(), t);
            const double left = std::fabs(double(blk.view()(row, col)) - double(was));
            if (r.verdict == Verdict::Clean) {
                QVERIFY2(change <= t.row[std::size_t(row)] + t.sumFactor * std::fabs(double(blk.view()(row, 80))),
                         qPrintable(QStringLiteral("bit %1 undetected, change %2").arg(bit).arg(change)));
            } else {
                ++detected;
                QVERIFY2(r.verdict == Verdict::Corrected, qPrintable(QStringLiteral("bit %1").arg(bit)));
                QVERIFY2(left <= t.row[std::size_t(row)], qPrintable(QStringLiteral("bit %1 left %2").arg(bit).arg(left)));
            }
        }
    qInfo("%d of 96 flips detected and corrected, the rest within the threshold", detected);
    QVERIFY(detected >= 3 * 14);  // bits 18-31 at least, whatever the cell's exponent
}

// The sum part of the threshold takes the smaller of |control| and |stored|: an infinite or huge
// checksum cell still mismatches.
void TestAbftTf32::faultCannotRaiseItsOwnThreshold()
{
    for (float bad : {std::numeric_limits<float>::infinity(), 1e30f}) {
        Tf32Block blk(30, 200, 20, Data::Positive, Accumulation::Truncate, 9);
        blk.view()(7, 20) = bad;  // checksum column of row 7
        const VerifyResult r = verifyAndCorrect(blk.view(), thresholds(blk.bound, roundoffModel(Precision::F32, true)));
        QVERIFY(r.verdict == Verdict::Corrected);
        QVERIFY(r.checksumsRecomputed);
        QVERIFY(std::isfinite(blk.view()(7, 20)));
    }
}

QTEST_GUILESS_MAIN(TestAbftTf32)
#include "tst_abft_tf32.moc"
