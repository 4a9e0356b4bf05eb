// TF32 end to end on the CPU backend, which emulates `--gemm cublas-tf32` as the CUDA backend
// computes it (operands rounded to TF32 before their checksums, FP32 products; gigacheck/tf32.hpp):
// single bit flips that the former scheme let through as silent corruptions (bits 15-31 of a
// 256^3 product's cell, campaign c7a5b9c on the H200) are detected and corrected, every flip ends
// corrected or masked, and clean TF32 products of odd shapes and distributions raise no alarm.
#include "gigacheck/campaign.hpp"
#include "gigacheck/blocked_gemm/run.hpp"
#include "gigacheck/tf32.hpp"

#include "engine/gemm_run_helpers.hpp"

#include <QtTest>

#include <cmath>
#include <cstring>

using namespace gigacheck;

namespace {

RunConfig tf32Run(Shape shape, StrategyKind s)
{
    RunConfig cfg;
    cfg.shape = shape;
    cfg.backend = BackendKind::Cpu;
    cfg.strategy = s;
    cfg.gemm = GemmVariant::CublasTf32;
    cfg.reference = ReferenceMode::Full;
    cfg.memCapBytes = s == StrategyKind::None ? 0 : 3 * 256 * 256 * 4 / 4;  // s1-s4: several blocks
    return cfg;
}

CampaignConfig tf32Campaign(int runs)
{
    CampaignConfig c;
    c.runs = runs;
    c.shape = {256, 256, 256};
    c.type = CampaignType::Tf32;
    c.backend = BackendKind::Cpu;
    c.strategies = {StrategyKind::None, StrategyKind::S1, StrategyKind::S2, StrategyKind::S3, StrategyKind::S4};
    c.seed = 15;
    return c;
}

}  // namespace

class TestTf32Runs : public QObject {
    Q_OBJECT
private slots:
    void emulationRoundsTheOperands();
    void flipsThatWereSilentAreCorrected_data();
    void flipsThatWereSilentAreCorrected();
    void anyBitCampaignHasNoSilentCorruption();
    void cleanTf32RunsRaiseNoFalseAlarm();
    void cutlassTf32IsEmulatedAsTf32();
};

// The emulated product equals the FP32 product of the TF32-rounded inputs, not that of the inputs.
void TestTf32Runs::emulationRoundsTheOperands()
{
    RunConfig cfg = tf32Run({33, 70, 21}, StrategyKind::None);
    HostMatrix a, b;
    const test::FinishedRun run = test::runKeepingC(cfg, test::copyInputsTo(a, b));
    QCOMPARE(QString::fromStdString(run.record.status), QStringLiteral("ok"));
    QVERIFY(run.record.reference.passed);
    const test::ModelGaps off = test::gapsToRoundedProduct(a, b, run.c, [](float v) { return roundToTf32(v); });
    qInfo("largest difference to the TF32 model %.3g, to the FP32 product %.3g", off.toRounded, off.toPlain);
    QVERIFY(off.toRounded < 1e-5);               // FP32 accumulation only
    QVERIFY(off.toPlain > 10 * off.toRounded);  // the input rounding shows
}

void TestTf32Runs::flipsThatWereSilentAreCorrected_data()
{
    QTest::addColumn<int>("bit");
    for (int bit = 15; bit <= 22; ++bit)
        QTest::addRow("bit %d", bit) << bit;
}

// One flip of the cell with |C| in [8, 16) closest to the middle of a 256^3 product, every strategy.
// The former scheme's threshold (~0.8) let these through; now: detected, corrected, exit 0.
void TestTf32Runs::flipsThatWereSilentAreCorrected()
{
    QFETCH(int, bit);
    // Find a cell of the clean product with |C| in [8, 16): a flip of bit 15 changes it by 2^-5.
    RunConfig probe = tf32Run({256, 256, 256}, StrategyKind::S1);
    const test::FinishedRun clean = test::runKeepingC(probe);
    QVERIFY(clean.record.verifiedCorrect());
    const auto [row, col] = test::cellWithMagnitude(clean.c, 8, 16, 128 * 256);
    QVERIFY(row >= 0);
    for (StrategyKind s : {StrategyKind::None, StrategyKind::S1, StrategyKind::S2, StrategyKind::S3, StrategyKind::S4}) {
        RunConfig cfg = tf32Run({256, 256, 256}, s);
        cfg.faults.model = FaultModel::BitFlip;
        cfg.faults.bit = bit;
        cfg.faults.at.push_back({row, col, std::nullopt, std::nullopt});
        const RunRecord r = runGemm(cfg);
        QVERIFY2(r.status == "ok", r.error.c_str());
        QCOMPARE(r.faults.injected, 1);
        QVERIFY2(r.faults.detected == 1 && r.faults.corrected + r.faults.correctedByRecompute == 1,
                 qPrintable(QStringLiteral("%1: detected %2").arg(toString(s).data()).arg(r.faults.detected)));
        QCOMPARE(r.faults.falsePositives, 0);
        QVERIFY(r.reference.passed);
        QVERIFY(r.verifiedCorrect());
        QVERIFY(r.reference.maxRelError < 1.0);
    }
}

