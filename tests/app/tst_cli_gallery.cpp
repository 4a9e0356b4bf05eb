// The kernel gallery's CLI verbs as scripts use them: exit 0 correct, 2 bad input (odd N, a
// variant the backend lacks, a square-only variant on a rectangle), the report's lines, --json.
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include "app/cli_process.hpp"

#include <csignal>
#include <sys/types.h>

namespace {

using Result = gigacheck::test::CliResult;
using gigacheck::test::gigacheckCli;
using gigacheck::test::signalled;
using gigacheck::test::words;

const QString kCorpus = QStringLiteral(GIGACHECK_TEST_DATA "/fuzz/record/");
}  // namespace

class TestCliGallery : public QObject {
    Q_OBJECT

private slots:
    void reducedVerifies()
    {
        for (const char* variant : {"naive4p", "naivep", "reduce-blas"}) {
            const Result r = gigacheckCli(QStringList{QStringLiteral("reduced"), QStringLiteral("--n"), QStringLiteral("64"),
                                                      QStringLiteral("--variant"), QString::fromUtf8(variant),
                                                      QStringLiteral("--backend"), QStringLiteral("cpu")});
            QCOMPARE(r.exitCode, 0);
            QVERIFY(r.out.contains(QStringLiteral("GFLOP/s")));
            QVERIFY(r.out.contains(QStringLiteral("multiplications")));
            QVERIFY(r.out.contains(QStringLiteral("verdict     correct")));
        }
    }

