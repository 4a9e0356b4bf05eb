// Fault planning and injection: names, random positions (reproducible, collinear or scattered,
// checksum targets, one or every product), explicit positions, validation, delta and bit flips.
#include "gigacheck/blocked_gemm/plan_faults.hpp"

#include "engine/test_helpers.hpp"

#include <QtTest>

#include <bit>
#include <cmath>
#include <limits>
#include <set>

using namespace gigacheck;

namespace {

using test::inputErrorOf;
using test::qs;

// A plan built by hand: C is m x q in blocks of blockM x blockQ, n in splitN steps.
Plan handPlan(std::int64_t m, std::int64_t n, std::int64_t q, std::int64_t blockM, std::int64_t blockQ, int splitN,
              Precision p = Precision::F32)
{
    Plan plan;
    plan.shape = {m, n, q};
    plan.precision = p;
    plan.blockM = blockM;
    plan.blockQ = blockQ;
    plan.blockN = (n + splitN - 1) / splitN;
    plan.splitM = int((m + blockM - 1) / blockM);
    plan.splitQ = int((q + blockQ - 1) / blockQ);
    plan.splitN = splitN;
    return plan;
}

std::int64_t rowsOfBlock(const Plan& p, int i) { return std::min(p.blockM, p.shape.m - i * p.blockM); }
std::int64_t colsOfBlock(const Plan& p, int j) { return std::min(p.blockQ, p.shape.q - j * p.blockQ); }

}  // namespace

class TestFaults : public QObject {
    Q_OBJECT

private slots:
    void namesRoundTrip();
    void noFaultsWhenNothingAsked();
    void randomFaultsAreReproducible();
    void oneProductUsesTheLastStep();
    void randomFaultsLieInsideTheirBlock_data();
    void randomFaultsLieInsideTheirBlock();
    void collinearity_data();
    void collinearity();
    void scatteredBeyondLinesUsesDistinctCells();
    void checksumTargets_data();
    void checksumTargets();
    void everyProductIsSortedInScheduleOrder();
    void explicitPositionsMapToBlocks();
    void bitDefaultsToTheExponentMsb();
    void invalidSpecsAreRejected_data();
    void invalidSpecsAreRejected();
    void applyDelta();
    void applyBitFlip();
};

void TestFaults::namesRoundTrip()
{
    for (FaultTarget t : {FaultTarget::Result, FaultTarget::ChecksumRow, FaultTarget::ChecksumCol})
        QVERIFY(faultTargetFromString(toString(t)) == t);
    for (Collinearity c : {Collinearity::Scattered, Collinearity::Row, Collinearity::Col})
        QVERIFY(collinearityFromString(toString(c)) == c);
    for (FaultScope s : {FaultScope::OneProduct, FaultScope::EveryProduct})
        QVERIFY(faultScopeFromString(toString(s)) == s);
    QCOMPARE(qs(toString(Collinearity::Scattered)), QStringLiteral("none"));
    QCOMPARE(qs(toString(FaultScope::EveryProduct)), QStringLiteral("every"));
    QCOMPARE(qs(toString(FaultModel::BitFlip)), QStringLiteral("bitflip"));
    QVERIFY(inputErrorOf([] { collinearityFromString("diagonal"); }).contains(QStringLiteral("none, row, col")));
    QVERIFY(!inputErrorOf([] { faultTargetFromString("checksum"); }).isEmpty());
    QVERIFY(!inputErrorOf([] { faultScopeFromString("all"); }).isEmpty());
}

void TestFaults::noFaultsWhenNothingAsked()
{
    const FaultSpec spec;
    QVERIFY(!spec.any());
    QVERIFY(planFaults(spec, handPlan(100, 100, 100, 50, 50, 2), 1.0).injections.empty());
}

void TestFaults::randomFaultsAreReproducible()
{
    const Plan plan = handPlan(1000, 800, 900, 256, 300, 4);
    FaultSpec spec;
    spec.count = 6;
    spec.seed = 11;
    const FaultPlan a = planFaults(spec, plan, 5.0), b = planFaults(spec, plan, 5.0);
    QCOMPARE(a.injections.size(), std::size_t(6));
    for (std::size_t n = 0; n < a.injections.size(); ++n) {
        QVERIFY(a.injections[n].block == b.injections[n].block);
        QCOMPARE(a.injections[n].localRow, b.injections[n].localRow);
        QCOMPARE(a.injections[n].localCol, b.injections[n].localCol);
        QCOMPARE(a.injections[n].delta, b.injections[n].delta);
    }
    spec.seed = 12;
    const FaultPlan c = planFaults(spec, plan, 5.0);
    bool differs = false;
    for (std::size_t n = 0; n < c.injections.size(); ++n)
        differs |= c.injections[n].globalRow != a.injections[n].globalRow ||
                   c.injections[n].globalCol != a.injections[n].globalCol;
    QVERIFY(differs);
}

