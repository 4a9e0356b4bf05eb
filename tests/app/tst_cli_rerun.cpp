// gigacheck rerun RECORD: every family's saved run made again from its record alone -- the same
// faults strike the same cells with the same values, the verdict and exit code are the family's
// verb's, --json writes the new run's record; a record of a GPU run asks for --backend cpu here;
// what cannot be run again is refused in one line, exit 2.
#include "cli_process.hpp"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

using gigacheck::test::CliResult;
using gigacheck::test::gigacheckCli;
using gigacheck::test::readJson;
using gigacheck::test::refusedInOneLine;
using gigacheck::test::words;

namespace {

// The report's lines about faults and the verdict: what a rerun must repeat.
QStringList faultLines(const QString& report)
{
    QStringList lines;
    for (const QString& line : report.split(QLatin1Char('\n')))
        if (line.contains(QLatin1String("fault")) || line.contains(QLatin1String("verdict")) ||
            line.contains(QLatin1String("corrected")) || line.contains(QLatin1String("check c")))
            lines << line.trimmed().remove(QRegularExpression(QStringLiteral("[;,] cost .*$")));  // a repair's time varies
    return lines;
}

}  // namespace

class TestCliRerun : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;

private slots:
    void everyFamilyRunsAgainAsRecorded_data()
    {
        QTest::addColumn<QString>("arguments");
        QTest::addColumn<QString>("family");
        QTest::newRow("blocked") << "run --shape 200x150x170 --strategy s2 --mem 64KiB --inject-at 5,6 --seed 3"
                                 << "blocked_gemm";
        QTest::newRow("online two bits") << "run --scheme online --shape 128x96x64 --panel 16 --inject-at 5,6@2 "
                                            "--fault bitflip:3+30 --seed 4"
                                         << "online_abft";
        QTest::newRow("tmr") << "run --scheme tmr --shape 64x48x40 --inject-at 1,1@1" << "online_abft";
        QTest::newRow("strassen") << "strassen --shape 150x100x130 --levels 2 --inject-at c:1 --seed 7 --dist normal"
                                  << "strassen";
        QTest::newRow("reduced") << "reduced --n 128" << "reduced_matmul";
        QTest::newRow("transpose") << "transpose --shape 96x64" << "transpose";
    }
    void everyFamilyRunsAgainAsRecorded()
    {
        QFETCH(QString, arguments);
        QFETCH(QString, family);
        const QString first = dir_.filePath(QStringLiteral("first-%1.json").arg(QTest::currentDataTag()));
        const QString again = dir_.filePath(QStringLiteral("again-%1.json").arg(QTest::currentDataTag()));
        const CliResult made = gigacheckCli(words(arguments.toStdString().c_str()) << QStringLiteral("--backend")
                                                                                    << QStringLiteral("cpu")
                                                                                    << QStringLiteral("--json") << first);
        QCOMPARE(made.exitCode, 0);
        const CliResult rerun = gigacheckCli({QStringLiteral("rerun"), first, QStringLiteral("--json"), again});
        QVERIFY2(rerun.exitCode == 0, qPrintable(rerun.out + rerun.err));
        QVERIFY2(rerun.out.startsWith(QStringLiteral("run again: %1").arg(first)), qPrintable(rerun.out));
        QVERIFY2(rerun.out.contains(QLatin1String(": verified correct\n")), qPrintable(rerun.out));
        // The heading describes the run in one line (the family's FamilyRun::describe): its shape,
        // its faults and where it runs.
        const QString heading = rerun.out.section(QLatin1Char('\n'), 0, 0);
        const QString shape = QRegularExpression(QStringLiteral("--(?:shape|n) (\\S+)")).match(arguments).captured(1);
        QVERIFY(!shape.isEmpty());
        QVERIFY2(heading.contains(shape), qPrintable(heading + " lacks " + shape));
        QVERIFY2(heading.contains(QLatin1String(", on cpu)")), qPrintable(heading));
        QVERIFY2(heading.contains(QLatin1String(" fault")) == arguments.contains(QLatin1String("--inject-at")),
                 qPrintable(heading));
        // The same faults, the same values, the same verdict: the record alone made the run again.
        QCOMPARE(faultLines(rerun.out.section(QLatin1Char('\n'), 1)), faultLines(made.out));
        QCOMPARE(readJson(again).value(QStringLiteral("family")).toString(), family);
        QCOMPARE(readJson(again).value(QStringLiteral("status")).toString(), QStringLiteral("ok"));
    }

    // A wrong result ends as the family's verb ends it: exit 1, its reason on stderr.
    void aWrongRunStaysWrong()
    {
        const QString first = dir_.filePath(QStringLiteral("wrong.json"));
        const CliResult made = gigacheckCli(words("run --shape 64x64x64 --strategy none --backend cpu --inject-at 1,2 "
                                                  "--inject-at 1,5 --inject-at 4,2 --inject-at 4,5 --json")
                                            << first);
        const CliResult rerun = gigacheckCli({QStringLiteral("rerun"), first, QStringLiteral("--quiet")});
        QCOMPARE(rerun.exitCode, made.exitCode);
        QVERIFY2(rerun.exitCode != 2, qPrintable(rerun.err));
    }

    // A GPU run's record (a Strassen record whose devices say CUDA, as an H200 writes it): where
    // there is no GPU, rerun says so and how to run it here; --backend cpu runs it.
    void aGpuRecordRunsHereOnTheCpu()
    {
        const QString cpu = dir_.filePath(QStringLiteral("made-here.json"));
        QCOMPARE(gigacheckCli(words("strassen --shape 96x80x64 --levels 2 --inject-at c:2 --backend cpu --json") << cpu).exitCode, 0);
        QJsonObject record = readJson(cpu);
        QJsonArray devices = record.value(QStringLiteral("devices")).toArray();
        QJsonObject device = devices.first().toObject();
        device.insert(QStringLiteral("backend"), QStringLiteral("cuda"));
        device.insert(QStringLiteral("name"), QStringLiteral("NVIDIA H200"));
        devices.replace(0, device);
        record.insert(QStringLiteral("devices"), devices);
        const QString gpu = dir_.filePath(QStringLiteral("made-on-a-gpu.json"));
        QFile file(gpu);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(QJsonDocument(record).toJson());
        file.close();

        const CliResult refused = gigacheckCli({QStringLiteral("rerun"), gpu, QStringLiteral("--backend"), QStringLiteral("cuda")});
        if (refused.exitCode == 0)
            QSKIP("this machine has a CUDA device");
        const CliResult asked = gigacheckCli({QStringLiteral("rerun"), gpu});
        QVERIFY2(refusedInOneLine(asked, QStringLiteral("ran on NVIDIA H200 and this machine has no CUDA device")),
                 qPrintable(asked.err));
        QVERIFY2(asked.err.contains(QLatin1String("--backend cpu runs it here")), qPrintable(asked.err));
        const CliResult here = gigacheckCli({QStringLiteral("rerun"), gpu, QStringLiteral("--backend"), QStringLiteral("cpu")});
        QVERIFY2(here.exitCode == 0, qPrintable(here.out + here.err));
        QVERIFY2(here.out.contains(QLatin1String("recorded on NVIDIA H200: verified correct")), qPrintable(here.out));
    }

    void badInputIsOneLine_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("expected");
        QTest::newRow("no record") << QStringList{QStringLiteral("rerun")} << QStringLiteral("exactly one RECORD");
        QTest::newRow("missing file") << QStringList{QStringLiteral("rerun"), QStringLiteral("/nonexistent/r.json")}
                                      << QStringLiteral("/nonexistent/r.json");
        QTest::newRow("bad backend") << QStringList{QStringLiteral("rerun"), QStringLiteral(GIGACHECK_TEST_DATA "/ui_record_s2_cli.json"),
                                                    QStringLiteral("--backend"), QStringLiteral("tpu")}
                                     << QStringLiteral("tpu");
    }
    void badInputIsOneLine()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QString, expected);
        const CliResult r = gigacheckCli(arguments);
        QVERIFY2(refusedInOneLine(r, expected), qPrintable(QString::number(r.exitCode) + QStringLiteral(" ") + r.err));
    }

    // A run of the user's own matrices: its record names the files, it cannot hold their values.
    void ownMatricesAreNamedNotRunAgain()
    {
        const QString own = dir_.filePath(QStringLiteral("own.json"));
        QCOMPARE(gigacheckCli({QStringLiteral("run"), QStringLiteral("--load-a"),
                               QStringLiteral(GIGACHECK_TEST_DATA "/fuzz/npy/f4-c-v1.npy"), QStringLiteral("--load-b"),
                               QStringLiteral(GIGACHECK_TEST_DATA "/fuzz/npy/f8-fortran-v2-big.npy"), QStringLiteral("--backend"),
                               QStringLiteral("cpu"), QStringLiteral("--json"), own})
                     .exitCode,
                 0);
        const CliResult r = gigacheckCli({QStringLiteral("rerun"), own});
        QVERIFY2(refusedInOneLine(r, QStringLiteral("your own matrices (A from f4-c-v1.npy")), qPrintable(r.err));
        QVERIFY2(r.err.contains(QLatin1String("--load-a")), qPrintable(r.err));
    }

    // A campaign file is no run record: refused by what it is (its runs replay by their reproduce lines).
    void aCampaignIsRefused()
    {
        const QString campaign = dir_.filePath(QStringLiteral("campaign.json"));
        QCOMPARE(gigacheckCli(words("campaign --runs 2 --shape 32x32x32 --backend cpu --json") << campaign).exitCode, 0);
        const CliResult r = gigacheckCli({QStringLiteral("rerun"), campaign});
        QVERIFY2(refusedInOneLine(r, QStringLiteral("campaign")), qPrintable(r.err));
    }
};

QTEST_GUILESS_MAIN(TestCliRerun)
#include "tst_cli_rerun.moc"
