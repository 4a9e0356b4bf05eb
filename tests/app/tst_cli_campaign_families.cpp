// gigacheck campaign --family online|strassen: a Strassen campaign over levels 1-2 and a TMR
// campaign run, write their family into the JSON with a by-level table for Strassen, and each
// run's reproduce command replays that run (same verdict); a target the family does not have is
// refused in one line, exit 2.
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

// The reproduce command of a run, without its leading "gigacheck", as arguments.
QStringList replayArguments(const QJsonObject& run)
{
    QStringList args = run.value(QStringLiteral("reproduce")).toString().split(QLatin1Char(' '), Qt::SkipEmptyParts);
    args.removeFirst();
    return args;
}

}  // namespace

class TestCliCampaignFamilies : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;

private slots:
    void strassenCampaign()
    {
        const QString json = dir_.filePath(QStringLiteral("strassen.json"));
        const CliResult r = gigacheckCli(words("campaign --family strassen --runs 12 --shape 64x64x64 --levels 1,2 "
                                               "--backend cpu --seed 4 --json") << json);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains(QStringLiteral("family strassen")) && r.out.contains(QStringLiteral("By level:")),
                 qPrintable(r.out));
        QVERIFY(r.out.contains(QStringLiteral("fault delta into any")));  // the family's defaults
        const QJsonObject doc = readJson(json);
        QCOMPARE(doc.value(QStringLiteral("config")).toObject().value(QStringLiteral("family")).toString(),
                 QStringLiteral("strassen"));
        QCOMPARE(doc.value(QStringLiteral("summary")).toObject().value(QStringLiteral("by_level")).toArray().size(), 2);
        const QJsonArray runs = doc.value(QStringLiteral("runs")).toArray();
        QCOMPARE(runs.size(), 12);
        for (const QJsonValue& v : runs) {
            const QJsonObject run = v.toObject();
            QVERIFY(run.value(QStringLiteral("reproduce")).toString().startsWith(QStringLiteral("gigacheck strassen ")));
            QVERIFY(run.value(QStringLiteral("outcome")).toString() != QStringLiteral("sdc"));
        }
        // The first run replayed alone: the same fault, a verified C (the campaign did not call it DUE).
        const QJsonObject first = runs.first().toObject();
        const CliResult replay = gigacheckCli(replayArguments(first));
        QVERIFY2(replay.exitCode == (first.value(QStringLiteral("outcome")).toString() == QStringLiteral("due") ? 1 : 0),
                 qPrintable(replay.out + replay.err));
    }

    // Bit flips in a Strassen campaign: each run flips bit B of the element its fault strikes; the
    // reproduce line replays it with --fault, and never an SDC.
    void strassenBitFlipCampaign()
    {
        const QString json = dir_.filePath(QStringLiteral("strassen-flips.json"));
        const CliResult r = gigacheckCli(words("campaign --family strassen --runs 8 --shape 64x64x64 --levels 1,2 "
                                               "--fault bitflip:30 --backend cpu --seed 5 --json") << json);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains(QStringLiteral("fault bitflip:30 into any")), qPrintable(r.out));
        const QJsonArray runs = readJson(json).value(QStringLiteral("runs")).toArray();
        QCOMPARE(runs.size(), 8);
        for (const QJsonValue& v : runs) {
            const QJsonObject run = v.toObject();
            QCOMPARE(run.value(QStringLiteral("bit")).toInt(), 30);
            QVERIFY(run.value(QStringLiteral("reproduce")).toString().contains(QStringLiteral(" --fault bitflip:30 ")));
            QVERIFY(run.value(QStringLiteral("outcome")).toString() != QStringLiteral("sdc"));
        }
        const QJsonObject first = runs.first().toObject();
        const CliResult replay = gigacheckCli(replayArguments(first));
        QVERIFY2(replay.exitCode == (first.value(QStringLiteral("outcome")).toString() == QStringLiteral("due") ? 1 : 0),
                 qPrintable(replay.out + replay.err));
        QVERIFY2(replay.out.contains(QStringLiteral("bit 30 flipped")), qPrintable(replay.out));
    }

    // Two bits of one word in the online and Strassen families: each run draws two distinct bits,
    // the reproduce line replays both (--fault bitflip:B+B2), and no run ends silently wrong.
    void twoBitFlipCampaigns_data()
    {
        QTest::addColumn<QString>("arguments");
        QTest::newRow("online") << "--family online --scheme online --panel 8 --target any";
        QTest::newRow("offline") << "--family online --scheme offline --panel 8 --target result";
        QTest::newRow("tmr") << "--family online --scheme tmr";
        QTest::newRow("strassen") << "--family strassen --levels 1,2";
    }
    void twoBitFlipCampaigns()
    {
        QFETCH(QString, arguments);
        const QString json = dir_.filePath(QStringLiteral("two-bits-%1.json").arg(QTest::currentDataTag()));
        const CliResult r = gigacheckCli(words("campaign --runs 8 --shape 48x40x32 --fault bitflip2 --backend cpu --seed 9 ") +
                                         arguments.split(QLatin1Char(' ')) << QStringLiteral("--json") << json);
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
        const QJsonArray runs = readJson(json).value(QStringLiteral("runs")).toArray();
        QCOMPARE(runs.size(), 8);
        for (const QJsonValue& v : runs) {
            const QJsonObject run = v.toObject();
            const int bit = run.value(QStringLiteral("bit")).toInt(-1), bit2 = run.value(QStringLiteral("bit2")).toInt(-1);
            QVERIFY2(bit >= 0 && bit2 >= 0 && bit != bit2 && bit < 32 && bit2 < 32, qPrintable(QString::number(bit2)));
            QVERIFY2(run.value(QStringLiteral("reproduce"))
                         .toString()
                         .contains(QStringLiteral(" --fault bitflip:%1+%2 ").arg(bit).arg(bit2)),
                     qPrintable(run.value(QStringLiteral("reproduce")).toString()));
            QVERIFY(run.value(QStringLiteral("outcome")).toString() != QStringLiteral("sdc"));
        }
        const QJsonObject first = runs.first().toObject();
        const CliResult replay = gigacheckCli(replayArguments(first));
        QVERIFY2(replay.exitCode == (first.value(QStringLiteral("outcome")).toString() == QStringLiteral("due") ? 1 : 0),
                 qPrintable(replay.out + replay.err));
        // "bit 20+29 flipped" (online), "bit 20 and bit 29 flipped" (Strassen).
        QVERIFY2(replay.out.contains(QStringLiteral("%1 flipped").arg(first.value(QStringLiteral("bit2")).toInt())),
                 qPrintable(replay.out));
    }

    void tmrCampaign()
    {
        const QString json = dir_.filePath(QStringLiteral("tmr.json"));
        const CliResult r = gigacheckCli(words("campaign --family online --scheme tmr --runs 6 --shape 32x40x24 "
                                               "--backend cpu --json") << json);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains(QStringLiteral("family online, scheme tmr")), qPrintable(r.out));
        const QJsonObject doc = readJson(json);
        QCOMPARE(doc.value(QStringLiteral("config")).toObject().value(QStringLiteral("scheme")).toString(),
                 QStringLiteral("tmr"));
        const QJsonObject run = doc.value(QStringLiteral("runs")).toArray().first().toObject();
        QVERIFY(run.value(QStringLiteral("reproduce")).toString().startsWith(QStringLiteral("gigacheck run --scheme tmr ")));
        const CliResult replay = gigacheckCli(replayArguments(run));
        QVERIFY2(replay.exitCode == 0 && replay.out.contains(QStringLiteral("verified correct")),
                 qPrintable(replay.out + replay.err));
    }

    void onlineSchemeAloneMeansTheOnlineFamily()
    {
        const CliResult r = gigacheckCli(words("campaign --scheme offline --runs 4 --shape 32x32x32 --panel 8 "
                                               "--backend cpu --target any"));
        QVERIFY2(r.exitCode == 0 && r.out.contains(QStringLiteral("family online, scheme offline")),
                 qPrintable(r.out + r.err));
    }

    void refusesWhatTheFamilyLacks_data()
    {
        QTest::addColumn<QString>("arguments");
        QTest::addColumn<QString>("expected");
        QTest::newRow("strassen checksum target") << "--family strassen --target checksum"
                                                  << "--target checksum is not a target of a strassen campaign";
        QTest::newRow("online product target") << "--family online --target product"
                                               << "--target product is not a target of an online campaign";
        QTest::newRow("tmr input target") << "--family online --scheme tmr --target a" << "TMR";
        QTest::newRow("strassen bit beyond an f32") << "--family strassen --fault bitflip:40" << "bits 0-31";
        QTest::newRow("levels in a blocked campaign") << "--levels 2" << "--levels belongs to Strassen campaigns";
        QTest::newRow("strategy in an online campaign") << "--family online --strategy s2" << "--strategy belongs";
        QTest::newRow("unknown family") << "--family systolic" << "systolic";
        QTest::newRow("two-bit flip of one bit") << "--family online --fault bitflip:5+5" << "two different bits";
        QTest::newRow("strassen segment model")
            << "--family strassen --model row:32"
            << "--extent row:32 is a fault model of the blocked and online families (--family blocked)";
    }
    void refusesWhatTheFamilyLacks()
    {
        QFETCH(QString, arguments);
        QFETCH(QString, expected);
        const CliResult r = gigacheckCli(words("campaign --runs 3 --shape 32x32x32 --backend cpu") +
                                         arguments.split(QLatin1Char(' ')));
        QVERIFY2(refusedInOneLine(r, expected), qPrintable(QString::number(r.exitCode) + QStringLiteral(" ") + r.err));
    }
};

QTEST_GUILESS_MAIN(TestCliCampaignFamilies)
#include "tst_cli_campaign_families.moc"
