// makePlan: every strategy's buffers fit the cap and cover the shape, the search takes the
// fewest block products, the GEMM's workspace is charged to the cap beside the blocks, and
// impossible requests are refused with what was needed and allowed.
#include "gigacheck/blocked_gemm/plan.hpp"

#include "engine/test_helpers.hpp"

#include <QtTest>

#include <cmath>
#include <limits>
#include <set>

using namespace gigacheck;

Q_DECLARE_METATYPE(gigacheck::Shape)
Q_DECLARE_METATYPE(gigacheck::StrategyKind)
Q_DECLARE_METATYPE(gigacheck::Precision)
Q_DECLARE_METATYPE(gigacheck::GemmVariant)

namespace {

const StrategyKind kAll[] = {StrategyKind::None, StrategyKind::S1, StrategyKind::S2, StrategyKind::S3,
                             StrategyKind::S4};
const StrategyKind kBlocking[] = {StrategyKind::S1, StrategyKind::S2, StrategyKind::S3, StrategyKind::S4};

// Extents of a 1-D cut must tile [0, total) exactly with no empty block.
void checkCut(std::int64_t total, int splits, std::int64_t block, auto extentOf, auto offsetOf)
{
    std::int64_t covered = 0;
    for (int b = 0; b < splits; ++b) {
        QCOMPARE(offsetOf(b), covered);
        QVERIFY(extentOf(b) > 0);
        QVERIFY(extentOf(b) <= block);
        covered += extentOf(b);
    }
    QCOMPARE(covered, total);
}

}  // namespace

class TestPlan : public QObject {
    Q_OBJECT
private slots:
    void fitsCapAndCoversShape_data();
    void fitsCapAndCoversShape();
    void fewestProducts_data();
    void fewestProducts();
    void buffersPerStrategy_data();
    void buffersPerStrategy();
    void bLeavesRoomForRowNorms();
    void gemmWorkspaceChargedToCap_data();
    void gemmWorkspaceChargedToCap();
    void gemmWorkspacePerDevice();
    void refusalSaysWhatTheWorkspaceTakes();
    void roomyCapGivesOneBlock();
    void refusesTooSmallCap_data();
    void refusesTooSmallCap();
    void refusesZeroShape();
    void hugeShapesNeverWrapAroundTheCap();
    void refusesMoreProductsThanAPlanHolds();
};

void TestPlan::fitsCapAndCoversShape_data()
{
    QTest::addColumn<Shape>("shape");
    QTest::addColumn<StrategyKind>("strategy");
    QTest::addColumn<Precision>("precision");
    QTest::addColumn<bool>("abft");
    QTest::addColumn<qulonglong>("cap");
    const Shape shapes[] = {{1, 1, 1}, {1, 1000, 1}, {257, 129, 333}, {300, 7, 1000}, {20000, 2000, 2000},
                            {4096, 4096, 4096}, {5, 100000, 3}};
    const qulonglong caps[] = {16 << 10, 200 << 10, 10'000'000, 1ull << 30};
    for (StrategyKind k : kBlocking)
        for (const Shape& s : shapes)
            for (qulonglong cap : caps)
                for (Precision p : {Precision::F32, Precision::F64})
                    for (bool abft : {true, false})
                        QTest::addRow("%s/%lldx%lldx%lld/%llu/%s/%s", toString(k).data(), (long long)s.m,
                                      (long long)s.n, (long long)s.q, cap, toString(p).data(),
                                      abft ? "abft" : "plain")
                            << s << k << p << abft << cap;
}

