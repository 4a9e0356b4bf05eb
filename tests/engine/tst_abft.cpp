// ABFT host reference: no false positives on clean products, detection of every error above the
// threshold, location and correction of single / collinear errors, checksum corruption,
// uncorrectable sets, bit flips. Products are computed by OpenBLAS on augmented operands built
// with the engine's own checksum functions, as the CPU backend does.
#include "gigacheck/abft.hpp"
#include "gigacheck/faults.hpp"
#include "gigacheck/matrix.hpp"

#include <QtTest>

#include <cblas.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>

using namespace gigacheck;

namespace {

void gemm(bool accumulate, std::int64_t m, std::int64_t n, std::int64_t q, const float* a, const float* b,
          float* c)
{
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, int(m), int(q), int(n), 1.0f, a, int(n), b,
                int(q), accumulate ? 1.0f : 0.0f, c, int(q));
}
void gemm(bool accumulate, std::int64_t m, std::int64_t n, std::int64_t q, const double* a, const double* b,
          double* c)
{
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, int(m), int(q), int(n), 1.0, a, int(n), b, int(q),
                accumulate ? 1.0 : 0.0, c, int(q));
}

// One augmented block product C_cr = sum_k A_c(k) B_r(k), computed in `steps` k steps like a
// blocked run, with its round-off bound.
template <class T>
struct AugmentedProduct {
    std::int64_t m = 0, n = 0, q = 0;
    std::vector<T> c;  // (m + 1) x (q + 1)
    BoundAccumulator bound;
    Thresholds t;

    AugmentedProduct(std::int64_t m_, std::int64_t n_, std::int64_t q_, Distribution d, int steps = 1,
                     std::uint64_t seed = 7, double scale = 1.0)
        : m(m_), n(n_), q(q_), c(std::size_t((m_ + 1) * (q_ + 1)))
    {
        const Precision p = std::is_same_v<T, double> ? Precision::F64 : Precision::F32;
        bound.reset(m, q);
        std::int64_t done = 0;
        for (int s = 0; s < steps; ++s) {
            const std::int64_t depth = (n - done) / (steps - s);
            HostMatrix a(p, m, depth), b(p, depth, q);
            fillRandom(a, d, seed, 2 * std::uint64_t(s));
            fillRandom(b, d, seed, 2 * std::uint64_t(s) + 1);
            std::vector<T> ac(std::size_t((m + 1) * depth)), br(std::size_t(depth * (q + 1)));
            for (std::int64_t i = 0; i < m; ++i)
                for (std::int64_t k = 0; k < depth; ++k)
                    ac[std::size_t(i * depth + k)] = T(scale * a.at(i, k));
            for (std::int64_t k = 0; k < depth; ++k)
                for (std::int64_t j = 0; j < q; ++j)
                    br[std::size_t(k * (q + 1) + j)] = b.as<T>()[k * q + j];
            columnChecksum(BlockView<T>{ac.data(), m, depth, depth});
            rowChecksum(BlockView<T>{br.data(), depth, q, q + 1});
            gemm(s > 0, m + 1, depth, q + 1, ac.data(), br.data(), c.data());
            accumulateBound(bound, BlockView<const T>{ac.data(), m, depth, depth},
                            BlockView<const T>{br.data(), depth, q, q + 1});
            done += depth;
        }
        t = thresholds(bound, unitRoundoff(p));
    }
    BlockView<T> view() { return {c.data(), m, q, q + 1}; }
    T& at(std::int64_t i, std::int64_t j) { return c[std::size_t(i * (q + 1) + j)]; }
    double typical() const
    {
        double s = 0;
        for (std::int64_t i = 0; i < m; ++i)
            for (std::int64_t j = 0; j < q; ++j)
                s += std::fabs(double(c[std::size_t(i * (q + 1) + j)]));
        return s / double(m * q);
    }
};

// Observed figures per precision, printed at the end for the README / report.
struct Observed {
    double maxRatio = 0, minThreshold = INFINITY, maxThreshold = 0;
    double maxRelativeThreshold = 0;  // largest threshold / mean |C_ij| of its product
    int products = 0;
};
std::map<QString, Observed> g_observed;

