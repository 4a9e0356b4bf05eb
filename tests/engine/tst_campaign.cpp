// Campaigns: the outcome of crafted records, Wilson intervals against published values, runs drawn
// reproducibly from the seed, a small CPU campaign end to end, its JSON round trip and its refusals.
#include "gigacheck/blocked_gemm/campaign.hpp"
#include "gigacheck/blocked_gemm/run.hpp"

#include "test_helpers.hpp"

#include <nlohmann/json.hpp>

#include <QtTest>

#include <set>

using namespace gigacheck;
using gigacheck::test::inputErrorOf;
using gigacheck::test::qs;

Q_DECLARE_METATYPE(gigacheck::Outcome)

namespace {

// A finished run with the given fault report and reference verdict.
RunRecord crafted(int injected, int detected, int corrected, int blocksCorrected, int blocksUncorrectable,
                  int falsePositives, bool referencePassed, int byRecompute = 0, const char* status = "ok")
{
    RunRecord r;
    r.status = status;
    r.faults.injected = injected;
    r.faults.detected = detected;
    r.faults.corrected = corrected;
    r.faults.blocksCorrected = blocksCorrected;
    r.faults.blocksUncorrectable = blocksUncorrectable;
    r.faults.uncorrectable = blocksUncorrectable > 0 ? detected : 0;
    r.faults.falsePositives = falsePositives;
    r.faults.correctedByRecompute = byRecompute;
    r.reference.mode = ReferenceMode::Full;
    r.reference.passed = referencePassed;
    return r;
}

CampaignConfig smallCampaign(int runs)
{
    CampaignConfig c;
    c.runs = runs;
    c.shape = {48, 40, 36};
    c.backend = BackendKind::Cpu;
    c.strategies = {StrategyKind::None, StrategyKind::S1, StrategyKind::S2, StrategyKind::S3, StrategyKind::S4};
    c.seed = 7;
    return c;
}

}  // namespace

class TestCampaign : public QObject {
    Q_OBJECT

private slots:
    void classifiesCraftedRecords_data()
    {
        QTest::addColumn<int>("injected");
        QTest::addColumn<int>("detected");
        QTest::addColumn<int>("corrected");
        QTest::addColumn<int>("blocksCorrected");
        QTest::addColumn<int>("blocksUncorrectable");
        QTest::addColumn<int>("falsePositives");
        QTest::addColumn<bool>("referencePassed");
        QTest::addColumn<int>("byRecompute");
        QTest::addColumn<QString>("status");
        QTest::addColumn<Outcome>("expected");
        // A flip of a low mantissa bit: nothing flagged, the reference agrees.
        QTest::newRow("masked") << 1 << 0 << 0 << 0 << 0 << 0 << true << 0 << "ok" << Outcome::Masked;
        QTest::newRow("corrected") << 1 << 1 << 1 << 1 << 0 << 0 << true << 0 << "ok" << Outcome::Corrected;
        QTest::newRow("recompute") << 1 << 1 << 0 << 0 << 1 << 0 << true << 1 << "ok"
                                   << Outcome::CorrectedByRecompute;
        // The run gives up (exit 1) even when C happens to be right: still a DUE.
        QTest::newRow("due, reference fine") << 1 << 1 << 0 << 0 << 1 << 0 << true << 0 << "ok"
                                             << Outcome::DetectedUncorrectable;
        QTest::newRow("due, reference wrong") << 1 << 1 << 0 << 0 << 1 << 0 << false << 0 << "ok"
                                              << Outcome::DetectedUncorrectable;
        QTest::newRow("failed run") << 1 << 0 << 0 << 0 << 0 << 0 << true << 0 << "failed"
                                    << Outcome::DetectedUncorrectable;
        // Undetected and wrong, or "corrected" and wrong: the verdict says fine, the reference does not.
        QTest::newRow("sdc, missed") << 1 << 0 << 0 << 0 << 0 << 0 << false << 0 << "ok" << Outcome::SilentCorruption;
        QTest::newRow("sdc, bad correction") << 1 << 1 << 1 << 1 << 0 << 0 << false << 0 << "ok"
                                             << Outcome::SilentCorruption;
        QTest::newRow("sdc, bad recompute") << 1 << 1 << 0 << 0 << 1 << 0 << false << 1 << "ok"
                                            << Outcome::SilentCorruption;
        QTest::newRow("clean cell corrected") << 1 << 1 << 1 << 1 << 0 << 1 << true << 0 << "ok"
                                              << Outcome::FalseAlarm;
        QTest::newRow("nothing injected, alarm") << 0 << 0 << 0 << 1 << 0 << 1 << true << 0 << "ok"
                                                 << Outcome::FalseAlarm;
        QTest::newRow("nothing injected, give-up") << 0 << 0 << 0 << 0 << 1 << 1 << true << 0 << "ok"
                                                   << Outcome::FalseAlarm;
        QTest::newRow("nothing injected, clean") << 0 << 0 << 0 << 0 << 0 << 0 << true << 0 << "ok" << Outcome::Masked;
        QTest::newRow("nothing injected, wrong") << 0 << 0 << 0 << 0 << 0 << 0 << false << 0 << "ok"
                                                 << Outcome::SilentCorruption;
    }

