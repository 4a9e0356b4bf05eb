// gigacheck campaign --shard K/N and gigacheck campaign merge, as a job array uses them: three
// shards merged give the unsharded campaign's report and summary; bad --shard values, missing or
// repeated shards, another campaign's shard and a whole campaign are refused with one line, exit 2.
#include "cli_process.hpp"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

using gigacheck::test::CliResult;
using gigacheck::test::gigacheckCli;
using gigacheck::test::words;
using gigacheck::test::readJson;
using gigacheck::test::refusedInOneLine;

namespace {

// Small and quick, with every strategy and target kind so that every table has rows.
const char* const kCampaign = "campaign --runs 30 --shape 48x40x36 --backend cpu --strategy all --target any --seed 5";

// The runs without their times, which differ between any two runs of a campaign.
QJsonArray runsWithoutTimes(const QJsonObject& campaign)
{
    QJsonArray out;
    for (const QJsonValue& run : campaign.value(QStringLiteral("runs")).toArray()) {
        QJsonObject o = run.toObject();
        o.remove(QStringLiteral("seconds"));
        out.append(o);
    }
    return out;
}

}  // namespace

class TestCliCampaignShards : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    CliResult whole_;

    QString path(const char* name) const { return dir_.filePath(QString::fromLatin1(name)); }
    QString shardPath(int k) const { return dir_.filePath(QStringLiteral("shard-%1.json").arg(k)); }

