// runGemm end to end on the CPU backend: every strategy on odd shapes and tight caps gives the
// reference product after correcting injected faults, with no false positives and the buffer
// pool under the cap; bad input is refused with a clear message; the record is filled in.
#include "gigacheck/blocked_gemm/run.hpp"
#include "gigacheck/version.hpp"

#include "engine/test_helpers.hpp"

#include <QtTest>

#include <chrono>
#include <mutex>
#include <thread>

#include <algorithm>

using namespace gigacheck;

Q_DECLARE_METATYPE(gigacheck::Shape)
Q_DECLARE_METATYPE(gigacheck::StrategyKind)
Q_DECLARE_METATYPE(gigacheck::Precision)

namespace {

enum class FaultCase { None, One, CollinearRow, CollinearCol, Explicit };

const char* name(FaultCase f)
{
    switch (f) {
    case FaultCase::None: return "clean";
    case FaultCase::One: return "one";
    case FaultCase::CollinearRow: return "row3";
    case FaultCase::CollinearCol: return "col3";
    case FaultCase::Explicit: return "at";
    }
    return "?";
}

RunConfig baseConfig(Shape s, StrategyKind k, Precision p)
{
    RunConfig c;
    c.shape = s;
    c.strategy = k;
    c.precision = p;
    c.backend = BackendKind::Cpu;
    c.reference = ReferenceMode::Full;
    c.memCapBytes = 64ull << 20;
    return c;
}

}  // namespace

class TestRun : public QObject {
    Q_OBJECT
private slots:
    void correctsFaults_data();
    void correctsFaults();
    void faultVariants_data();
    void faultVariants();
    void distributionsHaveNoFalsePositives_data();
    void distributionsHaveNoFalsePositives();
    void acceptanceCase();
    void withoutAbftProductIsRight_data();
    void withoutAbftProductIsRight();
    void withoutAbftFaultsReachTheResult();
    void totalTimeHoldsTheRepairPass();
    void refusesBadInput_data();
    void refusesBadInput();
    void recordIsFilledIn();
    void resultOutReceivesC();
    void resultBlocksArriveFinalAndCoverCOnce();
    void typicalMagnitudeScales();
    void hostMemoryShortageIsRefusedBeforeThePlanRuns();
    void cancelledBeforeTheStartEndsAtOnce();
    void warmUpHappensBeforeTheClockStarts();
};

void TestRun::correctsFaults_data()
{
    QTest::addColumn<Shape>("shape");
    QTest::addColumn<StrategyKind>("strategy");
    QTest::addColumn<Precision>("precision");
    QTest::addColumn<int>("blockEdge");  // 0: a roomy cap; else a cap that fits blocks of this edge
    QTest::addColumn<int>("faultCase");

    const std::vector<std::pair<Shape, int>> cases = {
        {{1, 1, 1}, 0},          {{1, 50, 1}, 0},       {{1, 50, 1}, 8},
        {{257, 129, 333}, 0},    {{257, 129, 333}, 48}, {{300, 7, 1000}, 0},
        {{300, 7, 1000}, 64},    {{65, 97, 33}, 10},
    };
    const FaultCase faults[] = {FaultCase::None, FaultCase::One, FaultCase::CollinearRow,
                                FaultCase::CollinearCol, FaultCase::Explicit};
    for (StrategyKind k : {StrategyKind::None, StrategyKind::S1, StrategyKind::S2, StrategyKind::S3, StrategyKind::S4})
        for (Precision p : {Precision::F32, Precision::F64})
            for (const auto& [shape, edge] : cases) {
                if (k == StrategyKind::None && edge > 0)
                    continue;  // none never blocks
                for (FaultCase f : faults) {
                    const QByteArray tag = QByteArray(toString(k).data()) + "/" + toString(p).data() + "/" +
                                           QByteArray::number(qlonglong(shape.m)) + "x" +
                                           QByteArray::number(qlonglong(shape.n)) + "x" +
                                           QByteArray::number(qlonglong(shape.q)) + "/edge" +
                                           QByteArray::number(edge) + "/" + name(f);
                    QTest::newRow(tag.constData()) << shape << k << p << edge << int(f);
                }
            }
}