// Any bit of any cell, the checksums included, every strategy: corrected or masked, never SDC.
void TestTf32Runs::anyBitCampaignHasNoSilentCorruption()
{
    CampaignConfig c = tf32Campaign(200);
    c.target = CampaignTarget::Any;
    const CampaignResult r = runCampaign(c);
    QCOMPARE(int(r.runs.size()), 200);
    qInfo("%s", formatCampaignReport(r).c_str());
    // Operand faults before the checksums are invisible to ABFT by construction: SDC is allowed there.
    for (const CampaignRun& run : r.runs) {
        if (run.operand)
            continue;
        QVERIFY2(run.outcome != Outcome::SilentCorruption && run.outcome != Outcome::DetectedUncorrectable &&
                     run.outcome != Outcome::FalseAlarm,
                 reproduceCommand(c, run).c_str());
    }
    c = tf32Campaign(200);
    c.seed = 16;
    const CampaignResult result = runCampaign(c);  // the result only: the campaign's H200 case
    QCOMPARE(result.summary.all[Outcome::SilentCorruption], std::int64_t(0));
    QCOMPARE(result.summary.all[Outcome::DetectedUncorrectable], std::int64_t(0));
    QCOMPARE(result.summary.all[Outcome::FalseAlarm], std::int64_t(0));
    // Exponent and sign flips of cells of ~1-10 are far above the threshold: all detected.
    for (const CampaignRun& run : result.runs)
        if (run.bit >= 23)
            QVERIFY2(run.outcome == Outcome::Corrected || run.outcome == Outcome::CorrectedByRecompute,
                     reproduceCommand(c, run).c_str());
}

// Clean TF32 products of odd, skinny and 1-wide shapes, three distributions, every strategy.
void TestTf32Runs::cleanTf32RunsRaiseNoFalseAlarm()
{
    const Shape shapes[] = {{1, 1, 1}, {1, 300, 77}, {300, 1, 25}, {33, 17, 1}, {129, 3, 65}, {257, 129, 31}, {61, 470, 53}};
    int runs = 0;
    for (const Shape& shape : shapes)
        for (Distribution dist : {Distribution::Uniform, Distribution::Normal, Distribution::Wide}) {
            CampaignConfig c = tf32Campaign(20);
            c.shape = shape;
            c.distribution = dist;
            c.inject = false;
            c.seed = std::uint64_t(runs + 3);
            const CampaignResult r = runCampaign(c);
            runs += int(r.runs.size());
            QVERIFY2(r.summary.all[Outcome::Masked] == std::int64_t(r.runs.size()), formatCampaignReport(r).c_str());
        }
    QCOMPARE(runs, 7 * 3 * 20);
}

// --gemm cutlass-tf32 (the CUTLASS kernel that writes C's sums, Hopper only) on the CPU: the same
// TF32 emulation, thresholds and reference as cublas-tf32, so a run gives the same C and verdicts.
void TestTf32Runs::cutlassTf32IsEmulatedAsTf32()
{
    for (StrategyKind s : {StrategyKind::None, StrategyKind::S2}) {
        RunConfig tf32 = tf32Run({200, 131, 97}, s);
        tf32.faults.model = FaultModel::BitFlip;
        tf32.faults.bit = 27;
        tf32.faults.at.push_back({17, 33, std::nullopt, std::nullopt});
        RunConfig cutlass = tf32;
        cutlass.gemm = GemmVariant::CutlassTf32;
        HostMatrix cTf32, cCutlass;
        RunHooks hooks;
        hooks.resultOut = &cTf32;
        const RunRecord a = runGemm(tf32, hooks);
        hooks.resultOut = &cCutlass;
        const RunRecord b = runGemm(cutlass, hooks);
        QVERIFY2(b.status == "ok", b.error.c_str());
        QVERIFY(b.verifiedCorrect());
        QCOMPARE(b.faults.detected, 1);
        QCOMPARE(b.faults.detected, a.faults.detected);
        QCOMPARE(b.faults.maxThreshold, a.faults.maxThreshold);
        QCOMPARE(b.reference.maxRelError, a.reference.maxRelError);
        QCOMPARE(cCutlass.bytes(), cTf32.bytes());
        QVERIFY(std::memcmp(cCutlass.data(), cTf32.data(), cTf32.bytes()) == 0);
    }
}

QTEST_GUILESS_MAIN(TestTf32Runs)
#include "tst_tf32_runs.moc"