void TestFaults::oneProductUsesTheLastStep()
{
    const Plan plan = handPlan(600, 600, 600, 200, 200, 3);
    std::set<std::pair<int, int>> blocksSeen;
    for (std::uint64_t seed = 1; seed <= 40; ++seed) {
        FaultSpec spec;
        spec.count = 3;
        spec.seed = seed;
        const FaultPlan fp = planFaults(spec, plan, 1.0);
        QCOMPARE(fp.injections.size(), std::size_t(3));
        for (const Injection& inj : fp.injections) {
            QVERIFY(inj.block == fp.injections[0].block);  // one block product
            QCOMPARE(inj.block.k, 2);                        // the last k step
        }
        blocksSeen.insert({fp.injections[0].block.i, fp.injections[0].block.j});
        QCOMPARE(fp.forBlock(fp.injections[0].block).size(), std::size_t(3));
    }
    QVERIFY(blocksSeen.size() > 4);  // the seed chooses the block
}

void TestFaults::randomFaultsLieInsideTheirBlock_data()
{
    QTest::addColumn<qint64>("m");
    QTest::addColumn<qint64>("q");
    QTest::addColumn<qint64>("blockM");
    QTest::addColumn<qint64>("blockQ");
    QTest::newRow("one block") << qint64(50) << qint64(40) << qint64(50) << qint64(40);
    QTest::newRow("edge blocks smaller") << qint64(1000) << qint64(700) << qint64(300) << qint64(256);
    QTest::newRow("single row") << qint64(1) << qint64(500) << qint64(1) << qint64(128);
}

void TestFaults::randomFaultsLieInsideTheirBlock()
{
    QFETCH(qint64, m);
    QFETCH(qint64, q);
    QFETCH(qint64, blockM);
    QFETCH(qint64, blockQ);
    const Plan plan = handPlan(m, 64, q, blockM, blockQ, 2);
    for (std::uint64_t seed = 1; seed <= 30; ++seed) {
        FaultSpec spec;
        spec.count = 1;
        spec.scope = FaultScope::EveryProduct;
        spec.seed = seed;
        const FaultPlan fp = planFaults(spec, plan, 2.0);
        QCOMPARE(int(fp.injections.size()), plan.productCount());
        for (const Injection& inj : fp.injections) {
            QVERIFY(inj.localRow >= 0 && inj.localRow < rowsOfBlock(plan, inj.block.i));
            QVERIFY(inj.localCol >= 0 && inj.localCol < colsOfBlock(plan, inj.block.j));
            QCOMPARE(inj.globalRow, inj.block.i * blockM + inj.localRow);
            QCOMPARE(inj.globalCol, inj.block.j * blockQ + inj.localCol);
            QVERIFY(inj.target == FaultTarget::Result);
            QVERIFY(inj.model == FaultModel::Delta);
            // Random deltas: +-U(10, 100) times the typical magnitude.
            QVERIFY(std::fabs(inj.delta) >= 20.0 && std::fabs(inj.delta) <= 200.0);
            QVERIFY(!inj.applied);
        }
    }
}

void TestFaults::collinearity_data()
{
    QTest::addColumn<int>("collinear");
    QTest::addColumn<int>("count");
    for (int count : {2, 5, 64}) {
        QTest::addRow("row/%d", count) << int(Collinearity::Row) << count;
        QTest::addRow("col/%d", count) << int(Collinearity::Col) << count;
        QTest::addRow("scattered/%d", count) << int(Collinearity::Scattered) << count;
    }
}

