// The blocked ABFT GEMM spread over G devices (issue 14 item 3) on the CPU backend's emulated
// devices: the schedule places each C block's ops on one device, every device gets work, each
// device's buffers are a copy of the plan's under the per-device cap; runs over G = 2 and 3 give
// the C of G = 1 and correct faults injected on every device, for every strategy; G = 1 is
// unchanged; the record keeps the device count; `gigacheck run --devices` works end to end.
#include "test_helpers.hpp"

#include "gigacheck/blocked_gemm.hpp"
#include "gigacheck/blocked_gemm/record.hpp"
#include "gigacheck/blocked_gemm/run.hpp"

#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>
#include <map>
#include <set>

using namespace gigacheck;

Q_DECLARE_METATYPE(gigacheck::StrategyKind)

namespace {

const StrategyKind kStrategies[] = {StrategyKind::S1, StrategyKind::S2, StrategyKind::S3, StrategyKind::S4};

// Splits every dimension of 150 x 70 x 130 (FP32, ABFT): several C blocks and k steps.
Plan smallPlan(StrategyKind s, int devices = 1)
{
    return makePlan({150, 70, 130}, Precision::F32, s, 40000, true, devices);
}

RunConfig cpuConfig(StrategyKind s, int devices)
{
    RunConfig c;
    c.shape = {150, 70, 130};
    c.backend = BackendKind::Cpu;
    c.strategy = s;
    c.memCapBytes = 40000;
    c.devices = devices;
    c.reference = ReferenceMode::Full;
    return c;
}

std::set<int> devicesOf(const Schedule& s, OpKind kind)
{
    std::set<int> out;
    for (const Operation& op : s.ops)
        if (op.kind == kind)
            out.insert(op.device);
    return out;
}

}  // namespace

class TestMultiDeviceGemm : public QObject {
    Q_OBJECT

private slots:
    void strategies_data()
    {
        QTest::addColumn<StrategyKind>("strategy");
        for (StrategyKind s : kStrategies)
            QTest::newRow(std::string(toString(s)).c_str()) << s;
    }

    // G = 1 through the new overloads is the schedule of old, op for op.
    void oneDeviceIsUnchanged_data() { strategies_data(); }
    void oneDeviceIsUnchanged()
    {
        QFETCH(StrategyKind, strategy);
        const Plan plan = smallPlan(strategy, 1);
        const Plan old = makePlan({150, 70, 130}, Precision::F32, strategy, 40000, true);
        QCOMPARE(plan.splitM, old.splitM);
        QCOMPARE(plan.splitN, old.splitN);
        QCOMPARE(plan.splitQ, old.splitQ);
        QCOMPARE(plan.explanation, old.explanation);
        const GemmSchedule a = buildSchedule(old, true);
        const GemmSchedule b = buildSchedule(plan, true, 1);
        QCOMPARE(b.devices, 1);
        QCOMPARE(b.buffers.size(), a.buffers.size());
        QCOMPARE(b.ops.size(), a.ops.size());
        for (std::size_t i = 0; i < a.ops.size(); ++i) {
            QVERIFY(b.ops[i].kind == a.ops[i].kind);
            QVERIFY(b.ops[i].block == a.ops[i].block);
            QCOMPARE(b.ops[i].deps, a.ops[i].deps);
            QCOMPARE(b.ops[i].stream, a.ops[i].stream);
            QCOMPARE(b.ops[i].device, 0);
        }
    }

    // Every device gets C blocks, every block's ops stay on one device with that device's buffers,
    // and the validator accepts it.
    void schedulePlacesOpsOnEveryDevice_data()
    {
        QTest::addColumn<StrategyKind>("strategy");
        QTest::addColumn<int>("devices");
        for (StrategyKind s : kStrategies)
            for (int g : {2, 3})
                QTest::newRow((std::string(toString(s)) + " G=" + std::to_string(g)).c_str()) << s << g;
    }
    void schedulePlacesOpsOnEveryDevice()
    {
        QFETCH(StrategyKind, strategy);
        QFETCH(int, devices);
        const Plan plan = smallPlan(strategy, devices);
        QVERIFY2(blockUnitCount(plan) >= devices, qPrintable(test::qs(plan.explanation)));
        const GemmSchedule s = buildSchedule(plan, true, devices);
        QCOMPARE(s.devices, devices);
        QCOMPARE(s.buffers.size(), plan.buffers.size() * std::size_t(devices));
        for (std::size_t slot = 0; slot < s.buffers.size(); ++slot)
            QCOMPARE(s.buffers[slot].device, int(slot / plan.buffers.size()));
        const QString problem = test::qs(validateSchedule(s));
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        for (OpKind kind : {OpKind::CopyH2D, OpKind::Product, OpKind::Verify, OpKind::Inject, OpKind::CopyD2H})
            QCOMPARE(int(devicesOf(s, kind).size()), devices);
        // Each C block on the device deviceOfBlock names; each product once.
        int products = 0;
        for (const Operation& op : s.ops)
            if (op.kind == OpKind::Product) {
                ++products;
                QCOMPARE(op.device, deviceOfBlock(plan, devices, op.block.i, op.block.j));
            }
        QCOMPARE(products, plan.productCount());
        // The devices' ops interleave in issue order: device 1 starts before device 0 is half done.
        int firstOfLast = -1;
        for (const Operation& op : s.ops)
            if (op.device == devices - 1) {
                firstOfLast = op.id;
                break;
            }
        QVERIFY(firstOfLast >= 0 && firstOfLast < int(s.ops.size()) / 2);
    }