    void classifiesCraftedRecords()
    {
        QFETCH(int, injected);
        QFETCH(int, detected);
        QFETCH(int, corrected);
        QFETCH(int, blocksCorrected);
        QFETCH(int, blocksUncorrectable);
        QFETCH(int, falsePositives);
        QFETCH(bool, referencePassed);
        QFETCH(int, byRecompute);
        QFETCH(QString, status);
        QFETCH(Outcome, expected);
        const QByteArray statusText = status.toLatin1();
        const RunRecord r = crafted(injected, detected, corrected, blocksCorrected, blocksUncorrectable,
                                    falsePositives, referencePassed, byRecompute, statusText.constData());
        QCOMPARE(qs(toString(classifyRun(r))), qs(toString(expected)));
    }

    void outcomeNamesRoundTrip()
    {
        for (Outcome o : kOutcomes)
            QVERIFY(outcomeFromString(toString(o)) == o);
        QVERIFY(!inputErrorOf([] { outcomeFromString("crash"); }).isEmpty());
    }

    void wilsonMatchesPublishedValues_data()
    {
        QTest::addColumn<int>("k");
        QTest::addColumn<int>("n");
        QTest::addColumn<double>("low");
        QTest::addColumn<double>("high");
        // Newcombe, Statistics in Medicine 17 (1998), table I, method 3 (Wilson score).
        QTest::newRow("81/263") << 81 << 263 << 0.2553 << 0.3662;
        QTest::newRow("0/10") << 0 << 10 << 0.0 << 0.2775;
        QTest::newRow("10/10") << 10 << 10 << 0.7225 << 1.0;
        // STYLE.md's campaign size: 1000 runs give +-3.1 % at 95 % around one half.
        QTest::newRow("500/1000") << 500 << 1000 << 0.4691 << 0.5309;
        // Zero false alarms in 1000 clean runs bound the rate below 0.38 %.
        QTest::newRow("0/1000") << 0 << 1000 << 0.0 << 0.0038;
    }

    void wilsonMatchesPublishedValues()
    {
        QFETCH(int, k);
        QFETCH(int, n);
        QFETCH(double, low);
        QFETCH(double, high);
        const Interval ci = wilsonInterval(k, n);
        QVERIFY2(std::abs(ci.low - low) < 5e-5, qPrintable(QString::number(ci.low, 'g', 8)));
        QVERIFY2(std::abs(ci.high - high) < 5e-5, qPrintable(QString::number(ci.high, 'g', 8)));
    }

