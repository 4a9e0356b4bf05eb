// Schedules: every strategy's schedule validates (deps backwards, buffer hazards ordered, each C
// block stored once after its last verification) for many shapes and caps; validateSchedule
// catches broken ones; ops carry the right queues, streams, flops and bytes, issued depth-first.
#include "gigacheck/blocked_gemm/plan.hpp"
#include "gigacheck/schedule.hpp"

#include "engine/test_helpers.hpp"

#include <QtTest>

#include <algorithm>

using namespace gigacheck;

Q_DECLARE_METATYPE(gigacheck::Shape)
Q_DECLARE_METATYPE(gigacheck::StrategyKind)

namespace {

const StrategyKind kAll[] = {StrategyKind::None, StrategyKind::S1, StrategyKind::S2, StrategyKind::S3,
                             StrategyKind::S4};

GemmSchedule scheduleFor(StrategyKind k, Shape s, int edge, bool abft = true, bool inject = true,
                     Precision p = Precision::F32)
{
    const std::uint64_t cap = k == StrategyKind::None ? 1ull << 30 : bytesForBlocks(k, p, abft, edge, edge, edge);
    return buildSchedule(makePlan(s, p, k, cap, abft), inject);
}

int count(const GemmSchedule& s, OpKind kind)
{
    return int(std::count_if(s.ops.begin(), s.ops.end(), [kind](const Operation& o) { return o.kind == kind; }));
}

int firstIndex(const GemmSchedule& s, OpKind kind, BlockIndex b)
{
    for (const Operation& o : s.ops)
        if (o.kind == kind && o.block == b)
            return o.id;
    return -1;
}

}  // namespace

class TestSchedule : public QObject {
    Q_OBJECT
private slots:
    void validates_data();
    void validates();
    void opsPerProduct_data();
    void opsPerProduct();
    void countsFlopsAndBytes_data();
    void countsFlopsAndBytes();
    void issuesDepthFirst();
    void s4UsesTwoComputeStreams();
    void catchesBrokenSchedules();
    void names();
    void refusesPlansTooLargeToSchedule();
};

void TestSchedule::validates_data()
{
    QTest::addColumn<StrategyKind>("strategy");
    QTest::addColumn<Shape>("shape");
    QTest::addColumn<int>("edge");
    QTest::addColumn<bool>("abft");
    QTest::addColumn<bool>("inject");
    const Shape shapes[] = {{1, 1, 1}, {1, 40, 1}, {257, 129, 333}, {300, 7, 1000}, {64, 64, 64}, {33, 65, 17}};
    for (StrategyKind k : kAll)
        for (const Shape& s : shapes)
            for (int edge : {1, 7, 32, 100, 4000})
                for (bool abft : {true, false})
                    for (bool inject : {true, false}) {
                        if (k == StrategyKind::None && edge != 4000)
                            continue;
                        if (edge == 1 && s.m * s.n * s.q > 100000)
                            continue;  // keep the suite quick
                        QTest::addRow("%s/%lldx%lldx%lld/e%d/%s/%s", toString(k).data(), (long long)s.m,
                                      (long long)s.n, (long long)s.q, edge, abft ? "abft" : "plain",
                                      inject ? "inject" : "noinject")
                            << k << s << edge << abft << inject;
                    }
}

void TestSchedule::validates()
{
    QFETCH(StrategyKind, strategy);
    QFETCH(Shape, shape);
    QFETCH(int, edge);
    QFETCH(bool, abft);
    QFETCH(bool, inject);
    const GemmSchedule s = scheduleFor(strategy, shape, edge, abft, inject);
    const std::string problem = validateSchedule(s);
    QVERIFY2(problem.empty(), problem.c_str());
    QCOMPARE(count(s, OpKind::CopyD2H), s.plan.blockCount());
    QCOMPARE(count(s, OpKind::Product), s.plan.productCount());
}

void TestSchedule::opsPerProduct_data()
{
    QTest::addColumn<bool>("abft");
    QTest::addColumn<bool>("inject");
    QTest::newRow("abft+inject") << true << true;
    QTest::newRow("abft") << true << false;
    QTest::newRow("plain+inject") << false << true;
    QTest::newRow("plain") << false << false;
}

