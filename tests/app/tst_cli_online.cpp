// gigacheck run --scheme online | offline | tmr: exit codes (0 verified, 1 uncorrectable or no
// majority, 2 bad input with one line on stderr), the report, the record, and the inconsistent
// combinations refused with a message that says what to do.
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

namespace {

struct Result {
    int exitCode = -1;
    QString out, err;
};

Result gigacheckCli(const QString& args)
{
    QProcess p;
    p.start(QStringLiteral(GIGACHECK_CLI), args.split(QLatin1Char(' '), Qt::SkipEmptyParts));
    Result r;
    if (!p.waitForFinished(120000)) {
        p.kill();
        p.waitForFinished();
        r.err = QStringLiteral("timed out");
        return r;
    }
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err = QString::fromUtf8(p.readAllStandardError());
    return r;
}

const QString kBase = QStringLiteral("run --shape 96x130x80 --backend cpu ");

}  // namespace

class TestCliOnline : public QObject {
    Q_OBJECT
private slots:
    void verifiedRuns_data();
    void verifiedRuns();
    void uncorrectable();
    void badInput_data();
    void badInput();
    void recordWritten();
    void gemmHelpNamesTheOnlineKernels();
};

void TestCliOnline::verifiedRuns_data()
{
    QTest::addColumn<QString>("args");
    QTest::addColumn<QString>("expect");
    QTest::newRow("online clean") << "--scheme online --panel 16" << "9 step(s), checked every 1 step(s)";
    QTest::newRow("online fault at step 3")
        << "--scheme online --panel 16 --check-every 2 --inject-at 5,6:50@3" << "check after step 3: corrected";
    QTest::newRow("offline two faults: recompute")
        << "--scheme offline --panel 16 --inject-at 5,6:50@1 --inject-at 60,70:40@5" << "recompute: the whole product again, clean";
    QTest::newRow("weighted")
        << "--scheme offline --panel 16 --checksums 2 --inject-at 5,6:50@1 --inject-at 60,70:40@5" << "2 cell(s) corrected";
    QTest::newRow("input a") << "--scheme online --panel 16 --target a --inject-at 7,100:3@0" << "input fault in a (7, 100)";
    QTest::newRow("checksum row") << "--scheme online --panel 16 --target checksum-row --inject-at 0,9@2" << "checksums rebuilt";
    QTest::newRow("tmr") << "--scheme tmr --inject-at 5,6@1" << "1 cell(s) outvoted";
    // The CPU emulates the fused TF32 kernel's products (TF32 operands, FP32 products) and says so.
    QTest::newRow("cutlass-tf32 fault at step 2")
        << "--scheme online --panel 16 --gemm cutlass-tf32 --inject-at 5,6:50@2" << "check after step 2: corrected";
    QTest::newRow("cutlass-tf32 named")
        << "--scheme online --panel 16 --gemm cutlass-tf32" << "rounded to TF32 (--gemm cutlass-tf32 emulated)";
}

void TestCliOnline::verifiedRuns()
{
    QFETCH(QString, args);
    QFETCH(QString, expect);
    const Result r = gigacheckCli(kBase + args);
    QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
    QVERIFY2(r.out.contains(expect), qPrintable(r.out));
    QVERIFY(r.out.contains(QStringLiteral("verdict: verified correct")));
}

void TestCliOnline::uncorrectable()
{
    // TMR without a majority: the cell is computed again from A and B (exit 0, C right).
    const Result r = gigacheckCli(kBase + QStringLiteral("--scheme tmr --inject-at 5,6@0 --inject-at 5,6@2"));
    QCOMPARE(r.exitCode, 0);
    QVERIFY2(r.out.contains(QStringLiteral("1 without a majority; 1 of the 1 disputed cell(s) computed again")),
             qPrintable(r.out));
    // A fault in B before its checksums: found at encoding against the sums taken on the host.
    const Result b = gigacheckCli(kBase + QStringLiteral("--scheme online --target b --inject-at 3,4:2"));
    QCOMPARE(b.exitCode, 0);
    QVERIFY(b.out.contains(QStringLiteral("before its checksums")));
}

void TestCliOnline::badInput_data()
{
    QTest::addColumn<QString>("args");
    QTest::addColumn<QString>("message");
    QTest::newRow("panel 0") << "--scheme online --panel 0" << "panel width must be at least 1";
    QTest::newRow("step beyond") << "--scheme online --panel 16 --inject-at 1,1@9" << "beyond the 9 step(s)";
    QTest::newRow("strategy with online") << "--scheme online --strategy s2" << "belongs to --scheme blocked";
    QTest::newRow("panel with blocked") << "--panel 8" << "belongs to the online schemes";
    QTest::newRow("check-every with offline") << "--scheme offline --check-every 2" << "checks only after the last step";
    QTest::newRow("checksums 9") << "--scheme online --checksums 9" << "out of range";
    QTest::newRow("tmr replica 3") << "--scheme tmr --inject-at 1,1@3" << "names the replica";
    QTest::newRow("target a without position") << "--scheme online --target a --errors 2" << "needs --inject-at";
    QTest::newRow("unknown scheme") << "--scheme quad" << "unknown scheme";
    QTest::newRow("column blocks on the cpu") << "--scheme online --column-blocks 2" << "the CPU backend builds C as one block";
    QTest::newRow("column blocks 9") << "--scheme online --column-blocks 9" << "out of range [1, 8]";
    QTest::newRow("column blocks with tmr") << "--scheme tmr --column-blocks 2" << "no meaning for --scheme tmr";
    QTest::newRow("column blocks with blocked") << "--column-blocks 2" << "belongs to the online schemes";
}

void TestCliOnline::badInput()
{
    QFETCH(QString, args);
    QFETCH(QString, message);
    const Result r = gigacheckCli(kBase + args);
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains(message), qPrintable(r.err));
    QCOMPARE(r.err.count(QLatin1Char('\n')), 1);
}

void TestCliOnline::recordWritten()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("online.json"));
    const Result r = gigacheckCli(kBase + QStringLiteral("--scheme online --panel 32 --check-every 2 --inject-at 1,2@1 --json ") + path);
    QCOMPARE(r.exitCode, 0);
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray json = f.readAll();
    QVERIFY(json.contains("\"family\": \"online_abft\""));
    QVERIFY(json.contains("\"scheme\": \"online\""));
    QVERIFY(json.contains("\"check_every\": 2"));
    QVERIFY(json.contains("\"panel\": 32"));
    const Result shown = gigacheckCli(QStringLiteral("show ") + path);
    QCOMPARE(shown.exitCode, 0);
    QVERIFY2(shown.out.contains(QStringLiteral("check after step 1: corrected")), qPrintable(shown.out));
}

QTEST_GUILESS_MAIN(TestCliOnline)
// `run --help` says which --gemm kernels the online schemes take on the GPU, cutlass-tf32 and tf32x3
// among them (the help wraps its text in a column: compared with the whitespace collapsed).
void TestCliOnline::gemmHelpNamesTheOnlineKernels()
{
    const Result r = gigacheckCli(QStringLiteral("run --help"));
    QCOMPARE(r.exitCode, 0);
    const QString help = r.out.simplified();
    QVERIFY2(help.contains(QStringLiteral("The online and offline schemes on the GPU take cublas, cublas-tf32, "
                                          "cutlass-tf32")) &&
                 help.contains(QStringLiteral("or tf32x3 (each panel split into TF32 parts: FP32 accuracy)")),
             qPrintable(help));
}

#include "tst_cli_online.moc"