    void wilsonOfNoRunsIsEverything()
    {
        const Interval ci = wilsonInterval(0, 0);
        QCOMPARE(ci.low, 0.0);
        QCOMPARE(ci.high, 1.0);
    }

    void runsAreDrawnReproduciblyFromTheSeed()
    {
        CampaignConfig c = smallCampaign(200);
        c.faultsPerRun = 2;
        std::set<int> bits;
        for (int i = 0; i < c.runs; ++i) {
            const CampaignRun a = planCampaignRun(c, i), b = planCampaignRun(c, i);
            QCOMPARE(a.seed, b.seed);
            QCOMPARE(a.bit, b.bit);
            QCOMPARE(a.positions, b.positions);
            QVERIFY(a.bit >= 0 && a.bit < 32);
            QCOMPARE(a.positions.size(), std::size_t(2));
            QVERIFY(a.positions[0] != a.positions[1]);
            for (const FaultAt& at : a.positions)
                QVERIFY(at.row >= 0 && at.row < c.shape.m && at.col >= 0 && at.col < c.shape.q);
            QVERIFY(a.strategy == c.strategies[std::size_t(i) % c.strategies.size()]);
            bits.insert(a.bit);
        }
        QVERIFY2(bits.size() >= 28, "200 runs should flip nearly every bit of an f32");
        QVERIFY(planCampaignRun(c, 0).seed != planCampaignRun(c, 1).seed);
        CampaignConfig other = c;
        other.seed = 8;
        QVERIFY(planCampaignRun(other, 0).seed != planCampaignRun(c, 0).seed);
        // f64 draws from 64 bits; checksum targets pick a checksum row or column.
        c.type = CampaignType::F64;
        c.target = CampaignTarget::Checksum;
        std::set<FaultTarget> targets;
        for (int i = 0; i < 50; ++i) {
            const CampaignRun run = planCampaignRun(c, i);
            QVERIFY(run.bit >= 0 && run.bit < 64);
            QVERIFY(run.positions.empty());
            targets.insert(run.target);
        }
        QVERIFY(targets == (std::set<FaultTarget>{FaultTarget::ChecksumRow, FaultTarget::ChecksumCol}));
    }

    void reproduceCommandNamesTheRun()
    {
        CampaignConfig c = smallCampaign(3);
        c.bit = 12;
        const CampaignRun run = planCampaignRun(c, 2);
        const std::string cmd = reproduceCommand(c, run);
        QVERIFY2(cmd.find("--seed " + std::to_string(run.seed)) != std::string::npos, cmd.c_str());
        QVERIFY(cmd.find("--fault bitflip:12") != std::string::npos);
        QVERIFY(cmd.find("--strategy s2") != std::string::npos);
        QVERIFY(cmd.find("--inject-at " + std::to_string(run.positions[0].row) + "," +
                         std::to_string(run.positions[0].col)) != std::string::npos);
    }

    void smallCpuCampaignIsReproducible()
    {
        const CampaignConfig c = smallCampaign(15);
        const CampaignResult first = runCampaign(c), second = runCampaign(c);
        QCOMPARE(first.runs.size(), std::size_t(15));
        QVERIFY(!first.interrupted);
        QCOMPARE(first.summary.all.total, std::int64_t(15));
        for (std::size_t i = 0; i < first.runs.size(); ++i) {
            const CampaignRun& a = first.runs[i];
            QVERIFY(a.outcome == second.runs[i].outcome);
            QCOMPARE(a.status, std::string("ok"));
            QCOMPARE(a.applied.size(), std::size_t(1));
            QCOMPARE(a.applied[0].after, second.runs[i].applied[0].after);
            QCOMPARE(a.applied[0].globalRow, a.positions[0].row);
            // A single fault in C is never silent.
            QVERIFY2(a.outcome != Outcome::SilentCorruption, reproduceCommand(c, a).c_str());
            QVERIFY(a.outcome != Outcome::FalseAlarm);
        }
        // One run re-run alone from its configuration (what the lab does) ends the same way.
        const CampaignRun& pick = first.runs[4];
        const RunRecord alone = runGemm(campaignRunConfig(c, pick));
        QVERIFY(classifyRun(alone) == pick.outcome);
        // Tables: one row per strategy, three each.
        QCOMPARE(first.summary.byStrategy.size(), std::size_t(5));
        for (const CampaignGroup& g : first.summary.byStrategy)
            QCOMPARE(g.counts.total, std::int64_t(3));
        std::int64_t byBit = 0;
        for (const CampaignGroup& g : first.summary.byBit)
            byBit += g.counts.total;
        QCOMPARE(byBit, std::int64_t(15));
    }