    void reducedRefuses()
    {
        Result r = gigacheckCli(words("reduced --n 63 --variant naivep --backend cpu"));
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains(QStringLiteral("even")));
        r = gigacheckCli(words("reduced --n 64 --variant tiled16 --backend cpu"));
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains(QStringLiteral("no CPU implementation")));
        r = gigacheckCli(words("reduced --n 64 --variant tiled64"));
        QCOMPARE(r.exitCode, 2);
        QCOMPARE(r.err.count(QLatin1Char('\n')), 1);
    }

    void transposeVerifies()
    {
        for (const char* args : {"transpose --shape 129x129 --variant naive --backend cpu",
                                 "transpose --shape 128x128 --variant blocked --type i32 --backend cpu",
                                 "transpose --shape 100x37 --variant outofplace --backend cpu",
                                 "transpose --shape 100x37 --variant inplace --backend cpu"}) {
            const Result r = gigacheckCli(words(args));
            QVERIFY2(r.exitCode == 0, args);
            QVERIFY(r.out.contains(QStringLiteral("GB/s")));
            QVERIFY(r.out.contains(QStringLiteral("verdict     correct")));
        }
    }

    void transposeRefuses()
    {
        Result r = gigacheckCli(words("transpose --shape 64x64 --variant coalesced --backend cpu"));
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains(QStringLiteral("no CPU implementation")));
        r = gigacheckCli(words("transpose --shape 64x32 --variant blocked --backend cpu"));
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains(QStringLiteral("square")));
        r = gigacheckCli(words("transpose --shape 64x64 --variant blocked --backend cuda"));
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains(QStringLiteral("no CUDA kernel")));
        r = gigacheckCli(words("transpose --shape 64 --variant inplace"));
        QCOMPARE(r.exitCode, 2);
    }

    // A size whose matrices do not fit is refused before anything is allocated, with the bytes it
    // needs: not an overflowed size ("lacks its matrices", "no host matrix") nor std::bad_alloc.
    void oversizedInputsAreRefusedWithTheirBytes()
    {
        for (const char* args : {"reduced --n 4294967296 --variant naivep", "reduced --n 4294967296 --variant reduce-blas --backend cpu",
                                 "transpose --shape 4294967296x4294967296", "transpose --shape 1000000x1000000 --backend cpu",
                                 "transpose --shape 1000000x1000000 --variant outofplace --backend cpu"}) {
            const Result r = gigacheckCli(words(args));
            QVERIFY2(r.exitCode == 2, args);
            QVERIFY2(r.err.contains(QStringLiteral(" needs ")) && r.err.contains(QStringLiteral("memory")), qPrintable(r.err));
            QVERIFY2(r.err.contains(QStringLiteral("choose a smaller size")), qPrintable(r.err));
            QCOMPARE(r.err.count(QLatin1Char('\n')), 1);
            QVERIFY(!r.err.contains(QStringLiteral("bad_alloc")));
            QVERIFY(r.out.isEmpty());
        }
        // 2^32 x 2^32 float32 is 2^66 bytes: said as such, not wrapped to 0.
        const Result r = gigacheckCli(words("transpose --shape 4294967296x4294967296 --backend cpu"));
        QVERIFY2(r.err.contains(QStringLiteral("no machine has that much")), qPrintable(r.err));
    }

    // --reps 0 is one cold call, and the report says so.
    void transposeOneColdCall()
    {
        const Result r = gigacheckCli(words("transpose --shape 64x64 --variant naive --backend cpu --reps 0"));
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains(QStringLiteral("one cold call, no warm-up")), qPrintable(r.out));
        QVERIFY(!r.out.contains(QStringLiteral("median of 0")));
    }

    void jsonRecords()
    {
        QTemporaryDir dir;
        const QString t = dir.filePath(QStringLiteral("t.json")), rm = dir.filePath(QStringLiteral("r.json"));
        QCOMPARE(gigacheckCli(words("transpose --shape 48x16 --variant inplace --backend cpu --json") << t).exitCode, 0);
        QCOMPARE(gigacheckCli(words("reduced --n 32 --variant naivep --backend cpu --type f64 --json") << rm).exitCode, 0);
        QFile ft(t), fr(rm);
        QVERIFY(ft.open(QIODevice::ReadOnly));
        QVERIFY(fr.open(QIODevice::ReadOnly));
        const QJsonObject jt = QJsonDocument::fromJson(ft.readAll()).object();
        const QJsonObject jr = QJsonDocument::fromJson(fr.readAll()).object();
        QCOMPARE(jt.value(QStringLiteral("family")).toString(), QStringLiteral("transpose"));
        QCOMPARE(jt.value(QStringLiteral("transpose")).toObject().value(QStringLiteral("verified")).toBool(), true);
        QCOMPARE(jt.value(QStringLiteral("transpose")).toObject().value(QStringLiteral("counts")).toObject().value(QStringLiteral("passes")).toInt(), 3);  // C2R: rotation, row and column shuffles (gcd 16)
        QCOMPARE(jr.value(QStringLiteral("family")).toString(), QStringLiteral("reduced_matmul"));
        QCOMPARE(jr.value(QStringLiteral("reduced_matmul")).toObject().value(QStringLiteral("precision")).toString(), QStringLiteral("f64"));
        // What a run writes, show reads back (issue 15's checks refuse none of it).
        for (const QString& path : {t, rm}) {
            const Result shown = gigacheckCli({QStringLiteral("show"), path});
            QVERIFY2(shown.exitCode == 0, qPrintable(shown.err));
            QVERIFY2(shown.out.contains(QStringLiteral("verdict     correct")), qPrintable(shown.out));
        }
    }

    // Records that claim the impossible (issue 15): show refuses them, exit 2, one line naming the
    // file and the field; it once printed "median of the -3x32 calls" and "C 0x0".
    void showRefusesForgedRecords_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("says");
        QTest::newRow("transpose m = -3") << "transpose-m-negative.json" << "record: field 'transpose.m' is -3, outside 1..2147483647";
        QTest::newRow("reduced N = 0") << "reduced-n-zero.json" << "record: field 'reduced_matmul.n' is 0, outside 2..2147483647";
    }

    void showRefusesForgedRecords()
    {
        QFETCH(QString, file);
        QFETCH(QString, says);
        const QString path = kCorpus + file;
        QVERIFY(QFile::exists(path));
        const Result r = gigacheckCli({QStringLiteral("show"), path});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.startsWith(QStringLiteral("gigacheck: error: ") + path + QStringLiteral(": ") + says), qPrintable(r.err));
        QCOMPARE(r.err.count(QLatin1Char('\n')), 1);
        QVERIFY2(r.out.isEmpty(), qPrintable(r.out));
    }

    // A signal during a run stops it between operations (the CPU naive loops between rows): exit 2
    // as every verb's interrupted run, the signal named, the partial record written and marked
    // cancelled, and show reads it back as such.
    void interruptWritesAPartialRecord_data()
    {
        QTest::addColumn<QString>("args");
        QTest::addColumn<int>("signal");
        QTest::addColumn<QString>("says");
        // Each would run for minutes on two cores.
        QTest::newRow("reduced SIGINT") << "reduced --n 2048 --variant naive4p --backend cpu" << int(SIGINT)
                                        << "reduced interrupted (SIGINT)";
        QTest::newRow("transpose SIGINT") << "transpose --shape 512x512 --variant naive --backend cpu --reps 20000"
                                          << int(SIGINT) << "transpose interrupted (SIGINT)";
        QTest::newRow("transpose SIGTERM") << "transpose --shape 300x200 --variant inplace --backend cpu --reps 20000"
                                           << int(SIGTERM) << "transpose terminated (SIGTERM)";
    }

    void interruptWritesAPartialRecord()
    {
        QFETCH(QString, args);
        QFETCH(int, signal);
        QFETCH(QString, says);
        QTemporaryDir dir;
        const QString json = dir.filePath(QStringLiteral("partial.json"));
        const Result r = signalled(args.split(QLatin1Char(' ')) << QStringLiteral("--json") << json, signal, 1000);
        QVERIFY2(r.exitCode == 2, qPrintable(QStringLiteral("exit %1: %2").arg(r.exitCode).arg(r.err)));
        QVERIFY2(r.err.startsWith(QStringLiteral("gigacheck: error: ") + says + QStringLiteral("; partial record written to ") + json),
                 qPrintable(r.err));
        QCOMPARE(r.err.count(QLatin1Char('\n')), 1);
        QVERIFY2(r.out.contains(QStringLiteral("cancelled   the run was stopped after")), qPrintable(r.out));
        QVERIFY(!r.out.contains(QStringLiteral("verdict")));

        QFile f(json);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QJsonObject record = QJsonDocument::fromJson(f.readAll()).object();
        QCOMPARE(record.value(QStringLiteral("status")).toString(), QStringLiteral("cancelled"));
        const Result shown = gigacheckCli({QStringLiteral("show"), json});
        QVERIFY2(shown.exitCode == 0, qPrintable(shown.err));
        QCOMPARE(shown.out, r.out);  // the same report from the file as at the stop
        // A transpose stopped after timed calls (past the warm-up and, in place on a rectangle, a
        // call back) still reports their median: each ran whole.
        const QRegularExpression done(QStringLiteral("stopped after (\\d+) of"));
        if (args.startsWith(QStringLiteral("transpose")) && done.match(r.out).captured(1).toLongLong() >= 3)
            QVERIFY2(r.out.contains(QStringLiteral("calls timed before the stop")), qPrintable(r.out));
    }

    // An unwritable --json path is refused before the run (exit 2, one line naming it, no report),
    // not found after it; so is --json with no file name.
    void unwritableRecordIsRefusedBeforeTheRun()
    {
        QTemporaryDir dir;
        for (const char* verb : {"transpose --shape 48x16 --variant inplace --backend cpu --json",
                                 "reduced --n 32 --variant naivep --backend cpu --json",
                                 "strassen --shape 64x64x64 --levels 1 --backend cpu --json"}) {
            const Result r = gigacheckCli(words(verb) << dir.path());  // a directory
            QCOMPARE(r.exitCode, 2);
            QVERIFY2(r.err.contains(QStringLiteral("cannot write run record")), qPrintable(r.err));
            QVERIFY2(r.out.isEmpty(), qPrintable(r.out));
            const Result missingDir = gigacheckCli(words(verb) << dir.filePath(QStringLiteral("no/such/dir/r.json")));
            QCOMPARE(missingDir.exitCode, 2);
            QVERIFY(missingDir.out.isEmpty());
        }
        QCOMPARE(gigacheckCli(words("reduced --n 32 --variant naivep --backend cpu --json") << QString()).exitCode, 2);
    }
};

QTEST_GUILESS_MAIN(TestCliGallery)
#include "tst_cli_gallery.moc"