void TestRun::correctsFaults()
{
    QFETCH(Shape, shape);
    QFETCH(StrategyKind, strategy);
    QFETCH(Precision, precision);
    QFETCH(int, blockEdge);
    QFETCH(int, faultCase);

    RunConfig c = baseConfig(shape, strategy, precision);
    if (blockEdge > 0)
        c.memCapBytes = bytesForBlocks(strategy, precision, true, blockEdge, blockEdge, blockEdge);
    const Plan plan = makePlan(shape, precision, strategy, c.memCapBytes, true);
    if (blockEdge > 0)
        QVERIFY2(plan.productCount() > 1 || shape.m * shape.q == 1, "the tight cap should force blocking");

    // Collinear sets need room in the smallest block (the fault planner picks one at random).
    const std::int64_t minRows = plan.rowsOf(plan.splitM - 1), minCols = plan.colsOf(plan.splitQ - 1);
    switch (FaultCase(faultCase)) {
    case FaultCase::None: break;
    case FaultCase::One: c.faults.count = 1; break;
    case FaultCase::CollinearRow:
        c.faults.count = int(std::min<std::int64_t>(3, minCols));
        c.faults.collinear = Collinearity::Row;
        break;
    case FaultCase::CollinearCol:
        c.faults.count = int(std::min<std::int64_t>(3, minRows));
        c.faults.collinear = Collinearity::Col;
        break;
    case FaultCase::Explicit:
        c.faults.at.push_back({0, 0, std::nullopt, std::nullopt});
        if (shape.q > 1)
            c.faults.at.push_back({0, shape.q - 1, 1000.0, std::nullopt});  // same row: correctable
        break;
    }

    const RunRecord r = runGemm(c);
    QCOMPARE(QString::fromStdString(r.status), QStringLiteral("ok"));
    QVERIFY2(r.reference.passed, qPrintable(QStringLiteral("%1 mismatches, max error/tolerance %2")
                                                .arg(r.reference.mismatches)
                                                .arg(r.reference.maxRelError)));
    QCOMPARE(r.reference.rowsChecked, shape.m);
    QVERIFY(r.metrics.peakBufferBytes <= c.memCapBytes);
    QCOMPARE(r.metrics.peakBufferBytes, r.plan.bytesNeeded);

    const std::size_t expected = c.faults.at.size() + std::size_t(c.faults.count);
    QCOMPARE(std::size_t(r.faults.injected), expected);
    QCOMPARE(r.faults.detected, r.faults.injected);
    QCOMPARE(r.faults.corrected, r.faults.injected);
    QCOMPARE(r.faults.uncorrectable, 0);
    QCOMPARE(r.faults.falsePositives, 0);
    QVERIFY(r.faults.maxCleanResidualRatio < 1.0);
    QCOMPARE(int(r.verifications.size()), plan.productCount());
    QVERIFY(r.verifiedCorrect());
}

enum class Variant { ChecksumRow, ChecksumCol, EveryProduct, BitFlipMantissa, BitFlipExponent, LateStep };

void TestRun::faultVariants_data()
{
    QTest::addColumn<StrategyKind>("strategy");
    QTest::addColumn<Precision>("precision");
    QTest::addColumn<int>("variant");
    const std::pair<Variant, const char*> variants[] = {
        {Variant::ChecksumRow, "checksum-row"}, {Variant::ChecksumCol, "checksum-col"},
        {Variant::EveryProduct, "every-product"}, {Variant::BitFlipMantissa, "bitflip-mantissa"},
        {Variant::BitFlipExponent, "bitflip-exponent"}, {Variant::LateStep, "step0"}};
    for (StrategyKind k : {StrategyKind::S1, StrategyKind::S2, StrategyKind::S3, StrategyKind::S4})
        for (Precision p : {Precision::F32, Precision::F64})
            for (const auto& [v, label] : variants)
                QTest::addRow("%s/%s/%s", toString(k).data(), toString(p).data(), label) << k << p << int(v);
}