    void noInjectionRaisesNoFalseAlarm()
    {
        CampaignConfig c = smallCampaign(30);
        c.inject = false;
        const CampaignResult r = runCampaign(c);
        QCOMPARE(r.summary.all[Outcome::FalseAlarm], std::int64_t(0));
        QCOMPARE(r.summary.all[Outcome::SilentCorruption], std::int64_t(0));
        QCOMPARE(r.summary.all[Outcome::Masked], std::int64_t(30));
        QCOMPARE(r.summary.byTarget.size(), std::size_t(1));
        QCOMPARE(r.summary.byTarget[0].key, std::string("none"));
        QVERIFY(r.summary.byBit.empty());
    }

    void thousandCleanRunsRaiseNoFalseAlarm()
    {
        // Issue 15 item 3 on the CPU: >= 1000 clean products over odd, skinny and 1-wide shapes, both
        // precisions, every distribution and every strategy. A false alarm is a bug, not a threshold.
        const Shape shapes[] = {{1, 1, 1}, {1, 37, 5}, {7, 1, 9}, {33, 17, 1}, {129, 3, 65}, {5, 200, 3}, {61, 47, 53}};
        int runs = 0;
        for (const Shape& shape : shapes) {
            for (CampaignType type : {CampaignType::F32, CampaignType::F64}) {
                for (Distribution dist : {Distribution::Uniform, Distribution::Normal, Distribution::Wide}) {
                    CampaignConfig c = smallCampaign(25);
                    c.shape = shape;
                    c.type = type;
                    c.distribution = dist;
                    c.inject = false;
                    c.seed = std::uint64_t(runs + 1);
                    const CampaignResult r = runCampaign(c);
                    runs += int(r.runs.size());
                    QVERIFY2(r.summary.all[Outcome::FalseAlarm] == 0 && r.summary.all[Outcome::SilentCorruption] == 0,
                             formatCampaignReport(r).c_str());
                }
            }
        }
        QVERIFY(runs >= 1000);
    }

    void checksumFaultsAreCorrectedOrMasked()
    {
        CampaignConfig c = smallCampaign(10);
        c.target = CampaignTarget::Checksum;
        c.model = FaultModel::Delta;
        const CampaignResult r = runCampaign(c);
        for (const CampaignRun& run : r.runs) {
            QCOMPARE(run.applied.size(), std::size_t(1));
            QVERIFY(run.applied[0].target != FaultTarget::Result);
            QVERIFY(run.applied[0].target == run.target);
            // C itself is never touched: never an SDC.
            QVERIFY(run.outcome != Outcome::SilentCorruption);
        }
    }

    void operandFaultsBeforeTheChecksumsAreCaughtEndToEnd_data()
    {
        QTest::addColumn<int>("target");
        QTest::newRow("a") << int(CampaignTarget::A);
        QTest::newRow("b") << int(CampaignTarget::B);
    }

