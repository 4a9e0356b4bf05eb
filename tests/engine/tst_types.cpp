// Shared vocabulary: stable names, sizes with units, byte formatting, host matrices and the
// reproducible random generator.
#include "gigacheck/abft.hpp"
#include "gigacheck/faults.hpp"
#include "gigacheck/matrix.hpp"
#include "gigacheck/blocked_gemm/record.hpp"
#include "gigacheck/types.hpp"

#include "engine/test_helpers.hpp"

#include <QtTest>

#include <cmath>
#include <cstring>
#include <set>

using namespace gigacheck;

using test::inputErrorOf;
using test::qs;

class TestTypes : public QObject {
    Q_OBJECT

private slots:
    void namesRoundTrip();
    void unknownNamesAreRejected();
    void nameTablesKeepTheStableNames();
    void elementSizes();
    void strategiesAreDescribed();
    void parseSizeAccepts_data();
    void parseSizeAccepts();
    void parseSizeRejects_data();
    void parseSizeRejects();
    void formatBytes_data();
    void formatBytes();
    void hostMatrixAccess();
    void hostMatrixRejectsBadUse();
    void hostMatrixUsesTheGivenAllocator();
    void fillRandomIsReproducible_data();
    void fillRandomIsReproducible();
    void fillRandomDependsOnIndexOnly();
    void fillRandomDistributions_data();
    void fillRandomDistributions();
};

void TestTypes::namesRoundTrip()
{
    // (QVERIFY, not QCOMPARE: QTest would pick gigacheck::toString, which returns a string_view.)
    for (Precision p : {Precision::F32, Precision::F64})
        QVERIFY(precisionFromString(toString(p)) == p);
    for (Distribution d : {Distribution::Uniform, Distribution::Normal, Distribution::Wide})
        QVERIFY(distributionFromString(toString(d)) == d);
    for (StrategyKind s : {StrategyKind::None, StrategyKind::S1, StrategyKind::S2, StrategyKind::S3, StrategyKind::S4})
        QVERIFY(strategyFromString(toString(s)) == s);
    for (BackendKind b : {BackendKind::Auto, BackendKind::Cpu, BackendKind::Cuda})
        QVERIFY(backendFromString(toString(b)) == b);
    for (GemmVariant g : {GemmVariant::Naive, GemmVariant::Tiled, GemmVariant::Optimized, GemmVariant::Cublas,
                          GemmVariant::CublasTf32})
        QVERIFY(gemmFromString(toString(g)) == g);
    // The exact spellings the CLI and the JSON record use.
    QCOMPARE(qs(toString(Precision::F32)), QStringLiteral("f32"));
    QCOMPARE(qs(toString(Distribution::Wide)), QStringLiteral("wide"));
    QCOMPARE(qs(toString(StrategyKind::S3)), QStringLiteral("s3"));
    QCOMPARE(qs(toString(BackendKind::Cuda)), QStringLiteral("cuda"));
    QCOMPARE(qs(toString(GemmVariant::CublasTf32)), QStringLiteral("cublas-tf32"));
    QVERIFY(strategyFromString("S4") == StrategyKind::S4);  // case does not matter
}

void TestTypes::unknownNamesAreRejected()
{
    const QString message = inputErrorOf([] { precisionFromString("f16"); });
    QVERIFY(message.contains(QStringLiteral("f16")));
    QVERIFY(message.contains(QStringLiteral("f32, f64")));
    QVERIFY(!inputErrorOf([] { distributionFromString("gauss"); }).isEmpty());
    QVERIFY(!inputErrorOf([] { strategyFromString("s5"); }).isEmpty());
    QVERIFY(!inputErrorOf([] { backendFromString(""); }).isEmpty());
    QVERIFY(!inputErrorOf([] { gemmFromString("cublas_tf32"); }).isEmpty());
}

