// Campaigns of every family (issue 41 item 4): online (fq 1 and 4), offline, TMR and Strassen (L1-L3)
// with faults anywhere their family offers, on the CPU and small enough to take seconds. Each run is
// judged against the FP64 product of the original operands: no SDC on the targets the schemes
// promise, the outcome counts add up, Strassen has its by-level table, a family campaign shards
// and merges into the campaign run whole, and its file reads back as it was written.
#include "gigacheck/campaign.hpp"
#include "gigacheck/online_abft/campaign.hpp"
#include "gigacheck/strassen/campaign.hpp"

#include "test_helpers.hpp"

#include <QtTest>

using namespace gigacheck;
using gigacheck::test::inputErrorOf;
using gigacheck::test::qs;

namespace {

CampaignConfig onlineCampaign(const char* scheme, int checkEvery)
{
    CampaignConfig c;
    c.family = "online";
    c.scheme = scheme;
    setFamilySettings(c, OnlineCampaignSettings{checkEvery, 8});  // panel 8: 6 steps of n = 48, faults at every step, checks every fq
    c.runs = 42;
    c.shape = {40, 48, 36};
    c.backend = BackendKind::Cpu;
    c.target = CampaignTarget::Any;
    c.seed = 11;
    return c;
}

CampaignConfig strassenCampaign()
{
    CampaignConfig c;
    c.family = "strassen";
    c.scheme = "strassen";
    setFamilySettings(c, StrassenCampaignSettings{{1, 2, 3}});
    c.model = FaultModel::Delta;
    c.runs = 36;
    c.shape = {64, 72, 56};
    c.backend = BackendKind::Cpu;
    c.target = CampaignTarget::Any;
    c.seed = 3;
    return c;
}

std::int64_t sumOf(const std::vector<CampaignGroup>& groups)
{
    std::int64_t n = 0;
    for (const CampaignGroup& g : groups)
        n += g.counts.total;
    return n;
}

// The outcome table and every group table count each run once.
void checkCounts(const CampaignResult& r)
{
    QCOMPARE(r.summary.all.total, std::int64_t(r.runs.size()));
    std::int64_t perOutcome = 0;
    for (Outcome o : kOutcomes)
        perOutcome += r.summary.all[o];
    QCOMPARE(perOutcome, r.summary.all.total);
    QCOMPARE(sumOf(r.summary.byTarget), r.summary.all.total);
    if (r.config.inject && r.config.model == FaultModel::BitFlip)
        QCOMPARE(sumOf(r.summary.byBit), r.summary.all.total);
}

// No silent corruption, and every SDC (should one appear) names its replay.
void checkNoSdc(const CampaignResult& r)
{
    for (const CampaignRun& run : r.runs)
        QVERIFY2(run.outcome != Outcome::SilentCorruption,
                 qPrintable(QStringLiteral("run %1 (%2) is SDC: %3")
                                .arg(run.index)
                                .arg(qs(targetKey(run)), qs(reproduceCommand(r.config, run)))));
}

}  // namespace