    void operandFaultsBeforeTheChecksumsAreCaughtEndToEnd()
    {
        // A flipped exponent bit of one input element scales it by 2^+-8: C = A'B is self-consistent, so
        // no check of C fires -- but the copies of the operand differ from the checksums taken where it
        // entered the program: the element is restored and the C blocks it fed recomputed.
        QFETCH(int, target);
        CampaignConfig c = smallCampaign(10);
        c.target = CampaignTarget(target);
        c.bit = 26;
        const CampaignResult r = runCampaign(c);
        const char operand = c.target == CampaignTarget::A ? 'a' : 'b';
        for (const CampaignRun& run : r.runs) {
            QCOMPARE(run.operand, operand);
            QCOMPARE(run.applied.size(), std::size_t(1));
            QVERIFY(run.applied[0].after != run.applied[0].before);
            QCOMPARE(run.faults.detected, 0);
            QVERIFY2(run.outcome == Outcome::CorrectedByRecompute, reproduceCommand(c, run).c_str());
        }
        QCOMPARE(r.summary.byTarget.size(), std::size_t(1));
        QCOMPARE(r.summary.byTarget[0].key, std::string(1, operand));
        QVERIFY(formatCampaignReport(r).find("promise (operands, before the checksums)") != std::string::npos);
        const CampaignResult back = campaignFromJson(campaignToJson(r));
        QCOMPARE(back.runs[3].operand, operand);
        QCOMPARE(back.runs[3].positions, r.runs[3].positions);
        // The applied fault is labelled with its operand in the JSON, not "result" (audit 8, item 6).
        const auto doc = nlohmann::json::parse(campaignToJson(r));
        for (const auto& run : doc.at("runs"))
            QCOMPARE(QString::fromStdString(run.at("applied").at(0).at("target").get<std::string>()),
                     QString(QLatin1Char(operand)));
        QCOMPARE(campaignToJson(back), campaignToJson(r));  // and reads back to the same file
    }

    void operandFaultsAfterTheChecksumsAreDetected_data()
    {
        QTest::addColumn<int>("target");
        QTest::addColumn<int>("type");
        for (CampaignType type : {CampaignType::F32, CampaignType::F64, CampaignType::Tf32}) {
            QTest::addRow("a-after %s", toString(type).data()) << int(CampaignTarget::AAfter) << int(type);
            QTest::addRow("b-after %s", toString(type).data()) << int(CampaignTarget::BAfter) << int(type);
        }
    }

    void operandFaultsAfterTheChecksumsAreDetected()
    {
        // After its checksums, a flipped exponent bit of A(r, k) makes row r of C wrong (B(k, c):
        // column c): the checksums taken before see it; corrected as a collinear line or recomputed
        // from A and B by the repair pass, never silent.
        QFETCH(int, target);
        QFETCH(int, type);
        CampaignConfig c = smallCampaign(10);
        c.target = CampaignTarget(target);
        c.type = CampaignType(type);
        c.bit = type == int(CampaignType::F64) ? 55 : 26;
        const CampaignResult r = runCampaign(c);
        const std::string key = c.target == CampaignTarget::AAfter ? "a-after" : "b-after";
        for (const CampaignRun& run : r.runs) {
            QVERIFY(run.afterChecksums);
            QVERIFY(!run.applied.empty());
            QCOMPARE(run.applied[0].block.i, -1);  // the operand element itself, then its cells of C
            QVERIFY(run.applied[0].after != run.applied[0].before);
            QVERIFY2(run.faults.detected > 0, reproduceCommand(c, run).c_str());
            QVERIFY2(run.outcome == Outcome::Corrected || run.outcome == Outcome::CorrectedByRecompute,
                     (std::string(toString(run.outcome)) + ": " + reproduceCommand(c, run)).c_str());
            QVERIFY(reproduceCommand(c, run).find("--inject-at") != std::string::npos);
        }
        QCOMPARE(r.summary.byTarget.size(), std::size_t(1));
        QCOMPARE(r.summary.byTarget[0].key, key);
        QVERIFY(formatCampaignReport(r).find("ABFT promise (operands, after the checksums)") != std::string::npos);
        const CampaignResult back = campaignFromJson(campaignToJson(r));
        QVERIFY(back.config.target == c.target);
        QVERIFY(back.runs[3].afterChecksums);
        QCOMPARE(reproduceCommand(back.config, back.runs[3]), reproduceCommand(c, r.runs[3]));
        // The operand element is labelled with its operand; the cells of C it then changed, "result".
        const auto doc = nlohmann::json::parse(campaignToJson(r));
        for (const auto& run : doc.at("runs")) {
            const auto& applied = run.at("applied");
            QCOMPARE(QString::fromStdString(applied.at(0).at("target").get<std::string>()), QString::fromStdString(key.substr(0, 1)));
            for (std::size_t i = 1; i < applied.size(); ++i)
                QCOMPARE(QString::fromStdString(applied.at(i).at("target").get<std::string>()), QStringLiteral("result"));
        }
        QCOMPARE(campaignToJson(back), campaignToJson(r));
        QVERIFY(campaignTargetFromString("a-before") == CampaignTarget::A);
        QVERIFY(campaignTargetFromString("b-before") == CampaignTarget::B);
    }