namespace {
// Every value once, every name once, and each name reads back as its value.
template <class E> QString tableProblems()
{
    std::set<int> values;
    std::set<std::string_view> names;
    for (const EnumName<E>& row : enumTable<E>().rows) {
        if (!values.insert(int(row.value)).second || !names.insert(row.name).second)
            return QStringLiteral("duplicate row '%1'").arg(qs(row.name));
        if (valueOfName<E>(row.name) != row.value || nameOf(row.value) != row.name)
            return QStringLiteral("'%1' does not round-trip").arg(qs(row.name));
    }
    return {};
}
}  // namespace

// Records and scripts rely on these exact names: a table may grow, never rename.
void TestTypes::nameTablesKeepTheStableNames()
{
    QCOMPARE(qs(joinedNames<Precision>("|")), QStringLiteral("f32|f64"));
    QCOMPARE(qs(joinedNames<Distribution>("|")), QStringLiteral("uniform|normal|wide"));
    QCOMPARE(qs(joinedNames<StrategyKind>("|")), QStringLiteral("none|s1|s2|s3|s4"));
    QCOMPARE(qs(joinedNames<BackendKind>("|")), QStringLiteral("auto|cpu|cuda"));
    QCOMPARE(qs(joinedNames<GemmVariant>("|")), QStringLiteral("naive|tiled|optimized|cublas|cublas-tf32|cutlass-tf32|cublas-bf16|cublas-f16|tf32x3"));
    QCOMPARE(qs(joinedNames<FaultModel>("|")), QStringLiteral("delta|bitflip"));
    QCOMPARE(qs(joinedNames<FaultTarget>("|")),
             QStringLiteral("result|checksum-row|checksum-col|check|correction|encoding-a|encoding-b"));
    QCOMPARE(qs(joinedNames<Collinearity>("|")), QStringLiteral("none|row|col"));
    QCOMPARE(qs(joinedNames<FaultScope>("|")), QStringLiteral("one|every"));
    QCOMPARE(qs(joinedNames<ReferenceMode>("|")), QStringLiteral("auto|full|sample|none"));
    QCOMPARE(qs(joinedNames<Verdict>("|")), QStringLiteral("clean|corrected|uncorrectable"));
    for (const QString& problem :
         {tableProblems<Precision>(), tableProblems<Distribution>(), tableProblems<StrategyKind>(),
          tableProblems<BackendKind>(), tableProblems<GemmVariant>(), tableProblems<FaultModel>(),
          tableProblems<FaultTarget>(), tableProblems<Collinearity>(), tableProblems<FaultScope>(),
          tableProblems<ReferenceMode>(), tableProblems<Verdict>()})
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
    // Aliases are read, never written; labels are what the GUI lists.
    QVERIFY(collinearityFromString("Column") == Collinearity::Col);
    QVERIFY(collinearityFromString("scattered") == Collinearity::Scattered);
    QCOMPARE(qs(labelOf(Collinearity::Row)), QStringLiteral("one row"));
    QCOMPARE(qs(labelOf(GemmVariant::CublasTf32)), QStringLiteral("cublas-tf32"));
    QCOMPARE(qs(enumTable<StrategyKind>().rows[2].description), qs(describe(StrategyKind::S2)));
    QCOMPARE(inputErrorOf([] { gemmFromString("cublas_tf32"); }),
             QStringLiteral("unknown GEMM variant 'cublas_tf32' (expected one of: naive, tiled, optimized, cublas, "
                            "cublas-tf32, cutlass-tf32, cublas-bf16, cublas-f16, tf32x3)"));
    QVERIFY(gemmFromString("cublas-bf16") == GemmVariant::CublasBf16);
    QVERIFY(gemmFromString("cublas-f16") == GemmVariant::CublasF16);
}

void TestTypes::elementSizes()
{
    QCOMPARE(elementSize(Precision::F32), std::size_t(4));
    QCOMPARE(elementSize(Precision::F64), std::size_t(8));
}