class TestCampaignFamilies : public QObject {
    Q_OBJECT

private slots:
    void onlineSchemesKeepTheirPromises_data()
    {
        QTest::addColumn<QString>("scheme");
        QTest::addColumn<int>("checkEvery");
        QTest::newRow("online fq 1") << "online" << 1;
        QTest::newRow("online fq 4") << "online" << 4;
        QTest::newRow("offline") << "offline" << 1;
        QTest::newRow("tmr") << "tmr" << 1;
    }
    void onlineSchemesKeepTheirPromises()
    {
        QFETCH(QString, scheme);
        QFETCH(int, checkEvery);
        const CampaignConfig c = onlineCampaign(qPrintable(scheme), checkEvery);
        const CampaignResult r = runCampaign(c);
        QCOMPARE(int(r.runs.size()), c.runs);
        checkCounts(r);
        checkNoSdc(r);
        QCOMPARE(r.summary.all[Outcome::FalseAlarm], std::int64_t(0));
        QVERIFY(r.summary.byStrategy.empty());  // no memory-capped strategies in this family
        QVERIFY(r.summary.byLevel.empty());
        // --target any spreads over the family's targets (TMR: one replica's cell).
        if (scheme == QStringLiteral("tmr")) {
            QCOMPARE(int(r.summary.byTarget.size()), 1);
        } else {
            QVERIFY2(r.summary.byTarget.size() >= 6, qPrintable(qs(formatCampaignReport(r))));
        }
        for (const CampaignRun& run : r.runs) {
            const std::string cmd = reproduceCommand(c, run);
            QVERIFY2(cmd.rfind("gigacheck run --scheme " + c.scheme + " ", 0) == 0, cmd.c_str());
            QVERIFY2(cmd.find("--seed " + std::to_string(run.seed)) != std::string::npos, cmd.c_str());
            QVERIFY2(cmd.find("--inject-at " + std::to_string(run.positions.front().row) + "," +
                              std::to_string(run.positions.front().col)) != std::string::npos,
                     cmd.c_str());
        }
        QVERIFY(formatCampaignReport(r).find("family online, scheme " + c.scheme) != std::string::npos);
    }

    // --type tf32x3 (FP32-accurate products from TF32 products, emulated on the CPU): the blocked and
    // online families' campaigns hold their promises, and each run replays with --gemm tf32x3;
    // Strassen refuses the type with the families that take it.
    void tf32x3CampaignsOfBlockedAndOnline()
    {
        CampaignConfig online = onlineCampaign("online", 1);
        online.type = CampaignType::Tf32x3;
        online.runs = 60;
        CampaignConfig blocked;
        blocked.type = CampaignType::Tf32x3;
        blocked.runs = 60;
        blocked.shape = {40, 48, 36};
        blocked.backend = BackendKind::Cpu;
        blocked.target = CampaignTarget::Any;
        blocked.strategies = {StrategyKind::None, StrategyKind::S1, StrategyKind::S2, StrategyKind::S3,
                              StrategyKind::S4};
        blocked.seed = 5;
        for (const CampaignConfig& c : {online, blocked}) {
            const CampaignResult r = runCampaign(c);
            QCOMPARE(int(r.runs.size()), c.runs);
            checkCounts(r);
            checkNoSdc(r);
            QCOMPARE(r.summary.all[Outcome::FalseAlarm], std::int64_t(0));
            QVERIFY(r.summary.all[Outcome::Corrected] + r.summary.all[Outcome::CorrectedByRecompute] > 0);
            for (const CampaignRun& run : r.runs)
                QVERIFY2(reproduceCommand(c, run).find("--gemm tf32x3") != std::string::npos,
                         reproduceCommand(c, run).c_str());
            QVERIFY(formatCampaignReport(r).find("tf32x3") != std::string::npos);
        }
        DeviceInfo cpu;
        cpu.backend = BackendKind::Cpu;
        CampaignConfig s = strassenCampaign();
        s.type = CampaignType::Tf32x3;
        QVERIFY(inputErrorOf([&] { validateCampaign(s, cpu); }).contains(QStringLiteral("blocked and online")));
        QVERIFY(campaignTypeFromString("tf32x3") == CampaignType::Tf32x3);
    }

