// gigacheck run / campaign with the fault models beside one cell and the end-to-end operand checks:
// --extent, two-bit flips, the checker's own targets, campaign --model; a campaign run's reproduce
// command replays it to the same fault; what does not fit is refused in one line, exit 2.
#include "cli_process.hpp"

#include <QJsonArray>
#include <QRegularExpression>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

using gigacheck::test::CliResult;
using gigacheck::test::gigacheckCli;
using gigacheck::test::words;
using gigacheck::test::readJson;
using gigacheck::test::refusedInOneLine;

class TestCliFaultModels : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;

private slots:
    void aRowSegmentOfTwoBitFlipsIsCorrected()
    {
        const QString json = dir_.filePath(QStringLiteral("segment.json"));
        const CliResult r = gigacheckCli(words("run --shape 64x64x64 --backend cpu --extent row:8 --inject-at 3,4 "
                                               "--fault bitflip:30+29 --json") << json);
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
        QVERIFY(r.out.contains(QStringLiteral("injected 8, detected 8")));
        QVERIFY(r.out.contains(QStringLiteral("operand checks:")));
        const QJsonObject doc = readJson(json);
        const QJsonArray injections =
            doc.value(QStringLiteral("events")).toObject().value(QStringLiteral("injections")).toArray();
        QCOMPARE(injections.size(), 8);
        QCOMPARE(injections.at(0).toObject().value(QStringLiteral("injection")).toObject().value(QStringLiteral("bit2")).toInt(),
                 29);
    }

    void theCheckersOwnFaultsEndVerified_data()
    {
        QTest::addColumn<QString>("options");
        QTest::newRow("check") << "--target check --errors 1";
        QTest::newRow("correction") << "--target correction --inject-at 7,9";
        QTest::newRow("encoding-a") << "--target encoding-a --errors 1 --fault bitflip:29";
        QTest::newRow("encoding-b") << "--target encoding-b --errors 1 --fault bitflip:29";
    }

    void theCheckersOwnFaultsEndVerified()
    {
        QFETCH(QString, options);
        const CliResult r = gigacheckCli(words("run --shape 64x64x64 --backend cpu --reference full") + options.split(QLatin1Char(' '), Qt::SkipEmptyParts));
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
        QVERIFY(r.out.contains(QStringLiteral("VERIFIED CORRECT")));
    }

    void aCampaignModelIsWrittenAndReplayed()
    {
        const QString json = dir_.filePath(QStringLiteral("tile.json"));
        const CliResult r = gigacheckCli(words("campaign --runs 6 --shape 64x48x56 --backend cpu --strategy all "
                                               "--extent tile:4 --fault delta --seed 3 --json") << json);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QJsonObject doc = readJson(json);
        QCOMPARE(doc.value(QStringLiteral("config")).toObject().value(QStringLiteral("model")).toString(),
                 QStringLiteral("tile:4"));
        const QJsonObject run = doc.value(QStringLiteral("runs")).toArray().at(1).toObject();
        QVERIFY(run.value(QStringLiteral("outcome")).toString() != QStringLiteral("sdc"));
        QStringList replay = run.value(QStringLiteral("reproduce")).toString().split(QLatin1Char(' '), Qt::SkipEmptyParts);
        replay.removeFirst();
        QVERIFY(replay.contains(QStringLiteral("--extent")));
        const CliResult again = gigacheckCli(replay);
        QVERIFY2(again.exitCode == 0, qPrintable(again.out + again.err));
        QVERIFY(again.out.contains(QStringLiteral("injected 16")));  // the 4 x 4 tile
    }

    // A clean campaign says how far its checks stayed from a false alarm: the largest clean residual
    // over its threshold, below 1, in the report and the JSON, for every family with checks.
    void aCleanCampaignReportsTheChecksMargin_data()
    {
        QTest::addColumn<QString>("options");
        QTest::newRow("blocked") << "--shape 96x80x72 --strategy s2";
        QTest::newRow("online") << "--shape 96x80x72 --scheme online --panel 16";
        QTest::newRow("offline f64") << "--shape 96x80x72 --scheme offline --type f64";
        QTest::newRow("strassen") << "--shape 96x80x72 --family strassen --levels 1,2";
    }
    void aCleanCampaignReportsTheChecksMargin()
    {
        QFETCH(QString, options);
        const QString json = dir_.filePath(QStringLiteral("margin.json"));
        const CliResult r = gigacheckCli(words("campaign --runs 4 --backend cpu --fault none --seed 2") +
                                         options.split(QLatin1Char(' '), Qt::SkipEmptyParts) +
                                         QStringList{QStringLiteral("--json"), json});
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
        const QRegularExpression line(QStringLiteral("Largest clean residual / threshold: (\\S+) \\(run (\\d+)\\)"));
        const QRegularExpressionMatch m = line.match(r.out);
        QVERIFY2(m.hasMatch(), qPrintable(r.out));
        const double ratio = m.captured(1).toDouble();
        QVERIFY2(ratio > 0 && ratio < 1, qPrintable(m.captured(0)));
        const QJsonObject summary = readJson(json).value(QStringLiteral("summary")).toObject();
        QCOMPARE(summary.value(QStringLiteral("max_clean_residual_run")).toInt(), m.captured(2).toInt());
        QVERIFY(qAbs(summary.value(QStringLiteral("max_clean_residual_ratio")).toDouble() - ratio) <= 5e-3 * ratio);  // printed with 3 digits
        QVERIFY(r.out.contains(QStringLiteral("no false alarm")));
    }

    // --inject-at in a campaign: every run strikes the same place (its inputs and bit vary), and
    // each run's reproduce command places it again, in the same grammar.
    void aCampaignStrikesItsPlacesInEveryRun_data()
    {
        QTest::addColumn<QString>("options");
        QTest::addColumn<QString>("target");
        QTest::addColumn<QString>("replayed");
        QTest::newRow("blocked, a k step") << "--strategy s2 --mem 20KB --fault bitflip:any --inject-at 3,4@1"
                                           << "result" << "--inject-at 3,4@1";
        QTest::newRow("blocked, a delta") << "--fault delta --inject-at 5,6:0.25" << "result" << "--inject-at 5,6:0.25";
        QTest::newRow("online, A after step 1") << "--scheme online --panel 16 --inject-at a:3,4@1" << "a-after"
                                                << "--inject-at 3,4@1";
        QTest::newRow("strassen, a quadrant") << "--family strassen --levels 1 --inject-at c:2:5" << "c"
                                              << "--inject-at c:2:5";
    }
    void aCampaignStrikesItsPlacesInEveryRun()
    {
        QFETCH(QString, options);
        QFETCH(QString, target);
        QFETCH(QString, replayed);
        const QString json = dir_.filePath(QStringLiteral("placed.json"));
        const CliResult r = gigacheckCli(words("campaign --runs 3 --shape 96x80x72 --backend cpu --seed 4 --shard 1/1") +
                                         options.split(QLatin1Char(' '), Qt::SkipEmptyParts) +
                                         QStringList{QStringLiteral("--json"), json});
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
        QVERIFY2(r.out.contains(QStringLiteral("no silent data corruption, no false alarm")), qPrintable(r.out));
        const QJsonObject doc = readJson(json);
        QCOMPARE(doc.value(QStringLiteral("config")).toObject().value(QStringLiteral("inject_at")).toArray().size(), 1);
        for (const QJsonValue& v : doc.value(QStringLiteral("runs")).toArray()) {
            const QJsonObject run = v.toObject();
            QCOMPARE(run.value(QStringLiteral("target")).toString(), target);
            const QString reproduce = run.value(QStringLiteral("reproduce")).toString();
            QVERIFY2(reproduce.contains(replayed + QLatin1Char(' ')) || reproduce.endsWith(replayed), qPrintable(reproduce));
        }
        // The file reads back: `campaign merge` of its one shard keeps the places.
        const QString merged = dir_.filePath(QStringLiteral("merged.json"));
        const CliResult m = gigacheckCli(QStringList{QStringLiteral("campaign"), QStringLiteral("merge"), json,
                                                     QStringLiteral("--json"), merged});
        QVERIFY2(m.exitCode == 0, qPrintable(m.out + m.err));
        QCOMPARE(readJson(merged).value(QStringLiteral("config")).toObject().value(QStringLiteral("inject_at")).toArray(),
                 doc.value(QStringLiteral("config")).toObject().value(QStringLiteral("inject_at")).toArray());
    }

    // An online / offline / TMR campaign's faults reach as far as --extent says: a row segment,
    // a column segment or a tile from each drawn cell, clipped to C; every run's reproduce command
    // strikes those cells, and none of them ends silent.
    void anOnlineCampaignsFaultsReachTheirExtent_data()
    {
        QTest::addColumn<QString>("options");
        QTest::addColumn<int>("cells");  // per run, before clipping to C's edge
        QTest::newRow("online, row of 8") << "--scheme online --panel 16 --extent row:8" << 8;
        QTest::newRow("offline, column of 5") << "--scheme offline --panel 16 --extent col:5" << 5;
        QTest::newRow("online, 3 x 3 tile") << "--scheme online --panel 16 --extent tile:3" << 9;
        QTest::newRow("tmr, row of 4") << "--scheme tmr --extent row:4" << 4;
    }
    void anOnlineCampaignsFaultsReachTheirExtent()
    {
        QFETCH(QString, options);
        QFETCH(int, cells);
        const QString json = dir_.filePath(QStringLiteral("extent.json"));
        const CliResult r = gigacheckCli(words("campaign --family online --runs 12 --shape 96x80x72 --backend cpu "
                                               "--seed 6 --target result --fault delta") +
                                         options.split(QLatin1Char(' '), Qt::SkipEmptyParts) +
                                         QStringList{QStringLiteral("--json"), json});
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
        QVERIFY2(r.out.contains(QStringLiteral("no silent data corruption, no false alarm")), qPrintable(r.out));
        QVERIFY2(r.out.contains(QStringLiteral(" per fault")), qPrintable(r.out));  // the promise names the reach
        const QJsonObject doc = readJson(json);
        int unclipped = 0;
        for (const QJsonValue& v : doc.value(QStringLiteral("runs")).toArray()) {
            const QJsonObject run = v.toObject();
            QVERIFY2(run.value(QStringLiteral("outcome")).toString() != QStringLiteral("sdc"), qPrintable(run.value(QStringLiteral("reproduce")).toString()));
            const QString reproduce = run.value(QStringLiteral("reproduce")).toString();
            const int struck = int(reproduce.count(QStringLiteral("--inject-at ")));
            QVERIFY2(struck >= 1 && struck <= cells, qPrintable(reproduce));
            unclipped += struck == cells;
        }
        QVERIFY(unclipped > 0);  // C is 96 x 72: most reaches fit whole
        // The command replays the run: as many cells struck, and C right in the end.
        const QJsonObject first = doc.value(QStringLiteral("runs")).toArray().first().toObject();
        QStringList replay = first.value(QStringLiteral("reproduce")).toString().split(QLatin1Char(' '), Qt::SkipEmptyParts);
        QCOMPARE(replay.takeFirst(), QStringLiteral("gigacheck"));
        const CliResult again = gigacheckCli(replay);
        QVERIFY2(again.exitCode == 0, qPrintable(again.out + again.err));
        const int placed = int(first.value(QStringLiteral("reproduce")).toString().count(QStringLiteral("--inject-at ")));
        QCOMPARE(int(again.out.count(QStringLiteral("\n  fault: result ("))), placed);
        QVERIFY2(again.out.contains(QStringLiteral("verdict: verified correct")), qPrintable(again.out));
    }

    void aCampaignRefusesPlacesItCannotStrike_data()
    {
        QTest::addColumn<QString>("options");
        QTest::addColumn<QString>("expected");
        QTest::newRow("outside C") << "--inject-at 300,4" << "is outside C (96 x 72)";
        QTest::newRow("blocked checksum cell") << "--inject-at checksum-row:0,4" << "its checksum faults are drawn";
        QTest::newRow("two targets") << "--inject-at 3,4 --inject-at a:1,2" << "share one target";
        QTest::newRow("against --target") << "--inject-at 3,4 --target checksum" << "make them agree";
        QTest::newRow("against --faults-per-run") << "--inject-at 3,4 --faults-per-run 2" << "each place once";
        QTest::newRow("past the last step") << "--scheme online --panel 16 --inject-at 3,4@9" << "past the last step";
        QTest::newRow("strassen cell") << "--family strassen --inject-at 3,4" << "is not a place of a strassen campaign";
        QTest::newRow("strassen cell of A") << "--family strassen --inject-at a:3,4" << "a quadrant";
        QTest::newRow("bad grammar") << "--inject-at 3;4" << "--inject-at";
        QTest::newRow("one cell twice") << "--inject-at 3,4 --inject-at 3,4:2" << "give each cell once";
    }
    void aCampaignRefusesPlacesItCannotStrike()
    {
        QFETCH(QString, options);
        QFETCH(QString, expected);
        const CliResult r = gigacheckCli(words("campaign --runs 2 --shape 96x80x72 --backend cpu") +
                                         options.split(QLatin1Char(' '), Qt::SkipEmptyParts));
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(expected), qPrintable(r.err));
        QCOMPARE(r.err.count(QLatin1Char('\n')), 1);  // one line
    }

    // --model, the campaign's earlier name of --extent, is still read; the two disagreeing are refused.
    void aCampaignTakesModelAsTheEarlierNameOfExtent()
    {
        const QString json = dir_.filePath(QStringLiteral("model.json"));
        const CliResult r = gigacheckCli(words("campaign --runs 2 --shape 64x48x56 --backend cpu --model row:8 "
                                               "--fault delta --seed 3 --json") << json);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QCOMPARE(readJson(json).value(QStringLiteral("config")).toObject().value(QStringLiteral("model")).toString(),
                 QStringLiteral("row:8"));
        const CliResult both = gigacheckCli(words("campaign --runs 2 --shape 64x48x56 --backend cpu --model row:8 "
                                                  "--extent tile:4"));
        QCOMPARE(both.exitCode, 2);
        QVERIFY2(both.err.contains(QStringLiteral("--extent and --model")), qPrintable(both.err));
    }

    // The campaign takes run's target words: one checksum line, one operand's checksum entry.
    void aCampaignTakesTheTargetWordsOfRun_data()
    {
        QTest::addColumn<QString>("options");
        QTest::addColumn<QString>("target");
        QTest::newRow("blocked checksum-row") << "--target checksum-row" << "checksum-row";
        QTest::newRow("blocked checksum-col") << "--target checksum-col" << "checksum-col";
        QTest::newRow("blocked encoding-a") << "--target encoding-a" << "encoding-a";
        QTest::newRow("online checksum-col") << "--scheme online --panel 16 --target checksum-col" << "checksum-col";
    }
    void aCampaignTakesTheTargetWordsOfRun()
    {
        QFETCH(QString, options);
        QFETCH(QString, target);
        const QString json = dir_.filePath(QStringLiteral("targets.json"));
        const CliResult r = gigacheckCli(words("campaign --runs 6 --shape 64x48x56 --backend cpu --seed 5") +
                                         options.split(QLatin1Char(' '), Qt::SkipEmptyParts) + QStringList{QStringLiteral("--json"), json});
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
        QVERIFY2(r.out.contains(QStringLiteral("no silent data corruption")), qPrintable(r.out));
        const QJsonArray runs = readJson(json).value(QStringLiteral("runs")).toArray();
        QCOMPARE(runs.size(), 6);
        for (const QJsonValue& run : runs)
            QCOMPARE(run.toObject().value(QStringLiteral("target")).toString(), target);
    }

    void whatDoesNotFitIsRefused_data()
    {
        QTest::addColumn<QString>("command");
        QTest::addColumn<QString>("expected");
        QTest::newRow("extent") << "run --shape 32x32x32 --backend cpu --extent warp:32 --inject-at 1,1" << "row[:L]";
        QTest::newRow("same bit twice") << "run --shape 32x32x32 --backend cpu --fault bitflip:5+5 --inject-at 1,1"
                                        << "must differ";
        QTest::newRow("check at a position") << "run --shape 32x32x32 --backend cpu --target check --inject-at 1,1"
                                             << "random faults";
        QTest::newRow("16-bit inputs in an online campaign") << "campaign --runs 2 --backend cpu --family online "
                                                                "--type bf16"
                                                             << "blocked family";
    }

    void whatDoesNotFitIsRefused()
    {
        QFETCH(QString, command);
        QFETCH(QString, expected);
        const CliResult r = gigacheckCli(command.split(QLatin1Char(' '), Qt::SkipEmptyParts));
        QVERIFY2(refusedInOneLine(r, expected), qPrintable(r.err));
    }
};

QTEST_GUILESS_MAIN(TestCliFaultModels)
#include "tst_cli_fault_models.moc"
