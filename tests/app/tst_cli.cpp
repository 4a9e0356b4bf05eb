// The gigacheck CLI as scripts use it: exit codes, one-line errors, reports, records that load.
#include "gigacheck/campaign.hpp"
#include "gigacheck/blocked_gemm/record.hpp"

#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include "app/cli_process.hpp"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QThread>

#include <csignal>

using namespace gigacheck;

namespace {

using Result = gigacheck::test::CliResult;
using gigacheck::test::gigacheckCli;
using gigacheck::test::signalled;
using gigacheck::test::words;
}  // namespace

class TestCli : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { QVERIFY(tmp_.isValid()); }

    void version()
    {
        const Result r = gigacheckCli({QStringLiteral("--version")});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.startsWith(QStringLiteral("gigacheck 0.")), qPrintable(r.out));
    }

    // `bench online`'s floors, which scripts compare a scheme's row against: the panel products
    // alone and with the check's sums of C after each step, each paired with its plain products.
    void benchOnlineWritesItsFloorRows()
    {
        const QString json = tmp_.filePath(QStringLiteral("online.json"));
        qputenv("GIGACHECK_BENCH_VARIANTS", "timing");
        const Result r = gigacheckCli({QStringLiteral("bench"), QStringLiteral("online"), QStringLiteral("--quick"),
                                       QStringLiteral("--json"), json},
                                      600000);
        qunsetenv("GIGACHECK_BENCH_VARIANTS");
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains(QStringLiteral("the least a check costs:")), qPrintable(r.out));
        QFile f(json);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QJsonArray sizes = QJsonDocument::fromJson(f.readAll()).object().value(QStringLiteral("timing")).toArray();
        QCOMPARE(sizes.size(), 1);
        QJsonObject alone, withSums, onlineFq1;
        for (const QJsonValue& v : sizes.at(0).toArray()) {
            const QJsonObject row = v.toObject();
            const QString scheme = row.value(QStringLiteral("scheme")).toString();
            if (scheme == QStringLiteral("panel products alone"))
                alone = row;
            else if (scheme == QStringLiteral("panel products + sums"))
                withSums = row;
            else if (scheme == QStringLiteral("online") && row.value(QStringLiteral("fq")).toInt() == 1 &&
                     row.value(QStringLiteral("faults")).toInt() == 1)
                onlineFq1 = row;
        }
        QVERIFY(!alone.isEmpty() && !withSums.isEmpty() && !onlineFq1.isEmpty());
        for (const QJsonObject& row : {alone, withSums}) {
            QVERIFY(row.value(QStringLiteral("seconds")).toDouble() > 0);
            QVERIFY(row.value(QStringLiteral("plain_seconds")).toDouble() > 0);
            // As many products as the online run of the same shape has steps.
            QCOMPARE(row.value(QStringLiteral("panel_products")).toInt(),
                     onlineFq1.value(QStringLiteral("checks")).toInt() /
                         onlineFq1.value(QStringLiteral("column_blocks")).toInt());
        }
    }

    void help()
    {
        const Result r = gigacheckCli({QStringLiteral("--help")});
        QCOMPARE(r.exitCode, 0);
        for (const char* command : {"run", "campaign", "devices", "bench", "show"})
            QVERIFY(r.out.contains(QLatin1String(command)));
        const Result run = gigacheckCli(words("run --help"));
        QCOMPARE(run.exitCode, 0);
        QVERIFY(run.out.startsWith(QStringLiteral("Usage: gigacheck run")));
        for (const char* option : {"--shape", "--type", "--backend", "--strategy", "--mem", "--errors", "--collinear",
                                   "--inject-at", "--fault", "--seed", "--dist", "--tile", "--no-abft", "--json",
                                   "--gemm", "--target", "--fault-scope", "--reference", "--h2d-staging", "--quiet"})
            QVERIFY2(run.out.contains(QLatin1String(option)), option);
        QCOMPARE(gigacheckCli(words("show --help")).exitCode, 0);
        const Result campaign = gigacheckCli(words("campaign --help"));
        QCOMPARE(campaign.exitCode, 0);
        for (const char* option : {"--runs", "--shape", "--type", "--strategy", "--mem", "--scheme", "--fault",
                                   "--target", "--faults-per-run", "--backend", "--device", "--seed", "--json", "--csv"})
            QVERIFY2(campaign.out.contains(QLatin1String(option)), option);
        QCOMPARE(gigacheckCli(words("devices --help")).exitCode, 0);
        QCOMPARE(gigacheckCli(words("bench --help")).exitCode, 0);
    }

    void badInputExitsTwoWithOneLine_data()
    {
        QTest::addColumn<QString>("args");
        QTest::addColumn<QString>("mentions");  // what the one line must name
        QTest::newRow("zero dimension") << "run --shape 0x5x5" << "at least 1";
        QTest::newRow("not a shape") << "run --shape abc" << "--shape abc";
        QTest::newRow("cap too small") << "run --shape 64x64x64 --backend cpu --mem 1B" << "cap";
        QTest::newRow("bad size unit") << "run --shape 64x64x64 --mem 12XB" << "--mem 12XB";
        QTest::newRow("bad strategy") << "run --shape 64x64x64 --strategy s9" << "s9";
        QTest::newRow("fault outside C") << "run --shape 64x64x64 --backend cpu --inject-at 64,3" << "outside";
        QTest::newRow("bad precision") << "run --shape 64x64x64 --type f8" << "f8";
        QTest::newRow("unknown option") << "run --shape 64x64x64 --frobnicate" << "frobnicate";
        QTest::newRow("missing shape") << "run --errors 1" << "--shape";
        QTest::newRow("device not a number") << "run --shape 64x64x64 --device x" << "--device x";
        QTest::newRow("device on the cpu") << "run --shape 64x64x64 --backend cpu --device 0" << "--backend cpu";
        QTest::newRow("device that does not exist") << "run --shape 64x64x64 --backend cpu --device 9999" << "--device";
        QTest::newRow("bad tile") << "run --shape 64x64x64 --tile 12" << "--tile";
        QTest::newRow("bad h2d staging") << "run --shape 64x64x64 --h2d-staging staged" << "pack";
        QTest::newRow("h2d staging online") << "run --shape 64x64x64 --scheme online --h2d-staging pack"
                                            << "--scheme blocked";
        QTest::newRow("bad fault model") << "run --shape 64x64x64 --fault bitflop" << "--fault";
        QTest::newRow("bad inject-at") << "run --shape 64x64x64 --inject-at 3" << "--inject-at";
        QTest::newRow("negative errors") << "run --shape 64x64x64 --errors -1" << "--errors";
        QTest::newRow("unknown command") << "frobnicate" << "frobnicate";
        QTest::newRow("no command") << "" << "command";
        QTest::newRow("unknown bench suite") << "bench nope" << "nope";
        QTest::newRow("bench without suite") << "bench" << "SUITE";
        QTest::newRow("bench on a device that is not a number") << "bench kernels --device x" << "--device x";
        QTest::newRow("show missing file") << "show /nonexistent/run.json" << "/nonexistent/run.json";
        // Odd inputs of the robustness sweep.
        QTest::newRow("more errors than the block holds") << "run --shape 4x4x4 --backend cpu --errors 100"
                                                          << "room for 16";
        QTest::newRow("collinear errors longer than a column") << "run --shape 2x3x2 --backend cpu --errors 5 --collinear col"
                                                               << "room for 2";
        QTest::newRow("bit 64") << "run --shape 64x64x64 --fault bitflip:64" << "bitflip:64";
        QTest::newRow("bit beyond an f32") << "run --shape 64x64x64 --backend cpu --fault bitflip:40 --errors 1"
                                           << "outside an f32";
        QTest::newRow("negative row") << "run --shape 64x64x64 --inject-at -1,2" << "-1";
        QTest::newRow("inject-at without comma") << "run --shape 64x64x64 --inject-at 1;2" << "R,C";
        QTest::newRow("inject-at empty delta") << "run --shape 64x64x64 --inject-at 1,2:" << "number";
        QTest::newRow("inject-at empty row") << "run --shape 64x64x64 --inject-at ,2" << "row";
        QTest::newRow("dimension over 2^31") << "run --shape 99999999999x1x1" << "2^31";
        QTest::newRow("four dimensions") << "run --shape 1x1x1x1" << "MxNxQ";
        QTest::newRow("size overflow") << "run --shape 64x64x64 --mem 99999999999999999999GB" << "too large";
        QTest::newRow("json to a directory") << "run --shape 64x64x64 --backend cpu --json " + tmp_.path()
                                             << "cannot write";
        QTest::newRow("no host memory") << "run --shape 200000x200000x200000 --backend cpu" << "not enough host memory";
        // Refused before allocating, not killed by the kernel when the pages are touched.
        QTest::newRow("no host memory, strassen") << "strassen --shape 200000x200000x200000 --backend cpu" << "of host memory";
        QTest::newRow("no host memory, online") << "run --scheme online --shape 200000x200000x200000 --backend cpu"
                                                << "of host memory";
        QTest::newRow("no host memory, tmr") << "run --scheme tmr --shape 200000x200000x200000 --backend cpu"
                                             << "of host memory";
        QTest::newRow("no host memory, strassen campaign")
            << "campaign --family strassen --runs 2 --shape 200000x200000x200000 --backend cpu" << "of host memory";
        QTest::newRow("largest shape") << "run --shape 2147483647x2147483647x2147483647 --backend cpu"
                                       << "not enough host memory";
        // 2.2 million block products of 37x32x31: refused at once instead of a schedule of ~2.6 GB.
        QTest::newRow("too many block products") << "run --shape 20000x2000x2000 --mem 16KB --backend cpu"
                                                 << "raise the memory cap";
        // A target and a position that disagree (issue 15): the fault would land in the result.
        QTest::newRow("checksum target with a position") << "run --shape 64x64x64 --backend cpu --target checksum-row "
                                                            "--inject-at 3,39"
                                                         << "--inject-at";
        // gigacheck campaign
        QTest::newRow("campaign without runs") << "campaign --shape 32x32x32" << "--runs";
        QTest::newRow("campaign of zero runs") << "campaign --runs 0" << "--runs 0";
        QTest::newRow("campaign runs not a number") << "campaign --runs many" << "--runs many";
        QTest::newRow("campaign bad type") << "campaign --runs 3 --type f8" << "f8";
        QTest::newRow("campaign unknown scheme") << "campaign --runs 3 --backend cpu --scheme systolic"
                                                 << "only 'blocked'";
        QTest::newRow("campaign of an online scheme in the blocked family")
            << "campaign --runs 3 --backend cpu --family blocked --scheme online"
            << "use --family online --scheme online";
        QTest::newRow("campaign operand faults that do not fit") << "campaign --runs 3 --backend cpu --shape 2x3x4 "
                                                                    "--target a --faults-per-run 7"
                                                                 << "do not fit";
        QTest::newRow("campaign bad target") << "campaign --runs 3 --target c" << "--target c";
        QTest::newRow("campaign bad fault") << "campaign --runs 3 --fault bitflip:x" << "--fault";
        QTest::newRow("campaign bit beyond an f32") << "campaign --runs 3 --backend cpu --fault bitflip:40" << "outside";
        QTest::newRow("campaign bad strategy") << "campaign --runs 3 --strategy s1,s9" << "s9";
        QTest::newRow("campaign zero faults per run") << "campaign --runs 3 --faults-per-run 0" << "--faults-per-run";
        QTest::newRow("campaign cap too small") << "campaign --runs 3 --backend cpu --mem 1B" << "cap";
        QTest::newRow("campaign unknown option") << "campaign --runs 3 --frobnicate" << "frobnicate";
        QTest::newRow("campaign json to a directory") << "campaign --runs 3 --backend cpu --json " + tmp_.path()
                                                      << "cannot write";
        QTest::newRow("show a directory") << "show " + tmp_.path() << "directory";
        QTest::newRow("show an empty file") << "show " + writeFile("empty.json", QByteArray()) << "not valid JSON";
        QTest::newRow("show a truncated record") << "show " + writeFile("truncated.json", sampleRecord().left(3000))
                                                 << "not valid JSON";
        // Hostile files (issue 15): refused with exit 2 and a line naming the file, never a crash.
        const QString nested = writeFile("nested.json", QByteArray("{\"a\":").repeated(100000) + "1" +
                                                            QByteArray("}").repeated(100000));
        QTest::newRow("show 100 000 nested objects") << "show " + nested << nested + ": record: objects and arrays nested";
        QByteArray deep = sampleRecord();
        deep.replace("\"error\": \"\"", "\"error\": " + QByteArray("[").repeated(1000000) + QByteArray("]").repeated(1000000));
        const QString deepArray = writeFile("deep-array.json", deep);
        QTest::newRow("show an array nested 1 000 000 deep") << "show " + deepArray << deepArray + ": record:";
        QByteArray overflow = sampleRecord();
        overflow.replace("\"format_version\": 1", "\"format_version\": 1e400");
        const QString huge = writeFile("overflow.json", overflow);
        QTest::newRow("show a number over a double") << "show " + huge << huge + ": record is not valid JSON";
        QByteArray wrapped = sampleRecord();
        wrapped.replace("\"format_version\": 1", "\"format_version\": 4294967297");
        QTest::newRow("show format 2^32 + 1") << "show " + writeFile("wrapped.json", wrapped) << "'format_version'";
        // Forged records of the fuzz corpus (issue 15): each once printed as if it were a run.
        const QString corpus = QStringLiteral(GIGACHECK_TEST_DATA "/fuzz/record/");
        QTest::newRow("show 2^31 - 1 online steps") << "show " + corpus + "online-steps-2147483647.json"
                                                    << corpus + "online-steps-2147483647.json: record: field "
                                                                "'online_abft.steps' is 2147483647 but n = 64 in "
                                                                "panels of 16 makes 4";
        QTest::newRow("show an online shape of -4") << "show " + corpus + "online-shape-negative.json"
                                                    << "'online_abft.config.shape.m' is -4";
        QTest::newRow("show 2^31 - 1 x 2^31 - 1 blocks") << "show " + corpus + "blocked-splits-2147483647.json"
                                                         << "more than a run schedules (1048576)";
    }

    void badInputExitsTwoWithOneLine()
    {
        QFETCH(QString, args);
        QFETCH(QString, mentions);
        const Result r = gigacheckCli(args.split(QLatin1Char(' '), Qt::SkipEmptyParts));
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.startsWith(QStringLiteral("gigacheck: error: ")), qPrintable(r.err));
        QCOMPARE(r.err.count(QLatin1Char('\n')), 1);  // exactly one line
        QVERIFY2(r.err.contains(mentions), qPrintable(r.err));
    }

    void tinyShapeWorksWithEveryStrategy_data()
    {
        QTest::addColumn<QString>("strategy");
        for (const char* k : {"none", "s1", "s2", "s3", "s4"})
            QTest::newRow(k) << QString::fromLatin1(k);
    }

    void tinyShapeWorksWithEveryStrategy()
    {
        // 1x1 * 1x1 with a fault: detected and corrected in the single cell, exit 0.
        QFETCH(QString, strategy);
        const Result r = gigacheckCli(words("run --shape 1x1x1 --backend cpu --errors 1 --strategy") << strategy);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains(QStringLiteral("injected 1, detected 1, corrected 1, uncorrectable 0")), qPrintable(r.out));
        QVERIFY(r.err.isEmpty());
    }

    void smallRunCorrectsTheInjectedFault()
    {
        const QString json = tmp_.filePath(QStringLiteral("corrected.json"));
        const Result r = gigacheckCli(words("run --shape 96x80x70 --backend cpu --strategy s2 --mem 64KB "
                                            "--inject-at 10,20:5 --json") +
                                      QStringList{json});
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
        QVERIFY(r.out.contains(QStringLiteral("GIGACHECK =====")));
        QVERIFY(r.out.contains(QStringLiteral("Corrected detected error(s)")));
        QVERIFY(r.out.contains(QStringLiteral("VERIFIED CORRECT")));

        const RunRecord record = loadRecord(json.toStdString());
        QVERIFY(record.plan.productCount() > 1);  // the 64 KB cap forces blocking
        QCOMPARE(record.injections.size(), std::size_t(1));
        const Injection& inj = record.injections[0].injection;
        QCOMPARE(inj.globalRow, std::int64_t(10));
        QCOMPARE(inj.globalCol, std::int64_t(20));
        QCOMPARE(inj.delta, 5.0);
        QVERIFY(inj.applied);
        QCOMPARE(record.faults.injected, 1);
        QCOMPARE(record.faults.corrected, 1);
        QCOMPARE(record.faults.falsePositives, 0);
        const auto corrected = std::find_if(record.verifications.begin(), record.verifications.end(),
                                            [](const VerifyEvent& v) { return !v.result.corrections.empty(); });
        QVERIFY(corrected != record.verifications.end());
        QCOMPARE(corrected->rowOffset + corrected->result.corrections[0].row, std::int64_t(10));
        QCOMPARE(corrected->colOffset + corrected->result.corrections[0].col, std::int64_t(20));
        QVERIFY(record.reference.passed);
        QVERIFY(record.verifiedCorrect());
        QVERIFY(!record.spans.empty());

        // show prints the same report from the saved record: the record round-trips.
        const Result shown = gigacheckCli({QStringLiteral("show"), json});
        QCOMPARE(shown.exitCode, 0);
        QCOMPARE(shown.out, r.out);
    }

    // Non-collinear faults: the verification cannot correct them (uncorrectable verdict), the
    // repair pass recomputes the candidate rows / columns from A and B: exit 0.
    void nonCollinearErrorsAreCorrectedByRecompute()
    {
        const QString json = tmp_.filePath(QStringLiteral("uncorrectable.json"));
        const Result r = gigacheckCli(words("run --shape 32x24x40 --backend cpu --strategy none "
                                            "--inject-at 1,1 --inject-at 5,7 --json") +
                                      QStringList{json});
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
        QVERIFY(r.out.contains(QStringLiteral("UNCORRECTABLE error(s) detected")));
        QVERIFY(r.out.contains(QStringLiteral("CORRECTED BY RECOMPUTE")));
        const RunRecord record = loadRecord(json.toStdString());
        QCOMPARE(record.faults.blocksUncorrectable, 1);
        QCOMPARE(record.faults.uncorrectable, 0);
        QCOMPARE(record.faults.correctedByRecompute, 2);
        QVERIFY(record.verifiedCorrect());

        const Result shown = gigacheckCli({QStringLiteral("show"), json});
        QCOMPARE(shown.exitCode, 0);
        QVERIFY(shown.out.contains(QStringLiteral("candidate rows 1, 5; candidate cols 1, 7")));
    }

    void devicesListsTheCpu()
    {
        const QString json = tmp_.filePath(QStringLiteral("devices.json"));
        const Result r = gigacheckCli({QStringLiteral("devices"), QStringLiteral("--json"), json});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains(QStringLiteral("cpu: CPU")), qPrintable(r.out));
        // Whether this build has the fused-ABFT CUTLASS kernels, and why not.
        QVERIFY2(r.out.contains(QRegularExpression(QStringLiteral("CUTLASS kernels: (built \\(CUTLASS|not built \\(.+\\))"))),
                 qPrintable(r.out));
        QFile file(json);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray text = file.readAll();
        QVERIFY(text.contains("\"backend\": \"cpu\""));
        QVERIFY2(text.contains("\"cutlass_kernels\": \"built (") || text.contains("\"cutlass_kernels\": \"not built ("),
                 text.constData());
    }

    void showRefusesNewerRecords()
    {
        const QString json = tmp_.filePath(QStringLiteral("future.json"));
        QFile file(json);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(R"({"format_version": 7, "whatever": []})");
        file.close();
        const Result r = gigacheckCli({QStringLiteral("show"), json});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(QStringLiteral("record format 7 is newer than this gigacheck supports (2); update gigacheck")),
                 qPrintable(r.err));
        QCOMPARE(r.err.count(QLatin1Char('\n')), 1);
    }

    void quietPrintsOnlyTheVerdict()
    {
        const Result r = gigacheckCli(words("run --shape 40x30x20 --backend cpu --errors 2 --collinear col --quiet"));
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.out, QStringLiteral("verified correct\n"));
    }

    void interruptWritesAPartialRecord()
    {
        const QString json = tmp_.filePath(QStringLiteral("interrupted.json"));
        QProcess p;
        p.start(QStringLiteral(GIGACHECK_CLI),
                words("run --shape 4000x4000x4000 --backend cpu --strategy s1 --mem 256KB --reference none --json") +
                    QStringList{json});
        QVERIFY(p.waitForStarted());
        QTest::qWait(1500);  // past start-up and input generation, into the blocked products
        if (p.state() != QProcess::Running)
            QSKIP("the run finished before it could be interrupted");
        ::kill(pid_t(p.processId()), SIGINT);
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 2);
        QVERIFY(QString::fromUtf8(p.readAllStandardError()).contains(QStringLiteral("interrupted")));
        const RunRecord record = loadRecord(json.toStdString());
        QCOMPARE(record.status, std::string("cancelled"));
        QVERIFY(record.spans.size() < std::size_t(record.plan.productCount()) * 3);
    }

    void emptyPathsAreBadInput_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::newRow("run --json") << (words("run --shape 16x16x16 --backend cpu --json") << QString());
        QTest::newRow("campaign --json") << (words("campaign --runs 2 --backend cpu --json") << QString());
        QTest::newRow("campaign --csv") << (words("campaign --runs 2 --backend cpu --csv") << QString());
        // Once silently ignored (bench) or refused by Qt after the list was printed (devices).
        QTest::newRow("bench --json") << (words("bench reduced --quick --json") << QString());
        QTest::newRow("devices --json") << (words("devices --json") << QString());
    }

    void emptyPathsAreBadInput()
    {
        QFETCH(QStringList, args);
        const Result r = gigacheckCli(args);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.startsWith(QStringLiteral("gigacheck: error: --json needs a file name")) ||
                     r.err.startsWith(QStringLiteral("gigacheck: error: --csv needs a file name")),
                 qPrintable(r.err));
        QCOMPARE(r.err.count(QLatin1Char('\n')), 1);
        QVERIFY2(r.out.isEmpty(), qPrintable(r.out));  // refused before anything ran or was listed
    }

    // A campaign file handed to show: said so, its report printed, the lab named (audit 8, item 9).
    void showOfACampaignSaysSoAndPrintsItsReport()
    {
        const QString file = QStringLiteral(GIGACHECK_TEST_DATA "/fuzz/campaign/small-any.json");
        const Result r = gigacheckCli({QStringLiteral("show"), file});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.startsWith(file + QStringLiteral(" is a fault-injection campaign")), qPrintable(r.out));
        QVERIFY(r.out.contains(QStringLiteral("Open campaign")));
        QVERIFY(r.out.contains(QStringLiteral("GIGACHECK CAMPAIGN")));
        QVERIFY(!r.err.contains(QStringLiteral("config.precision")));
        // A damaged campaign is refused as a campaign, naming the file once.
        const QString bad = QStringLiteral(GIGACHECK_TEST_DATA "/fuzz/campaign/run-bit-outside.json");
        const Result refused = gigacheckCli({QStringLiteral("show"), bad});
        QCOMPARE(refused.exitCode, 2);
        QVERIFY2(refused.err.startsWith(QStringLiteral("gigacheck: error: ") + bad + QStringLiteral(": campaign: ")),
                 qPrintable(refused.err));
        QCOMPARE(refused.err.count(bad), 1);
        QVERIFY2(refused.out.isEmpty(), qPrintable(refused.out));
    }

    void campaignWritesJsonAndCsv()
    {
        const QString json = tmp_.filePath(QStringLiteral("campaign.json"));
        const QString csv = tmp_.filePath(QStringLiteral("campaign.csv"));
        const Result r = gigacheckCli(words("campaign --runs 20 --shape 64x48x40 --backend cpu --strategy all --seed 3 "
                                            "--json") +
                                      QStringList{json, QStringLiteral("--csv"), csv});
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
        QVERIFY(r.out.contains(QStringLiteral("GIGACHECK CAMPAIGN")));
        QVERIFY(r.out.contains(QStringLiteral("silent data corruption (SDC)")));
        QVERIFY(r.out.contains(QStringLiteral("By bit:")));
        QVERIFY(r.out.contains(QStringLiteral("By strategy:")));
        QVERIFY2(r.err.contains(QStringLiteral("campaign: 20/20 runs")), qPrintable(r.err));  // progress

        const CampaignResult campaign = loadCampaign(json.toStdString());
        QCOMPARE(campaign.runs.size(), std::size_t(20));
        QCOMPARE(campaign.summary.all.total, std::int64_t(20));
        QCOMPARE(campaign.summary.byStrategy.size(), std::size_t(5));
        QCOMPARE(campaign.summary.all[Outcome::SilentCorruption], std::int64_t(0));
        QFile jsonFile(json);
        QVERIFY(jsonFile.open(QIODevice::ReadOnly));
        const QByteArray jsonText = jsonFile.readAll();
        for (const char* key : {"\"summary\"", "\"by_bit\"", "\"by_target\"", "\"by_strategy\"", "\"ci95\"",
                                "\"reproduce\"", "\"seed\"", "\"positions\""})
            QVERIFY2(jsonText.contains(key), key);

        QFile runs(csv);
        QVERIFY(runs.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = runs.readAll().trimmed().split('\n');
        QCOMPARE(lines.size(), 21);
        QCOMPARE(lines[0], QByteArray("run,seed,strategy,type,gemm,target,fault,bit,positions,block,outcome,status,"
                                      "injected,detected,corrected,corrected_by_recompute,uncorrectable,"
                                      "false_positives,reference_passed,max_error_over_tolerance,seconds,reproduce"));
        QVERIFY(lines[1].startsWith("0,"));
        QFile summary(tmp_.filePath(QStringLiteral("campaign-summary.csv")));
        QVERIFY(summary.open(QIODevice::ReadOnly));
        const QByteArray summaryText = summary.readAll();
        QVERIFY(summaryText.startsWith("group,key,outcome,count,runs,fraction,ci95_low,ci95_high\n"));
        QVERIFY(summaryText.contains("\nall,all,masked,"));
        QVERIFY(summaryText.contains("\nstrategy,s3,sdc,0,4,"));

        // Run 5 alone, by the command the CSV gives, ends as the campaign says.
        const CampaignRun& five = campaign.runs[5];
        const QString command = QString::fromStdString(reproduceCommand(campaign.config, five));
        const Result alone = gigacheckCli(command.split(QLatin1Char(' ')).mid(1));
        const bool expectVerified = five.outcome != Outcome::DetectedUncorrectable;
        QVERIFY2((alone.exitCode == 0) == expectVerified, qPrintable(command + QLatin1Char('\n') + alone.out));
    }

    void campaignWithoutFaultsRaisesNoFalseAlarm()
    {
        const QString json = tmp_.filePath(QStringLiteral("clean.json"));
        const Result r = gigacheckCli(words("campaign --runs 40 --shape 40x33x27 --backend cpu --strategy all "
                                            "--fault none --json") +
                                      QStringList{json});
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
        QVERIFY2(r.out.contains(QStringLiteral("no silent data corruption, no false alarm in 40 run(s)")),
                 qPrintable(r.out));
        const CampaignResult campaign = loadCampaign(json.toStdString());
        QCOMPARE(campaign.summary.all[Outcome::FalseAlarm], std::int64_t(0));
        QCOMPARE(campaign.summary.all[Outcome::Masked], std::int64_t(40));
    }

    void campaignTerminatedWritesTheRunsDone()
    {
        const QString json = tmp_.filePath(QStringLiteral("campaign-terminated.json"));
        const Result r = signalled(words("campaign --runs 100000 --shape 64x64x64 --backend cpu --json") << json,
                                   SIGTERM, 1500);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(QStringLiteral("campaign terminated (SIGTERM) after")), qPrintable(r.err));
        const CampaignResult campaign = loadCampaign(json.toStdString());
        QVERIFY(campaign.interrupted);
        QVERIFY(campaign.runs.size() < std::size_t(100000));
        QCOMPARE(campaign.summary.all.total, std::int64_t(campaign.runs.size()));
    }

    void signalAtStartUpEndsWithAMessage_data()
    {
        QTest::addColumn<int>("signal");
        QTest::addColumn<QString>("words");
        QTest::newRow("SIGINT") << int(SIGINT) << "interrupted (SIGINT)";
        QTest::newRow("SIGTERM") << int(SIGTERM) << "terminated (SIGTERM)";
    }

    void signalAtStartUpEndsWithAMessage()
    {
        // The moment the handler exists: start-up, parsing or the first steps of the run.
        QFETCH(int, signal);
        QFETCH(QString, words);
        const QString json = tmp_.filePath(QStringLiteral("startup.json"));
        const Result r = signalled(::words("run --shape 4000x4000x4000 --backend cpu --mem 256KB --json") << json,
                                   signal, 0);
        QVERIFY2(r.err.contains(words), qPrintable(r.err));
        QVERIFY2(r.exitCode == -1 || r.exitCode == 2, qPrintable(r.err));  // killed by it, or a cancelled run
        if (r.exitCode == 2)  // the run had begun: its partial record exists
            QCOMPARE(loadRecord(json.toStdString()).status, std::string("cancelled"));
    }

    void sigtermWritesAPartialRecordAndStatesOnlyWhatWasAsked()
    {
        const QString json = tmp_.filePath(QStringLiteral("terminated.json"));
        const Result r = signalled(words("run --shape 4000x4000x4000 --backend cpu --strategy s1 --mem 256KB --json")
                                       << json,
                                   SIGTERM, 1500);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(QStringLiteral("run terminated (SIGTERM)")), qPrintable(r.err));
        QVERIFY2(r.err.contains(QStringLiteral("partial record written")), qPrintable(r.err));
        const RunRecord record = loadRecord(json.toStdString());
        QCOMPARE(record.status, std::string("cancelled"));
        // --reference was never given: the report must not claim it was.
        QVERIFY2(!r.out.contains(QStringLiteral("--reference none")), qPrintable(r.out));
        QVERIFY2(r.out.contains(QStringLiteral("Reference check: not run (the run was cancelled)")), qPrintable(r.out));
    }

private:
    QTemporaryDir tmp_;

    QString writeFile(const char* name, const QByteArray& content)
    {
        const QString path = tmp_.filePath(QString::fromLatin1(name));
        QFile f(path);
        if (f.open(QIODevice::WriteOnly))
            f.write(content);
        return path;
    }

    static QByteArray sampleRecord()
    {
        QFile f(QStringLiteral(GIGACHECK_TEST_DATA "/ui_record_s2_cli.json"));
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    }
};

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