void TestPlan::fitsCapAndCoversShape()
{
    QFETCH(Shape, shape);
    QFETCH(StrategyKind, strategy);
    QFETCH(Precision, precision);
    QFETCH(bool, abft);
    QFETCH(qulonglong, cap);
    const Plan p = makePlan(shape, precision, strategy, cap, abft);
    QVERIFY(p.bytesNeeded <= cap);
    QCOMPARE(p.capBytes, std::uint64_t(cap));
    std::size_t sum = 0;
    for (const BufferSpec& b : p.buffers) {
        sum += b.bytes;
        QVERIFY(b.ld >= b.cols);
        QCOMPARE(b.ld % 32, std::int64_t(0));
    }
    QCOMPARE(p.bytesNeeded, sum);
    QCOMPARE(bytesForBlocks(strategy, precision, abft, p.blockM, p.blockN, p.blockQ), sum);
    checkCut(shape.m, p.splitM, p.blockM, [&](int i) { return p.rowsOf(i); }, [&](int i) { return p.rowOffset(i); });
    checkCut(shape.n, p.splitN, p.blockN, [&](int k) { return p.depthOf(k); }, [&](int k) { return p.depthOffset(k); });
    checkCut(shape.q, p.splitQ, p.blockQ, [&](int j) { return p.colsOf(j); }, [&](int j) { return p.colOffset(j); });
    QCOMPARE(p.productCount(), p.splitM * p.splitN * p.splitQ);
    QVERIFY(!p.explanation.empty());
}

