// One fault grammar on every verb: --inject-at [TARGET:]R,C[:DELTA][@WHEN] and --fault
// delta|bitflip:B read the same by run (each scheme) and strassen; a TARGET: prefix is --target;
// a prefix --target contradicts, a malformed spec and a target a family cannot place are exit 2 with
// one line naming the accepted forms; Strassen's bit flips are caught or exit 1, never a silent
// wrong C.
#include "cli_process.hpp"

#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

using gigacheck::test::CliResult;
using gigacheck::test::gigacheckCli;

namespace {

CliResult cli(const QString& line) { return gigacheckCli(line.split(QLatin1Char(' '), Qt::SkipEmptyParts)); }

// The report without its timings and rates (the only lines that differ between two identical runs).
QString withoutTimes(const QString& report)
{
    static const QRegularExpression timed(QStringLiteral("time|stages|GFLOP|%|\\d (us|ms|s)\\b"));
    QStringList kept;
    for (const QString& line : report.split(QLatin1Char('\n')))
        if (!line.contains(timed))
            kept << line;
    return kept.join(QLatin1Char('\n'));
}

QJsonObject strassenSection(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(f.readAll()).object().value(QStringLiteral("strassen")).toObject();
}

}  // namespace

class TestCliFaultGrammar : public QObject {
    Q_OBJECT
private slots:
    // A flipped bit in Strassen's C, A, B or a product's result: the checks correct it (exit 0, C
    // agrees with the FP64 reference) or the run says C is wrong (exit 1). Never exit 0 with a wrong C.
    void strassenBitFlipsAreCaughtOrExitOne_data()
    {
        QTest::addColumn<QString>("args");
        QTest::newRow("c quadrant, bit 30") << "--fault bitflip:30 --inject-at c:1";
        QTest::newRow("c cell after leaf 2") << "--levels 2 --fault bitflip:30 --inject-at c:5,6@2";
        QTest::newRow("a cell") << "--fault bitflip:30 --inject-at a:5,6";
        QTest::newRow("b quadrant, two bits") << "--fault bitflip:29+30 --inject-at b:2";
        QTest::newRow("product cell, f64") << "--type f64 --fault bitflip:62 --inject-at product:3:1,1";
        QTest::newRow("low mantissa bit") << "--fault bitflip:0 --inject-at 7,9";
        QTest::newRow("default bit") << "--fault bitflip --inject-at c:3";
    }
    void strassenBitFlipsAreCaughtOrExitOne()
    {
        QFETCH(QString, args);
        QTemporaryDir dir;
        const QString json = dir.filePath(QStringLiteral("s.json"));
        const CliResult r = cli(QStringLiteral("strassen --shape 64x64x64 --backend cpu --json ") + json + QLatin1Char(' ') + args);
        QVERIFY2(r.exitCode == 0 || r.exitCode == 1, qPrintable(r.out + r.err));
        QVERIFY2(r.out.contains(QRegularExpression(QStringLiteral("fault      injected at .*, bit \\d+ (and bit \\d+ )?flipped"))),
                 qPrintable(r.out));
        const QJsonObject s = strassenSection(json);
        QVERIFY(s.value(QStringLiteral("fault")).toString().startsWith(QStringLiteral("bitflip")));
        if (r.exitCode == 0) {
            // Verified: the FP64 reference ran and agrees with C.
            QCOMPARE(s.value(QStringLiteral("verdict")).toString(), QStringLiteral("ok"));
            QCOMPARE(s.value(QStringLiteral("reference_mismatches")).toInt(-1), 0);
            QVERIFY(s.value(QStringLiteral("rel_error_c")).toDouble(-1) >= 0);
        } else {
            QVERIFY2(r.err.contains(QStringLiteral("C does not match the reference")) ||
                         r.err.contains(QStringLiteral("uncorrectable")),
                     qPrintable(r.err));
        }
        // gigacheck show reads the bit flip back.
        const CliResult shown = cli(QStringLiteral("show ") + json);
        QCOMPARE(shown.exitCode, 0);
        QVERIFY2(shown.out.contains(QStringLiteral("flipped")), qPrintable(shown.out));
    }