void TestFaults::collinearity()
{
    QFETCH(int, collinear);
    QFETCH(int, count);
    const Plan plan = handPlan(256, 256, 256, 64, 64, 1);
    for (std::uint64_t seed = 1; seed <= 10; ++seed) {
        FaultSpec spec;
        spec.count = count;
        spec.collinear = Collinearity(collinear);
        spec.seed = seed;
        const FaultPlan fp = planFaults(spec, plan, 1.0);
        QCOMPARE(int(fp.injections.size()), count);
        std::set<std::int64_t> rows, cols;
        std::set<std::pair<std::int64_t, std::int64_t>> cells;
        for (const Injection& inj : fp.injections) {
            rows.insert(inj.localRow);
            cols.insert(inj.localCol);
            cells.insert({inj.localRow, inj.localCol});
        }
        QCOMPARE(int(cells.size()), count);  // distinct elements
        switch (Collinearity(collinear)) {
        case Collinearity::Row:
            QCOMPARE(rows.size(), std::size_t(1));
            break;
        case Collinearity::Col:
            QCOMPARE(cols.size(), std::size_t(1));
            break;
        case Collinearity::Scattered:  // no two faults share a line
            QCOMPARE(int(rows.size()), count);
            QCOMPARE(int(cols.size()), count);
            break;
        }
    }
}

void TestFaults::scatteredBeyondLinesUsesDistinctCells()
{
    // 12 faults in a 4 x 5 block cannot avoid sharing lines, but stay on distinct cells.
    const Plan plan = handPlan(4, 10, 5, 4, 5, 1);
    FaultSpec spec;
    spec.count = 12;
    const FaultPlan fp = planFaults(spec, plan, 1.0);
    std::set<std::pair<std::int64_t, std::int64_t>> cells;
    for (const Injection& inj : fp.injections)
        cells.insert({inj.localRow, inj.localCol});
    QCOMPARE(cells.size(), std::size_t(12));
    spec.count = 20;  // every cell
    QCOMPARE(planFaults(spec, plan, 1.0).injections.size(), std::size_t(20));
}

void TestFaults::checksumTargets_data()
{
    QTest::addColumn<int>("target");
    QTest::newRow("checksum row") << int(FaultTarget::ChecksumRow);
    QTest::newRow("checksum col") << int(FaultTarget::ChecksumCol);
}

void TestFaults::checksumTargets()
{
    QFETCH(int, target);
    // Edge blocks are smaller: block 1 has 36 rows and 20 columns.
    const Plan plan = handPlan(100, 50, 84, 64, 64, 2);
    for (std::uint64_t seed = 1; seed <= 20; ++seed) {
        FaultSpec spec;
        spec.count = 3;
        spec.target = FaultTarget(target);
        spec.scope = FaultScope::EveryProduct;
        spec.seed = seed;
        const FaultPlan fp = planFaults(spec, plan, 1.0);
        QCOMPARE(int(fp.injections.size()), 3 * plan.productCount());
        for (const Injection& inj : fp.injections) {
            QVERIFY(inj.target == FaultTarget(target));
            if (FaultTarget(target) == FaultTarget::ChecksumRow) {
                QCOMPARE(inj.localRow, rowsOfBlock(plan, inj.block.i));
                QCOMPARE(inj.globalRow, std::int64_t(-1));
                QVERIFY(inj.localCol < colsOfBlock(plan, inj.block.j));
                QCOMPARE(inj.globalCol, inj.block.j * 64 + inj.localCol);
            } else {
                QCOMPARE(inj.localCol, colsOfBlock(plan, inj.block.j));
                QCOMPARE(inj.globalCol, std::int64_t(-1));
                QVERIFY(inj.localRow < rowsOfBlock(plan, inj.block.i));
            }
        }
    }
}

void TestFaults::everyProductIsSortedInScheduleOrder()
{
    const Plan plan = handPlan(300, 300, 300, 100, 150, 3);
    FaultSpec spec;
    spec.count = 2;
    spec.scope = FaultScope::EveryProduct;
    spec.at = {{5, 5, std::nullopt, 0}};  // lands in product (0, 0, 0), listed after the random ones
    const FaultPlan fp = planFaults(spec, plan, 1.0);
    QCOMPARE(int(fp.injections.size()), 2 * plan.productCount() + 1);
    for (std::size_t n = 1; n < fp.injections.size(); ++n) {
        const BlockIndex& a = fp.injections[n - 1].block;
        const BlockIndex& b = fp.injections[n].block;
        QVERIFY(std::tie(a.i, a.j, a.k) <= std::tie(b.i, b.j, b.k));
    }
    for (int i = 0; i < plan.splitM; ++i)
        for (int j = 0; j < plan.splitQ; ++j)
            for (int k = 0; k < plan.splitN; ++k)
                QCOMPARE(fp.forBlock({i, j, k}).size(), std::size_t(i == 0 && j == 0 && k == 0 ? 3 : 2));
    QVERIFY(fp.forBlock({7, 0, 0}).empty());
}

