// Sharded campaigns: shard K of N runs exactly its slice of the whole campaign with the whole
// campaign's seeds, and the merge of the N shard files equals the campaign run whole (its summary
// field by field, its runs one by one); the merge refuses what would make it differ.
#include "gigacheck/campaign.hpp"

#include "test_helpers.hpp"

#include <nlohmann/json.hpp>

#include <QtTest>

#include <cmath>

using namespace gigacheck;
using gigacheck::test::inputErrorOf;
using gigacheck::test::qs;

namespace {

constexpr int kShards = 3;

// Every strategy and every target kind (result, checksums, operands), so every table has rows.
CampaignConfig smallCampaign()
{
    CampaignConfig c;
    c.runs = 40;
    c.shape = {48, 40, 36};
    c.backend = BackendKind::Cpu;
    c.strategies = {StrategyKind::None, StrategyKind::S1, StrategyKind::S2, StrategyKind::S3, StrategyKind::S4};
    c.target = CampaignTarget::Any;
    c.seed = 7;
    return c;
}

// A shard as the merge sees it: written to its file and read back.
CampaignResult throughFile(const CampaignResult& r) { return campaignFromJson(campaignToJson(r)); }

void compareCounts(const OutcomeCounts& a, const OutcomeCounts& b, const QString& where)
{
    QVERIFY2(a.total == b.total, qPrintable(where));
    for (Outcome o : kOutcomes) {
        QVERIFY2(a[o] == b[o], qPrintable(where + QStringLiteral(" ") + qs(toString(o))));
        const Interval x = wilsonInterval(a[o], a.total), y = wilsonInterval(b[o], b.total);
        QVERIFY2(x.low == y.low && x.high == y.high, qPrintable(where + QStringLiteral(" interval")));
    }
}

void compareGroups(const std::vector<CampaignGroup>& a, const std::vector<CampaignGroup>& b, const char* table)
{
    QCOMPARE(a.size(), b.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
        QCOMPARE(qs(a[i].key), qs(b[i].key));
        compareCounts(a[i].counts, b[i].counts, QString::fromLatin1(table) + QStringLiteral(" ") + qs(a[i].key));
    }
}

bool same(double a, double b) { return a == b || (std::isnan(a) && std::isnan(b)); }

// Everything a run is and how it ended, but its time.
void compareRuns(const CampaignRun& a, const CampaignRun& b)
{
    const QByteArray where = "run " + QByteArray::number(a.index);
    const char* at = where.constData();
    QVERIFY2(a.index == b.index && a.seed == b.seed, at);
    QVERIFY2(a.strategy == b.strategy && a.target == b.target && a.bit == b.bit, at);
    QVERIFY2(a.operand == b.operand && a.afterChecksums == b.afterChecksums, at);
    QVERIFY2(a.positions.size() == b.positions.size(), at);
    for (std::size_t i = 0; i < a.positions.size(); ++i)
        QVERIFY2(a.positions[i].row == b.positions[i].row && a.positions[i].col == b.positions[i].col, at);
    QVERIFY2(a.applied.size() == b.applied.size(), at);
    for (std::size_t i = 0; i < a.applied.size(); ++i) {
        const Injection &x = a.applied[i], &y = b.applied[i];
        QVERIFY2(x.globalRow == y.globalRow && x.globalCol == y.globalCol && x.bit == y.bit, at);
        QVERIFY2(same(x.before, y.before) && same(x.after, y.after) && same(x.delta, y.delta), at);
    }
    QVERIFY2(a.outcome == b.outcome, at);
    QVERIFY2(a.status == b.status && a.error == b.error && a.referencePassed == b.referencePassed, at);
    QVERIFY2(same(a.maxErrorOverTolerance, b.maxErrorOverTolerance), at);
    const FaultReport &f = a.faults, &g = b.faults;
    QVERIFY2(f.injected == g.injected && f.detected == g.detected && f.corrected == g.corrected &&
                 f.correctedByRecompute == g.correctedByRecompute && f.uncorrectable == g.uncorrectable &&
                 f.belowThreshold == g.belowThreshold && f.missed == g.missed && f.falsePositives == g.falsePositives,
             at);
}

// The JSON a campaign file holds, without what differs between two runs of it (time stamps, times).
nlohmann::json comparable(const CampaignResult& r)
{
    nlohmann::json j = nlohmann::json::parse(campaignToJson(r));
    j.erase("created_at");
    for (auto& run : j["runs"])
        run.erase("seconds");
    return j;
}

}  // namespace

class TestCampaignShards : public QObject {
    Q_OBJECT

    CampaignResult whole_;
    std::vector<CampaignResult> shards_;  // 1..kShards, read back from their files
    std::vector<std::string> names_;

private slots:
    void initTestCase()
    {
        whole_ = runCampaign(smallCampaign());
        QCOMPARE(int(whole_.runs.size()), smallCampaign().runs);
        QVERIFY(!whole_.shard);
        for (int k = 1; k <= kShards; ++k) {
            shards_.push_back(throughFile(runCampaign(smallCampaign(), CampaignShard{k, kShards})));
            names_.push_back("shard-" + std::to_string(k) + ".json");
        }
    }