bool isF64(const QString& precision) { return precision == QLatin1String("f64"); }

// QCOMPARE on the name, so a failure prints "clean" / "corrected" / "uncorrectable".
QString name(Verdict v) { return QString::fromLatin1(toString(v).data()); }

}  // namespace

class TestAbft : public QObject {
    Q_OBJECT

private slots:
    void checksumsAreSums();
    void unitRoundoffValues();
    void thresholdScalesWithData();
    void cleanProductsHaveNoFalsePositives_data();
    void cleanProductsHaveNoFalsePositives();
    void singleErrorIsCorrected_data();
    void singleErrorIsCorrected();
    void everyErrorAboveThresholdIsDetected_data();
    void everyErrorAboveThresholdIsDetected();
    void collinearErrorsAreCorrected_data();
    void collinearErrorsAreCorrected();
    void nonCollinearErrorsAreUncorrectable_data();
    void nonCollinearErrorsAreUncorrectable();
    void checksumErrorsRecomputeChecksums_data();
    void checksumErrorsRecomputeChecksums();
    void exponentBitFlipIsCorrected_data();
    void exponentBitFlipIsCorrected();
    void lowMantissaBitFlipIsNoFalseAlarm_data();
    void lowMantissaBitFlipIsNoFalseAlarm();
    void mismatchOnOneAxisOnly();
    void mismatchedThresholdsAreRejected();
    void verdictNames();
    void cleanupTestCase();

private:
    template <class T> void runClean(std::int64_t m, std::int64_t n, std::int64_t q, Distribution d, int steps,
                                     const QString& precision);
    template <class T> void runSingle(Distribution d, std::int64_t row, std::int64_t col);
    template <class T> void runDetectAll(Distribution d);
    template <class T> void runCollinear(bool inRow, int count);
    template <class T> void runNonCollinear(const QList<QPoint>& cells);
    template <class T> void runChecksumError(const QList<QPoint>& cells, bool resultError);
    template <class T> void runBitFlip(int bit, bool expectDetected);
};

void TestAbft::checksumsAreSums()
{
    // A block 2 x 3 (+ checksum row), B block 3 x 2 (+ checksum column).
    std::vector<double> a{1, 2, 3, 4, 5, 6, 0, 0, 0};
    columnChecksum(BlockView<double>{a.data(), 2, 3, 3});
    QCOMPARE(a[6], 5.0);
    QCOMPARE(a[7], 7.0);
    QCOMPARE(a[8], 9.0);
    std::vector<float> b{1, 2, 0, 3, 4, 0, 5, 6, 0};
    rowChecksum(BlockView<float>{b.data(), 3, 2, 3});
    QCOMPARE(b[2], 3.0f);
    QCOMPARE(b[5], 7.0f);
    QCOMPARE(b[8], 11.0f);
}

void TestAbft::unitRoundoffValues()
{
    QCOMPARE(unitRoundoff(Precision::F32), std::ldexp(1.0, -24));
    QCOMPARE(unitRoundoff(Precision::F64), std::ldexp(1.0, -53));
    QCOMPARE(unitRoundoff(Precision::F32, true), std::ldexp(1.0, -11));
}

void TestAbft::thresholdScalesWithData()
{
    // A round-off bound, not a constant: it grows linearly with the data and with the depth.
    AugmentedProduct<double> small(20, 30, 10, Distribution::Uniform, 1, 3, 1.0);
    AugmentedProduct<double> large(20, 30, 10, Distribution::Uniform, 1, 3, 1000.0);
    for (std::size_t i = 0; i < small.t.row.size(); ++i)
        QVERIFY(std::fabs(large.t.row[i] / small.t.row[i] - 1000.0) < 1e-6);
    QCOMPARE(small.bound.depth, std::int64_t(30));
    AugmentedProduct<double> deep(20, 3000, 10, Distribution::Uniform, 1, 3, 1.0);
    QVERIFY(deep.t.row[0] > 10 * small.t.row[0]);
}