    void strassenLevelsOneToThree()
    {
        const CampaignConfig c = strassenCampaign();
        const CampaignResult r = runCampaign(c);
        QCOMPARE(int(r.runs.size()), c.runs);
        checkCounts(r);
        checkNoSdc(r);
        QCOMPARE(r.summary.all[Outcome::FalseAlarm], std::int64_t(0));
        // The by-level table: levels 1, 2, 3 cycled, 12 runs each.
        QCOMPARE(int(r.summary.byLevel.size()), 3);
        for (std::size_t i = 0; i < 3; ++i) {
            QCOMPARE(qs(r.summary.byLevel[i].key), QString::number(int(i) + 1));
            QCOMPARE(r.summary.byLevel[i].counts.total, std::int64_t(12));
        }
        QCOMPARE(sumOf(r.summary.byLevel), r.summary.all.total);
        QCOMPARE(int(r.summary.byTarget.size()), 4);  // product, c, a, b
        QVERIFY(formatCampaignReport(r).find("By level:") != std::string::npos);
        for (const CampaignRun& run : r.runs) {
            QCOMPARE(run.places.size(), std::size_t(1));
            QCOMPARE(qs(run.places.front().where), qs(targetKey(run)));
            const std::string cmd = reproduceCommand(c, run);
            QVERIFY2(cmd.rfind("gigacheck strassen --shape 64x72x56 --levels " + std::to_string(run.level), 0) == 0,
                     cmd.c_str());
            QVERIFY2(cmd.find("--inject-at " + run.places.front().where + ":") != std::string::npos, cmd.c_str());
        }
    }

    void cleanRunsRaiseNoAlarm()
    {
        CampaignConfig s = strassenCampaign();
        s.inject = false;
        s.runs = 9;
        const CampaignResult strassen = runCampaign(s);
        QCOMPARE(strassen.summary.all[Outcome::Masked], std::int64_t(9));
        CampaignConfig o = onlineCampaign("online", 1);
        o.inject = false;
        o.runs = 6;
        const CampaignResult online = runCampaign(o);
        QCOMPARE(online.summary.all[Outcome::Masked], std::int64_t(6));
        QCOMPARE(qs(targetKey(online.runs.front())), QStringLiteral("none"));
    }

    void familyCampaignShardsAndMerges()
    {
        for (const CampaignConfig& c : {strassenCampaign(), onlineCampaign("online", 4)}) {
            CampaignConfig small = c;
            small.runs = 15;
            const CampaignResult whole = runCampaign(small);
            std::vector<CampaignResult> shards;
            for (int k = 1; k <= 3; ++k)
                shards.push_back(campaignFromJson(campaignToJson(runCampaign(small, CampaignShard{k, 3}))));
            const CampaignResult merged = mergeCampaignShards(shards);
            QCOMPARE(merged.runs.size(), whole.runs.size());
            for (std::size_t i = 0; i < whole.runs.size(); ++i) {
                QCOMPARE(merged.runs[i].seed, whole.runs[i].seed);
                QVERIFY(merged.runs[i].outcome == whole.runs[i].outcome);
                QCOMPARE(merged.runs[i].level, whole.runs[i].level);
                QCOMPARE(merged.runs[i].step, whole.runs[i].step);
                QCOMPARE(qs(reproduceCommand(merged.config, merged.runs[i])),
                         qs(reproduceCommand(whole.config, whole.runs[i])));
            }
            // The summary CSV holds every table (by level too) with counts and intervals.
            QCOMPARE(qs(campaignSummaryCsv(merged)), qs(campaignSummaryCsv(whole)));
        }
    }

    void jsonRoundTrip()
    {
        for (CampaignConfig c : {strassenCampaign(), onlineCampaign("tmr", 1), onlineCampaign("offline", 1)}) {
            c.runs = 8;
            const CampaignResult r = runCampaign(c);
            const std::string text = campaignToJson(r);
            const CampaignResult back = campaignFromJson(text);
            QVERIFY(back.config.family == c.family);
            QCOMPARE(qs(back.config.scheme), qs(c.scheme));
            // Each family's settings come back through its own payload.
            QCOMPARE(familySettingsOf<StrassenCampaignSettings>(back.config).levels,
                     familySettingsOf<StrassenCampaignSettings>(c).levels);
            QCOMPARE(familySettingsOf<OnlineCampaignSettings>(back.config).checkEvery,
                     familySettingsOf<OnlineCampaignSettings>(c).checkEvery);
            QCOMPARE(familySettingsOf<OnlineCampaignSettings>(back.config).panel,
                     familySettingsOf<OnlineCampaignSettings>(c).panel);
            QCOMPARE(back.config.familySettings.size(), std::size_t(1));  // the campaign's family's only
            QCOMPARE(qs(campaignToJson(back)), qs(text));  // every field read back as written
            QCOMPARE(qs(formatCampaignReport(back)), qs(formatCampaignReport(r)));
        }
    }