    // Contiguous, balanced ranges; an S4 pair never split.
    void blocksAreDealtInContiguousRanges()
    {
        Plan plan = smallPlan(StrategyKind::S1);
        plan.splitM = 3;
        plan.splitQ = 3;  // 9 blocks over 2 devices: 5 and 4
        std::vector<int> seen;
        for (int i = 0; i < 3; ++i)
            for (int j = 0; j < 3; ++j)
                seen.push_back(deviceOfBlock(plan, 2, i, j));
        QCOMPARE(seen, (std::vector<int>{0, 0, 0, 0, 0, 1, 1, 1, 1}));
        plan.strategy = StrategyKind::S4;  // pairs (j 0-1) and (j 2): 6 units over 4 devices
        for (int i = 0; i < 3; ++i)
            QCOMPARE(deviceOfBlock(plan, 4, i, 0), deviceOfBlock(plan, 4, i, 1));
        QCOMPARE(deviceOfBlock(plan, 4, 2, 2), 3);
        QCOMPARE(deviceOfBlock(plan, 1, 2, 2), 0);
    }

    // An in-core cap gives one block; over G devices the rows of C are cut into G strips first.
    void inCoreCapGivesEveryDeviceAStrip()
    {
        const Shape shape{300, 200, 100};
        const Plan one = makePlan(shape, Precision::F32, StrategyKind::S1, 64ull << 20, true, 1);
        QCOMPARE(one.blockCount(), 1);
        for (int g : {2, 3}) {
            const Plan plan = makePlan(shape, Precision::F32, StrategyKind::S1, 64ull << 20, true, g);
            QCOMPARE(plan.splitM, g);
            QCOMPARE(plan.splitQ, 1);
            QVERIFY(plan.bytesNeeded <= plan.capBytes);
            QVERIFY(plan.explanation.find("strips") != std::string::npos);
            const QString problem = test::qs(validateSchedule(buildSchedule(plan, false, g)));
            QVERIFY2(problem.isEmpty(), qPrintable(problem));
        }
        // Strategy none keeps each device's share in one block.
        const Plan none = makePlan(shape, Precision::F32, StrategyKind::None, 64ull << 20, true, 2);
        QCOMPARE(none.blockCount(), 2);
    }

    // The validator refuses an op that uses another device's buffer and a C block split over devices.
    void validatorChecksDevices()
    {
        const Plan plan = smallPlan(StrategyKind::S1, 2);
        GemmSchedule s = buildSchedule(plan, false, 2);
        for (Operation& op : s.ops)
            if (op.kind == OpKind::Verify) {
                op.device = 1 - op.device;
                break;
            }
        QVERIFY(test::qs(validateSchedule(s)).contains("device"));
        GemmSchedule t = buildSchedule(plan, false, 2);
        for (Operation& op : t.ops)
            if (op.kind == OpKind::CopyD2H && op.device == 1) {
                // Its C block's other ops stay on device 1: moving the store and its buffer is caught.
                op.device = 0;
                break;
            }
        QVERIFY(!validateSchedule(t).empty());
    }