    // Shards 1..N cut runs 0..R-1 into N non-empty slices, in order, without gap or overlap.
    void slicesCoverTheCampaignOnce()
    {
        for (int runs = 1; runs <= 60; ++runs)
            for (int n = 1; n <= runs; ++n) {
                int next = 0;
                for (int k = 1; k <= n; ++k) {
                    const RunRange r = shardRuns(runs, {k, n});
                    QVERIFY(r.begin == next && r.end > r.begin);
                    next = r.end;
                }
                QCOMPARE(next, runs);
            }
        // No overflow at the largest campaigns the CLI takes.
        const RunRange last = shardRuns(10'000'000, {9'999'999, 10'000'000});
        QCOMPARE(last.begin, 9'999'998);
        QCOMPARE(last.end, 9'999'999);
    }

    void eachShardRunsItsSliceWithTheWholeSeeds()
    {
        for (int k = 1; k <= kShards; ++k) {
            const CampaignResult& s = shards_[std::size_t(k - 1)];
            QVERIFY(s.shard);
            QCOMPARE(s.shard->index, k);
            QCOMPARE(s.shard->count, kShards);
            QCOMPARE(s.config.runs, whole_.config.runs);  // the whole campaign's configuration
            const RunRange range = shardRuns(whole_.config.runs, {k, kShards});
            QCOMPARE(int(s.runs.size()), range.end - range.begin);
            for (std::size_t n = 0; n < s.runs.size(); ++n)
                compareRuns(s.runs[n], whole_.runs[std::size_t(range.begin) + n]);
        }
    }

    void progressCountsWithinTheShard()
    {
        std::vector<std::pair<int, int>> seen;
        CampaignHooks hooks;
        hooks.onRun = [&](const CampaignRun&, int done, int total) { seen.emplace_back(done, total); };
        runCampaign(smallCampaign(), CampaignShard{2, kShards}, hooks);
        const RunRange range = shardRuns(smallCampaign().runs, {2, kShards});
        QCOMPARE(int(seen.size()), range.end - range.begin);
        for (std::size_t i = 0; i < seen.size(); ++i)
            QVERIFY(seen[i] == std::make_pair(int(i) + 1, range.end - range.begin));
    }

    void mergeEqualsTheWholeCampaign()
    {
        // Given in any order, as a shell glob may list them.
        const CampaignResult merged =
            mergeCampaignShards({shards_[2], shards_[0], shards_[1]}, {names_[2], names_[0], names_[1]});
        QVERIFY(!merged.shard);
        QVERIFY(!merged.interrupted);
        QCOMPARE(qs(campaignConfigJson(merged.config)), qs(campaignConfigJson(whole_.config)));
        compareCounts(merged.summary.all, whole_.summary.all, QStringLiteral("all"));
        compareGroups(merged.summary.byBit, whole_.summary.byBit, "by bit");
        compareGroups(merged.summary.byTarget, whole_.summary.byTarget, "by target");
        compareGroups(merged.summary.byStrategy, whole_.summary.byStrategy, "by strategy");
        QVERIFY(merged.summary.byBit.size() > 1 && merged.summary.byTarget.size() > 1 &&
                merged.summary.byStrategy.size() == 5);
        QCOMPARE(merged.runs.size(), whole_.runs.size());
        for (std::size_t i = 0; i < merged.runs.size(); ++i)
            compareRuns(merged.runs[i], whole_.runs[i]);
        // And the files: the merged one is the whole one but its time stamp and run times, summary
        // included; read back, it is still a whole campaign.
        QVERIFY(comparable(merged) == comparable(whole_));
        QVERIFY(!throughFile(merged).shard);
        QCOMPARE(qs(formatCampaignReport(merged)), qs(formatCampaignReport(whole_)));
    }

    void aShardFileSaysWhichShardItIs()
    {
        const nlohmann::json j = nlohmann::json::parse(campaignToJson(shards_[1]));
        QCOMPARE(j.at("shard").at("index").get<int>(), 2);
        QCOMPARE(j.at("shard").at("count").get<int>(), kShards);
        QCOMPARE(j.at("shard").at("campaign_runs").get<int>(), smallCampaign().runs);
        const RunRange range = shardRuns(smallCampaign().runs, {2, kShards});
        QCOMPARE(j.at("shard").at("first_run").get<int>(), range.begin);
        QCOMPARE(j.at("shard").at("last_run").get<int>(), range.end - 1);
        QVERIFY(!nlohmann::json::parse(campaignToJson(whole_)).contains("shard"));
        QVERIFY(qs(formatCampaignReport(shards_[1])).contains(QStringLiteral("shard 2/3: runs")));
    }