void TestRun::faultVariants()
{
    QFETCH(StrategyKind, strategy);
    QFETCH(Precision, precision);
    QFETCH(int, variant);
    RunConfig c = baseConfig({257, 129, 333}, strategy, precision);
    c.memCapBytes = bytesForBlocks(strategy, precision, true, 60, 60, 60);
    c.faults.count = 1;
    bool mayHide = false;  // a bit flip in a tiny value can be round-off sized
    switch (Variant(variant)) {
    case Variant::ChecksumRow: c.faults.target = FaultTarget::ChecksumRow; break;
    case Variant::ChecksumCol: c.faults.target = FaultTarget::ChecksumCol; break;
    case Variant::EveryProduct: c.faults.scope = FaultScope::EveryProduct; break;
    case Variant::BitFlipMantissa:
        c.faults.model = FaultModel::BitFlip;
        c.faults.bit = precision == Precision::F32 ? 22 : 51;  // the mantissa's top bit
        mayHide = true;
        break;
    case Variant::BitFlipExponent:
        // An exponent bit that scales the value by 2^(+-8): large, but never Inf or NaN here.
        c.faults.model = FaultModel::BitFlip;
        c.faults.bit = precision == Precision::F32 ? 26 : 55;
        mayHide = true;
        break;
    case Variant::LateStep:
        c.faults.count = 0;
        c.faults.at.push_back({100, 200, std::nullopt, 0});  // first k step, later steps accumulate on top
        break;
    }
    const RunRecord r = runGemm(c);
    QCOMPARE(QString::fromStdString(r.status), QStringLiteral("ok"));
    QVERIFY(r.plan.productCount() > 4);
    const int expected = Variant(variant) == Variant::EveryProduct ? r.plan.productCount() : 1;
    QCOMPARE(r.faults.injected, expected);
    if (mayHide)
        QCOMPARE(r.faults.detected + r.faults.belowThreshold, r.faults.injected);
    else
        QCOMPARE(r.faults.detected, r.faults.injected);
    QCOMPARE(r.faults.missed, 0);
    QCOMPARE(r.faults.corrected, r.faults.detected);
    QCOMPARE(r.faults.uncorrectable, 0);
    QCOMPARE(r.faults.falsePositives, 0);
    QVERIFY2(r.reference.passed, qPrintable(QString::number(r.reference.maxRelError)));
    QVERIFY(r.verifiedCorrect());
}

void TestRun::distributionsHaveNoFalsePositives_data()
{
    QTest::addColumn<StrategyKind>("strategy");
    QTest::addColumn<Precision>("precision");
    QTest::addColumn<int>("distribution");
    for (StrategyKind k : {StrategyKind::S1, StrategyKind::S2, StrategyKind::S3, StrategyKind::S4})
        for (Precision p : {Precision::F32, Precision::F64})
            for (Distribution d : {Distribution::Uniform, Distribution::Normal, Distribution::Wide})
                QTest::addRow("%s/%s/%s", toString(k).data(), toString(p).data(), toString(d).data())
                    << k << p << int(d);
}

void TestRun::distributionsHaveNoFalsePositives()
{
    QFETCH(StrategyKind, strategy);
    QFETCH(Precision, precision);
    QFETCH(int, distribution);
    RunConfig c = baseConfig({190, 410, 170}, strategy, precision);
    c.distribution = Distribution(distribution);
    c.memCapBytes = bytesForBlocks(strategy, precision, true, 64, 64, 64);
    c.faults.count = 1;
    const RunRecord r = runGemm(c);
    QVERIFY(r.plan.splitN > 1);
    QCOMPARE(r.faults.falsePositives, 0);
    QCOMPARE(r.faults.corrected, 1);
    QVERIFY(r.faults.maxCleanResidualRatio < 1.0);
    QVERIFY(r.verifiedCorrect());
}