    void jsonRoundTrips()
    {
        const CampaignResult r = runCampaign(smallCampaign(6));
        const CampaignResult back = campaignFromJson(campaignToJson(r));
        QCOMPARE(back.config.runs, r.config.runs);
        QCOMPARE(back.config.shape, r.config.shape);
        QCOMPARE(back.config.seed, r.config.seed);
        QVERIFY(back.config.strategies == r.config.strategies);
        QCOMPARE(back.runs.size(), r.runs.size());
        for (std::size_t i = 0; i < r.runs.size(); ++i) {
            QCOMPARE(back.runs[i].seed, r.runs[i].seed);
            QVERIFY(back.runs[i].outcome == r.runs[i].outcome);
            QCOMPARE(back.runs[i].positions, r.runs[i].positions);
            QCOMPARE(back.runs[i].bit, r.runs[i].bit);
            QCOMPARE(back.runs[i].applied.size(), r.runs[i].applied.size());
            // The reloaded run has the same configuration as the one that ran.
            QCOMPARE(reproduceCommand(back.config, back.runs[i]), reproduceCommand(r.config, r.runs[i]));
        }
        QCOMPARE(back.summary.all.count, r.summary.all.count);
    }

    void readerRefusesHostileFiles()
    {
        QVERIFY(inputErrorOf([] { campaignFromJson(std::string(100000, '[') + std::string(100000, ']')); })
                    .contains(QStringLiteral("nested")));
        QVERIFY(inputErrorOf([] { campaignFromJson("{\"format_version\": 1}"); })
                    .contains(QStringLiteral("not a gigacheck campaign")));
        QVERIFY(inputErrorOf([] { campaignFromJson("{\"format\": \"gigacheck-campaign\", \"format_version\": 9}"); })
                    .contains(QStringLiteral("newer")));
        QVERIFY(inputErrorOf([] { campaignFromJson("{\"format\": \"gigacheck-campaign\", \"format_version\": 1}"); })
                    .contains(QStringLiteral("missing")));
        QVERIFY(!inputErrorOf([] { campaignFromJson("{"); }).isEmpty());
        // A JSON type error anywhere is a refusal, not an escaping exception (it failed CI once).
        QVERIFY(inputErrorOf([] { campaignFromJson("{\"format\": {}, \"format_version\": 1}"); })
                    .contains(QStringLiteral("not a gigacheck campaign")));
    }

