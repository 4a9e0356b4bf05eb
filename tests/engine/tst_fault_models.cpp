// Fault models beside one cell (gigacheck/fault_models.hpp), on the CPU backend: row / column
// segments and tiles of a block, two bits of one word, and faults of the checker itself (a lying
// check, a hit correction write, a hit checksum kernel). Each ends in an outcome class, and where a
// model is beyond what the checksums correct the outcome is a recompute or DUE, never SDC.
#include "gigacheck/blocked_gemm.hpp"
#include "gigacheck/blocked_gemm/campaign.hpp"
#include "gigacheck/fault_models.hpp"

#include "test_helpers.hpp"

#include <QtTest>

#include <set>

using namespace gigacheck;
using gigacheck::test::inputErrorOf;

namespace {

RunConfig cpuRun()
{
    RunConfig c;
    c.shape = {96, 80, 72};
    c.backend = BackendKind::Cpu;
    c.strategy = StrategyKind::S1;
    c.memCapBytes = 48 * 1024;
    c.reference = ReferenceMode::Full;
    c.seed = 5;
    c.faults.seed = 5;
    return c;
}

CampaignConfig cpuCampaign(CampaignTarget target, int runs)
{
    CampaignConfig c;
    c.runs = runs;
    c.shape = {64, 48, 56};
    c.strategies = {StrategyKind::None, StrategyKind::S1, StrategyKind::S2, StrategyKind::S3, StrategyKind::S4};
    c.backend = BackendKind::Cpu;
    c.target = target;
    c.seed = 9;
    return c;
}

// No run may end silently wrong or raise an alarm nothing explains.
void checkNoSilentCorruption(const CampaignConfig& c, const CampaignResult& r)
{
    QCOMPARE(r.summary.all.total, std::int64_t(c.runs));
    for (const CampaignRun& run : r.runs)
        QVERIFY2(run.outcome != Outcome::SilentCorruption && run.outcome != Outcome::FalseAlarm,
                 (std::string(toString(run.outcome)) + ": " + reproduceCommand(c, run)).c_str());
}

}  // namespace

class TestFaultModels : public QObject {
    Q_OBJECT

private slots:
    void extentsNameAndParse()
    {
        FaultExtent e = FaultExtent::Cell;
        int n = 0;
        parseFaultExtent("row", e, n);
        QVERIFY(e == FaultExtent::RowSegment && n == 32);
        parseFaultExtent("tile:8", e, n);
        QVERIFY(e == FaultExtent::Tile && n == 8);
        QCOMPARE(faultExtentText(e, n), std::string("tile:8"));
        parseFaultExtent("cell", e, n);
        QCOMPARE(faultExtentText(e, n), std::string("cell"));
        QVERIFY(!inputErrorOf([&] { parseFaultExtent("row:0", e, n); }).isEmpty());
        QVERIFY(!inputErrorOf([&] { parseFaultExtent("warp", e, n); }).isEmpty());
        QVERIFY(!inputErrorOf([&] { parseFaultExtent("cell:3", e, n); }).isEmpty());
    }

    void segmentsAndTilesReachTheirCells()
    {
        RunConfig c = cpuRun();
        c.faults.at = {FaultAt{2, 3, 1.0, std::nullopt}};
        c.faults.extent = FaultExtent::RowSegment;
        c.faults.extentLength = 32;
        RunRecord r = runGemm(c);
        const std::int64_t cols = r.plan.colsOf(0);
        QCOMPARE(std::int64_t(r.injections.size()), std::min<std::int64_t>(32, cols - 3));  // clipped to the block
        for (const InjectEvent& e : r.injections)
            QVERIFY(e.injection.globalRow == 2 && e.injection.target == FaultTarget::Result && e.injection.applied);
        QVERIFY2(r.verifiedCorrect(), formatReport(r).c_str());
        QVERIFY(classifyRun(r) == Outcome::Corrected);  // collinear: corrected from the column checksums
        c.faults.extent = FaultExtent::Tile;
        c.faults.extentLength = 4;
        r = runGemm(c);
        std::set<std::pair<std::int64_t, std::int64_t>> cells;
        for (const InjectEvent& e : r.injections)
            cells.insert({e.injection.globalRow, e.injection.globalCol});
        QCOMPARE(cells.size(), std::size_t(16));
        QVERIFY(cells.count({5, 6}) == 1 && cells.count({2, 3}) == 1);
        QVERIFY2(r.verifiedCorrect(), formatReport(r).c_str());
        QVERIFY(classifyRun(r) == Outcome::CorrectedByRecompute);  // 4 rows x 4 columns: the block recomputed
        c.faults.extentLength = 0;
        QVERIFY(!inputErrorOf([&] { runGemm(c); }).isEmpty());
    }