void TestTypes::strategiesAreDescribed()
{
    std::set<std::string_view> seen;
    for (StrategyKind s : {StrategyKind::None, StrategyKind::S1, StrategyKind::S2, StrategyKind::S3, StrategyKind::S4}) {
        QVERIFY(describe(s).size() > 20);
        seen.insert(describe(s));
    }
    QCOMPARE(seen.size(), std::size_t(5));
    QVERIFY(qs(describe(StrategyKind::S2)).contains(QStringLiteral("A'")));
}

void TestTypes::parseSizeAccepts_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<quint64>("bytes");
    QTest::newRow("plain bytes") << QStringLiteral("123") << quint64(123);
    QTest::newRow("B") << QStringLiteral("4096B") << quint64(4096);
    QTest::newRow("KB is 1000") << QStringLiteral("1KB") << quint64(1000);
    QTest::newRow("10MB") << QStringLiteral("10MB") << quint64(10'000'000);
    QTest::newRow("GB") << QStringLiteral("2GB") << quint64(2'000'000'000);
    QTest::newRow("KiB is 1024") << QStringLiteral("1KiB") << quint64(1024);
    QTest::newRow("256MiB") << QStringLiteral("256MiB") << quint64(256) * 1024 * 1024;
    QTest::newRow("4GiB") << QStringLiteral("4GiB") << quint64(4) * 1024 * 1024 * 1024;
    QTest::newRow("decimal GiB") << QStringLiteral("1.5GiB") << quint64(1536) * 1024 * 1024;
    QTest::newRow("decimal MB") << QStringLiteral("0.5MB") << quint64(500'000);
    QTest::newRow("lower case") << QStringLiteral("64mib") << quint64(64) * 1024 * 1024;
    QTest::newRow("upper case") << QStringLiteral("64MIB") << quint64(64) * 1024 * 1024;
    QTest::newRow("spaces") << QStringLiteral(" 64 KB ") << quint64(64'000);
    QTest::newRow("TiB") << QStringLiteral("1TiB") << (quint64(1) << 40);
}

void TestTypes::parseSizeAccepts()
{
    QFETCH(QString, text);
    QFETCH(quint64, bytes);
    QCOMPARE(quint64(parseSize(text.toStdString())), bytes);
}

void TestTypes::parseSizeRejects_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("reason");
    QTest::newRow("empty") << QString() << QStringLiteral("no number");
    QTest::newRow("words") << QStringLiteral("lots") << QStringLiteral("no number");
    QTest::newRow("unit only") << QStringLiteral("MB") << QStringLiteral("no number");
    QTest::newRow("negative") << QStringLiteral("-5MB") << QStringLiteral("negative");
    QTest::newRow("zero") << QStringLiteral("0") << QStringLiteral("at least one byte");
    QTest::newRow("zero MiB") << QStringLiteral("0MiB") << QStringLiteral("at least one byte");
    QTest::newRow("unknown unit") << QStringLiteral("10XB") << QStringLiteral("unknown unit");
    QTest::newRow("two points") << QStringLiteral("1.2.3MB") << QStringLiteral("unknown unit");
    QTest::newRow("exponent") << QStringLiteral("1e9") << QStringLiteral("unknown unit");
    QTest::newRow("trailing junk") << QStringLiteral("10MB!") << QStringLiteral("unknown unit");
    QTest::newRow("overflow") << QStringLiteral("99999999999999999999GiB") << QStringLiteral("too large");
}

void TestTypes::parseSizeRejects()
{
    QFETCH(QString, text);
    QFETCH(QString, reason);
    const std::string input = text.toStdString();
    const QString message = inputErrorOf([&] { parseSize(input); });
    QVERIFY2(message.contains(reason), qPrintable(message));
}

void TestTypes::formatBytes_data()
{
    QTest::addColumn<double>("bytes");
    QTest::addColumn<QString>("text");
    QTest::newRow("bytes") << 512.0 << QStringLiteral("512 B");
    QTest::newRow("KB") << 1500.0 << QStringLiteral("1.50 KB");
    QTest::newRow("MB") << 320.43e6 << QStringLiteral("320.43 MB");
    QTest::newRow("GB") << 4294967296.0 << QStringLiteral("4.29 GB");
    QTest::newRow("TB") << 2.5e12 << QStringLiteral("2.50 TB");
    QTest::newRow("zero") << 0.0 << QStringLiteral("0 B");
}

void TestTypes::formatBytes()
{
    QFETCH(double, bytes);
    QFETCH(QString, text);
    QCOMPARE(QString::fromStdString(gigacheck::formatBytes(bytes)), text);
}

void TestTypes::hostMatrixAccess()
{
    HostMatrix m(Precision::F64, 3, 4);
    QCOMPARE(m.bytes(), std::size_t(3 * 4 * 8));
    QVERIFY(!m.empty());
    QCOMPARE(m.at(2, 3), 0.0);  // zero-initialised
    m.set(1, 2, 2.5);
    QCOMPARE(m.at(1, 2), 2.5);
    QCOMPARE(m.as<double>()[1 * 4 + 2], 2.5);  // row-major
    m.fill(-1);
    QCOMPARE(m.at(0, 0), -1.0);

    HostMatrix f(Precision::F32, 2, 2);
    f.set(0, 1, 0.1);
    QCOMPARE(f.at(0, 1), double(0.1f));  // stored in single precision
    QCOMPARE(f.bytes(), std::size_t(16));

    HostMatrix copy = f;  // shallow: shared storage
    copy.set(1, 1, 7);
    QCOMPARE(f.at(1, 1), 7.0);
    QVERIFY(HostMatrix(Precision::F32, 0, 5).empty());
}

void TestTypes::hostMatrixRejectsBadUse()
{
    HostMatrix m(Precision::F32, 2, 3);
    QVERIFY(inputErrorOf([&] { m.at(2, 0); }).contains(QStringLiteral("outside")));
    QVERIFY(!inputErrorOf([&] { m.set(0, -1, 1); }).isEmpty());
    QVERIFY(inputErrorOf([] { HostMatrix(Precision::F32, -1, 3); }).contains(QStringLiteral("negative")));
    QVERIFY(!inputErrorOf([] { HostMatrix(Precision::F64, std::int64_t(1) << 40, std::int64_t(1) << 40); })
                 .isEmpty());
}

void TestTypes::hostMatrixUsesTheGivenAllocator()
{
    int allocations = 0, releases = 0;
    const HostAllocator counting{[&](std::size_t bytes) {
                                     ++allocations;
                                     return std::malloc(bytes);
                                 },
                                 [&](void* p) {
                                     ++releases;
                                     std::free(p);
                                 }};
    {
        HostMatrix m(Precision::F32, 10, 10, counting);
        QCOMPARE(allocations, 1);
    }
    QCOMPARE(releases, 1);
    const HostAllocator failing{[](std::size_t) -> void* { return nullptr; }, [](void*) {}};
    QVERIFY_THROWS_EXCEPTION(BackendError, HostMatrix(Precision::F32, 10, 10, failing));
}

void TestTypes::fillRandomIsReproducible_data()
{
    QTest::addColumn<int>("distribution");
    for (Distribution d : {Distribution::Uniform, Distribution::Normal, Distribution::Wide})
        QTest::newRow(toString(d).data()) << int(d);
}

void TestTypes::fillRandomIsReproducible()
{
    QFETCH(int, distribution);
    const auto d = Distribution(distribution);
    HostMatrix a(Precision::F64, 37, 53), b(Precision::F64, 37, 53), other(Precision::F64, 37, 53);
    fillRandom(a, d, 42, 0);
    fillRandom(b, d, 42, 0);
    QVERIFY(std::memcmp(a.data(), b.data(), a.bytes()) == 0);
    fillRandom(other, d, 42, 1);  // another stream (B instead of A)
    QVERIFY(std::memcmp(a.data(), other.data(), a.bytes()) != 0);
    fillRandom(other, d, 43, 0);  // another seed
    QVERIFY(std::memcmp(a.data(), other.data(), a.bytes()) != 0);
    // FP32 holds the same numbers rounded to single precision.
    HostMatrix f(Precision::F32, 37, 53);
    fillRandom(f, d, 42, 0);
    for (std::int64_t i = 0; i < 37; ++i)
        for (std::int64_t j = 0; j < 53; ++j)
            QCOMPARE(f.at(i, j), double(float(a.at(i, j))));
}

void TestTypes::fillRandomDependsOnIndexOnly()
{
    // Element e is a function of (seed, stream, e): a large matrix (filled by several threads)
    // starts with the same values as a small one, whatever the shapes.
    HostMatrix large(Precision::F32, 2048, 1024), small(Precision::F32, 1, 3000);
    fillRandom(large, Distribution::Normal, 9, 3);
    fillRandom(small, Distribution::Normal, 9, 3);
    QVERIFY(std::memcmp(large.data(), small.data(), small.bytes()) == 0);
    HostMatrix again(Precision::F32, 2048, 1024);
    fillRandom(again, Distribution::Normal, 9, 3);
    QVERIFY(std::memcmp(large.data(), again.data(), large.bytes()) == 0);
    // An odd count splits into thread chunks that start at odd indices (normals come in pairs).
    HostMatrix odd(Precision::F32, 1, (1 << 21) + 1);
    fillRandom(odd, Distribution::Normal, 9, 3);
    QVERIFY(std::memcmp(large.data(), odd.data(), large.bytes()) == 0);
}

void TestTypes::fillRandomDistributions_data() { fillRandomIsReproducible_data(); }

void TestTypes::fillRandomDistributions()
{
    QFETCH(int, distribution);
    const auto d = Distribution(distribution);
    HostMatrix m(Precision::F64, 400, 500);
    fillRandom(m, d, 5, 0);
    const double* v = m.as<double>();
    const std::size_t count = 400 * 500;
    double sum = 0, sum2 = 0, logSum = 0, minAbs = INFINITY, maxAbs = 0;
    std::size_t negative = 0;
    for (std::size_t i = 0; i < count; ++i) {
        QVERIFY(std::isfinite(v[i]));
        sum += v[i];
        sum2 += v[i] * v[i];
        logSum += std::log10(std::fabs(v[i]));
        minAbs = std::min(minAbs, std::fabs(v[i]));
        maxAbs = std::max(maxAbs, std::fabs(v[i]));
        negative += v[i] < 0;
    }
    const double mean = sum / double(count), variance = sum2 / double(count) - mean * mean;
    QVERIFY(std::fabs(double(negative) / double(count) - 0.5) < 0.01);  // symmetric
    switch (d) {
    case Distribution::Uniform:
        QVERIFY(maxAbs < 1.0);
        QVERIFY(maxAbs > 0.999);
        QVERIFY(std::fabs(mean) < 0.01);
        QVERIFY(std::fabs(variance - 1.0 / 3.0) < 0.01);
        break;
    case Distribution::Normal:
        QVERIFY(std::fabs(mean) < 0.01);
        QVERIFY(std::fabs(variance - 1.0) < 0.02);
        QVERIFY(maxAbs > 3.5 && maxAbs < 7);  // tails exist, nothing absurd
        break;
    case Distribution::Wide:
        QVERIFY(minAbs >= 1e-3 && minAbs < 1.1e-3);
        QVERIFY(maxAbs <= 1e3 && maxAbs > 0.9e3);
        QVERIFY(std::fabs(logSum / double(count)) < 0.02);  // log10 |x| uniform on (-3, 3)
        break;
    }
}

QTEST_GUILESS_MAIN(TestTypes)
#include "tst_types.moc"