void TestRun::acceptanceCase()
{
    // The acceptance run: 20000x2000x2000 under 10 MB with S2 and one error (a few
    // seconds on two cores; the reference checks a sample of 64 rows).
    RunConfig c;
    c.shape = {20000, 2000, 2000};
    c.strategy = StrategyKind::S2;
    c.memCapBytes = parseSize("10MB");
    c.backend = BackendKind::Cpu;
    c.faults.count = 1;
    const RunRecord r = runGemm(c);
    QCOMPARE(QString::fromStdString(r.status), QStringLiteral("ok"));
    QVERIFY(r.metrics.peakBufferBytes <= 10'000'000);
    QVERIFY(r.reference.mode == ReferenceMode::Sample);
    QCOMPARE(r.reference.rowsChecked, std::int64_t(64));
    QCOMPARE(r.faults.injected, 1);
    QCOMPARE(r.faults.corrected, 1);
    QCOMPARE(r.faults.falsePositives, 0);
    QVERIFY(r.verifiedCorrect());
    qInfo("acceptance: %d products, execute %.2f s, %.1f GFLOP/s, max clean residual/threshold %.3g",
          int(r.plan.productCount()), r.metrics.executeSeconds, r.metrics.gflops, r.faults.maxCleanResidualRatio);
}

void TestRun::withoutAbftProductIsRight_data()
{
    QTest::addColumn<StrategyKind>("strategy");
    QTest::addColumn<Precision>("precision");
    for (StrategyKind k : {StrategyKind::S1, StrategyKind::S2, StrategyKind::S3, StrategyKind::S4})
        for (Precision p : {Precision::F32, Precision::F64})
            QTest::addRow("%s/%s", toString(k).data(), toString(p).data()) << k << p;
}

void TestRun::withoutAbftProductIsRight()
{
    QFETCH(StrategyKind, strategy);
    QFETCH(Precision, precision);
    RunConfig c = baseConfig({257, 129, 333}, strategy, precision);
    c.abft = false;
    c.memCapBytes = bytesForBlocks(strategy, precision, false, 50, 50, 50);
    const RunRecord r = runGemm(c);
    QCOMPARE(QString::fromStdString(r.status), QStringLiteral("ok"));
    QVERIFY(r.plan.productCount() > 1);
    QVERIFY(r.verifications.empty());
    QVERIFY(r.reference.passed);
    QVERIFY(r.verifiedCorrect());
    QVERIFY(std::none_of(r.spans.begin(), r.spans.end(), [](const Span& s) {
        return s.kind == OpKind::Checksum || s.kind == OpKind::Verify;
    }));
}

// The repair pass after the run (re-checking the blocks that were corrected) is in the spans and so
// in the execution time; the total must hold it too, never be below its part.
void TestRun::totalTimeHoldsTheRepairPass()
{
    RunConfig c = baseConfig({96, 64, 80}, StrategyKind::S2, Precision::F32);
    c.faults.count = 2;
    const RunRecord r = runGemm(c);
    QVERIFY(!r.repairs.empty());
    QVERIFY2(r.metrics.totalSeconds >= r.metrics.executeSeconds,
             qPrintable(QStringLiteral("total %1 s, execute %2 s").arg(r.metrics.totalSeconds).arg(r.metrics.executeSeconds)));
}

void TestRun::withoutAbftFaultsReachTheResult()
{
    // The reference check is independent of the ABFT: an unprotected fault must show up there.
    RunConfig c = baseConfig({64, 32, 48}, StrategyKind::S2, Precision::F32);
    c.abft = false;
    c.faults.count = 1;
    const RunRecord r = runGemm(c);
    QCOMPARE(r.faults.injected, 1);
    QCOMPARE(r.faults.detected, 0);
    QVERIFY(!r.reference.passed);
    QCOMPARE(r.reference.mismatches, 1);
    QVERIFY(!r.verifiedCorrect());
}