    void twoBitsFlipTogether()
    {
        Injection inj;
        inj.model = FaultModel::BitFlip;
        inj.bit = 0;
        inj.bit2 = 1;
        QCOMPARE(applyFault(inj, 1.0, Precision::F32), double(std::bit_cast<float>(std::bit_cast<std::uint32_t>(1.0f) ^ 3u)));
        inj.bit2 = 40;
        QVERIFY(!inputErrorOf([&] { applyFault(inj, 1.0, Precision::F32); }).isEmpty());
        QCOMPARE(applyFault(inj, 1.0, Precision::F64),
                 std::bit_cast<double>(std::bit_cast<std::uint64_t>(1.0) ^ ((std::uint64_t(1) << 40) | 1)));
    }

    void eachModelEndsRightInARun_data()
    {
        QTest::addColumn<QString>("extent");
        QTest::addColumn<int>("target");
        QTest::addColumn<int>("bit2");
        QTest::addColumn<int>("precision");
        for (Precision p : {Precision::F32, Precision::F64}) {
            const char* name = p == Precision::F64 ? "f64" : "f32";
            QTest::addRow("%s row segment", name) << "row:32" << int(FaultTarget::Result) << -1 << int(p);
            QTest::addRow("%s column segment", name) << "col:32" << int(FaultTarget::Result) << -1 << int(p);
            QTest::addRow("%s tile", name) << "tile:8" << int(FaultTarget::Result) << -1 << int(p);
            QTest::addRow("%s two bits", name) << "cell" << int(FaultTarget::Result) << 27 << int(p);
            QTest::addRow("%s lying check", name) << "cell" << int(FaultTarget::Check) << -1 << int(p);
            QTest::addRow("%s correction write", name) << "cell" << int(FaultTarget::Correction) << -1 << int(p);
            QTest::addRow("%s encoding A", name) << "cell" << int(FaultTarget::EncodingA) << -1 << int(p);
            QTest::addRow("%s encoding B", name) << "cell" << int(FaultTarget::EncodingB) << -1 << int(p);
        }
    }

    void eachModelEndsRightInARun()
    {
        QFETCH(QString, extent);
        QFETCH(int, target);
        QFETCH(int, bit2);
        QFETCH(int, precision);
        RunConfig c = cpuRun();
        c.precision = Precision(precision);
        c.faults.model = FaultModel::BitFlip;
        c.faults.bit = precision == int(Precision::F64) ? 62 : 30;  // the top exponent bit: huge
        c.faults.bit2 = bit2;
        c.faults.target = FaultTarget(target);
        parseFaultExtent(extent.toStdString(), c.faults.extent, c.faults.extentLength);
        if (c.faults.target == FaultTarget::Result || c.faults.target == FaultTarget::Correction)
            c.faults.at = {FaultAt{40, 30, std::nullopt, std::nullopt}};
        else
            c.faults.count = 1;
        const RunRecord r = runGemm(c);
        QVERIFY2(r.faults.injected >= 1, formatReport(r).c_str());
        // Whatever the model, C ends right (the full reference agrees) and the run says so.
        QVERIFY2(r.verifiedCorrect(), formatReport(r).c_str());
        QVERIFY2(r.reference.passed, formatReport(r).c_str());
        const Outcome o = classifyRun(r);
        QVERIFY2(o != Outcome::SilentCorruption && o != Outcome::FalseAlarm && o != Outcome::Masked,
                 (std::string(toString(o)) + "\n" + formatReport(r)).c_str());
        if (c.faults.target == FaultTarget::Correction) {  // the hit write is made right by the repair pass
            QVERIFY(std::any_of(r.injections.begin(), r.injections.end(), [](const InjectEvent& e) {
                return e.injection.target == FaultTarget::Correction && e.injection.applied;
            }));
            QVERIFY(o == Outcome::CorrectedByRecompute);
        }
        if (extent == QStringLiteral("tile:8"))  // several rows and columns: beyond the checksums
            QVERIFY(o == Outcome::CorrectedByRecompute || o == Outcome::DetectedUncorrectable);
        // The record reads back with the model's fields.
        const RunRecord back = recordFromJson(toJson(r));
        QCOMPARE(toJson(back), toJson(r));
        QVERIFY(back.config.faults.extent == c.faults.extent && back.config.faults.extentLength == c.faults.extentLength);
        QCOMPARE(back.config.faults.bit2, c.faults.bit2);
    }