void TestFaults::explicitPositionsMapToBlocks()
{
    const Plan plan = handPlan(200, 90, 160, 64, 64, 3);
    FaultSpec spec;
    spec.at = {{150, 70, 2.5, std::nullopt}, {0, 159, std::nullopt, 1}, {199, 0, std::nullopt, std::nullopt}};
    const FaultPlan fp = planFaults(spec, plan, 4.0);
    QCOMPARE(fp.injections.size(), std::size_t(3));
    // Sorted by product: (0, 2, 1), (2, 1, 2), (3, 0, 2).
    const Injection& a = fp.injections[0];
    QVERIFY((a.block == BlockIndex{0, 2, 1}));
    QCOMPARE(a.localRow, std::int64_t(0));
    QCOMPARE(a.localCol, std::int64_t(159 - 128));
    QVERIFY(std::fabs(a.delta) >= 40.0 && std::fabs(a.delta) <= 400.0);  // random delta
    const Injection& b = fp.injections[1];
    QVERIFY((b.block == BlockIndex{2, 1, 2}));  // default step: the last
    QCOMPARE(b.localRow, std::int64_t(150 - 128));
    QCOMPARE(b.localCol, std::int64_t(70 - 64));
    QCOMPARE(b.globalRow, std::int64_t(150));
    QCOMPARE(b.globalCol, std::int64_t(70));
    QCOMPARE(b.delta, 2.5);  // explicit delta kept
    const Injection& c = fp.injections[2];
    QVERIFY((c.block == BlockIndex{3, 0, 2}));
    QCOMPARE(c.localRow, std::int64_t(199 - 192));
}

void TestFaults::bitDefaultsToTheExponentMsb()
{
    FaultSpec spec;
    spec.count = 1;
    spec.model = FaultModel::BitFlip;
    QCOMPARE(planFaults(spec, handPlan(10, 10, 10, 10, 10, 1, Precision::F32), 1.0).injections[0].bit, 30);
    QCOMPARE(planFaults(spec, handPlan(10, 10, 10, 10, 10, 1, Precision::F64), 1.0).injections[0].bit, 62);
    spec.bit = 63;
    QCOMPARE(planFaults(spec, handPlan(10, 10, 10, 10, 10, 1, Precision::F64), 1.0).injections[0].bit, 63);
    QVERIFY(planFaults(spec, handPlan(10, 10, 10, 10, 10, 1, Precision::F64), 1.0).injections[0].model ==
            FaultModel::BitFlip);
    // An explicit delta turns that one fault into a delta fault.
    spec.count = 0;
    spec.at = {{1, 1, 3.0, std::nullopt}};
    const Injection inj = planFaults(spec, handPlan(10, 10, 10, 10, 10, 1, Precision::F64), 1.0).injections[0];
    QVERIFY(inj.model == FaultModel::Delta);
    QCOMPARE(inj.delta, 3.0);
}

void TestFaults::invalidSpecsAreRejected_data()
{
    QTest::addColumn<int>("count");
    QTest::addColumn<int>("collinear");
    QTest::addColumn<int>("target");
    QTest::addColumn<int>("bit");
    QTest::addColumn<qint64>("atRow");  // -2: no explicit position
    QTest::addColumn<qint64>("atCol");
    QTest::addColumn<int>("atStep");  // -1: default
    QTest::addColumn<QString>("message");
    const int R = int(FaultTarget::Result), S = int(Collinearity::Scattered);
    QTest::newRow("row beyond C") << 0 << S << R << -1 << qint64(100) << qint64(3) << -1 << QStringLiteral("(100, 3) is outside C (100 x 80");
    QTest::newRow("negative column") << 0 << S << R << -1 << qint64(3) << qint64(-1) << -1 << QStringLiteral("outside C");
    QTest::newRow("step beyond plan") << 0 << S << R << -1 << qint64(3) << qint64(3) << 4 << QStringLiteral("step 4 does not exist (the plan has 2 k steps)");
    QTest::newRow("bit 32 of f32") << 1 << S << R << 32 << qint64(-2) << qint64(0) << -1 << QStringLiteral("bit 32 is outside an f32 element (bits 0-31)");
    QTest::newRow("bit -5") << 1 << S << R << -5 << qint64(-2) << qint64(0) << -1 << QStringLiteral("bit -5");
    QTest::newRow("row holds fewer") << 50 << int(Collinearity::Row) << R << -1 << qint64(-2) << qint64(0) << -1 << QStringLiteral("50 faults in one row do not fit");
    QTest::newRow("col holds fewer") << 70 << int(Collinearity::Col) << R << -1 << qint64(-2) << qint64(0) << -1 << QStringLiteral("70 faults in one column do not fit");
    QTest::newRow("checksum column holds fewer") << 70 << S << int(FaultTarget::ChecksumCol) << -1 << qint64(-2) << qint64(0) << -1 << QStringLiteral("checksum column do not fit");
    QTest::newRow("block holds fewer") << 2401 << S << R << -1 << qint64(-2) << qint64(0) << -1 << QStringLiteral("room for 2400");
    QTest::newRow("negative count") << -1 << S << R << -1 << qint64(-2) << qint64(0) << -1 << QStringLiteral("must not be negative");
}

