// gigacheck run / campaign with the fault models beside one cell and the end-to-end operand checks:
// --extent, two-bit flips, the checker's own targets, campaign --model; a campaign run's reproduce
// command replays it to the same fault; what does not fit is refused in one line, exit 2.
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
                                               "--model tile:4 --fault delta --seed 3 --json") << json);
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

    void whatDoesNotFitIsRefused_data()
    {
        QTest::addColumn<QString>("command");
        QTest::addColumn<QString>("expected");
        QTest::newRow("extent") << "run --shape 32x32x32 --backend cpu --extent warp:32 --inject-at 1,1" << "row[:L]";
        QTest::newRow("same bit twice") << "run --shape 32x32x32 --backend cpu --fault bitflip:5+5 --inject-at 1,1"
                                        << "must differ";
        QTest::newRow("check at a position") << "run --shape 32x32x32 --backend cpu --target check --inject-at 1,1"
                                             << "random faults";
        QTest::newRow("two bits in an online campaign") << "campaign --runs 2 --backend cpu --family online "
                                                           "--fault bitflip2"
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