void TestAbft::cleanProductsHaveNoFalsePositives_data()
{
    QTest::addColumn<qint64>("m");
    QTest::addColumn<qint64>("n");
    QTest::addColumn<qint64>("q");
    QTest::addColumn<int>("steps");
    QTest::addColumn<int>("distribution");
    QTest::addColumn<QString>("precision");
    struct Case { qint64 m, n, q; int steps; };
    const Case cases[] = {{1, 1, 1, 1},     {1, 100, 1, 1},    {1, 1000, 1, 1},   {7, 300, 5, 1},
                          {129, 257, 65, 1}, {300, 7, 1000, 1}, {512, 512, 512, 1}, {64, 2048, 64, 1},
                          {129, 257, 65, 3}, {200, 1000, 150, 4}, {512, 512, 512, 8}, {3, 90, 2, 9}};
    for (const Case& c : cases)
        for (Distribution d : {Distribution::Uniform, Distribution::Normal, Distribution::Wide})
            for (const char* p : {"f32", "f64"})
                QTest::addRow("%lldx%lldx%lld/%dsteps/%s/%s", c.m, c.n, c.q, c.steps,
                              toString(d).data(), p)
                    << c.m << c.n << c.q << c.steps << int(d) << QString::fromLatin1(p);
}

template <class T>
void TestAbft::runClean(std::int64_t m, std::int64_t n, std::int64_t q, Distribution d, int steps,
                        const QString& precision)
{
    AugmentedProduct<T> p(m, n, q, d, steps);
    const std::vector<T> before = p.c;
    const VerifyResult r = verifyAndCorrect(p.view(), p.t);
    QCOMPARE(name(r.verdict), name(Verdict::Clean));
    QVERIFY(r.mismatchRows.empty() && r.mismatchCols.empty() && r.corrections.empty());
    QVERIFY(!r.checksumsRecomputed);
    QVERIFY(std::memcmp(before.data(), p.c.data(), before.size() * sizeof(T)) == 0);
    QVERIFY(r.maxCleanResidualRatio <= 1.0);
    QVERIFY(r.minThreshold > 0 && r.minThreshold <= r.maxThreshold);
    Observed& o = g_observed[precision + QLatin1Char('/') + QString::fromLatin1(toString(d).data())];
    o.maxRatio = std::max(o.maxRatio, r.maxCleanResidualRatio);
    o.minThreshold = std::min(o.minThreshold, r.minThreshold);
    o.maxThreshold = std::max(o.maxThreshold, r.maxThreshold);
    o.maxRelativeThreshold = std::max(o.maxRelativeThreshold, r.maxThreshold / p.typical());
    ++o.products;
}

void TestAbft::cleanProductsHaveNoFalsePositives()
{
    QFETCH(qint64, m);
    QFETCH(qint64, n);
    QFETCH(qint64, q);
    QFETCH(int, steps);
    QFETCH(int, distribution);
    QFETCH(QString, precision);
    if (isF64(precision))
        runClean<double>(m, n, q, Distribution(distribution), steps, precision);
    else
        runClean<float>(m, n, q, Distribution(distribution), steps, precision);
}

void TestAbft::singleErrorIsCorrected_data()
{
    QTest::addColumn<QString>("precision");
    QTest::addColumn<int>("distribution");
    QTest::addColumn<qint64>("row");
    QTest::addColumn<qint64>("col");
    for (const char* p : {"f32", "f64"})
        for (Distribution d : {Distribution::Uniform, Distribution::Normal, Distribution::Wide}) {
            const QString ps = QString::fromLatin1(p);
            QTest::addRow("%s/%s/first", p, toString(d).data()) << ps << int(d) << qint64(0) << qint64(0);
            QTest::addRow("%s/%s/interior", p, toString(d).data()) << ps << int(d) << qint64(37) << qint64(11);
            QTest::addRow("%s/%s/last", p, toString(d).data()) << ps << int(d) << qint64(99) << qint64(63);
        }
}