void TestRun::refusesBadInput_data()
{
    QTest::addColumn<Shape>("shape");
    QTest::addColumn<int>("strategy");
    QTest::addColumn<qulonglong>("cap");
    QTest::addColumn<int>("backend");
    QTest::addColumn<QString>("mentions");
    QTest::newRow("zero m") << Shape{0, 4, 4} << int(StrategyKind::S1) << qulonglong(1 << 20) << int(BackendKind::Cpu)
                            << "empty";
    QTest::newRow("zero q") << Shape{4, 4, 0} << int(StrategyKind::S2) << qulonglong(1 << 20) << int(BackendKind::Cpu)
                            << "empty";
    QTest::newRow("cap 1KB s3") << Shape{100, 100, 100} << int(StrategyKind::S3) << qulonglong(1000)
                                << int(BackendKind::Cpu) << "even with 1x1x1 blocks";
    QTest::newRow("none too big") << Shape{1000, 1000, 1000} << int(StrategyKind::None) << qulonglong(1 << 20)
                                  << int(BackendKind::Cpu) << "raise --mem";
    if (!cudaCompiledIn())
        QTest::newRow("cuda missing") << Shape{4, 4, 4} << int(StrategyKind::S1) << qulonglong(1 << 20)
                                      << int(BackendKind::Cuda) << "not available";
}

void TestRun::refusesBadInput()
{
    QFETCH(Shape, shape);
    QFETCH(int, strategy);
    QFETCH(qulonglong, cap);
    QFETCH(int, backend);
    QFETCH(QString, mentions);
    RunConfig c = baseConfig(shape, StrategyKind(strategy), Precision::F32);
    c.memCapBytes = cap;
    c.backend = BackendKind(backend);
    try {
        runGemm(c);
        QFAIL("expected InputError");
    } catch (const InputError& e) {
        QVERIFY2(QString::fromUtf8(e.what()).contains(mentions), e.what());
    }
}

void TestRun::recordIsFilledIn()
{
    RunConfig c = baseConfig({120, 80, 90}, StrategyKind::S1, Precision::F32);
    c.memCapBytes = bytesForBlocks(StrategyKind::S1, Precision::F32, true, 40, 40, 40);
    c.faults.count = 1;
    const RunRecord r = runGemm(c);
    QCOMPARE(QString::fromStdString(r.toolVersion), QString::fromUtf8(kVersion));
    QVERIFY(QDateTime::fromString(QString::fromStdString(r.createdAt), Qt::ISODate).isValid());
    QVERIFY(r.devices.front().backend == BackendKind::Cpu);
    QVERIFY(QString::fromStdString(r.devices.front().name).startsWith(QStringLiteral("CPU: ")));
    QVERIFY(!r.devices.front().whyChosen.empty());
    QVERIFY(r.devices.front().memoryBytes > 0);
    QVERIFY(r.plan.shape == c.shape);
    QVERIFY(!r.plan.explanation.empty());
    QCOMPARE(r.injections.size(), std::size_t(1));
    QVERIFY(r.injections[0].injection.applied);
    QVERIFY(r.injections[0].injection.after != r.injections[0].injection.before);

    const Metrics& m = r.metrics;
    QCOMPARE(m.usefulFlops, 2.0 * 120 * 80 * 90);
    QVERIFY(m.flops > m.usefulFlops);  // checksums and verification cost something
    // S1 loads A once per block column of C and B once per block row; C goes back once.
    const double e = 4;
    QCOMPARE(m.bytesHostLink,
             e * (r.plan.splitQ * 120.0 * 80 + r.plan.splitM * 80.0 * 90 + 120.0 * 90));
    QVERIFY(m.bytesDevice > 0);
    // The wall time covers the executor's spans; the host repair pass's span follows them and is
    // timed on its own (abft README "Repair pass"), after the wall time was taken.
    double repairSeconds = 0;
    for (const RepairEvent& e : r.repairs)
        repairSeconds += e.seconds;
    QVERIFY(!r.repairs.empty());  // the corrected block was re-checked
    QVERIFY(m.executeSeconds > 0 && m.totalSeconds >= m.executeSeconds - repairSeconds);
    QVERIFY(m.queueBusySeconds[0] > 0 && m.queueBusySeconds[1] > 0 && m.queueBusySeconds[2] > 0);
    QCOMPARE(m.gflops, m.flops / m.executeSeconds / 1e9);
    QCOMPARE(m.intensityHostLink, m.flops / m.bytesHostLink);
    QCOMPARE(m.hostBytesRequired, std::size_t(e * (120 * 80 + 80 * 90 + 120 * 90)));
    QVERIFY(m.peakBufferBytes <= c.memCapBytes);
    QCOMPARE(r.faults.blocksCorrected, 1);
    QCOMPARE(r.faults.blocksClean, r.plan.productCount() - 1);
    QVERIFY(r.faults.maxThreshold > 0);
}

