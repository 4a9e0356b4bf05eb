// End-to-end operand checks of the blocked GEMM (gigacheck/blocked_gemm/operand_checks.hpp), on the CPU backend:
// the checksums taken where A and B entered the program see an operand corrupted afterwards, the
// host element is restored, the C blocks it fed are recomputed, and C is the product of the inputs
// as they entered; what the entry sums cannot restore ends as an uncorrectable run, never VERIFIED.
#include "gigacheck/blocked_gemm.hpp"
#include "gigacheck/blocked_gemm/campaign.hpp"
#include "engine/gemm_run_helpers.hpp"

#include "test_helpers.hpp"

#include <QtTest>

#include <algorithm>
#include <cmath>
#include <cstring>

using namespace gigacheck;

namespace {

RunConfig smallRun(Precision p, StrategyKind strategy)
{
    RunConfig c;
    c.shape = {96, 80, 72};
    c.precision = p;
    c.backend = BackendKind::Cpu;
    c.strategy = strategy;
    c.memCapBytes = strategy == StrategyKind::None ? 0 : 48 * 1024;  // several blocks
    c.reference = ReferenceMode::Full;
    c.seed = 7;
    return c;
}

}  // namespace

class TestOperandChecks : public QObject {
    Q_OBJECT

private slots:
    void cleanCopiesMatchTheirEntrySums()
    {
        HostMatrix a(Precision::F32, 50, 40), b(Precision::F32, 40, 30);
        fillRandom(a, Distribution::Wide, 3, 1);
        fillRandom(b, Distribution::Wide, 3, 2);
        const Plan plan = makePlan({50, 40, 30}, Precision::F32, StrategyKind::S1, 16 * 1024, true);
        QVERIFY(plan.splitM * plan.splitN * plan.splitQ > 1);
        const EntryChecksums entry = takeEntryChecksums(a, b, plan);
        // A block (i, k) as a copy: rows of A from rowOffset(i), columns from depthOffset(k).
        const int i = plan.splitM - 1, k = plan.splitN - 1;
        std::vector<float> copy(std::size_t(plan.rowsOf(i) * plan.depthOf(k)));
        for (std::int64_t r = 0; r < plan.rowsOf(i); ++r)
            for (std::int64_t c = 0; c < plan.depthOf(k); ++c)
                copy[std::size_t(r * plan.depthOf(k) + c)] = a.as<float>()[(plan.rowOffset(i) + r) * 40 + plan.depthOffset(k) + c];
        double clean = -1;
        OperandMismatch m = compareWithEntry<float>(entry, 'a', i, k, copy.data(), plan.depthOf(k), 4.0, &clean);
        QVERIFY(m.lines.empty());
        QVERIFY(clean >= 0 && clean < 1);
        // One element off by a few ulps of round-off passes; a real change of one element is its column.
        copy[5] = std::nextafter(copy[5], 1e30f);
        QVERIFY(compareWithEntry<float>(entry, 'a', i, k, copy.data(), plan.depthOf(k), 4.0, nullptr).lines.empty());
        copy[std::size_t(plan.depthOf(k) + 3)] += 0.5f;
        m = compareWithEntry<float>(entry, 'a', i, k, copy.data(), plan.depthOf(k), 4.0, nullptr);
        QCOMPARE(m.lines, std::vector<std::int64_t>{3});
        QVERIFY(m.maxResidualRatio > 1);
        copy[7] = std::nanf("");
        QCOMPARE(compareWithEntry<float>(entry, 'a', i, k, copy.data(), plan.depthOf(k), 4.0, nullptr).lines.size(),
                 std::size_t(2));
    }

    void hostOperandCorruptedAfterEntryIsRestored_data()
    {
        QTest::addColumn<int>("precision");
        QTest::addColumn<int>("strategy");
        QTest::addColumn<char>("operand");
        QTest::addColumn<int>("bit");
        for (Precision p : {Precision::F32, Precision::F64})
            for (StrategyKind s : {StrategyKind::None, StrategyKind::S1, StrategyKind::S2, StrategyKind::S4})
                for (char operand : {'a', 'b'})
                    for (int top : {1, 2, 10}) {  // the top exponent bit (huge), the next, a mantissa bit
                        const int bit = (p == Precision::F64 ? 64 : 32) - top;
                        QTest::addRow("%s %s %c bit %d", std::string(toString(p)).c_str(),
                                      std::string(toString(s)).c_str(), operand, bit)
                            << int(p) << int(s) << operand << bit;
                    }
    }