template <class T>
void TestAbft::runSingle(Distribution d, std::int64_t row, std::int64_t col)
{
    AugmentedProduct<T> p(100, 300, 64, d, 2);
    const std::vector<T> clean = p.c;
    const T original = p.at(row, col);
    p.at(row, col) += T(50 * p.typical());
    const VerifyResult r = verifyAndCorrect(p.view(), p.t);
    QCOMPARE(name(r.verdict), name(Verdict::Corrected));
    QCOMPARE(r.mismatchRows, std::vector<std::int64_t>{row});
    QCOMPARE(r.mismatchCols, std::vector<std::int64_t>{col});
    QCOMPARE(r.corrections.size(), std::size_t(1));
    QCOMPARE(r.corrections[0].row, row);
    QCOMPARE(r.corrections[0].col, col);
    QVERIFY(!r.checksumsRecomputed);
    // Back to the clean value within the round-off bound of that row.
    QVERIFY2(std::fabs(double(p.at(row, col)) - double(original)) <= p.t.row[std::size_t(row)],
             qPrintable(QStringLiteral("corrected %1, clean %2").arg(double(p.at(row, col))).arg(double(original))));
    p.at(row, col) = original;
    QVERIFY(std::memcmp(clean.data(), p.c.data(), clean.size() * sizeof(T)) == 0);  // nothing else touched
}

void TestAbft::singleErrorIsCorrected()
{
    QFETCH(QString, precision);
    QFETCH(int, distribution);
    QFETCH(qint64, row);
    QFETCH(qint64, col);
    if (isF64(precision))
        runSingle<double>(Distribution(distribution), row, col);
    else
        runSingle<float>(Distribution(distribution), row, col);
}

void TestAbft::everyErrorAboveThresholdIsDetected_data()
{
    QTest::addColumn<QString>("precision");
    QTest::addColumn<int>("distribution");
    for (const char* p : {"f32", "f64"})
        for (Distribution d : {Distribution::Uniform, Distribution::Normal, Distribution::Wide})
            QTest::addRow("%s/%s", p, toString(d).data()) << QString::fromLatin1(p) << int(d);
}

template <class T>
void TestAbft::runDetectAll(Distribution d)
{
    // Every cell of a block, each with the smallest delta the bound promises to catch: twice the
    // larger of its two thresholds (the clean residual is at most one threshold).
    AugmentedProduct<T> p(24, 200, 17, d, 2);
    const std::vector<T> clean = p.c;
    for (std::int64_t i = 0; i < p.m; ++i)
        for (std::int64_t j = 0; j < p.q; ++j) {
            p.c = clean;
            const double delta = 2.0 * std::max(p.t.row[std::size_t(i)], p.t.col[std::size_t(j)]);
            const double corrupted = double(p.at(i, j)) + ((i + j) % 2 ? delta : -delta);
            p.at(i, j) = T(corrupted);
            if (double(p.at(i, j)) == double(clean[std::size_t(i * (p.q + 1) + j)]))
                continue;  // the delta vanished in rounding to T: nothing was injected
            const VerifyResult r = verifyAndCorrect(p.view(), p.t);
            QVERIFY2(r.verdict == Verdict::Corrected,
                     qPrintable(QStringLiteral("cell (%1, %2) not corrected").arg(i).arg(j)));
            QCOMPARE(r.mismatchRows, std::vector<std::int64_t>{i});
            QCOMPARE(r.mismatchCols, std::vector<std::int64_t>{j});
        }
}

void TestAbft::everyErrorAboveThresholdIsDetected()
{
    QFETCH(QString, precision);
    QFETCH(int, distribution);
    if (isF64(precision))
        runDetectAll<double>(Distribution(distribution));
    else
        runDetectAll<float>(Distribution(distribution));
}

void TestAbft::collinearErrorsAreCorrected_data()
{
    QTest::addColumn<QString>("precision");
    QTest::addColumn<bool>("inRow");
    QTest::addColumn<int>("count");
    for (const char* p : {"f32", "f64"})
        for (bool inRow : {true, false})
            for (int count : {2, 5, 40})
                QTest::addRow("%s/%s/%d", p, inRow ? "row" : "col", count)
                    << QString::fromLatin1(p) << inRow << count;
}