    // G = 2 and 3 emulated devices compute the C of G = 1, and correct a fault in every block
    // product, on every device.
    void runsMatchOneDeviceAndCorrectFaults_data() { schedulePlacesOpsOnEveryDevice_data(); }
    void runsMatchOneDeviceAndCorrectFaults()
    {
        QFETCH(StrategyKind, strategy);
        QFETCH(int, devices);
        HostMatrix single, spread;
        RunHooks oneHooks;
        oneHooks.resultOut = &single;
        RunConfig oneConfig = cpuConfig(strategy, 1);
        oneConfig.faults.count = 1;
        oneConfig.faults.scope = FaultScope::EveryProduct;
        const RunRecord one = runGemm(oneConfig, oneHooks);
        QVERIFY(one.verifiedCorrect());

        RunConfig config = oneConfig;
        config.devices = devices;
        RunHooks hooks;
        hooks.resultOut = &spread;
        const RunRecord r = runGemm(config, hooks);
        QVERIFY2(r.verifiedCorrect(), qPrintable(test::qs(r.status + " " + r.error)));
        QCOMPARE(int(r.devices.size()), devices);
        QCOMPARE(r.config.devices, devices);
        QVERIFY(r.faults.injected >= r.plan.productCount());
        QCOMPARE(r.faults.corrected + r.faults.correctedByRecompute + r.faults.belowThreshold, r.faults.injected);
        QCOMPARE(r.faults.uncorrectable, 0);
        QCOMPARE(r.faults.missed, 0);

        std::set<int> injectedOn, storedOn;
        std::map<int, int> deviceOfOp;
        for (const Span& s : r.spans) {
            deviceOfOp[s.opId] = s.device;
            if (s.kind == OpKind::CopyD2H)
                storedOn.insert(s.device);
        }
        for (const InjectEvent& e : r.injections)
            injectedOn.insert(deviceOfOp.at(e.opId));
        QCOMPARE(int(injectedOn.size()), devices);
        QCOMPARE(int(storedOn.size()), devices);

        // The same product: bit for bit where the plan of G = 1 was kept (the same block
        // products, the same faults, the same corrections), else within round-off.
        const bool samePlan = r.plan.splitM == one.plan.splitM && r.plan.splitN == one.plan.splitN &&
                              r.plan.splitQ == one.plan.splitQ;
        QCOMPARE(spread.rows(), single.rows());
        const float* x = spread.as<float>();
        const float* y = single.as<float>();
        double worst = 0;
        for (std::int64_t e = 0; e < single.rows() * single.cols(); ++e)
            worst = std::max(worst, double(std::fabs(x[e] - y[e])) / (1.0 + std::fabs(double(y[e]))));
        QVERIFY2(samePlan ? worst == 0 : worst < 1e-5, qPrintable(QString::number(worst)));
        // Per device: the report lists each device's time.
        const std::string report = formatReport(r);
        QVERIFY(report.find("Devices (" + std::to_string(devices) + ")") != std::string::npos);
        QVERIFY(report.find("emulated CPU devices") != std::string::npos);
    }

    // More devices than the backend has is refused before anything runs; so is 0.
    void refusesTooFewDevices()
    {
        auto backend = makeCpuBackend(2);
        RunHooks hooks;
        hooks.backend = backend.get();
        QVERIFY(test::inputErrorOf([&] { runGemm(cpuConfig(StrategyKind::S1, 3), hooks); }).contains("--devices 3"));
        QVERIFY(test::inputErrorOf([] { runGemm(cpuConfig(StrategyKind::S1, 0)); }).contains("--devices"));
    }

    // The record keeps the device count (and writes none for one device, as before).
    void recordKeepsDevices()
    {
        const RunRecord two = runGemm(cpuConfig(StrategyKind::S3, 2));
        const std::string text = toJson(two);
        const nlohmann::json doc = nlohmann::json::parse(text);
        QCOMPARE(doc["devices"].size(), std::size_t(2));
        const RunRecord back = recordFromJson(text);
        QCOMPARE(back.config.devices, 2);
        QCOMPARE(int(back.devices.size()), 2);
        const std::string oneText = toJson(runGemm(cpuConfig(StrategyKind::S3, 1)));
        QVERIFY(oneText.find("\"devices\": 1") == std::string::npos && oneText.find("\"devices\":1") == std::string::npos);
        QCOMPARE(recordFromJson(oneText).config.devices, 1);
    }

    // gigacheck run --devices 2: exit 0, the record lists two devices, the report each one's time.
    void cliRunsOnTwoDevices()
    {
        QTemporaryDir dir;
        const QString json = dir.filePath(QStringLiteral("run.json"));
        QProcess p;
        p.start(QStringLiteral(GIGACHECK_CLI),
                {QStringLiteral("run"), QStringLiteral("--shape"), QStringLiteral("150x70x130"), QStringLiteral("--backend"),
                 QStringLiteral("cpu"), QStringLiteral("--mem"), QStringLiteral("40000B"), QStringLiteral("--strategy"),
                 QStringLiteral("s3"), QStringLiteral("--devices"), QStringLiteral("2"), QStringLiteral("--errors"),
                 QStringLiteral("1"), QStringLiteral("--json"), json});
        QVERIFY(p.waitForFinished(120000));
        const QString out = QString::fromUtf8(p.readAllStandardOutput());
        QVERIFY2(p.exitCode() == 0, qPrintable(out + QString::fromUtf8(p.readAllStandardError())));
        QVERIFY(out.contains(QStringLiteral("Devices (2)")));
        std::ifstream f(json.toStdString());
        const nlohmann::json doc = nlohmann::json::parse(f);
        QCOMPARE(doc["devices"].size(), std::size_t(2));
        p.start(QStringLiteral(GIGACHECK_CLI), {QStringLiteral("run"), QStringLiteral("--shape"), QStringLiteral("64x64x64"),
                                               QStringLiteral("--backend"), QStringLiteral("cpu"), QStringLiteral("--devices"),
                                               QStringLiteral("0")});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 2);
    }
};

QTEST_GUILESS_MAIN(TestMultiDeviceGemm)
#include "tst_multi_device_gemm.moc"