    void refusesTargetsOutsideTheFamily()
    {
        DeviceInfo cpu;
        cpu.backend = BackendKind::Cpu;
        CampaignConfig s = strassenCampaign();
        s.target = CampaignTarget::Checksum;
        QVERIFY(inputErrorOf([&] { validateCampaign(s, cpu); }).contains(QStringLiteral("not a target of a strassen campaign")));
        s = strassenCampaign();
        s.model = FaultModel::BitFlip;  // bit flips are the family's too; a bit beyond the element is not
        QVERIFY(inputErrorOf([&] { validateCampaign(s, cpu); }).isEmpty());
        s.bit = 40;
        QVERIFY(inputErrorOf([&] { validateCampaign(s, cpu); }).contains(QStringLiteral("bits 0-31")));
        CampaignConfig o = onlineCampaign("tmr", 1);
        o.target = CampaignTarget::A;
        QVERIFY(inputErrorOf([&] { validateCampaign(o, cpu); }).contains(QStringLiteral("TMR")));
        o = onlineCampaign("online", 1);
        o.target = CampaignTarget::Product;
        QVERIFY(inputErrorOf([&] { validateCampaign(o, cpu); }).contains(QStringLiteral("not a target of an online")));
        // --target any draws A and B too: where the runs refuse them (TF32 online on the GPU), the
        // campaign is refused before its first run rather than stopped at the first such draw (it
        // was, on an H200: exit 2 after some runs). The same campaign on the CPU runs.
        o = onlineCampaign("online", 1);
        o.type = CampaignType::Tf32;
        QVERIFY(inputErrorOf([&] { validateCampaign(o, cpu); }).isEmpty());
        DeviceInfo gpu;
        gpu.backend = BackendKind::Cuda;
        o.backend = BackendKind::Cuda;
        const QString refused = inputErrorOf([&] { validateCampaign(o, gpu); });
        QVERIFY2(refused.contains(QStringLiteral("--target any draws faults in a too")) && refused.contains(QStringLiteral("result, checksum")),
                 qPrintable(refused));
        // Whatever the first run draws: a campaign whose first run drew A or B was refused with the
        // runs' bare words, without naming --target any (seed 29 of device_campaigns.sh, H100).
        for (std::uint64_t seed : {1, 29, 35, 101}) {
            CampaignConfig seeded = o;
            seeded.seed = seed;
            const QString why = inputErrorOf([&] { validateCampaign(seeded, gpu); });
            QVERIFY2(why.contains(QStringLiteral("--target any draws faults in")), qPrintable(why));
        }
        o.target = CampaignTarget::Result;  // C's faults: taken
        QVERIFY2(inputErrorOf([&] { validateCampaign(o, gpu); }).isEmpty(), qPrintable(inputErrorOf([&] { validateCampaign(o, gpu); })));
        o.target = CampaignTarget::Checksum;
        QVERIFY(inputErrorOf([&] { validateCampaign(o, gpu); }).isEmpty());
        o = onlineCampaign("online", 1);  // FP32 on the GPU: every target
        o.backend = BackendKind::Cuda;
        QVERIFY(inputErrorOf([&] { validateCampaign(o, gpu); }).isEmpty());
        CampaignConfig b;
        b.target = CampaignTarget::CQuadrant;
        QVERIFY(inputErrorOf([&] { validateCampaign(b, cpu); }).contains(QStringLiteral("--target c")));
    }