template <class T>
void TestAbft::runCollinear(bool inRow, int count)
{
    AugmentedProduct<T> p(60, 256, 50, Distribution::Normal, 2);
    const std::vector<T> clean = p.c;
    const std::int64_t line = 17;
    for (int e = 0; e < count; ++e) {
        const std::int64_t i = inRow ? line : e, j = inRow ? e : line;
        p.at(i, j) += T((e % 2 ? -1 : 1) * (20.0 + e) * p.typical());
    }
    const VerifyResult r = verifyAndCorrect(p.view(), p.t);
    QCOMPARE(name(r.verdict), name(Verdict::Corrected));
    QCOMPARE(r.corrections.size(), std::size_t(count));
    QCOMPARE(inRow ? r.mismatchRows.size() : r.mismatchCols.size(), std::size_t(1));
    QCOMPARE(inRow ? r.mismatchCols.size() : r.mismatchRows.size(), std::size_t(count));
    QVERIFY(!r.checksumsRecomputed);
    for (int e = 0; e < count; ++e) {
        const std::int64_t i = inRow ? line : e, j = inRow ? e : line;
        const double tolerance = 2 * std::max(p.t.row[std::size_t(i)], p.t.col[std::size_t(j)]);
        QVERIFY(std::fabs(double(p.at(i, j)) - double(clean[std::size_t(i * (p.q + 1) + j)])) <= tolerance);
    }
    // The corrected block verifies clean again.
    QCOMPARE(name(verifyAndCorrect(p.view(), p.t).verdict), name(Verdict::Clean));
}

void TestAbft::collinearErrorsAreCorrected()
{
    QFETCH(QString, precision);
    QFETCH(bool, inRow);
    QFETCH(int, count);
    if (isF64(precision))
        runCollinear<double>(inRow, count);
    else
        runCollinear<float>(inRow, count);
}

void TestAbft::nonCollinearErrorsAreUncorrectable_data()
{
    QTest::addColumn<QString>("precision");
    QTest::addColumn<QList<QPoint>>("cells");  // QPoint(x = col, y = row)
    for (const char* p : {"f32", "f64"}) {
        const QString ps = QString::fromLatin1(p);
        QTest::addRow("%s/diagonal pair", p) << ps << QList<QPoint>{{2, 1}, {7, 5}};
        QTest::addRow("%s/L shape", p) << ps << QList<QPoint>{{2, 1}, {9, 1}, {2, 30}};
        QTest::addRow("%s/scattered four", p) << ps << QList<QPoint>{{0, 0}, {10, 3}, {20, 6}, {39, 39}};
        QTest::addRow("%s/result and checksum cells", p) << ps << QList<QPoint>{{3, 4}, {40, 9}};
    }
}

template <class T>
void TestAbft::runNonCollinear(const QList<QPoint>& cells)
{
    AugmentedProduct<T> p(40, 128, 40, Distribution::Uniform);
    std::vector<std::int64_t> rows, cols;
    for (const QPoint& cell : cells) {
        p.at(cell.y(), cell.x()) += T(30 * p.typical());
        rows.push_back(cell.y());
        cols.push_back(cell.x());
    }
    std::sort(rows.begin(), rows.end());
    rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
    std::sort(cols.begin(), cols.end());
    cols.erase(std::unique(cols.begin(), cols.end()), cols.end());
    const std::vector<T> corrupted = p.c;
    const VerifyResult r = verifyAndCorrect(p.view(), p.t);
    QCOMPARE(name(r.verdict), name(Verdict::Uncorrectable));
    QCOMPARE(r.mismatchRows, rows);
    QCOMPARE(r.mismatchCols, cols);
    QCOMPARE(r.rowResidual.size(), rows.size());
    QVERIFY(r.corrections.empty());
    QVERIFY(std::memcmp(corrupted.data(), p.c.data(), corrupted.size() * sizeof(T)) == 0);  // C unchanged
}