private slots:
    void initTestCase()
    {
        QVERIFY(dir_.isValid());
        whole_ = gigacheckCli(words(kCampaign) << QStringLiteral("--json") << path("whole.json"));
        QCOMPARE(whole_.exitCode, 0);
        for (int k = 1; k <= 3; ++k) {
            const CliResult r = gigacheckCli(words(kCampaign) << QStringLiteral("--shard") << QStringLiteral("%1/3").arg(k)
                                                              << QStringLiteral("--json") << shardPath(k));
            QVERIFY2(r.exitCode == 0, qPrintable(r.err));
            QVERIFY2(r.out.contains(QStringLiteral("shard %1/3: runs").arg(k)), qPrintable(r.out));
        }
    }

    void shardFilesSayWhichShardTheyAre()
    {
        int runs = 0;
        for (int k = 1; k <= 3; ++k) {
            const QJsonObject o = readJson(shardPath(k));
            const QJsonObject shard = o.value(QStringLiteral("shard")).toObject();
            QCOMPARE(shard.value(QStringLiteral("index")).toInt(), k);
            QCOMPARE(shard.value(QStringLiteral("count")).toInt(), 3);
            QCOMPARE(shard.value(QStringLiteral("campaign_runs")).toInt(), 30);
            QCOMPARE(o.value(QStringLiteral("config")), readJson(path("whole.json")).value(QStringLiteral("config")));
            runs += o.value(QStringLiteral("runs")).toArray().size();
        }
        QCOMPARE(runs, 30);
        QVERIFY(!readJson(path("whole.json")).contains(QStringLiteral("shard")));
    }

    void mergedEqualsTheUnshardedCampaign()
    {
        // In any order, as a glob may list them.
        const CliResult merged = gigacheckCli({QStringLiteral("campaign"), QStringLiteral("merge"), shardPath(3),
                                               shardPath(1), shardPath(2), QStringLiteral("--json"), path("merged.json")});
        QVERIFY2(merged.exitCode == 0, qPrintable(merged.err));
        QCOMPARE(merged.out, whole_.out);  // the same report: outcome table, intervals, every group table
        const QJsonObject a = readJson(path("whole.json")), b = readJson(path("merged.json"));
        QVERIFY(!a.value(QStringLiteral("summary")).toObject().isEmpty());
        QCOMPARE(b.value(QStringLiteral("summary")), a.value(QStringLiteral("summary")));
        QCOMPARE(b.value(QStringLiteral("config")), a.value(QStringLiteral("config")));
        QCOMPARE(runsWithoutTimes(b), runsWithoutTimes(a));
        QVERIFY(!b.contains(QStringLiteral("shard")));
        // It reads back as a campaign, with the same report.
        const CliResult shown = gigacheckCli({QStringLiteral("show"), path("merged.json")});
        QCOMPARE(shown.exitCode, 0);
        QVERIFY(shown.out.contains(QStringLiteral("30 run(s)")));
    }

    void mergeRefusals()
    {
        const QString merge = QStringLiteral("campaign merge ");
        const auto run = [](const QString& line) { return gigacheckCli(line.split(QLatin1Char(' '), Qt::SkipEmptyParts)); };
        CliResult r = run(merge + shardPath(1) + QLatin1Char(' ') + shardPath(3));
        QVERIFY2(refusedInOneLine(r, QStringLiteral("shard 2 of 3 is missing")), qPrintable(r.err));
        r = run(merge + shardPath(1) + QLatin1Char(' ') + shardPath(2) + QLatin1Char(' ') + shardPath(2) +
                QLatin1Char(' ') + shardPath(3));
        QVERIFY2(refusedInOneLine(r, QStringLiteral("shard 2/3 is given twice")), qPrintable(r.err));
        r = run(merge + path("whole.json"));
        QVERIFY2(refusedInOneLine(r, QStringLiteral("is a whole campaign, not a shard")), qPrintable(r.err));
        r = run(merge);
        QVERIFY2(refusedInOneLine(r, QStringLiteral("needs the shard files")), qPrintable(r.err));
        r = run(merge + path("nowhere.json"));
        QVERIFY2(refusedInOneLine(r, QStringLiteral("nowhere.json")), qPrintable(r.err));
        // A shard of another campaign (another seed) in place of shard 2.
        const CliResult other = gigacheckCli(words("campaign --runs 30 --shape 48x40x36 --backend cpu --strategy all "
                                                   "--target any --seed 6 --shard 2/3 --json")
                                             << path("other-2.json"));
        QCOMPARE(other.exitCode, 0);
        r = run(merge + shardPath(1) + QLatin1Char(' ') + path("other-2.json") + QLatin1Char(' ') + shardPath(3));
        QVERIFY2(refusedInOneLine(r, QStringLiteral("are shards of different campaigns (config seed 6 vs 5)")),
                 qPrintable(r.err));
        // --json once only.
        r = run(merge + shardPath(1) + QLatin1Char(' ') + shardPath(2) + QLatin1Char(' ') + shardPath(3) +
                QStringLiteral(" --json ") + path("m1.json") + QStringLiteral(" --json ") + path("m2.json"));
        QVERIFY2(refusedInOneLine(r, QStringLiteral("--json")), qPrintable(r.err));
    }

    void badShardValues_data()
    {
        QTest::addColumn<QString>("shard");
        QTest::addColumn<QString>("expected");
        QTest::newRow("K zero") << "0/3" << "--shard 0/3";
        QTest::newRow("K past N") << "4/3" << "K must be from 1 to N";
        QTest::newRow("N zero") << "1/0" << "--shard 1/0";
        QTest::newRow("N past the runs") << "1/31" << "N must be at most the number of runs (30)";
        QTest::newRow("no slash") << "3" << "expected K/N";
        QTest::newRow("not a number") << "a/3" << "--shard a/3";
        QTest::newRow("negative") << "-1/3" << "--shard -1/3";
        QTest::newRow("signed") << "+1/3" << "--shard +1/3";
        QTest::newRow("two slashes") << "1/3/4" << "--shard 1/3/4";
        QTest::newRow("empty") << "" << "--shard";
    }

    void badShardValues()
    {
        QFETCH(QString, shard);
        QFETCH(QString, expected);
        const CliResult r = gigacheckCli(words(kCampaign) << QStringLiteral("--shard") << shard);
        QVERIFY2(refusedInOneLine(r, expected), qPrintable(r.err));
        QVERIFY(r.out.isEmpty());  // refused before any run
    }

    void repeatedShardIsRefused()
    {
        const CliResult r = gigacheckCli(words(kCampaign) << QStringLiteral("--shard") << QStringLiteral("1/3")
                                                          << QStringLiteral("--shard") << QStringLiteral("2/3"));
        QVERIFY2(refusedInOneLine(r, QStringLiteral("--shard")), qPrintable(r.err));
        QVERIFY(r.out.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestCliCampaignShards)
#include "tst_cli_campaign_shards.moc"