    // Without checksums only the reference sees the flipped bit: exit 1, C is wrong.
    void strassenBitFlipWithoutChecksumsExitsOne()
    {
        const CliResult r = cli(QStringLiteral("strassen --shape 64x64x64 --backend cpu --no-abft --fault bitflip:30 --inject-at c:10,20"));
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(QStringLiteral("C does not match the reference")), qPrintable(r.err));
    }

    // A TARGET: prefix is the same fault as --target with the bare cell.
    void prefixEqualsTarget_data()
    {
        QTest::addColumn<QString>("prefixed");
        QTest::addColumn<QString>("targeted");
        const QString online = QStringLiteral("run --shape 96x130x80 --backend cpu --scheme online --panel 16 ");
        QTest::newRow("online a") << online + "--inject-at a:3,4" << online + "--target a --inject-at 3,4";
        QTest::newRow("online b with delta and step") << online + "--inject-at b:3,4:2@1" << online + "--target b --inject-at 3,4:2@1";
        QTest::newRow("online checksum row") << online + "--inject-at checksum-row:0,9@2"
                                             << online + "--target checksum-row --inject-at 0,9@2";
        QTest::newRow("prefix and the same --target") << online + "--target a --inject-at a:3,4"
                                                      << online + "--target a --inject-at 3,4";
        const QString blocked = QStringLiteral("run --shape 64x64x64 --backend cpu ");
        QTest::newRow("blocked c") << blocked + "--inject-at c:3,4:50" << blocked + "--inject-at 3,4:50";
        QTest::newRow("blocked c with correction") << blocked + "--target correction --inject-at c:7,9"
                                                   << blocked + "--target correction --inject-at 7,9";
        QTest::newRow("strassen c cell") << "strassen --shape 64x64x64 --backend cpu --inject-at c:3,4"
                                         << "strassen --shape 64x64x64 --backend cpu --inject-at 3,4";
    }
    void prefixEqualsTarget()
    {
        QFETCH(QString, prefixed);
        QFETCH(QString, targeted);
        const CliResult a = cli(prefixed), b = cli(targeted);
        QVERIFY2(a.exitCode == 0, qPrintable(a.out + a.err));
        QCOMPARE(a.exitCode, b.exitCode);
        QCOMPARE(withoutTimes(a.out), withoutTimes(b.out));
    }

    // Refusals: exit 2, one line, naming what is accepted.
    void refusals_data()
    {
        QTest::addColumn<QString>("args");
        QTest::addColumn<QString>("names");
        const QString online = QStringLiteral("run --shape 64x64x64 --backend cpu --scheme online ");
        const QString blocked = QStringLiteral("run --shape 64x64x64 --backend cpu ");
        const QString strassen = QStringLiteral("strassen --shape 64x64x64 --backend cpu ");
        QTest::newRow("conflict online") << online + "--target b --inject-at a:3,4" << "--target b another one";
        QTest::newRow("conflict blocked") << blocked + "--target checksum-row --inject-at c:3,4" << "make them the same";
        QTest::newRow("malformed run") << blocked + "--inject-at 3;4" << "[TARGET:]R,C[:DELTA][@WHEN]";
        QTest::newRow("malformed strassen") << strassen + "--inject-at q:1" << "[TARGET:]R,C[:DELTA][@WHEN]";
        QTest::newRow("bad step") << blocked + "--inject-at 3,4@x" << "checksum-row, checksum-col or product:K";
        QTest::newRow("quadrant on run") << blocked + "--inject-at c:1" << "gigacheck strassen";
        QTest::newRow("product on run") << online + "--inject-at product:2" << "[TARGET:]R,C[:DELTA][@STEP]";
        QTest::newRow("operand cell on blocked") << blocked + "--inject-at a:3,4" << "--scheme online";
        QTest::newRow("checksum cell on blocked") << blocked + "--inject-at checksum-col:3,4" << "--errors K --target checksum-col";
        QTest::newRow("checksum on strassen") << strassen + "--inject-at checksum-row:1,2" << "quadrant form c:Q";
        QTest::newRow("strassen cell outside") << strassen + "--inject-at b:64,0" << "outside B (64 x 64";
        QTest::newRow("strassen @K past the last") << strassen + "--inject-at c:1@7" << "7 leaf products";
        QTest::newRow("strassen @K with devices") << strassen + "--devices 2 --inject-at c:1@0" << "one device";
        QTest::newRow("strassen bad fault") << strassen + "--fault bitflip:x --inject-at c:1" << "delta, bitflip, bitflip:B or bitflip:B+B2";
        QTest::newRow("strassen bit beyond f32") << strassen + "--fault bitflip:40 --inject-at c:1" << "bits 0-31";
        QTest::newRow("campaign bad fault") << QStringLiteral("campaign --runs 2 --fault flip") << "bitflip:B+B2";
    }
    void refusals()
    {
        QFETCH(QString, args);
        QFETCH(QString, names);
        const CliResult r = cli(args);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.startsWith(QStringLiteral("gigacheck: error: ")), qPrintable(r.err));
        QCOMPARE(r.err.count(QLatin1Char('\n')), 1);
        QVERIFY2(r.err.contains(names), qPrintable(r.err));
    }
};

QTEST_GUILESS_MAIN(TestCliFaultGrammar)
#include "tst_cli_fault_grammar.moc"