void TestAbft::nonCollinearErrorsAreUncorrectable()
{
    QFETCH(QString, precision);
    QFETCH(QList<QPoint>, cells);
    if (isF64(precision))
        runNonCollinear<double>(cells);
    else
        runNonCollinear<float>(cells);
}

void TestAbft::checksumErrorsRecomputeChecksums_data()
{
    // Block 40 x 30: checksum row = 40, checksum column = 30, corner = (40, 30).
    QTest::addColumn<QString>("precision");
    QTest::addColumn<QList<QPoint>>("cells");  // QPoint(x = col, y = row)
    QTest::addColumn<bool>("resultError");     // one of the cells is in the result part
    for (const char* p : {"f32", "f64"}) {
        const QString ps = QString::fromLatin1(p);
        QTest::addRow("%s/checksum row", p) << ps << QList<QPoint>{{12, 40}} << false;
        QTest::addRow("%s/checksum column", p) << ps << QList<QPoint>{{30, 7}} << false;
        QTest::addRow("%s/corner", p) << ps << QList<QPoint>{{30, 40}} << false;
        QTest::addRow("%s/checksum row and corner", p) << ps << QList<QPoint>{{5, 40}, {30, 40}} << false;
        QTest::addRow("%s/checksum column and corner", p) << ps << QList<QPoint>{{30, 3}, {30, 40}} << false;
        QTest::addRow("%s/three in checksum row", p) << ps << QList<QPoint>{{0, 40}, {9, 40}, {29, 40}} << false;
        QTest::addRow("%s/three in checksum column", p) << ps << QList<QPoint>{{30, 0}, {30, 8}, {30, 39}} << false;
        QTest::addRow("%s/result and checksum row, same column", p) << ps << QList<QPoint>{{6, 11}, {6, 40}} << true;
        QTest::addRow("%s/result and checksum column, same row", p) << ps << QList<QPoint>{{6, 11}, {30, 11}} << true;
    }
}

template <class T>
void TestAbft::runChecksumError(const QList<QPoint>& cells, bool resultError)
{
    AugmentedProduct<T> p(40, 200, 30, Distribution::Normal, 2);
    const std::vector<T> clean = p.c;
    // Distinct deltas: equal ones in a checksum cell and the corner would cancel in the corner's
    // check exactly, which leaves one axis without a mismatch (reported uncorrectable).
    double factor = 40;
    for (const QPoint& cell : cells)
        p.at(cell.y(), cell.x()) += T((factor += 15) * p.typical());
    const VerifyResult r = verifyAndCorrect(p.view(), p.t);
    QCOMPARE(name(r.verdict), name(Verdict::Corrected));
    QVERIFY(r.checksumsRecomputed);
    QCOMPARE(r.corrections.size(), std::size_t(cells.size()));
    for (std::int64_t i = 0; i < p.m; ++i)
        for (std::int64_t j = 0; j < p.q; ++j) {
            const double expected = double(clean[std::size_t(i * (p.q + 1) + j)]);
            if (resultError)
                QVERIFY(std::fabs(double(p.at(i, j)) - expected) <= 2 * p.t.row[std::size_t(i)]);
            else
                QCOMPARE(double(p.at(i, j)), expected);  // the result was never touched
        }
    // Recomputed checksums describe the result again: a fresh verification is clean.
    const VerifyResult again = verifyAndCorrect(p.view(), p.t);
    QCOMPARE(name(again.verdict), name(Verdict::Clean));
}

void TestAbft::checksumErrorsRecomputeChecksums()
{
    QFETCH(QString, precision);
    QFETCH(QList<QPoint>, cells);
    QFETCH(bool, resultError);
    if (isF64(precision))
        runChecksumError<double>(cells, resultError);
    else
        runChecksumError<float>(cells, resultError);
}

