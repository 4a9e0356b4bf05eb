// SIGINT / SIGTERM against the gigacheck CLI: exactly one stderr line per ending, a message for a
// signal at any moment once the program's code runs, and a second signal that still leaves a whole
// partial record or says in its one line that none was written.
#include "gigacheck/blocked_gemm/record.hpp"

#include <QDeadlineTimer>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include "app/cli_process.hpp"

#include <csignal>

using namespace gigacheck;

namespace {

using Result = gigacheck::test::CliResult;
using gigacheck::test::catchesSignal;
using gigacheck::test::finished;
using gigacheck::test::signalled;
using gigacheck::test::words;

int lines(const QString& text) { return int(text.count(QLatin1Char('\n'))); }

// A run long enough to be interrupted on two cores: 4000^3 in blocks under a small cap (256 KB:
// ~6 s on a fast 2-core machine).
QStringList longRun(const char* mem) { return words("run --shape 4000x4000x4000 --backend cpu --strategy s1 --mem") << QString::fromLatin1(mem); }

// Few long block products under a large cap: 6000^3 under 48 MB (~3 s on a fast 2-core machine;
// 4000^3 took 1.1 s there, and a signal after 1.5 s came as the run ended).
QStringList longBlocks() { return words("run --shape 6000x6000x6000 --backend cpu --strategy s1 --mem 48MB"); }

}  // namespace

class TestCliSignals : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { QVERIFY(tmp_.isValid()); }

    void runWithSaveCEndsWithOneLine_data()
    {
        QTest::addColumn<int>("signal");
        QTest::addColumn<QString>("words");
        QTest::newRow("SIGINT") << int(SIGINT) << "run interrupted (SIGINT)";
        QTest::newRow("SIGTERM") << int(SIGTERM) << "run terminated (SIGTERM)";
    }

    // The run's closing line says the record was written and C was not; once two lines.
    void runWithSaveCEndsWithOneLine()
    {
        QFETCH(int, signal);
        QFETCH(QString, words);
        const QString json = tmp_.filePath(QStringLiteral("save-c-%1.json").arg(signal));
        const QString c = tmp_.filePath(QStringLiteral("save-c-%1.npy").arg(signal));
        const Result r = signalled(longRun("256KB") << QStringLiteral("--reference") << QStringLiteral("none")
                                                    << QStringLiteral("--json") << json << QStringLiteral("--save-c") << c,
                                   signal, 1500);  // past start-up and input generation, into the run
        QCOMPARE(r.exitCode, 2);
        QCOMPARE(lines(r.err), 1);
        QVERIFY2(r.err.startsWith(QStringLiteral("gigacheck: error: ") + words), qPrintable(r.err));
        QVERIFY2(r.err.contains(QStringLiteral("partial record written to ") + json), qPrintable(r.err));
        QVERIFY2(r.err.contains(c + QStringLiteral(" not written")), qPrintable(r.err));
        QVERIFY(!QFile::exists(c));
        QCOMPARE(loadRecord(json.toStdString()).status, std::string("cancelled"));
    }

    void signalOnceTheHandlerExistsGetsItsLine_data()
    {
        QTest::addColumn<int>("signal");
        QTest::addColumn<QString>("words");
        for (int i = 0; i < 5; ++i) {
            QTest::addRow("SIGINT %d", i) << int(SIGINT) << "interrupted (SIGINT)";
            QTest::addRow("SIGTERM %d", i) << int(SIGTERM) << "terminated (SIGTERM)";
        }
    }

    // Sent the moment /proc shows the handler: with it installed before any library's start-up
    // code, that is before Qt, OpenBLAS's thread pool and main (where a handler once came too late
    // and the first tens of milliseconds ended the process silently).
    void signalOnceTheHandlerExistsGetsItsLine()
    {
        QFETCH(int, signal);
        QFETCH(QString, words);
        QProcess p;
        p.start(QStringLiteral(GIGACHECK_CLI), longRun("256KB") << QStringLiteral("--reference") << QStringLiteral("none"));
        QVERIFY(p.waitForStarted());
        QDeadlineTimer guard(30000);  // a hang guard, not a measure
        while (!catchesSignal(p.processId(), signal) && p.state() == QProcess::Running && !guard.hasExpired())
            QThread::yieldCurrentThread();
        QVERIFY(p.state() == QProcess::Running);
        ::kill(pid_t(p.processId()), signal);
        QVERIFY(p.waitForFinished(60000));
        const Result r = finished(p);
        QCOMPARE(lines(r.err), 1);
        QVERIFY2(r.err.startsWith(QStringLiteral("gigacheck: error: ")) && r.err.contains(words), qPrintable(r.err));
        QVERIFY2(r.exitCode == -1 || r.exitCode == 2, qPrintable(r.err));  // ended by it, or a cancelled run
    }

    // A first SIGINT asks the run to stop between block products (each of them long here); a
    // second one while it stops ends it at once and says no record was written, or, when the run
    // had already stopped, waits until the partial record is written whole. On a machine fast
    // enough to finish the run as the first signal comes (after its last cancellation point), the
    // outputs are written in full and the process ends by the signal, saying so: also whole.
    void secondSignalLeavesAWholeRecordOrSaysWhyNot()
    {
        for (int attempt = 0; attempt < 3; ++attempt) {
            const QString json = tmp_.filePath(QStringLiteral("twice-%1.json").arg(attempt));
            QProcess p;
            p.start(QStringLiteral(GIGACHECK_CLI), longBlocks() << QStringLiteral("--reference") << QStringLiteral("none")
                                                                << QStringLiteral("--json") << json);
            QVERIFY(p.waitForStarted());
            QTest::qWait(1500);  // into the run
            if (p.state() != QProcess::Running)
                QSKIP("the run finished before it could be interrupted");
            ::kill(pid_t(p.processId()), SIGINT);
            QTest::qWait(50 * attempt);  // the second at different moments of the stop
            if (p.state() == QProcess::Running) {
                ::kill(pid_t(p.processId()), SIGINT);
                QVERIFY(p.waitForFinished(60000));
            }
            const Result r = finished(p);
            qInfo("attempt %d: exit %d, %s", attempt, r.exitCode, qPrintable(r.err.trimmed()));
            QVERIFY2(lines(r.err) == 1, qPrintable(r.err));
            if (r.exitCode == -1 && r.err.contains(QStringLiteral("as the work ended"))) {  // the run had ended
                QVERIFY2(r.err.contains(QStringLiteral("its outputs were written in full")), qPrintable(r.err));
                QCOMPARE(loadRecord(json.toStdString()).status, std::string("ok"));
            } else if (r.exitCode == -1) {  // ended by the second signal
                QVERIFY2(r.err.contains(QStringLiteral("a second time")) &&
                             r.err.contains(QStringLiteral("no partial record written")),
                         qPrintable(r.err));
                QVERIFY(!QFile::exists(json));
            } else {
                QCOMPARE(r.exitCode, 2);
                QVERIFY2(r.err.contains(QStringLiteral("partial record written to ") + json), qPrintable(r.err));
                QCOMPARE(loadRecord(json.toStdString()).status, std::string("cancelled"));
            }
        }
    }

private:
    QTemporaryDir tmp_;
};

QTEST_GUILESS_MAIN(TestCliSignals)
#include "tst_cli_signals.moc"