    void campaignsOfEveryModelHaveNoSilentCorruption_data()
    {
        QTest::addColumn<int>("target");
        QTest::addColumn<QString>("model");
        QTest::addColumn<QString>("fault");
        QTest::addColumn<int>("type");
        for (CampaignType type : {CampaignType::F32, CampaignType::F64, CampaignType::Tf32}) {
            const std::string t(toString(type));
            QTest::addRow("%s row:32", t.c_str()) << int(CampaignTarget::Result) << "row:32" << "bitflip:any" << int(type);
            QTest::addRow("%s col:32", t.c_str()) << int(CampaignTarget::Result) << "col:32" << "bitflip:any" << int(type);
            QTest::addRow("%s tile:8", t.c_str()) << int(CampaignTarget::Result) << "tile:8" << "delta" << int(type);
            QTest::addRow("%s two bits", t.c_str()) << int(CampaignTarget::Result) << "cell" << "bitflip2" << int(type);
            QTest::addRow("%s check", t.c_str()) << int(CampaignTarget::Check) << "cell" << "bitflip:any" << int(type);
            QTest::addRow("%s correction", t.c_str()) << int(CampaignTarget::Correction) << "cell" << "delta" << int(type);
            QTest::addRow("%s encoding", t.c_str()) << int(CampaignTarget::Encoding) << "cell" << "bitflip:any" << int(type);
        }
    }

    void campaignsOfEveryModelHaveNoSilentCorruption()
    {
        QFETCH(int, target);
        QFETCH(QString, model);
        QFETCH(QString, fault);
        QFETCH(int, type);
        CampaignConfig c = cpuCampaign(CampaignTarget(target), 30);
        c.type = CampaignType(type);
        parseCampaignFault(fault.toStdString(), c);
        parseFaultExtent(model.toStdString(), c.extent, c.extentLength);
        const CampaignResult r = runCampaign(c);
        checkNoSilentCorruption(c, r);
        if (c.target == CampaignTarget::Correction)
            QVERIFY(r.summary.all[Outcome::CorrectedByRecompute] > 0);
        if (model == QStringLiteral("tile:8"))
            QCOMPARE(r.summary.all[Outcome::Corrected], std::int64_t(0));  // never fixed from the checksums alone
        // The file holds the model and reads back to the same campaign; every run replays alone.
        const CampaignResult back = campaignFromJson(campaignToJson(r));
        QCOMPARE(campaignToJson(back), campaignToJson(r));
        QVERIFY(reproduceCommand(c, r.runs[0]).find("gigacheck run") == 0);
    }

    void checkerFaultsRunOnEveryBackend()
    {
        // The CUDA backend applies the checker's faults and two-bit flips as the CPU's ops do
        // (tests/gpu/tst_cuda_checker_faults.cpp compares the outcomes on a device).
        FaultSpec spec;
        spec.count = 1;
        spec.target = FaultTarget::Check;
        QVERIFY(faultsUnsupportedOn(spec, BackendKind::Cuda).empty());
        QVERIFY(faultsUnsupportedOn(spec, BackendKind::Cpu).empty());
        spec.target = FaultTarget::Result;
        spec.model = FaultModel::BitFlip;
        spec.bit2 = 3;
        QVERIFY(faultsUnsupportedOn(spec, BackendKind::Cuda).empty());
        spec.bit2 = -1;
        spec.extent = FaultExtent::Tile;  // segments and tiles are result cells: every backend injects them
        QVERIFY(faultsUnsupportedOn(spec, BackendKind::Cuda).empty());
        CampaignConfig c = cpuCampaign(CampaignTarget::Check, 3);
        DeviceInfo gpu;
        gpu.backend = BackendKind::Cuda;
        validateCampaign(c, gpu);
        c.target = CampaignTarget::Result;
        c.family = "online";
        c.scheme = "online";
        c.twoBits = true;
        validateCampaign(c, DeviceInfo{});  // two bits of one word: every family's model
        c.bit = c.bit2 = 5;
        QVERIFY(inputErrorOf([&] { validateCampaign(c, DeviceInfo{}); }).contains(QStringLiteral("two different bits")));
        c.bit = c.bit2 = -1;
        c.type = CampaignType::Bf16;  // 16-bit inputs: the blocked family's
        QVERIFY(inputErrorOf([&] { validateCampaign(c, DeviceInfo{}); }).contains(QStringLiteral("blocked family")));
    }
};

QTEST_GUILESS_MAIN(TestFaultModels)
#include "tst_fault_models.moc"