    // The options only one family's campaigns take are declared and read by that family: the
    // registry's order (online's, then Strassen's), each value into its family's field, a bad value
    // refused with the family's words, an option nobody declares refused.
    void familiesDeclareAndReadTheirOwnOptions()
    {
        QStringList names;
        for (const OptionSpec& o : campaignFamilyOptions()) {
            names << QString::fromStdString(o.name);
            QVERIFY(!o.help.empty() && !o.valueName.empty());
        }
        QCOMPARE(names, (QStringList{QStringLiteral("check-every"), QStringLiteral("panel"), QStringLiteral("levels")}));
        CampaignConfig c;
        const auto levels = [&] { return familySettingsOf<StrassenCampaignSettings>(c).levels; };
        const auto online = [&] { return familySettingsOf<OnlineCampaignSettings>(c); };
        QCOMPARE(levels(), (std::vector<int>{1}));  // the families' defaults before any option
        QCOMPARE(online().checkEvery, 1);
        QCOMPARE(online().panel, std::int64_t(0));
        readCampaignFamilyOption("levels", "1,3", c);
        QCOMPARE(levels(), (std::vector<int>{1, 3}));
        readCampaignFamilyOption("check-every", "4", c);
        QCOMPARE(online().checkEvery, 4);
        readCampaignFamilyOption("panel", "96", c);
        QCOMPARE(online().panel, std::int64_t(96));
        QCOMPARE(online().checkEvery, 4);  // one option leaves the family's others as they were
        QVERIFY(inputErrorOf([&] { readCampaignFamilyOption("levels", "1,5", c); }).contains(QStringLiteral("out of range")));
        QCOMPARE(levels(), (std::vector<int>{1, 3}));  // a refused value leaves the config as it was
        QVERIFY(inputErrorOf([&] { readCampaignFamilyOption("panel", "x", c); }).contains(QStringLiteral("panel width")));
        QVERIFY(inputErrorOf([&] { readCampaignFamilyOption("tile", "8", c); }).contains(QStringLiteral("--tile")));
    }

    // The help of the options whose meaning depends on the family is put together from the
    // families: --target names every family and each of its targets is among the values, every
    // value parses; --scheme lists the schemes that pick a family; --fault gives Strassen's own
    // default and why; --model and --type name the family that takes them.
    void helpComesFromTheFamilies()
    {
        const CampaignOptionHelp target = campaignTargetHelp();
        const QStringList values = qs(target.values).split(QLatin1Char('|'));
        for (std::string_view family : campaignFamilyNames()) {
            QVERIFY2(qs(target.text).contains(qs(std::string(family)) + QStringLiteral(": ")), family.data());
            for (CampaignTarget t : campaignTargetsOf(std::string(family)))
                QVERIFY2(values.contains(qs(std::string(toString(t)))), toString(t).data());
        }
        for (const QString& v : values)
            QCOMPARE(qs(std::string(toString(campaignTargetFromString(v.toStdString())))), v);
        QCOMPARE(values.last(), QStringLiteral("any"));
        QVERIFY(qs(target.text).endsWith(QStringLiteral("Default result; strassen any.")));

        const CampaignOptionHelp scheme = campaignSchemeHelp();
        QCOMPARE(qs(scheme.values), QStringLiteral("blocked|online|offline|tmr"));
        QVERIFY(qs(scheme.text).contains(QStringLiteral("online, offline or tmr (--family online)")));
        QVERIFY(qs(scheme.text).endsWith(QStringLiteral("Default blocked; online with --family online.")));

        QVERIFY(qs(campaignFaultHelp()).endsWith(
            QStringLiteral("Default bitflip:any; strassen: delta (a bit flip strikes the element a delta would).")));
        QVERIFY(qs(campaignModelHelp()).contains(QStringLiteral("(blocked and online families)")));
        QVERIFY(qs(campaignTypeHelp()).contains(QStringLiteral("(blocked family)")));
    }
};

QTEST_APPLESS_MAIN(TestCampaignFamilies)
#include "tst_campaign_families.moc"