    void readerRefusesAnInconsistentShard()
    {
        nlohmann::json j = nlohmann::json::parse(campaignToJson(shards_[0]));
        j["shard"]["index"] = 4;
        QVERIFY(inputErrorOf([&] { campaignFromJson(j.dump()); }).contains(QStringLiteral("K must be from 1 to N")));
        j = nlohmann::json::parse(campaignToJson(shards_[0]));
        j["shard"]["campaign_runs"] = 41;
        QVERIFY(inputErrorOf([&] { campaignFromJson(j.dump()); }).contains(QStringLiteral("config.runs")));
        j = nlohmann::json::parse(campaignToJson(shards_[0]));
        j["shard"]["first_run"] = 1;
        QVERIFY(inputErrorOf([&] { campaignFromJson(j.dump()); }).contains(QStringLiteral("first_run")));
    }

    void badShardsAreRefusedBeforeAnyRun()
    {
        const CampaignConfig c = smallCampaign();
        QVERIFY(inputErrorOf([&] { runCampaign(c, CampaignShard{0, 3}); }).contains(QStringLiteral("K must be")));
        QVERIFY(inputErrorOf([&] { runCampaign(c, CampaignShard{4, 3}); }).contains(QStringLiteral("K must be")));
        QVERIFY(inputErrorOf([&] { runCampaign(c, CampaignShard{1, 41}); })
                    .contains(QStringLiteral("N must be at most the number of runs (40)")));
    }

    void mergeRefusals()
    {
        const auto refusal = [&](std::vector<CampaignResult> shards, std::vector<std::string> names) {
            return inputErrorOf([&] { mergeCampaignShards(shards, names); });
        };
        QVERIFY(refusal({}, {}).contains(QStringLiteral("nothing to merge")));
        // A whole campaign is no shard.
        QString e = refusal({shards_[0], whole_, shards_[2]}, {"a.json", "whole.json", "c.json"});
        QVERIFY2(e.contains(QStringLiteral("whole.json is a whole campaign, not a shard")), qPrintable(e));
        // Missing shards are named.
        e = refusal({shards_[0], shards_[2]}, {names_[0], names_[2]});
        QVERIFY2(e == QStringLiteral("shard 2 of 3 is missing"), qPrintable(e));
        e = refusal({shards_[1]}, {names_[1]});
        QVERIFY2(e == QStringLiteral("shards 1 and 3 of 3 are missing"), qPrintable(e));
        // A shard twice.
        e = refusal({shards_[0], shards_[1], shards_[1], shards_[2]}, {"1.json", "2.json", "2-again.json", "3.json"});
        QVERIFY2(e.contains(QStringLiteral("shard 2/3 is given twice (2.json and 2-again.json)")), qPrintable(e));
        // Another campaign's shard: the configuration field that differs is named.
        CampaignConfig other = smallCampaign();
        other.seed = 8;
        const CampaignResult foreign = throughFile(runCampaign(other, CampaignShard{2, kShards}));
        e = refusal({shards_[0], foreign, shards_[2]}, {"1.json", "other.json", "3.json"});
        QVERIFY2(e.contains(QStringLiteral("other.json and 1.json are shards of different campaigns (config seed 8 vs 7)")),
                 qPrintable(e));
        // Another split of the same campaign.
        const CampaignResult half = throughFile(runCampaign(smallCampaign(), CampaignShard{2, 2}));
        e = refusal({shards_[0], half}, {"1.json", "half.json"});
        QVERIFY2(e.contains(QStringLiteral("split the campaign differently (shard 2/2 vs 1/3)")), qPrintable(e));
        // A shard cut short.
        CampaignResult cut = shards_[1];
        cut.interrupted = true;
        cut.runs.pop_back();
        e = refusal({shards_[0], cut, shards_[2]}, {"1.json", "2.json", "3.json"});
        QVERIFY2(e.contains(QStringLiteral("2.json (shard 2/3) was interrupted")), qPrintable(e));
        // A shard whose runs are not its slice's (edited, or another seed's).
        CampaignResult edited = shards_[1];
        edited.runs.front().seed ^= 1;
        e = refusal({shards_[0], edited, shards_[2]}, {"1.json", "2.json", "3.json"});
        QVERIFY2(e.contains(QStringLiteral("2.json (shard 2/3): its run 0 is not run")), qPrintable(e));
        CampaignResult shortened = shards_[1];
        shortened.runs.pop_back();
        e = refusal({shards_[0], shortened, shards_[2]}, {"1.json", "2.json", "3.json"});
        QVERIFY2(e.contains(QStringLiteral("2.json (shard 2/3) holds")), qPrintable(e));
        // Every refusal is one line.
        QVERIFY(!e.contains(QLatin1Char('\n')));
    }

    void oneShardOfOneIsTheWholeCampaign()
    {
        const CampaignResult one = throughFile(runCampaign(smallCampaign(), CampaignShard{1, 1}));
        QVERIFY(comparable(mergeCampaignShards({one})) == comparable(whole_));
    }
};

QTEST_GUILESS_MAIN(TestCampaignShards)
#include "tst_campaign_shards.moc"