void TestRun::resultOutReceivesC()
{
    RunConfig c = baseConfig({3, 2, 4}, StrategyKind::S1, Precision::F64);
    c.distribution = Distribution::Normal;
    HostMatrix out;
    RunHooks hooks;
    hooks.resultOut = &out;
    const RunRecord r = runGemm(c, hooks);
    QVERIFY(r.verifiedCorrect());
    QCOMPARE(out.rows(), std::int64_t(3));
    QCOMPARE(out.cols(), std::int64_t(4));
    HostMatrix a(Precision::F64, 3, 2), b(Precision::F64, 2, 4);
    fillRandom(a, Distribution::Normal, c.seed, 1);
    fillRandom(b, Distribution::Normal, c.seed, 2);
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 4; ++j)
            QVERIFY(std::abs(out.at(i, j) - (a.at(i, 0) * b.at(0, j) + a.at(i, 1) * b.at(1, j))) < 1e-12);
}

namespace {
// Copies each block of C at the moment the run reports it final (a viewer drawing C live).
struct ResultBlocksSeen : RunObserver {
    std::mutex m;
    std::vector<std::pair<Region, std::vector<double>>> blocks;
    void onResultBlock(const HostMatrix& c, const Region& r) override
    {
        std::vector<double> values;
        for (std::int64_t i = r.row; i < r.row + r.rows; ++i)
            for (std::int64_t j = r.col; j < r.col + r.cols; ++j)
                values.push_back(c.at(i, j));
        std::lock_guard lock(m);
        blocks.emplace_back(r, std::move(values));
    }
};
}  // namespace

void TestRun::resultBlocksArriveFinalAndCoverCOnce()
{
    // Blocked (4 x 3 blocks of C, several k steps), with a fault that is corrected before the copy.
    RunConfig c = baseConfig({257, 129, 333}, StrategyKind::S3, Precision::F64);
    c.memCapBytes = 200'000;
    c.faults.at = {FaultAt{100, 200, 1e3, std::nullopt}};
    ResultBlocksSeen seen;
    HostMatrix out;
    RunHooks hooks;
    hooks.observer = &seen;
    hooks.resultOut = &out;
    const RunRecord r = runGemm(c, hooks);
    QVERIFY(r.verifiedCorrect());
    QCOMPARE(r.faults.corrected, 1);
    QCOMPARE(int(seen.blocks.size()), r.plan.blockCount());
    QVERIFY(r.plan.blockCount() > 1);
    std::vector<int> covered(std::size_t(257 * 333), 0);
    for (const auto& [region, values] : seen.blocks) {
        QVERIFY(region.matrix == Operand::C);
        std::size_t at = 0;
        for (std::int64_t i = region.row; i < region.row + region.rows; ++i)
            for (std::int64_t j = region.col; j < region.col + region.cols; ++j) {
                ++covered[std::size_t(i * 333 + j)];
                QCOMPARE(values[at++], out.at(i, j));  // already final (corrected) when reported
            }
    }
    QVERIFY(std::all_of(covered.begin(), covered.end(), [](int n) { return n == 1; }));
}

void TestRun::typicalMagnitudeScales()
{
    QCOMPARE(typicalMagnitude({10, 100, 10}, Distribution::Normal), 10.0);
    QVERIFY(std::abs(typicalMagnitude({10, 9, 10}, Distribution::Uniform) - 1.0) < 1e-12);
    QVERIFY(typicalMagnitude({10, 9, 10}, Distribution::Wide) > 1000 * typicalMagnitude({10, 9, 10}, Distribution::Uniform));
}

namespace {
struct PlanSeen : RunObserver {
    int plans = 0;
    void onPlan(const Schedule&) override { ++plans; }
};
}  // namespace