void TestSchedule::opsPerProduct()
{
    QFETCH(bool, abft);
    QFETCH(bool, inject);
    for (StrategyKind k : kAll) {
        const GemmSchedule s = scheduleFor(k, {100, 90, 80}, 30, abft, inject);
        const int products = s.plan.productCount();
        QCOMPARE(count(s, OpKind::Verify), abft ? products : 0);
        QCOMPARE(count(s, OpKind::Inject), inject ? products : 0);
        // Two checksums per product, except S4 where one A block serves two products.
        if (!abft)
            QCOMPARE(count(s, OpKind::Checksum), 0);
        else if (k != StrategyKind::S4)
            QCOMPARE(count(s, OpKind::Checksum), 2 * products);
        for (const Operation& op : s.ops) {
            const Queue expected = op.kind == OpKind::CopyH2D   ? Queue::H2D
                                   : op.kind == OpKind::CopyD2H ? Queue::D2H
                                                                : Queue::Compute;
            QVERIFY(op.queue == expected);
        }
    }
}

void TestSchedule::countsFlopsAndBytes_data()
{
    QTest::addColumn<StrategyKind>("strategy");
    for (StrategyKind k : kAll)
        QTest::newRow(toString(k).data()) << k;
}

void TestSchedule::countsFlopsAndBytes()
{
    QFETCH(StrategyKind, strategy);
    const Shape shape{100, 90, 80};
    for (Precision p : {Precision::F32, Precision::F64}) {
        const GemmSchedule s = scheduleFor(strategy, shape, 30, false, false, p);
        const double e = double(elementSize(p));
        double productFlops = 0, h2d = 0, d2h = 0;
        for (const Operation& op : s.ops) {
            if (op.kind == OpKind::Product)
                productFlops += op.flops;
            if (op.kind == OpKind::CopyH2D)
                h2d += op.bytes;
            if (op.kind == OpKind::CopyD2H)
                d2h += op.bytes;
            if (op.kind == OpKind::CopyH2D || op.kind == OpKind::CopyD2H)
                QCOMPARE(op.bytes, double(op.host.rows * op.host.cols) * e);
        }
        QCOMPARE(productFlops, 2.0 * 100 * 90 * 80);  // without ABFT: exactly the useful work
        QCOMPARE(d2h, 100.0 * 80 * e);
        const double aLoads = strategy == StrategyKind::S4 ? (s.plan.splitQ + 1) / 2 : s.plan.splitQ;
        QCOMPARE(h2d, e * (aLoads * 100 * 90 + s.plan.splitM * 90.0 * 80));
    }
    // With ABFT the augmented products do more work.
    const GemmSchedule a = scheduleFor(strategy, shape, 30, true, false);
    double flops = 0;
    for (const Operation& op : a.ops)
        if (op.kind == OpKind::Product)
            flops += op.flops;
    QVERIFY(flops > 2.0 * 100 * 90 * 80);
}

void TestSchedule::issuesDepthFirst()
{
    // S2/S3: the loads of the next product are issued before this product, so H2D overlaps compute.
    for (StrategyKind k : {StrategyKind::S2, StrategyKind::S3}) {
        const GemmSchedule s = scheduleFor(k, {200, 200, 200}, 60);
        QVERIFY(s.plan.productCount() > 2);
        const BlockIndex first{0, 0, 0}, second{0, 0, 1};
        QVERIFY(firstIndex(s, OpKind::CopyH2D, {0, 0, 1}) < firstIndex(s, OpKind::Product, first));
        QVERIFY(firstIndex(s, OpKind::Product, first) < firstIndex(s, OpKind::Product, second));
        // Depth-first: a product's verification is issued before the next product.
        QVERIFY(firstIndex(s, OpKind::Verify, first) < firstIndex(s, OpKind::Product, second));
    }
    // S1: one buffer each, so the next load waits for the product that read the buffer.
    const GemmSchedule s1 = scheduleFor(StrategyKind::S1, {200, 200, 200}, 60);
    const Operation& load = s1.ops[std::size_t(firstIndex(s1, OpKind::CopyH2D, {0, 0, 1}))];
    QVERIFY(std::find(load.deps.begin(), load.deps.end(), firstIndex(s1, OpKind::Product, {0, 0, 0})) != load.deps.end());
}

