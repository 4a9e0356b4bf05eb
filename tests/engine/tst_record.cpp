// The run record is the artefact the CLI writes and the GUI reads: every field must survive a
// save/load, newer formats and damaged files must be refused with a message naming the problem.
#include "gigacheck/blocked_gemm/record.hpp"

#include <nlohmann/json.hpp>

#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <limits>

#include <sys/resource.h>

using namespace gigacheck;

// Enums are compared by their stable names, which is also what a failure prints.
static QString nameOf(std::string_view name) { return QString::fromUtf8(name.data(), qsizetype(name.size())); }
#define COMPARE_NAMES(actual, expected) QCOMPARE(nameOf(toString(actual)), nameOf(toString(expected)))

namespace {

RunRecord fullRecord()
{
    RunRecord r;
    r.toolVersion = "0.1.0-test";
    r.createdAt = "2026-11-21T10:00:00Z";
    r.status = "ok";
    r.error = "";

    RunConfig& c = r.config;
    c.shape = {20000, 2000, 1999};
    c.precision = Precision::F64;
    c.distribution = Distribution::Wide;
    c.seed = 0xfedcba9876543210ULL;  // above 2^63: must not pass through a double
    c.backend = BackendKind::Cpu;
    c.device = 3;
    c.strategy = StrategyKind::S2;
    c.memCapBytes = 10'000'000;
    c.abft = true;
    c.gemm = GemmVariant::CublasTf32;
    c.tile = 16;
    c.faults.count = 3;
    c.faults.collinear = Collinearity::Col;
    c.faults.at = {FaultAt{5, 7, 2.5, std::nullopt}, FaultAt{1, 1, std::nullopt, 3}};
    c.faults.model = FaultModel::BitFlip;
    c.faults.bit = 61;
    c.faults.target = FaultTarget::ChecksumRow;
    c.faults.scope = FaultScope::EveryProduct;
    c.faults.seed = 99;
    c.reference = ReferenceMode::Sample;
    c.thresholdLambda = 3.5;
    c.h2dStaging = H2dStaging::Pack;

    DeviceInfo& d = r.devices.front();
    d.backend = BackendKind::Cpu;
    d.name = "CPU: test machine (2 threads)";
    d.memoryBytes = 17'179'869'184ULL;
    d.computeCapability = "9.0";
    d.index = 3;
    d.whyChosen = "--backend cpu";
    d.ceilings = {1.5, 2.5, 0.75, 100.25, 12.5, 13.5, "measured 2026-11-21"};

    Plan& p = r.plan;
    p.shape = c.shape;
    p.precision = Precision::F64;
    p.strategy = StrategyKind::S2;
    p.abft = true;
    p.capBytes = c.memCapBytes;
    p.splitM = 40;
    p.splitN = 2;
    p.splitQ = 4;
    p.blockM = 500;
    p.blockN = 1000;
    p.blockQ = 500;
    p.buffers = {{"A", BufferRole::A, 501, 1000, 1000, 4'008'000},
                 {"B'", BufferRole::B, 1000, 501, 504, 4'032'000},
                 {"C", BufferRole::C, 501, 501, 501, 2'008'008},
                 {"auxC", BufferRole::Aux, 4, 502, 502, 16'064}};
    p.bytesNeeded = 10'064'072;
    p.explanation = "two splits of n, double-buffered A and B";

    Span s;
    s.opId = 12;
    s.queue = Queue::D2H;
    s.stream = 1;
    s.kind = OpKind::CopyD2H;
    s.block = {3, 2, 1};
    s.start = 0.125;
    s.end = 0.25;
    s.bytes = 2'000'000;
    s.flops = 0;
    r.spans = {s};
    s.opId = 13;
    s.queue = Queue::Compute;
    s.kind = OpKind::Product;
    s.flops = 1e9;
    r.spans.push_back(s);

    InjectEvent ie;
    ie.opId = 7;
    ie.time = 0.0625;
    ie.injection.block = {1, 0, 1};
    ie.injection.localRow = 4;
    ie.injection.localCol = 500;
    ie.injection.globalRow = 504;
    ie.injection.globalCol = -1;
    ie.injection.target = FaultTarget::ChecksumCol;
    ie.injection.model = FaultModel::Delta;
    ie.injection.delta = -42.5;
    ie.injection.bit = 30;
    ie.injection.before = 1.0 / 3.0;
    ie.injection.after = 1.0 / 3.0 - 42.5;
    ie.injection.applied = true;
    r.injections = {ie};

    VerifyEvent ve;
    ve.opId = 8;
    ve.block = {1, 0, 1};
    ve.rowOffset = 500;
    ve.colOffset = 0;
    ve.rows = 500;
    ve.cols = 500;
    ve.time = 0.07;
    ve.result.verdict = Verdict::Corrected;
    ve.result.mismatchRows = {4};
    ve.result.mismatchCols = {7, 500};
    ve.result.rowResidual = {42.5};
    ve.result.colResidual = {1e-3, 42.5};
    ve.result.corrections = {{4, 7, 10.0, 0.1}};
    ve.result.checksumsRecomputed = true;
    ve.result.maxCleanResidualRatio = 0.0123456789012345;
    ve.result.minThreshold = 1e-12;
    ve.result.maxThreshold = 3e-9;
    r.verifications = {ve};
    ve.block = {0, 0, 0};
    ve.result = VerifyResult{};
    ve.result.verdict = Verdict::Uncorrectable;
    ve.result.mismatchRows = {1, 5};
    ve.result.mismatchCols = {1, 7};
    r.verifications.push_back(ve);

    Metrics& m = r.metrics;
    m.totalSeconds = 1.5;
    m.executeSeconds = 1.25;
    m.queueBusySeconds[0] = 0.5;
    m.queueBusySeconds[1] = 0.75;
    m.queueBusySeconds[2] = 0.125;
    m.flops = 1.6e11;
    m.usefulFlops = 1.599e11;
    m.bytesHostLink = 3.2e8;
    m.bytesDevice = 9.1e10;
    m.intensityHostLink = 500;
    m.intensityDevice = 1.73962;
    m.gflops = 128.5;
    m.peakBufferBytes = 10'000'000;
    m.hostBytesRequired = 336'000'000;

    FaultReport& f = r.faults;
    f.injected = 4;
    f.detected = 3;
    f.corrected = 2;
    f.uncorrectable = 2;
    f.belowThreshold = 1;
    f.missed = 2;
    f.falsePositives = 0;
    f.blocksClean = 317;
    f.blocksCorrected = 1;
    f.blocksUncorrectable = 1;
    f.maxThreshold = 3e-9;
    f.maxCleanResidualRatio = 0.0123;

    ReferenceCheck& ref = r.reference;
    ref.mode = ReferenceMode::Sample;
    ref.rowsChecked = 64;
    ref.mismatches = 2;
    ref.maxAbsError = 41.9;
    ref.maxRelError = 1e7;
    ref.passed = false;
    return r;
}

std::string withField(const std::string& json, const std::function<void(nlohmann::json&)>& edit)
{
    nlohmann::json doc = nlohmann::json::parse(json);
    edit(doc);
    return doc.dump();
}

// The message of the InputError thrown by f, or "" when none is thrown.
template <class F> QString inputErrorOf(F f)
{
    try {
        f();
    } catch (const InputError& e) {
        return QString::fromStdString(e.what());
    }
    return {};
}

}  // namespace

class TestRecord : public QObject {
    Q_OBJECT

private slots:
    void roundTripKeepsEveryField()
    {
        const RunRecord r = fullRecord();
        const std::string json = toJson(r);
        const RunRecord back = recordFromJson(json);

        QCOMPARE(back.formatVersion, RunRecord::kFormatVersion);
        QCOMPARE(back.toolVersion, r.toolVersion);
        QCOMPARE(back.createdAt, r.createdAt);
        QCOMPARE(back.status, r.status);

        const RunConfig& c = back.config;
        QVERIFY(c.shape == r.config.shape);
        COMPARE_NAMES(c.precision, Precision::F64);
        COMPARE_NAMES(c.distribution, Distribution::Wide);
        QCOMPARE(c.seed, 0xfedcba9876543210ULL);
        COMPARE_NAMES(c.backend, BackendKind::Cpu);
        QCOMPARE(c.device, 3);
        COMPARE_NAMES(c.strategy, StrategyKind::S2);
        QCOMPARE(c.memCapBytes, 10'000'000ULL);
        COMPARE_NAMES(c.gemm, GemmVariant::CublasTf32);
        QCOMPARE(c.tile, 16);
        QCOMPARE(c.faults.count, 3);
        COMPARE_NAMES(c.faults.collinear, Collinearity::Col);
        QVERIFY(c.faults.at == r.config.faults.at);
        COMPARE_NAMES(c.faults.model, FaultModel::BitFlip);
        QCOMPARE(c.faults.bit, 61);
        COMPARE_NAMES(c.faults.target, FaultTarget::ChecksumRow);
        COMPARE_NAMES(c.faults.scope, FaultScope::EveryProduct);
        QCOMPARE(c.faults.seed, 99ULL);
        COMPARE_NAMES(c.reference, ReferenceMode::Sample);
        QCOMPARE(c.thresholdLambda, 3.5);
        COMPARE_NAMES(c.h2dStaging, H2dStaging::Pack);

        QCOMPARE(back.devices.front().name, r.devices.front().name);
        QCOMPARE(back.devices.front().memoryBytes, r.devices.front().memoryBytes);
        QCOMPARE(back.devices.front().computeCapability, std::string("9.0"));
        QCOMPARE(back.devices.front().index, 3);
        QCOMPARE(back.devices.front().whyChosen, r.devices.front().whyChosen);
        QCOMPARE(back.devices.front().ceilings.gflopsTf32, 2.5);
        QCOMPARE(back.devices.front().ceilings.d2hGBs, 13.5);
        QCOMPARE(back.devices.front().ceilings.source, r.devices.front().ceilings.source);

        const Plan& p = back.plan;
        QCOMPARE(p.splitM, 40);
        QCOMPARE(p.splitN, 2);
        QCOMPARE(p.splitQ, 4);
        QCOMPARE(p.blockQ, std::int64_t(500));
        QCOMPARE(p.capBytes, 10'000'000ULL);
        QCOMPARE(p.bytesNeeded, std::size_t(10'064'072));
        QCOMPARE(p.explanation, r.plan.explanation);
        QCOMPARE(p.buffers.size(), std::size_t(4));
        QCOMPARE(p.buffers[1].name, std::string("B'"));
        QCOMPARE(int(p.buffers[1].role), int(BufferRole::B));
        QCOMPARE(p.buffers[1].ld, std::int64_t(504));
        QCOMPARE(int(p.buffers[3].role), int(BufferRole::Aux));
        QCOMPARE(p.buffers[3].bytes, std::size_t(16'064));

        QCOMPARE(back.spans.size(), std::size_t(2));
        COMPARE_NAMES(back.spans[0].queue, Queue::D2H);
        COMPARE_NAMES(back.spans[0].kind, OpKind::CopyD2H);
        QVERIFY(back.spans[0].block == (BlockIndex{3, 2, 1}));
        QCOMPARE(back.spans[0].end, 0.25);
        QCOMPARE(back.spans[1].flops, 1e9);

        QCOMPARE(back.injections.size(), std::size_t(1));
        const Injection& inj = back.injections[0].injection;
        QCOMPARE(back.injections[0].opId, 7);
        QCOMPARE(inj.localCol, std::int64_t(500));
        QCOMPARE(inj.globalCol, std::int64_t(-1));
        COMPARE_NAMES(inj.target, FaultTarget::ChecksumCol);
        QCOMPARE(inj.before, 1.0 / 3.0);  // doubles are written with round-trip precision
        QCOMPARE(inj.after, 1.0 / 3.0 - 42.5);
        QVERIFY(inj.applied);

        QCOMPARE(back.verifications.size(), std::size_t(2));
        const VerifyResult& v = back.verifications[0].result;
        COMPARE_NAMES(v.verdict, Verdict::Corrected);
        QCOMPARE(v.mismatchCols, (std::vector<std::int64_t>{7, 500}));
        QCOMPARE(v.colResidual, (std::vector<double>{1e-3, 42.5}));
        QCOMPARE(v.corrections.size(), std::size_t(1));
        QCOMPARE(v.corrections[0].col, std::int64_t(7));
        QCOMPARE(v.corrections[0].after, 0.1);
        QVERIFY(v.checksumsRecomputed);
        QCOMPARE(v.maxCleanResidualRatio, 0.0123456789012345);
        QCOMPARE(back.verifications[0].rowOffset, std::int64_t(500));
        COMPARE_NAMES(back.verifications[1].result.verdict, Verdict::Uncorrectable);

        QCOMPARE(back.metrics.queueBusySeconds[1], 0.75);
        QCOMPARE(back.metrics.intensityDevice, 1.73962);
        QCOMPARE(back.metrics.hostBytesRequired, std::size_t(336'000'000));
        QCOMPARE(back.faults.belowThreshold, 1);
        QCOMPARE(back.faults.missed, 2);
        QCOMPARE(back.faults.blocksUncorrectable, 1);
        COMPARE_NAMES(back.reference.mode, ReferenceMode::Sample);
        QCOMPARE(back.reference.mismatches, std::int64_t(2));
        QVERIFY(!back.reference.passed);

        // Nothing written is lost: the reloaded record serialises to the same text.
        QCOMPARE(toJson(back), json);
    }

    // The section's fields roundTripKeepsEveryField leaves at their defaults (those written only
    // when used, and the optional parts: repairs, operand checks, prediction), each away from its
    // default, come back equal: a field the record's field table misses or misreads shows here.
    void sectionExtrasRoundTrip()
    {
        RunRecord r = fullRecord();
        RunConfig& c = r.config;
        c.devices = 2;
        c.planByCostModel = true;
        c.faults.extent = FaultExtent::RowSegment;
        c.faults.extentLength = 32;
        c.faults.bit2 = 9;
        r.devices.push_back(r.devices.front());
        r.devices.back().index = 4;
        for (int i = 0; i < r.plan.splitM; ++i)
            r.plan.rowStarts.push_back(std::int64_t(i) * r.plan.blockM);
        for (int j = 0; j < r.plan.splitQ; ++j)
            r.plan.colStarts.push_back(std::int64_t(j) * r.plan.blockQ);
        r.faults.correctedByRecompute = 1;

        RepairEvent e;
        e.blockI = 1;
        e.blockJ = 2;
        e.rowOffset = 500;
        e.colOffset = 1000;
        e.rows = 500;
        e.cols = 499;
        e.outcome = RepairOutcome::CorrectedByRecompute;
        e.mismatchRows = {4, 9};
        e.mismatchCols = {7};
        e.recomputedRows = {4};
        e.recomputedCols = {7, 8};
        e.wholeBlock = true;
        e.cellsRecomputed = 3;
        e.operandCopy = true;
        e.flops = 2e6;
        e.seconds = 0.375;
        r.repairs = {e};

        OperandCheckReport& o = r.operandChecks;
        o.ran = true;
        o.copiesChecked = 12;
        o.maxCleanRatio = 0.25;
        o.mismatches = {OperandMismatch{'b', 1, 3, BlockIndex{1, 3, 1}, {5, 6}, 8.5}};
        o.hostElementsRestored = 2;
        o.hostBlocksUnrestorable = 1;
        o.entrySeconds = 0.0625;

        r.predictedSeconds = 1.75;
        r.predictionSource = "cost model: ceilings measured";
        r.predictedSpans = {r.spans.front()};

        const RunRecord back = recordFromJson(toJson(r));
        QCOMPARE(back.config.devices, 2);
        QVERIFY(back.config.planByCostModel);
        QVERIFY(back.config.faults.extent == FaultExtent::RowSegment);
        QCOMPARE(back.config.faults.extentLength, 32);
        QCOMPARE(back.config.faults.bit2, 9);
        QCOMPARE(back.devices.size(), std::size_t(2));
        QCOMPARE(back.plan.rowStarts, r.plan.rowStarts);
        QCOMPARE(back.plan.colStarts, r.plan.colStarts);
        QCOMPARE(back.faults.correctedByRecompute, 1);

        QCOMPARE(back.repairs.size(), std::size_t(1));
        const RepairEvent& b = back.repairs[0];
        QCOMPARE(b.blockI, e.blockI);
        QCOMPARE(b.blockJ, e.blockJ);
        QCOMPARE(b.rowOffset, e.rowOffset);
        QCOMPARE(b.colOffset, e.colOffset);
        QCOMPARE(b.rows, e.rows);
        QCOMPARE(b.cols, e.cols);
        COMPARE_NAMES(b.outcome, e.outcome);
        QCOMPARE(b.mismatchRows, e.mismatchRows);
        QCOMPARE(b.mismatchCols, e.mismatchCols);
        QCOMPARE(b.recomputedRows, e.recomputedRows);
        QCOMPARE(b.recomputedCols, e.recomputedCols);
        QCOMPARE(b.wholeBlock, e.wholeBlock);
        QCOMPARE(b.cellsRecomputed, e.cellsRecomputed);
        QCOMPARE(b.operandCopy, e.operandCopy);
        QCOMPARE(b.flops, e.flops);
        QCOMPARE(b.seconds, e.seconds);

        const OperandCheckReport& ob = back.operandChecks;
        QVERIFY(ob.ran);
        QCOMPARE(ob.copiesChecked, o.copiesChecked);
        QCOMPARE(ob.maxCleanRatio, o.maxCleanRatio);
        QCOMPARE(ob.mismatches.size(), std::size_t(1));
        QCOMPARE(ob.mismatches[0].operand, 'b');
        QCOMPARE(ob.mismatches[0].blockRow, 1);
        QCOMPARE(ob.mismatches[0].blockCol, 3);
        QVERIFY(ob.mismatches[0].product == (BlockIndex{1, 3, 1}));
        QCOMPARE(ob.mismatches[0].lines, (std::vector<std::int64_t>{5, 6}));
        QCOMPARE(ob.mismatches[0].maxResidualRatio, 8.5);
        QCOMPARE(ob.hostElementsRestored, o.hostElementsRestored);
        QCOMPARE(ob.hostBlocksUnrestorable, o.hostBlocksUnrestorable);
        QCOMPARE(ob.entrySeconds, o.entrySeconds);

        QCOMPARE(back.predictedSeconds, r.predictedSeconds);
        QCOMPARE(back.predictionSource, r.predictionSource);
        QCOMPARE(back.predictedSpans.size(), std::size_t(1));
        QCOMPARE(back.predictedSpans[0].end, r.spans.front().end);

        // Written only when used: a record without them has none of these keys.
        const nlohmann::json plain = nlohmann::json::parse(toJson(fullRecord()))["blocked_gemm"];
        for (const char* key : {"inputs", "operand_checks", "prediction"})
            QVERIFY2(!plain.contains(key), key);
        for (const char* key : {"devices", "row_starts"})
            QVERIFY2(!plain["config"].contains(key) && !plain["plan"].contains(key), key);
        QVERIFY(!plain["config"]["faults"].contains("extent") && !plain["config"]["faults"].contains("bit2"));
    }

    void nonFiniteNumbersSurvive()
    {
        RunRecord r = fullRecord();
        r.faults.maxCleanResidualRatio = std::numeric_limits<double>::infinity();
        r.metrics.gflops = std::nan("");
        const RunRecord back = recordFromJson(toJson(r));
        QVERIFY(std::isinf(back.faults.maxCleanResidualRatio));
        QVERIFY(std::isnan(back.metrics.gflops));
    }

    void newerFormatIsRefused()
    {
        const std::string json =
            withField(toJson(fullRecord()), [](nlohmann::json& d) { d["format_version"] = 7; });
        QCOMPARE(inputErrorOf([&] { recordFromJson(json); }),
                 QStringLiteral("record format 7 is newer than this gigacheck supports (2); update gigacheck"));
        // A newer record may look different anywhere: the version is judged before the rest.
        const std::string strange = R"({"format_version": 3, "something": "else"})";
        QVERIFY(inputErrorOf([&] { recordFromJson(strange); }).contains(QStringLiteral("newer")));
    }

    // Records written before device selection existed still open: the first device.
    void recordsWithoutDeviceNumbersOpen()
    {
        const std::string json = withField(toJson(fullRecord()), [](nlohmann::json& d) {
            d["blocked_gemm"]["config"].erase("device");
            d["devices"][0].erase("index");
        });
        const RunRecord back = recordFromJson(json);
        QCOMPARE(back.config.device, -1);
        QCOMPARE(back.devices.front().index, 0);
    }

    // Your own matrices (issue 12, item 7): the files' names, shapes, dtypes and orders round-trip;
    // a record of generated inputs has no "inputs" section, and records from before it still open.
    void inputsRoundTrip()
    {
        RunRecord r = fullRecord();
        r.inputs = {{"A", "a.npy", r.config.shape.m, r.config.shape.n, "float32", false},
                    {"B", "b.npy", r.config.shape.n, r.config.shape.q, "float64", true}};
        const std::string json = toJson(r);
        QVERIFY(nlohmann::json::parse(json)["blocked_gemm"].contains("inputs"));
        const RunRecord back = recordFromJson(json);
        QCOMPARE(back.inputs.size(), std::size_t(2));
        for (std::size_t i = 0; i < 2; ++i) {
            QCOMPARE(back.inputs[i].operand, r.inputs[i].operand);
            QCOMPARE(back.inputs[i].file, r.inputs[i].file);
            QCOMPARE(back.inputs[i].rows, r.inputs[i].rows);
            QCOMPARE(back.inputs[i].cols, r.inputs[i].cols);
            QCOMPARE(back.inputs[i].dtype, r.inputs[i].dtype);
            QCOMPARE(back.inputs[i].fortranOrder, r.inputs[i].fortranOrder);
        }
        const QString line = QString::fromStdString(formatInputsLine(back));
        QVERIFY2(line.startsWith(QStringLiteral("Your matrices: A from a.npy (")), qPrintable(line));
        QVERIFY2(line.contains(QStringLiteral("float32, C order), B from b.npy")), qPrintable(line));
        QVERIFY2(line.contains(QStringLiteral("float64, Fortran order)")), qPrintable(line));
        QVERIFY(QString::fromStdString(formatReport(back)).startsWith(line + QLatin1Char('\n')));

        const std::string generated = toJson(fullRecord());
        QVERIFY(!nlohmann::json::parse(generated)["blocked_gemm"].contains("inputs"));
        QVERIFY(recordFromJson(generated).inputs.empty());
        QVERIFY(!QString::fromStdString(formatReport(fullRecord())).contains(QStringLiteral("Your matrices")));
        const std::string bad = withField(json, [](nlohmann::json& d) { d["blocked_gemm"]["inputs"][1]["order"] = "X"; });
        QVERIFY(inputErrorOf([&] { recordFromJson(bad); }).contains(QStringLiteral("order")));
    }

    void malformedJsonIsRefused()
    {
        const QString error = inputErrorOf([] { recordFromJson("{\"format_version\": 1,"); });
        QVERIFY2(error.contains(QStringLiteral("not valid JSON")), qPrintable(error));
        QVERIFY(!inputErrorOf([] { recordFromJson(""); }).isEmpty());
        QVERIFY(!inputErrorOf([] { recordFromJson("[1, 2]"); }).isEmpty());
    }

    void missingOrWrongFieldIsNamed_data()
    {
        QTest::addColumn<QString>("pointer");  // JSON pointer to damage
        QTest::addColumn<bool>("remove");       // remove it, else replace it by a string
        QTest::addColumn<QString>("named");
        QTest::newRow("missing shape.m") << "/blocked_gemm/config/shape/m" << true << "blocked_gemm.config.shape.m";
        QTest::newRow("missing version") << "/format_version" << true << "format_version";
        QTest::newRow("missing plan buffers") << "/blocked_gemm/plan/buffers" << true << "blocked_gemm.plan.buffers";
        QTest::newRow("missing span kind") << "/spans/1/kind" << true << "spans[1].kind";
        QTest::newRow("unknown span kind") << "/spans/1/kind" << false << "spans[1].kind";
        QTest::newRow("missing verdict") << "/events/verifications/0/result/verdict" << true
                                         << "events.verifications[0].result.verdict";
        QTest::newRow("wrong type cap") << "/blocked_gemm/config/mem_cap_bytes" << false
                                        << "blocked_gemm.config.mem_cap_bytes";
        QTest::newRow("wrong type metrics") << "/metrics/flops" << false << "metrics.flops";
        QTest::newRow("unknown enum") << "/blocked_gemm/config/strategy" << false << "blocked_gemm.config.strategy";
        QTest::newRow("missing family") << "/family" << true << "family";
        QTest::newRow("missing devices") << "/devices" << true << "devices";
    }

    void missingOrWrongFieldIsNamed()
    {
        QFETCH(QString, pointer);
        QFETCH(bool, remove);
        QFETCH(QString, named);
        const std::string json = withField(toJson(fullRecord()), [&](nlohmann::json& d) {
            const nlohmann::json::json_pointer ptr(pointer.toStdString());
            if (remove)
                d[ptr.parent_pointer()].erase(ptr.back());
            else
                d[ptr] = "s9";
        });
        const QString error = inputErrorOf([&] { recordFromJson(json); });
        QVERIFY2(error.contains(QLatin1Char('\'') + named + QLatin1Char('\'')), qPrintable(error));
    }

    // Format 2: the shared envelope at the top, the family's part in its own section.
    void writesTheEnvelopeAndTheFamilySection()
    {
        const nlohmann::json doc = nlohmann::json::parse(toJson(fullRecord()));
        QCOMPARE(doc["format_version"].get<int>(), 2);
        QCOMPARE(QString::fromStdString(doc["family"].get<std::string>()), QStringLiteral("blocked_gemm"));
        for (const char* shared : {"status", "error", "devices", "metrics", "events", "spans"})
            QVERIFY2(doc.contains(shared), shared);
        QVERIFY(doc["devices"].is_array() && doc["devices"].size() == 1);
        for (const char* own : {"config", "plan", "faults", "reference"}) {
            QVERIFY2(doc["blocked_gemm"].contains(own), own);
            QVERIFY2(!doc.contains(own), own);
        }
        QVERIFY(doc["events"].contains("injections") && doc["events"].contains("verifications"));
    }

    void unknownFamilyIsRefused()
    {
        const std::string json = withField(toJson(fullRecord()), [](nlohmann::json& d) { d["family"] = "strassen9"; });
        QVERIFY(inputErrorOf([&] { recordFromJson(json); }).contains(QStringLiteral("strassen9")));
    }

    // A record of format 1 (written before families had sections: tests/data keeps one from the
    // CLI) opens with every field, and is written back as format 2 without loss.
    void version1RecordsOpen()
    {
        const std::string path = GIGACHECK_TEST_DATA "/ui_record_s2_cli.json";
        const RunRecord v1 = loadRecord(path);
        QCOMPARE(v1.formatVersion, 1);
        QCOMPARE(QString::fromStdString(v1.family), QStringLiteral("blocked_gemm"));
        QCOMPARE(v1.status, std::string("ok"));
        QCOMPARE(v1.config.shape, (Shape{512, 384, 640}));
        COMPARE_NAMES(v1.config.strategy, StrategyKind::S2);
        QVERIFY(!v1.spans.empty());
        QVERIFY(!v1.plan.buffers.empty());
        QVERIFY(!v1.verifications.empty());
        COMPARE_NAMES(v1.devices.front().backend, BackendKind::Cpu);
        COMPARE_NAMES(v1.config.h2dStaging, H2dStaging::Direct);  // before packing: every load direct

        const RunRecord v2 = recordFromJson(toJson(v1));
        QCOMPARE(v2.formatVersion, 2);
        QCOMPARE(toJson(v2), toJson(v1));
        QCOMPARE(v2.spans.size(), v1.spans.size());
        QCOMPARE(v2.verifications.size(), v1.verifications.size());
        QCOMPARE(v2.injections.size(), v1.injections.size());
        QCOMPARE(v2.plan.buffers.size(), v1.plan.buffers.size());
        QCOMPARE(v2.metrics.flops, v1.metrics.flops);
        QCOMPARE(v2.faults.injected, v1.faults.injected);
    }

    // Spans of a multi-device run keep their device; single-device spans do not write one.
    void spanDevicesRoundTrip()
    {
        RunRecord r = fullRecord();
        r.spans.front().device = 1;
        const RunRecord back = recordFromJson(toJson(r));
        QCOMPARE(back.spans.front().device, 1);
        QCOMPARE(back.spans.back().device, 0);
        QVERIFY(!nlohmann::json::parse(toJson(r))["spans"].back().contains("device"));
    }

    // What a record claims is checked before anything uses it: each damage names its field.
    void implausibleClaimsAreRefused_data()
    {
        QTest::addColumn<QString>("pointer");  // JSON pointer to replace
        QTest::addColumn<QString>("value");    // by this JSON text
        QTest::addColumn<QString>("named");
        QTest::newRow("shape 2^64 - 1") << "/blocked_gemm/config/shape/m" << "18446744073709551615" << "blocked_gemm.config.shape.m";
        QTest::newRow("shape over 2^31") << "/blocked_gemm/config/shape/q" << "4294967296" << "blocked_gemm.config.shape.q";
        QTest::newRow("zero shape") << "/blocked_gemm/config/shape/n" << "0" << "blocked_gemm.config.shape.n";
        QTest::newRow("negative shape") << "/blocked_gemm/config/shape/m" << "-5" << "blocked_gemm.config.shape.m";
        QTest::newRow("version 2^32 + 1") << "/format_version" << "4294967297" << "format_version";
        QTest::newRow("version 0") << "/format_version" << "0" << "format_version";
        QTest::newRow("version a fraction") << "/format_version" << "1.5" << "format_version";
        QTest::newRow("negative tile") << "/blocked_gemm/config/tile" << "-32" << "blocked_gemm.config.tile";
        // A lambda that blinds the checks of the run made again from the record (gigacheck rerun).
        QTest::newRow("status no run writes") << "/status" << "\"bogus\"" << "status";
        QTest::newRow("lambda 1e6") << "/blocked_gemm/config/threshold_lambda" << "1e6" << "blocked_gemm.config.threshold_lambda";
        // get<int>() of a float out of an int's range is undefined behaviour: refused before it.
        QTest::newRow("tile 1e30") << "/blocked_gemm/config/tile" << "1e30" << "blocked_gemm.config.tile";
        QTest::newRow("split a fraction") << "/blocked_gemm/plan/split_m" << "2.5" << "blocked_gemm.plan.split_m";
        QTest::newRow("tile over an int") << "/blocked_gemm/config/tile" << "4294967328" << "blocked_gemm.config.tile";
        QTest::newRow("zero split") << "/blocked_gemm/plan/split_m" << "0" << "blocked_gemm.plan.split_m";
        QTest::newRow("negative split") << "/blocked_gemm/plan/split_n" << "-1" << "blocked_gemm.plan.split_n";
        QTest::newRow("split 2^31 - 1") << "/blocked_gemm/plan/split_q" << "2147483647" << "blocked_gemm.plan.split_q";
        QTest::newRow("split disagrees with block") << "/blocked_gemm/plan/split_m" << "41" << "blocked_gemm.plan.split_m";
        QTest::newRow("block larger than C") << "/blocked_gemm/plan/block_q" << "5000" << "blocked_gemm.plan.block_q";
        QTest::newRow("plan of another shape") << "/blocked_gemm/plan/shape/m" << "19999" << "blocked_gemm.plan.shape";
        QTest::newRow("span block outside the plan") << "/spans/0/block/i" << "40" << "spans[0].block.i";
        QTest::newRow("span ending before it starts") << "/spans/1/end" << "0.0" << "spans[1].end";
        QTest::newRow("span time not finite") << "/spans/1/start" << "\"nan\"" << "spans[1].start";
        QTest::newRow("injection outside C") << "/events/injections/0/injection/global_row" << "20000"
                                             << "events.injections[0].injection.global_row";
        QTest::newRow("injection outside its block") << "/events/injections/0/injection/local_row" << "502"
                                                     << "events.injections[0].injection.local_row";
        QTest::newRow("verification past C") << "/events/verifications/0/rows" << "19501" << "events.verifications[0].rows";
        QTest::newRow("mismatch outside the block") << "/events/verifications/0/result/mismatch_cols/1" << "501"
                                                    << "events.verifications[0].result.mismatch_cols[1]";
        QTest::newRow("correction outside the block") << "/events/verifications/0/result/corrections/0/row" << "-1"
                                                      << "events.verifications[0].result.corrections[0].row";
        QTest::newRow("negative fault position") << "/blocked_gemm/config/faults/at/0/col" << "-1" << "blocked_gemm.config.faults.at[0].col";
        QTest::newRow("bit outside an f64") << "/blocked_gemm/config/faults/bit" << "64" << "blocked_gemm.config.faults.bit";
        QTest::newRow("too many random faults") << "/blocked_gemm/config/faults/count" << "2000000" << "blocked_gemm.config.faults.count";
    }

    void implausibleClaimsAreRefused()
    {
        QFETCH(QString, pointer);
        QFETCH(QString, value);
        QFETCH(QString, named);
        const std::string json = withField(toJson(fullRecord()), [&](nlohmann::json& d) {
            d[nlohmann::json::json_pointer(pointer.toStdString())] = nlohmann::json::parse(value.toStdString());
        });
        const QString error = inputErrorOf([&] { recordFromJson(json); });
        QVERIFY2(error.contains(QLatin1Char('\'') + named + QLatin1Char('\'')), qPrintable(error));
    }

    void tooManyExplicitFaultsAreRefused()
    {
        RunRecord r = fullRecord();
        r.config.faults.at.assign(10001, FaultAt{1, 1, std::nullopt, std::nullopt});
        QVERIFY(inputErrorOf([&] { recordFromJson(toJson(r)); }).contains(QStringLiteral("'blocked_gemm.config.faults.at'")));
        r.config.faults.at.resize(10000);
        QCOMPARE(recordFromJson(toJson(r)).config.faults.at.size(), std::size_t(10000));
    }

    // The lab keeps its last configuration as a record with no plan and no events: it still reads.
    void aRecordWithoutPlanHoldsAConfiguration()
    {
        RunRecord holder;
        holder.config = fullRecord().config;
        QCOMPARE(recordFromJson(toJson(holder, -1)).config.shape, holder.config.shape);
        holder.spans = fullRecord().spans;  // but events need a plan to sit in
        QVERIFY(inputErrorOf([&] { recordFromJson(toJson(holder)); }).contains(QStringLiteral("'blocked_gemm.plan.shape'")));
    }

    // Nesting and numbers no parser type holds are refused before anything recurses, naming the file.
    void hostileFilesAreRefusedNamingTheFile_data()
    {
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<QString>("mentions");
        const QByteArray record = QByteArray::fromStdString(toJson(fullRecord()));
        QTest::newRow("100 000 nested objects")
            << QByteArray("{\"a\":").repeated(100000) + "1" + QByteArray("}").repeated(100000) << "nested deeper";
        QByteArray deepArray = record;
        deepArray.replace("\"error\": \"\"", "\"error\": " + QByteArray("[").repeated(1000000) +
                                                   QByteArray("]").repeated(1000000));
        QVERIFY(deepArray.size() > 2000000);
        QTest::newRow("an array 1 000 000 deep in one field") << deepArray << "nested deeper";
        QByteArray overflow = record;
        overflow.replace("\"total_seconds\": 1.5", "\"total_seconds\": 1e400");
        QVERIFY(overflow != record);
        QTest::newRow("1e400") << overflow << "not valid JSON";
        QTest::newRow("brackets inside strings do not count")
            << QByteArray(record).replace("\"error\": \"\"", "\"error\": \"" + QByteArray("[{").repeated(1000) + "\"")
            << "";
    }

    void hostileFilesAreRefusedNamingTheFile()
    {
        QFETCH(QByteArray, content);
        QFETCH(QString, mentions);
        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("hostile.json")).toStdString();
        std::ofstream(path, std::ios::binary).write(content.constData(), content.size());
        const QString error = inputErrorOf([&] { loadRecord(path); });
        if (mentions.isEmpty()) {
            QVERIFY2(error.isEmpty(), qPrintable(error));
            return;
        }
        QVERIFY2(error.startsWith(QString::fromStdString(path) + QStringLiteral(": ")), qPrintable(error));
        QVERIFY2(error.contains(mentions), qPrintable(error));
    }

    void savesAndLoadsFiles()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string path = dir.filePath(QStringLiteral("run.json")).toStdString();
        const RunRecord r = fullRecord();
        saveRecord(r, path);
        QCOMPARE(toJson(loadRecord(path)), toJson(r));
    }

    void failedSaveKeepsThePreviousRecord()
    {
        // A save that fails half way (here a file-size limit; on a desktop a full disk) must not
        // leave a truncated record where a good one was.
        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("run.json")).toStdString();
        RunRecord good = fullRecord();
        saveRecord(good, path);
        RunRecord bigger = good;
        bigger.spans.insert(bigger.spans.end(), 2000, good.spans.front());

        rlimit saved{};
        QVERIFY(getrlimit(RLIMIT_FSIZE, &saved) == 0);
        const auto previousHandler = std::signal(SIGXFSZ, SIG_IGN);  // a failed write, not a killed process
        rlimit small = saved;
        small.rlim_cur = std::filesystem::file_size(path) + 100;
        QVERIFY(setrlimit(RLIMIT_FSIZE, &small) == 0);
        const QString error = inputErrorOf([&] { saveRecord(bigger, path); });
        setrlimit(RLIMIT_FSIZE, &saved);
        std::signal(SIGXFSZ, previousHandler);

        QVERIFY2(error.contains(QStringLiteral("write failed")), qPrintable(error));
        QCOMPARE(toJson(loadRecord(path)), toJson(good));
        QVERIFY(!std::filesystem::exists(path + ".partial"));
        saveRecord(bigger, path);  // and the next save works
        QCOMPARE(loadRecord(path).spans.size(), bigger.spans.size());
    }

    void fileErrorsNameThePath()
    {
        QTemporaryDir dir;
        const std::string missing = dir.filePath(QStringLiteral("absent.json")).toStdString();
        QVERIFY(inputErrorOf([&] { loadRecord(missing); }).contains(QString::fromStdString(missing)));
        const std::string unwritable = dir.filePath(QStringLiteral("no/such/dir/run.json")).toStdString();
        QVERIFY(inputErrorOf([&] { saveRecord(fullRecord(), unwritable); }).contains(QString::fromStdString(unwritable)));

        const std::string broken = dir.filePath(QStringLiteral("broken.json")).toStdString();
        std::ofstream(broken) << "{ not json";
        const QString error = inputErrorOf([&] { loadRecord(broken); });
        QVERIFY2(error.startsWith(QString::fromStdString(broken)), qPrintable(error));
    }

    void referenceModeNames()
    {
        for (ReferenceMode m : {ReferenceMode::Auto, ReferenceMode::Full, ReferenceMode::Sample, ReferenceMode::None})
            COMPARE_NAMES(referenceModeFromString(toString(m)), m);
        COMPARE_NAMES(referenceModeFromString("sample"), ReferenceMode::Sample);
        QVERIFY(inputErrorOf([] { referenceModeFromString("partial"); }).contains(QStringLiteral("partial")));
    }

    void reportShowsTheSeedBlockAndTheFaultReport()
    {
        RunRecord r = fullRecord();
        r.config.precision = Precision::F32;
        r.config.shape = {20000, 2000, 2000};
        r.config.faults = FaultSpec{};
        r.config.faults.count = 1;
        r.config.tile = 32;
        const QString report = QString::fromStdString(formatReport(r));
        for (const char* expected :
             {"GIGACHECK =====", "A: 20000 x 2000  B: 2000 x 2000 -> C: 20000 x 2000", "Values type: float",
              "mul alg: error corrected", "Host memory required: 336.00 MB (320.43 MiB)", "# errors: 1 (scattered, delta, into result, one block product)", "Tile side: 32",
              "Strategy: s2", "Name: CPU: test machine (2 threads)", "Max Global Mem: 10.00 MB",
              "Corrected detected error(s)", "Total execute time (CPU steady clock)",
              "Average program performance: 128.5 GFLOP/s", "Total kernel intensity: 1.73962 FLOP/B",
              "why: --backend cpu", "40 x 4 blocks of C, 2 split(s)", "B' 4.03 MB",
              "injected 4, detected 3, corrected 2, uncorrectable 2, below threshold 1, missed 2, false positives 0",
              "candidate rows 501, 505; candidate cols 1, 7", "Reference check: sample, 64 row(s)", "FAILED"}) {
            QVERIFY2(report.contains(QString::fromUtf8(expected)),
                     qPrintable(QStringLiteral("missing '%1' in:\n%2").arg(QString::fromUtf8(expected), report)));
        }
        QVERIFY(report.contains(QStringLiteral("UNCORRECTABLE ERRORS REMAIN")));

        r.devices.front().backend = BackendKind::Cuda;
        const QString onGpu = QString::fromStdString(formatReport(r));
        QVERIFY(onGpu.contains(QStringLiteral("GPU mul alg")));
        QVERIFY(onGpu.contains(QStringLiteral("Total CUDA time")));

        // The host repair pass follows the device work: its seconds are named apart, not counted
        // as CUDA time (a 16384^2 block's re-check took seconds after a 0.2 s run).
        r.metrics.executeSeconds = 2.0;
        RepairEvent repair;
        repair.seconds = 1.5;
        r.repairs = {repair};
        const QString repaired = QString::fromStdString(formatReport(r));
        QVERIFY2(repaired.contains(QStringLiteral("Total CUDA time (CUDA events): 500.000 ms (then the host repair pass: 1.500 s)")),
                 qPrintable(repaired));
    }
};

QTEST_GUILESS_MAIN(TestRecord)
#include "tst_record.moc"