void TestRun::hostMemoryShortageIsRefusedBeforeThePlanRuns()
{
    // 200000^3 f64 needs 960 GB for A, B and C: refused before a schedule is built or anything is
    // allocated, saying what is needed and what the machine has.
    RunConfig c = baseConfig({200000, 200000, 200000}, StrategyKind::S2, Precision::F64);
    c.reference = ReferenceMode::Sample;
    PlanSeen observer;
    RunHooks hooks;
    hooks.observer = &observer;
    const double cpuStart = gigacheck::test::threadCpuMs();
    try {
        runGemm(c, hooks);
        QFAIL("expected InputError");
    } catch (const InputError& e) {
        const QString message = QString::fromUtf8(e.what());
        QVERIFY2(message.contains(QStringLiteral("not enough host memory")), e.what());
        QVERIFY2(message.contains(QStringLiteral("available")), e.what());
        QVERIFY2(message.contains(QString::fromStdString(formatBytes(3 * 200000.0 * 200000.0 * 8))), e.what());
    }
    QCOMPARE(observer.plans, 0);
    const double cpuMs = gigacheck::test::threadCpuMs() - cpuStart;
    QVERIFY2(cpuMs < 2000, qPrintable(QString::number(cpuMs) + QStringLiteral(" ms of CPU")));
}

void TestRun::cancelledBeforeTheStartEndsAtOnce()
{
    // The GUI's Cancel right after Start: no inputs are generated, the record says cancelled.
    RunConfig c = baseConfig({2000, 2000, 2000}, StrategyKind::S1, Precision::F64);
    c.memCapBytes = 8 << 20;
    std::atomic<bool> cancel{true};
    HostMatrix out;
    RunHooks hooks;
    hooks.cancel = &cancel;
    hooks.resultOut = &out;
    const double cpuStart = gigacheck::test::threadCpuMs();
    const RunRecord r = runGemm(c, hooks);
    const double cpuMs = gigacheck::test::threadCpuMs() - cpuStart;
    QVERIFY2(cpuMs < 500, qPrintable(QString::number(cpuMs) + QStringLiteral(" ms of CPU")));
    QCOMPARE(QString::fromStdString(r.status), QStringLiteral("cancelled"));
    QVERIFY(r.spans.empty());
    QVERIFY(r.plan.productCount() > 1);
    QVERIFY(!r.verifiedCorrect());
    QCOMPARE(r.metrics.usefulFlops, 2.0 * 2000 * 2000 * 2000);
}

namespace {

// Wraps a backend and records whether prepare() ran before execute() and how long it took.
class SlowPrepareBackend final : public Backend {
public:
    explicit SlowPrepareBackend(std::unique_ptr<Backend> inner) : inner_(std::move(inner)) {}
    DeviceInfo device() const override { return inner_->device(); }
    void prepare() override
    {
        ++prepares;
        std::this_thread::sleep_for(std::chrono::milliseconds(300));  // a stand-in for module loading
    }
    ExecutionResult execute(const ExecutionRequest& r) override
    {
        preparedBeforeExecute = prepares > 0;
        return inner_->execute(r);
    }
    int prepares = 0;
    bool preparedBeforeExecute = false;

private:
    std::unique_ptr<Backend> inner_;
};

}  // namespace

void TestRun::warmUpHappensBeforeTheClockStarts()
{
    // The CUDA warm-up must stay out of the run's time (the report's "GPU mul"), as it stays out
    // of the spans: runGemm calls prepare() once, before its clock starts.
    SlowPrepareBackend backend(makeBackend(BackendKind::Cpu));
    RunHooks hooks;
    hooks.backend = &backend;
    const RunRecord r = runGemm(baseConfig(Shape{64, 64, 64}, StrategyKind::S1, Precision::F32), hooks);
    QCOMPARE(QString::fromStdString(r.status), QStringLiteral("ok"));
    QCOMPARE(backend.prepares, 1);
    QVERIFY(backend.preparedBeforeExecute);
    QVERIFY2(r.metrics.totalSeconds < 0.25, qPrintable(QStringLiteral("total %1 s").arg(r.metrics.totalSeconds)));
}

QTEST_GUILESS_MAIN(TestRun)
#include "tst_run.moc"