    void fuzzCorpusIsReadOrRefused_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<bool>("accepted");
        for (const char* name : {"small-any", "tf32-a-after", "f64-b-after", "clean"})
            QTest::newRow(name) << QString::fromLatin1(name) << true;
        for (const char* name : {"after-position-outside", "after-huge-shape", "version-wraps", "nested-arrays",
                                 "no-format-version", "run-bit-outside", "format-is-object", "runs-float-1e30"})
            QTest::newRow(name) << QString::fromLatin1(name) << false;
    }

    void fuzzCorpusIsReadOrRefused()
    {
        // The seed corpus of tests/fuzz/fuzz_campaign.cpp: valid files load and replay; the hostile
        // ones are refused with an InputError (never a crash, a huge allocation or a read outside A).
        QFETCH(QString, file);
        QFETCH(bool, accepted);
        QFile f(QStringLiteral(GIGACHECK_TEST_DATA "/fuzz/campaign/") + file + QStringLiteral(".json"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const std::string text = f.readAll().toStdString();
        // Refused means refused by the reader itself: whatever it accepts must then print and
        // replay without an exception (run-bit-outside once passed the reader and threw from the CSV).
        CampaignResult r;
        const QString error = inputErrorOf([&] { r = campaignFromJson(text); });
        QVERIFY2(error.isEmpty() == accepted, qPrintable(error));
        if (!error.isEmpty())
            return;
        for (const CampaignRun& run : r.runs)
            QVERIFY(!reproduceCommand(r.config, run).empty());
        QVERIFY(!campaignRunsCsv(r).empty());  // replays every run's fault
        QVERIFY(!formatCampaignReport(r).empty());
    }

    void refusesWhatDoesNotExist()
    {
        DeviceInfo cpu;
        cpu.backend = BackendKind::Cpu;
        CampaignConfig c = smallCampaign(5);
        c.type = CampaignType::Tf32;  // emulated on the CPU (tst_tf32_runs)
        QVERIFY(inputErrorOf([&] { validateCampaign(c, cpu); }).isEmpty());
        c = smallCampaign(5);
        // The seed-002 schemes are the online family's (tst_campaign_families): a blocked campaign
        // says where they are.
        for (const char* scheme : {"online", "offline", "tmr"}) {
            c.scheme = scheme;
            const QString error = inputErrorOf([&] { validateCampaign(c, cpu); });
            QVERIFY2(error.contains(QStringLiteral("--family online --scheme ") + QLatin1String(scheme)) &&
                         !error.contains(QStringLiteral("not implemented")),
                     qPrintable(error));
        }
        c.scheme = "systolic";
        QVERIFY(inputErrorOf([&] { validateCampaign(c, cpu); }).contains(QStringLiteral("only 'blocked'")));
        c = smallCampaign(5);
        c.target = CampaignTarget::A;
        c.faultsPerRun = 48 * 40 + 1;
        QVERIFY(inputErrorOf([&] { validateCampaign(c, cpu); }).contains(QStringLiteral("do not fit")));
        c = smallCampaign(5);
        c.runs = 0;
        QVERIFY(!inputErrorOf([&] { validateCampaign(c, cpu); }).isEmpty());
        c = smallCampaign(5);
        c.bit = 40;
        QVERIFY(inputErrorOf([&] { validateCampaign(c, cpu); }).contains(QStringLiteral("outside")));
        c = smallCampaign(5);
        QVERIFY(inputErrorOf([&] { validateCampaign(c, cpu); }).isEmpty());
    }

    void faultNamesParse()
    {
        CampaignConfig c;
        parseCampaignFault("none", c);
        QVERIFY(!c.inject);
        parseCampaignFault("bitflip:17", c);
        QVERIFY(c.inject);
        QCOMPARE(c.bit, 17);
        QCOMPARE(campaignFaultText(c), std::string("bitflip:17"));
        parseCampaignFault("bitflip:any", c);
        QCOMPARE(c.bit, -1);
        parseCampaignFault("delta", c);
        QVERIFY(c.model == FaultModel::Delta);
        QVERIFY(!inputErrorOf([&] { parseCampaignFault("bitflip:64", c); }).isEmpty());
        QVERIFY(!inputErrorOf([&] { parseCampaignFault("flip", c); }).isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestCampaign)
#include "tst_campaign.moc"