void TestPlan::fewestProducts_data()
{
    QTest::addColumn<Shape>("shape");
    QTest::addColumn<StrategyKind>("strategy");
    QTest::addColumn<qulonglong>("cap");
    for (StrategyKind k : kBlocking)
        for (qulonglong cap : {6'000ull, 20'000ull, 90'000ull})
            QTest::addRow("%s/%llu", toString(k).data(), cap) << Shape{37, 23, 41} << k << cap;
}

void TestPlan::fewestProducts()
{
    // Brute force over every split triple: nothing that fits has fewer products than the plan.
    QFETCH(Shape, shape);
    QFETCH(StrategyKind, strategy);
    QFETCH(qulonglong, cap);
    const Plan p = makePlan(shape, Precision::F32, strategy, cap, true);
    auto block = [](std::int64_t total, int splits) { return (total + splits - 1) / splits; };
    int best = INT_MAX;
    for (int sm = 1; sm <= shape.m; ++sm)
        for (int sn = 1; sn <= shape.n; ++sn)
            for (int sq = 1; sq <= shape.q; ++sq)
                if (bytesForBlocks(strategy, Precision::F32, true, block(shape.m, sm), block(shape.n, sn),
                                   block(shape.q, sq)) <= cap)
                    best = std::min(best, sm * sn * sq);
    QCOMPARE(p.productCount(), best);
}

void TestPlan::buffersPerStrategy_data()
{
    QTest::addColumn<StrategyKind>("strategy");
    QTest::addColumn<bool>("abft");
    QTest::addColumn<QStringList>("names");
    QTest::newRow("none") << StrategyKind::None << true << QStringList{"A", "B", "C", "auxC"};
    QTest::newRow("s1") << StrategyKind::S1 << true << QStringList{"A", "B", "C", "auxC"};
    QTest::newRow("s2") << StrategyKind::S2 << true << QStringList{"A", "A'", "B", "B'", "C", "auxC"};
    QTest::newRow("s3") << StrategyKind::S3 << true << QStringList{"A", "A'", "B", "B'", "C", "C'", "auxC", "auxC'"};
    QTest::newRow("s4") << StrategyKind::S4 << true << QStringList{"A", "B", "B'", "C", "C'", "auxC", "auxC'"};
    QTest::newRow("s3 plain") << StrategyKind::S3 << false << QStringList{"A", "A'", "B", "B'", "C", "C'"};
}

void TestPlan::buffersPerStrategy()
{
    QFETCH(StrategyKind, strategy);
    QFETCH(bool, abft);
    QFETCH(QStringList, names);
    const Plan p = makePlan({100, 60, 80}, Precision::F64, strategy, 100 << 20, abft);
    QStringList got;
    for (const BufferSpec& b : p.buffers)
        got << QString::fromStdString(b.name);
    QCOMPARE(got, names);
    const std::int64_t extra = abft ? 1 : 0;
    for (const BufferSpec& b : p.buffers) {
        switch (b.role) {
        case BufferRole::A:
            QCOMPARE(b.rows, p.blockM + extra);
            QCOMPARE(b.cols, p.blockN);
            break;
        case BufferRole::B:
            QCOMPARE(b.rows, p.blockN);
            QCOMPARE(b.cols, p.blockQ + extra);
            QVERIFY(b.ld >= b.cols + extra);  // with ABFT: room for the row norms kept with B
            break;
        case BufferRole::C:
            QCOMPARE(b.rows, p.blockM + extra);
            QCOMPARE(b.cols, p.blockQ + extra);
            break;
        case BufferRole::Aux: QVERIFY(abft); break;
        }
        QCOMPARE(b.bytes, std::size_t(b.rows * b.ld) * (b.role == BufferRole::Aux ? sizeof(double) : 8));
    }
}

void TestPlan::bLeavesRoomForRowNorms()
{
    // 95 + 1 columns fill three rows of 32 exactly: the norms' column takes a fourth, charged to the cap.
    const Plan p = makePlan({31, 17, 95}, Precision::F32, StrategyKind::S1, 1ull << 30, true);
    const BufferSpec& b = p.buffers[1];
    QCOMPARE(int(b.role), int(BufferRole::B));
    QCOMPARE(b.cols, std::int64_t(96));
    QCOMPARE(b.ld, std::int64_t(128));
    QCOMPARE(b.bytes, std::size_t(17 * 128 * 4));
    QCOMPARE(makePlan({31, 17, 95}, Precision::F32, StrategyKind::S1, 1ull << 30, false).buffers[1].ld,
             std::int64_t(96));  // without ABFT nothing is added
}

void TestPlan::gemmWorkspaceChargedToCap_data()
{
    QTest::addColumn<GemmVariant>("gemm");
    QTest::addColumn<StrategyKind>("strategy");
    QTest::addColumn<int>("copyBytes");  // per element of the A and B blocks the GEMM copies
    QTest::addColumn<bool>("partials");  // partial sums of C's rows (kernels writing C's sums)
    QTest::newRow("bf16 s1") << GemmVariant::CublasBf16 << StrategyKind::S1 << 2 << true;
    QTest::newRow("f16 s3") << GemmVariant::CublasF16 << StrategyKind::S3 << 2 << true;
    QTest::newRow("tf32x3 s2") << GemmVariant::Tf32x3 << StrategyKind::S2 << 8 << false;
    QTest::newRow("tf32x3 s4") << GemmVariant::Tf32x3 << StrategyKind::S4 << 8 << false;
    QTest::newRow("tf32x3 none") << GemmVariant::Tf32x3 << StrategyKind::None << 8 << false;
    QTest::newRow("cutlass-tf32 s3") << GemmVariant::CutlassTf32 << StrategyKind::S3 << 0 << true;
    QTest::newRow("cublas-tf32 s3") << GemmVariant::CublasTf32 << StrategyKind::S3 << 0 << false;
    QTest::newRow("cublas s4") << GemmVariant::Cublas << StrategyKind::S4 << 0 << false;
}

void TestPlan::gemmWorkspaceChargedToCap()
{
    QFETCH(GemmVariant, gemm);
    QFETCH(StrategyKind, strategy);
    QFETCH(int, copyBytes);
    QFETCH(bool, partials);
    const Shape shape{1000, 900, 800};
    const std::uint64_t cap = strategy == StrategyKind::None ? 64ull << 20 : 6ull << 20;
    const Plan p = makePlan(shape, Precision::F32, strategy, cap, true, gemm);
    QVERIFY(p.bytesNeeded <= cap);
    std::size_t sum = 0;
    std::vector<const BufferSpec*> workspaces;
    for (const BufferSpec& b : p.buffers) {
        sum += b.bytes;
        if (b.role == BufferRole::Workspace)
            workspaces.push_back(&b);
    }
    QCOMPARE(p.bytesNeeded, sum);
    QCOMPARE(bytesForBlocks(strategy, Precision::F32, true, p.blockM, p.blockN, p.blockQ, gemm), sum);
    const Plan plain = makePlan(shape, Precision::F32, strategy, cap, true, GemmVariant::Cublas);
    if (copyBytes == 0 && !partials) {  // the GEMM reads the blocks in place: nothing beside them
        QVERIFY(workspaces.empty());
        QCOMPARE(p.bytesNeeded, plain.bytesNeeded);
        return;
    }
    // One per stream of products (two products on two streams may overlap), after the other buffers.
    const std::size_t streams = strategy == StrategyKind::None || strategy == StrategyKind::S1 ? 1 : 2;
    QCOMPARE(workspaces.size(), streams);
    QCOMPARE(workspaces.front(), &p.buffers[p.buffers.size() - streams]);
    // What the GEMM layer takes for the largest block: its copies of the augmented A and B blocks and
    // a float per row of C per 128 of its columns (rows rounded up to 256), 256-byte aligned.
    const double m = double(p.blockM + 1), n = double(p.blockN), q = double(p.blockQ + 1);
    const double copies = copyBytes * (m * n + n * q);
    const double sums = partials ? 4.0 * std::ceil(q / 128) * m : 0.0;
    const double sumsAtMost = partials ? 4.0 * std::ceil(q / 128) * (m + 255) : 0.0;
    for (const BufferSpec* w : workspaces) {
        QVERIFY2(double(w->bytes) >= copies + sums, qPrintable(QString::number(w->bytes)));
        QVERIFY(double(w->bytes) <= copies + sumsAtMost + 3 * 256);
        QCOMPARE(w->bytes % 256, std::size_t(0));
    }
    // The blocks get what the workspaces leave of the cap.
    QVERIFY(p.productCount() >= plain.productCount());
    QVERIFY(p.blockM * p.blockN * p.blockQ <= plain.blockM * plain.blockN * plain.blockQ);
    QVERIFY(bytesForBlocks(strategy, Precision::F32, true, plain.blockM, plain.blockN, plain.blockQ, gemm) >
            plain.bytesNeeded);
    QVERIFY2(p.explanation.find("workspace") != std::string::npos, p.explanation.c_str());
}

void TestPlan::gemmWorkspacePerDevice()
{
    // Each device's cap holds its own buffers, workspaces included (a strip per device here).
    const std::uint64_t cap = 8ull << 20;
    const Plan p = makePlan({1200, 600, 700}, Precision::F32, StrategyKind::S2, cap, true, 2, GemmVariant::CublasBf16);
    QVERIFY(p.bytesNeeded <= cap);
    int workspaces = 0;
    for (const BufferSpec& b : p.buffers)
        workspaces += b.role == BufferRole::Workspace ? 1 : 0;
    QCOMPARE(workspaces, 2);
    const GemmSchedule s = buildSchedule(p, true, 2);
    std::vector<int> perDevice(2, 0);
    for (const BufferSpec& b : s.buffers)
        if (b.role == BufferRole::Workspace)
            ++perDevice[std::size_t(b.device)];
    QCOMPARE(perDevice, (std::vector<int>{2, 2}));
    QCOMPARE(validateSchedule(s), std::string());
}

void TestPlan::refusalSaysWhatTheWorkspaceTakes()
{
    // A cap that holds the smallest blocks but not the tf32x3 copies beside them: refused, saying so.
    const std::uint64_t cap = bytesForBlocks(StrategyKind::S2, Precision::F32, true, 1, 1, 1);
    QVERIFY(bytesForBlocks(StrategyKind::S2, Precision::F32, true, 1, 1, 1, GemmVariant::Tf32x3) > cap);
    (void)makePlan({40, 30, 20}, Precision::F32, StrategyKind::S2, cap, true);  // fits without them
    for (const auto& [strategy, capBytes] : {std::pair{StrategyKind::S2, cap}, std::pair{StrategyKind::None, cap}}) {
        try {
            (void)makePlan({40, 30, 20}, Precision::F32, strategy, capBytes, true, GemmVariant::Tf32x3);
            QFAIL("a cap without room for the GEMM's workspace was accepted");
        } catch (const InputError& e) {
            QVERIFY2(std::string(e.what()).find("tf32x3 GEMM's workspace") != std::string::npos, e.what());
        }
    }
}

void TestPlan::roomyCapGivesOneBlock()
{
    for (StrategyKind k : kAll) {
        const Plan p = makePlan({257, 129, 333}, Precision::F32, k, 1ull << 30, true);
        QCOMPARE(p.productCount(), 1);
        QCOMPARE(p.blockM, std::int64_t(257));
        QCOMPARE(p.rowsOf(0), std::int64_t(257));
    }
}

void TestPlan::refusesTooSmallCap_data()
{
    QTest::addColumn<StrategyKind>("strategy");
    QTest::addColumn<Shape>("shape");
    QTest::addColumn<qulonglong>("cap");
    for (StrategyKind k : kBlocking)
        QTest::addRow("%s 1KB", toString(k).data()) << k << Shape{10, 10, 10} << 1000ull;
    QTest::newRow("none too big") << StrategyKind::None << Shape{2000, 2000, 2000} << 10'000'000ull;
    QTest::newRow("none zero cap") << StrategyKind::None << Shape{1, 1, 1} << 0ull;
}

void TestPlan::refusesTooSmallCap()
{
    QFETCH(StrategyKind, strategy);
    QFETCH(Shape, shape);
    QFETCH(qulonglong, cap);
    try {
        makePlan(shape, Precision::F32, strategy, cap, true);
        QFAIL("expected InputError");
    } catch (const InputError& e) {
        const QString msg = QString::fromUtf8(e.what());
        // Says what was needed and what the cap allows.
        QVERIFY2(msg.contains(QStringLiteral("needs")) && msg.contains(QStringLiteral("allows")), e.what());
        QVERIFY2(msg.contains(QString::fromStdString(formatBytes(double(cap)))), e.what());
    }
}

void TestPlan::refusesZeroShape()
{
    for (const Shape& s : {Shape{0, 1, 1}, Shape{1, 0, 1}, Shape{1, 1, 0}, Shape{-3, 4, 4}})
        for (StrategyKind k : kAll)
            QVERIFY_THROWS_EXCEPTION(InputError, makePlan(s, Precision::F32, k, 1 << 20, true));
}

void TestPlan::hugeShapesNeverWrapAroundTheCap()
{
    // 2^31 - 1 a side: the bytes of one block overflow 64 bits and once wrapped around to ~51 GB,
    // so strategy none "fitted" a 64 GB cap.
    const std::int64_t big = 2147483647;
    QCOMPARE(bytesForBlocks(StrategyKind::None, Precision::F64, true, big, big, big),
             std::numeric_limits<std::size_t>::max());
    QVERIFY(bytesForBlocks(StrategyKind::S3, Precision::F32, true, big, 1, 1) > std::size_t(big) * 4);
    try {
        makePlan({big, big, big}, Precision::F64, StrategyKind::None, 64ull << 30, true);
        QFAIL("expected InputError");
    } catch (const InputError& e) {
        QVERIFY2(QString::fromUtf8(e.what()).contains(QStringLiteral("raise --mem")), e.what());
    }
}

void TestPlan::refusesMoreProductsThanAPlanHolds()
{
    // A cap that only fits the thinnest blocks of 100000^3 needs ~10^12 products: more than the
    // plan's int counts hold, refused (this once overflowed productCount()), and quickly.
    const std::uint64_t cap = bytesForBlocks(StrategyKind::S1, Precision::F32, false, 1, 1, 1);
    const double cpuStart = gigacheck::test::threadCpuMs();
    try {
        const Plan p = makePlan({100000, 100000, 100000}, Precision::F32, StrategyKind::S1, cap, false);
        QFAIL(qPrintable(QStringLiteral("expected InputError, got %1 products").arg(p.productCount())));
    } catch (const InputError& e) {
        QVERIFY2(QString::fromUtf8(e.what()).contains(QStringLiteral("block products")), e.what());
        QVERIFY2(QString::fromUtf8(e.what()).contains(QStringLiteral("raise the memory cap")), e.what());
    }
    // The largest extent allowed, with a cap that fits nothing but slivers: an answer, not a hang.
    for (std::uint64_t small : {std::uint64_t(4096), std::uint64_t(1) << 20, std::uint64_t(1) << 30})
        QVERIFY_THROWS_EXCEPTION(InputError, makePlan({2147483647, 2147483647, 2147483647}, Precision::F32,
                                                      StrategyKind::S2, small, true));
    const double cpuMs = gigacheck::test::threadCpuMs() - cpuStart;
    QVERIFY2(cpuMs < 5000, qPrintable(QString::number(cpuMs) + QStringLiteral(" ms of CPU")));
}

QTEST_GUILESS_MAIN(TestPlan)
#include "tst_plan.moc"