void TestAbft::exponentBitFlipIsCorrected_data()
{
    QTest::addColumn<QString>("precision");
    QTest::addColumn<int>("bit");
    QTest::newRow("f32/bit 30 (exponent MSB)") << QStringLiteral("f32") << 30;
    QTest::newRow("f32/bit 27") << QStringLiteral("f32") << 27;
    QTest::newRow("f32/bit 23 (exponent LSB)") << QStringLiteral("f32") << 23;
    QTest::newRow("f64/bit 62 (exponent MSB)") << QStringLiteral("f64") << 62;
    QTest::newRow("f64/bit 55") << QStringLiteral("f64") << 55;
    QTest::newRow("f64/bit 52 (exponent LSB)") << QStringLiteral("f64") << 52;
}

template <class T>
void TestAbft::runBitFlip(int bit, bool expectDetected)
{
    const Precision precision = std::is_same_v<T, double> ? Precision::F64 : Precision::F32;
    AugmentedProduct<T> p(50, 300, 40, Distribution::Uniform, 2);
    const std::vector<T> clean = p.c;
    // Several cells, including values in [1, 2) whose exponent MSB flip gives Inf / NaN.
    for (std::int64_t cell = 0; cell < p.m * p.q; cell += 97) {
        const std::int64_t i = cell / p.q, j = cell % p.q;
        p.c = clean;
        Injection inj;
        inj.model = FaultModel::BitFlip;
        inj.bit = bit;
        p.at(i, j) = T(applyFault(inj, double(p.at(i, j)), precision));
        const VerifyResult r = verifyAndCorrect(p.view(), p.t);
        const double expected = double(clean[std::size_t(i * (p.q + 1) + j)]);
        if (!expectDetected) {
            // The flip must really be below both thresholds for "no alarm" to be the right answer.
            QVERIFY(std::fabs(double(p.at(i, j)) - expected) <
                    0.5 * std::min(p.t.row[std::size_t(i)], p.t.col[std::size_t(j)]));
            QVERIFY2(r.verdict == Verdict::Clean, qPrintable(QStringLiteral("false alarm at (%1, %2)").arg(i).arg(j)));
            continue;
        }
        QVERIFY2(r.verdict == Verdict::Corrected,
                 qPrintable(QStringLiteral("flip at (%1, %2): %3 -> %4 not corrected")
                                .arg(i).arg(j).arg(expected).arg(double(p.at(i, j)))));
        QVERIFY(std::fabs(double(p.at(i, j)) - expected) <= p.t.row[std::size_t(i)]);
    }
}

void TestAbft::exponentBitFlipIsCorrected()
{
    QFETCH(QString, precision);
    QFETCH(int, bit);
    if (isF64(precision))
        runBitFlip<double>(bit, true);
    else
        runBitFlip<float>(bit, true);
}

void TestAbft::lowMantissaBitFlipIsNoFalseAlarm_data()
{
    QTest::addColumn<QString>("precision");
    QTest::addColumn<int>("bit");
    QTest::newRow("f32/bit 0") << QStringLiteral("f32") << 0;
    QTest::newRow("f32/bit 3") << QStringLiteral("f32") << 3;
    QTest::newRow("f64/bit 0") << QStringLiteral("f64") << 0;
    QTest::newRow("f64/bit 4") << QStringLiteral("f64") << 4;
}

void TestAbft::lowMantissaBitFlipIsNoFalseAlarm()
{
    QFETCH(QString, precision);
    QFETCH(int, bit);
    if (isF64(precision))
        runBitFlip<double>(bit, false);
    else
        runBitFlip<float>(bit, false);
}