void TestFaults::invalidSpecsAreRejected()
{
    QFETCH(int, count);
    QFETCH(int, collinear);
    QFETCH(int, target);
    QFETCH(int, bit);
    QFETCH(qint64, atRow);
    QFETCH(qint64, atCol);
    QFETCH(int, atStep);
    QFETCH(QString, message);
    const Plan plan = handPlan(100, 60, 80, 60, 40, 2);  // blocks 60 x 40 (edge: 40 x 40)
    FaultSpec spec;
    spec.count = count;
    spec.collinear = Collinearity(collinear);
    spec.target = FaultTarget(target);
    spec.scope = FaultScope::EveryProduct;
    if (bit != -1) {
        spec.model = FaultModel::BitFlip;
        spec.bit = bit;
    }
    if (atRow != -2)
        spec.at = {{atRow, atCol, std::nullopt, atStep == -1 ? std::nullopt : std::optional<int>(atStep)}};
    const QString error = inputErrorOf([&] { planFaults(spec, plan, 1.0); });
    QVERIFY2(error.contains(message), qPrintable(error));
}

void TestFaults::applyDelta()
{
    Injection inj;
    inj.delta = 0.25;
    QCOMPARE(applyFault(inj, 1.0, Precision::F64), 1.25);
    inj.delta = 1e-9;  // lost in single precision, kept in double
    QCOMPARE(applyFault(inj, 1.0, Precision::F32), 1.0);
    QCOMPARE(applyFault(inj, 1.0, Precision::F64), 1.0 + 1e-9);
}

void TestFaults::applyBitFlip()
{
    Injection inj;
    inj.model = FaultModel::BitFlip;
    inj.bit = 31;  // sign
    QCOMPARE(applyFault(inj, 3.0, Precision::F32), -3.0);
    inj.bit = 63;
    QCOMPARE(applyFault(inj, 3.0, Precision::F64), -3.0);
    inj.bit = 0;  // one unit in the last place
    QCOMPARE(applyFault(inj, 1.0, Precision::F32), 1.0 + std::ldexp(1.0, -23));
    QCOMPARE(applyFault(inj, 1.0, Precision::F64), 1.0 + std::ldexp(1.0, -52));
    inj.bit = 30;  // exponent MSB of 1.0f: exponent 127 -> 255, infinity
    QVERIFY(std::isinf(applyFault(inj, 1.0, Precision::F32)));
    QCOMPARE(applyFault(inj, 4.0, Precision::F32), 4.0 * std::ldexp(1.0, -128));  // 129 -> 1
    inj.bit = 62;
    QVERIFY(std::isinf(applyFault(inj, 1.0, Precision::F64)));
    inj.bit = 52;  // exponent LSB: 3 = 1.5 * 2^1 (biased exponent 1024) becomes 1.5 * 2^2
    QCOMPARE(applyFault(inj, 3.0, Precision::F64), 6.0);
    QCOMPARE(applyFault(inj, applyFault(inj, 3.0, Precision::F64), Precision::F64), 3.0);  // flip twice
    inj.bit = 32;
    QVERIFY(inputErrorOf([&] { applyFault(inj, 1.0, Precision::F32); }).contains(QStringLiteral("bits 0-31")));
    QCOMPARE(applyFault(inj, 1.0, Precision::F64), std::bit_cast<double>(std::bit_cast<std::uint64_t>(1.0) ^ (1ull << 32)));
}

QTEST_GUILESS_MAIN(TestFaults)
#include "tst_faults.moc"