    void hostOperandCorruptedAfterEntryIsRestored()
    {
        QFETCH(int, precision);
        QFETCH(int, strategy);
        QFETCH(char, operand);
        QFETCH(int, bit);
        const RunConfig config = smallRun(Precision(precision), StrategyKind(strategy));
        const test::FinishedRun clean = test::runKeepingC(config, {});
        QVERIFY(clean.record.operandChecks.ran);
        QVERIFY(clean.record.operandChecks.copiesChecked > 0);
        QVERIFY(clean.record.operandChecks.mismatches.empty());
        QVERIFY(clean.record.verifiedCorrect());

        Injection flip;
        flip.model = FaultModel::BitFlip;
        flip.bit = bit;
        const test::FinishedRun hit = test::runKeepingC(config, [&](HostMatrix& a, HostMatrix& b) {
            HostMatrix& m = operand == 'a' ? a : b;
            m.set(17, 29, applyFault(flip, m.at(17, 29), m.precision()));
        });
        const OperandCheckReport& o = hit.record.operandChecks;
        QVERIFY2(!o.mismatches.empty(), formatReport(hit.record).c_str());
        QCOMPARE(o.hostElementsRestored, std::int64_t(1));
        QCOMPARE(o.hostBlocksUnrestorable, std::int64_t(0));
        QVERIFY(std::all_of(o.mismatches.begin(), o.mismatches.end(), [&](const OperandMismatch& m) { return m.operand == operand; }));
        QVERIFY(std::any_of(hit.record.repairs.begin(), hit.record.repairs.end(), [](const RepairEvent& e) {
            return e.operandCopy && e.outcome == RepairOutcome::CorrectedByRecompute;
        }));
        QVERIFY2(hit.record.verifiedCorrect(), formatReport(hit.record).c_str());
        // C is the product of the inputs as they entered: what the clean run computed, up to the
        // recompute's own rounding (OpenBLAS over the whole block instead of block by block).
        QVERIFY2(test::maxDifference(hit.c, clean.c) <= 1e-3 * (precision == int(Precision::F64) ? 1e-8 : 1.0),
                 formatReport(hit.record).c_str());
        RunRecord forCampaign = hit.record;
        forCampaign.faults.injected = 1;  // as the campaign counts its operand fault
        QVERIFY(classifyRun(forCampaign) == Outcome::CorrectedByRecompute);
        QVERIFY(formatReport(hit.record).find("operand checks:") != std::string::npos);
    }

    void severalElementsOffTheirLinesAreNotRestoredAndNotVerified()
    {
        // Two elements of one A block on different rows and columns: the entry sums see four lines
        // and cannot say which two elements moved. The run ends uncorrectable (exit 1), never
        // VERIFIED -- even though a reference over the corrupted A would agree with C.
        const RunConfig config = smallRun(Precision::F32, StrategyKind::None);
        const test::FinishedRun hit = test::runKeepingC(config, [](HostMatrix& a, HostMatrix&) {
            a.set(3, 4, a.at(3, 4) + 5.0);
            a.set(9, 11, a.at(9, 11) - 7.0);
        });
        QCOMPARE(hit.record.operandChecks.hostBlocksUnrestorable, std::int64_t(1));
        QVERIFY(!hit.record.verifiedCorrect());
        QVERIFY(formatReport(hit.record).find("UNCORRECTABLE ERRORS REMAIN") != std::string::npos);
        RunRecord forCampaign = hit.record;
        forCampaign.faults.injected = 2;  // as the campaign counts its operand faults
        QVERIFY(classifyRun(forCampaign) == Outcome::DetectedUncorrectable);
    }

    void operandChecksReadBack()
    {
        const RunConfig config = smallRun(Precision::F64, StrategyKind::S1);
        const test::FinishedRun hit = test::runKeepingC(config, [](HostMatrix&, HostMatrix& b) { b.set(10, 20, 1e6); });
        QVERIFY(!hit.record.operandChecks.mismatches.empty());
        const RunRecord back = recordFromJson(toJson(hit.record));
        QVERIFY(back.operandChecks.ran);
        QCOMPARE(back.operandChecks.copiesChecked, hit.record.operandChecks.copiesChecked);
        QCOMPARE(back.operandChecks.mismatches.size(), hit.record.operandChecks.mismatches.size());
        QCOMPARE(back.operandChecks.mismatches[0].lines, hit.record.operandChecks.mismatches[0].lines);
        QCOMPARE(back.operandChecks.mismatches[0].operand, 'b');
        QCOMPARE(back.operandChecks.hostElementsRestored, std::int64_t(1));
        QVERIFY(std::any_of(back.repairs.begin(), back.repairs.end(), [](const RepairEvent& e) { return e.operandCopy; }));
        QCOMPARE(toJson(back), toJson(hit.record));
        // Without ABFT nothing is checked, and the record says nothing about operand checks.
        RunConfig off = config;
        off.abft = false;
        const RunRecord plain = runGemm(off);
        QVERIFY(!plain.operandChecks.ran);
        QVERIFY(toJson(plain).find("operand_checks") == std::string::npos);
    }

    void campaignOperandTargetsEndRepairedNotSilent_data()
    {
        QTest::addColumn<int>("target");
        QTest::addColumn<int>("type");
        for (CampaignTarget t : {CampaignTarget::A, CampaignTarget::B, CampaignTarget::Any})
            for (CampaignType type : {CampaignType::F32, CampaignType::F64, CampaignType::Tf32})
                QTest::addRow("%s %s", std::string(toString(t)).c_str(), std::string(toString(type)).c_str())
                    << int(t) << int(type);
    }

    void campaignOperandTargetsEndRepairedNotSilent()
    {
        QFETCH(int, target);
        QFETCH(int, type);
        CampaignConfig c;
        c.runs = 60;
        c.shape = {48, 40, 36};
        c.type = CampaignType(type);
        c.strategies = {StrategyKind::None, StrategyKind::S1, StrategyKind::S2, StrategyKind::S3, StrategyKind::S4};
        c.backend = BackendKind::Cpu;
        c.target = CampaignTarget(target);
        c.seed = 41;
        const CampaignResult r = runCampaign(c);
        QCOMPARE(r.summary.all.total, std::int64_t(60));
        for (const CampaignRun& run : r.runs)
            QVERIFY2(run.outcome != Outcome::SilentCorruption && run.outcome != Outcome::FalseAlarm &&
                         run.outcome != Outcome::DetectedUncorrectable,
                     (std::string(toString(run.outcome)) + ": " + reproduceCommand(c, run)).c_str());
        if (c.target != CampaignTarget::Any)
            QVERIFY(r.summary.all[Outcome::CorrectedByRecompute] > 0);
    }
};

QTEST_GUILESS_MAIN(TestOperandChecks)
#include "tst_operand_checks.moc"