void TestAbft::mismatchOnOneAxisOnly()
{
    // Only one axis of checks fires: column thresholds made huge here so that only row checks
    // can. Column 9's residual still stands out of its axis: the one-axis rule locates the cell.
    AugmentedProduct<double> p(30, 100, 20, Distribution::Uniform);
    Thresholds rowsOnly = p.t;
    std::fill(rowsOnly.col.begin(), rowsOnly.col.end(), 1e30);
    const std::vector<double> clean = p.c;

    p.at(4, 9) += 50 * p.typical();
    VerifyResult r = verifyAndCorrect(p.view(), rowsOnly);
    QCOMPARE(name(r.verdict), name(Verdict::Corrected));
    QCOMPARE(r.mismatchRows, std::vector<std::int64_t>{4});
    QVERIFY(r.mismatchCols.empty());
    QVERIFY(r.locatedByLargestResidual);
    QCOMPARE(r.corrections.size(), std::size_t(1));
    QCOMPARE(r.corrections[0].col, std::int64_t(9));
    QVERIFY(std::fabs(p.at(4, 9) - clean[std::size_t(4 * 21 + 9)]) < 1e-9 * p.typical());

    // Two equal errors in that row: two columns stand out alike, the cell is not guessed at:
    // uncorrectable here, C untouched (the run's repair pass recomputes row 4).
    p.c = clean;
    p.at(4, 9) += 50 * p.typical();
    p.at(4, 12) += 50 * p.typical();
    std::vector<double> corrupted = p.c;
    r = verifyAndCorrect(p.view(), rowsOnly);
    QCOMPARE(name(r.verdict), name(Verdict::Uncorrectable));
    QCOMPARE(r.mismatchRows, std::vector<std::int64_t>{4});
    QVERIFY(r.mismatchCols.empty());
    QVERIFY(!r.locatedByLargestResidual);
    QVERIFY(p.c == corrupted);

    // In the checksum row: the result is intact, so the checksums are simply rebuilt.
    p.c = clean;
    p.at(30, 9) += 50 * p.typical();
    r = verifyAndCorrect(p.view(), rowsOnly);
    QCOMPARE(name(r.verdict), name(Verdict::Corrected));
    QCOMPARE(r.mismatchRows, std::vector<std::int64_t>{30});
    QVERIFY(r.checksumsRecomputed);
    QCOMPARE(name(verifyAndCorrect(p.view(), p.t).verdict), name(Verdict::Clean));

    // Equal deltas in a checksum-row cell and the corner cancel in the corner's row check: the
    // column checks alone cannot tell the cells apart, so the set is reported, not guessed at.
    p.c = clean;
    p.at(30, 9) += 7.0;
    p.at(30, 20) += 7.0;
    corrupted = p.c;
    r = verifyAndCorrect(p.view(), p.t);
    QCOMPARE(name(r.verdict), name(Verdict::Uncorrectable));
    QVERIFY(r.mismatchRows.empty());
    QCOMPARE(r.mismatchCols, (std::vector<std::int64_t>{9, 20}));
    QVERIFY(p.c == corrupted);
}

void TestAbft::mismatchedThresholdsAreRejected()
{
    AugmentedProduct<float> p(10, 10, 10, Distribution::Uniform);
    Thresholds wrong = p.t;
    wrong.row.pop_back();
    QVERIFY_THROWS_EXCEPTION(InputError, verifyAndCorrect(p.view(), wrong));
    BoundAccumulator acc;
    acc.reset(3, 3);
    std::vector<float> a(4 * 5), b(6 * 4);
    QVERIFY_THROWS_EXCEPTION(InputError, accumulateBound(acc, BlockView<const float>{a.data(), 3, 5, 5},
                                                         BlockView<const float>{b.data(), 6, 3, 4}));
}

void TestAbft::verdictNames()
{
    QCOMPARE(toString(Verdict::Clean), std::string_view("clean"));
    QCOMPARE(toString(Verdict::Corrected), std::string_view("corrected"));
    QCOMPARE(toString(Verdict::Uncorrectable), std::string_view("uncorrectable"));
}

void TestAbft::cleanupTestCase()
{
    for (const auto& [precision, o] : g_observed)
        qInfo("ABFT %-12s: %d clean products, largest clean residual / threshold = %.3g, thresholds %.3g .. %.3g, "
              "largest threshold / mean |C| = %.3g",
              qPrintable(precision), o.products, o.maxRatio, o.minThreshold, o.maxThreshold, o.maxRelativeThreshold);
}

QTEST_GUILESS_MAIN(TestAbft)
#include "tst_abft.moc"