void TestSchedule::s4UsesTwoComputeStreams()
{
    const GemmSchedule s = scheduleFor(StrategyKind::S4, {200, 200, 200}, 60);
    QVERIFY(s.plan.splitQ >= 2);
    const Operation& left = s.ops[std::size_t(firstIndex(s, OpKind::Product, {0, 0, 0}))];
    const Operation& right = s.ops[std::size_t(firstIndex(s, OpKind::Product, {0, 1, 0}))];
    QVERIFY(left.stream != right.stream);
    QCOMPARE(left.srcA, right.srcA);  // one A block, two B blocks
    QVERIFY(left.srcB != right.srcB);
    QVERIFY(left.dst != right.dst);
    // Neither waits for the other: they may run concurrently.
    QVERIFY(std::find(right.deps.begin(), right.deps.end(), left.id) == right.deps.end());
}

void TestSchedule::catchesBrokenSchedules()
{
    const GemmSchedule good = scheduleFor(StrategyKind::S2, {120, 120, 120}, 40);
    QVERIFY(validateSchedule(good).empty());

    GemmSchedule noDeps = good;  // a product that does not wait for its loads
    for (Operation& op : noDeps.ops)
        if (op.kind == OpKind::Checksum)
            op.deps.clear();
    QVERIFY(QString::fromStdString(validateSchedule(noDeps)).contains(QStringLiteral("races")));

    GemmSchedule forward = good;
    forward.ops[1].deps.push_back(5);
    QVERIFY(!validateSchedule(forward).empty());

    // A C block stored twice (one C block, so the extra store races with nothing).
    GemmSchedule twice = scheduleFor(StrategyKind::S2, {8, 400, 8}, 40);
    QCOMPARE(twice.plan.blockCount(), 1);
    Operation copy = twice.ops.back();
    QVERIFY(copy.kind == OpKind::CopyD2H);
    copy.deps = {copy.id};
    copy.id = int(twice.ops.size());
    twice.ops.push_back(copy);
    QVERIFY2(QString::fromStdString(validateSchedule(twice)).contains(QStringLiteral("second time")),
             validateSchedule(twice).c_str());

    GemmSchedule missing = good;  // a C block never stored
    missing.ops.erase(std::find_if(missing.ops.begin(), missing.ops.end(),
                                   [](const Operation& o) { return o.kind == OpKind::CopyD2H; }));
    for (std::size_t n = 0; n < missing.ops.size(); ++n)
        missing.ops[n].id = int(n);
    QVERIFY(!validateSchedule(missing).empty());

    GemmSchedule early = good;  // stored before its verification finished
    for (Operation& op : early.ops)
        if (op.kind == OpKind::CopyD2H)
            op.deps.clear();
    QVERIFY(!validateSchedule(early).empty());
}

void TestSchedule::names()
{
    QCOMPARE(QString::fromUtf8(toString(Queue::H2D).data()), QStringLiteral("H2D"));
    QCOMPARE(QString::fromUtf8(toString(Queue::Compute).data()), QStringLiteral("compute"));
    QCOMPARE(QString::fromUtf8(toString(OpKind::Verify).data()), QStringLiteral("verify"));
    QCOMPARE(QString::fromUtf8(toString(OpKind::CopyD2H).data()), QStringLiteral("copy-d2h"));
}

void TestSchedule::refusesPlansTooLargeToSchedule()
{
    // A plan can hold far more block products than a run can schedule (10^8 here would take
    // ~10^9 operations and tens of GB before the first copy): refused at once, saying what to do.
    const std::uint64_t cap = bytesForBlocks(StrategyKind::S1, Precision::F32, true, 8, 8, 8);
    const Plan plan = makePlan({20000, 2000, 2000}, Precision::F32, StrategyKind::S1, cap, true);
    QVERIFY(std::int64_t(plan.productCount()) > kMaxScheduleProducts);
    const double cpuStart = gigacheck::test::threadCpuMs();
    try {
        buildSchedule(plan, true);
        QFAIL("expected InputError");
    } catch (const InputError& e) {
        QVERIFY2(QString::fromUtf8(e.what()).contains(QStringLiteral("raise the memory cap")), e.what());
        QVERIFY2(QString::fromUtf8(e.what()).contains(QString::number(plan.productCount())), e.what());
    }
    QVERIFY(gigacheck::test::threadCpuMs() - cpuStart < 1000);
}

QTEST_GUILESS_MAIN(TestSchedule)
#include "tst_schedule.moc"
