// gigacheck strassen: the verb's exit codes (0 verified, 2 bad input with one line on stderr), its
// record, and faults reported where they were caught.
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

namespace {

struct Result {
    int exitCode = -1;
    QString out, err;
};

Result cli(const QString& line)
{
    QProcess p;
    p.start(QStringLiteral(GIGACHECK_CLI), line.split(QLatin1Char(' '), Qt::SkipEmptyParts));
    Result r;
    if (!p.waitForFinished(120000)) {
        p.kill();
        p.waitForFinished();
        return r;
    }
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err = QString::fromUtf8(p.readAllStandardError());
    return r;
}

}  // namespace

class TestCliStrassen : public QObject {
    Q_OBJECT
private slots:
    void verifiedRunWritesItsRecord()
    {
        QTemporaryDir dir;
        const QString json = dir.filePath(QStringLiteral("s.json"));
        const Result r = cli(QStringLiteral("strassen --shape 130x120x110 --levels 2 --variant accumulate --backend cpu "
                                            "--type f64 --json ") + json);
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains(QStringLiteral("verdict    VERIFIED")));
        QVERIFY(r.out.contains(QStringLiteral("extra 0 bytes")));
        QFile f(json);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QJsonObject o = QJsonDocument::fromJson(f.readAll()).object();
        QCOMPARE(o.value(QStringLiteral("family")).toString(), QStringLiteral("strassen"));
        QCOMPARE(o.value(QStringLiteral("strassen")).toObject().value(QStringLiteral("levels")).toInt(), 2);
        // gigacheck show reads it back into the same report.
        const Result shown = cli(QStringLiteral("show ") + json);
        QCOMPARE(shown.exitCode, 0);
        QVERIFY(shown.out.contains(QStringLiteral("variant accumulate  levels 2")));
        QVERIFY(shown.out.contains(QStringLiteral("verdict    VERIFIED")));
    }

    void faultsAreCaughtAndCorrected()
    {
        const Result r = cli(QStringLiteral("strassen --shape 128x128x128 --levels 2 --backend cpu --inject-at product:3 "
                                            "--inject-at b:2"));
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains(QStringLiteral("check b    corrected")));
        QVERIFY(r.out.contains(QStringLiteral("check c    recomputed")));
    }

    // A NaN in C is located and the cell recomputed from A and B (exit 0); exit 1 only when C is
    // wrong: here a fault without checksums, seen by the reference.
    void uncorrectableExitsOne()
    {
        const Result nan = cli(QStringLiteral("strassen --shape 64x64x64 --backend cpu --inject-at c:1:nan"));
        QCOMPARE(nan.exitCode, 0);
        QVERIFY2(nan.out.contains(QStringLiteral("check c    corrected")), qPrintable(nan.out));
        const Result r = cli(QStringLiteral("strassen --shape 64x64x64 --backend cpu --no-abft --inject-at c:1"));
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.out.contains(QStringLiteral("verdict    UNCORRECTABLE")), qPrintable(r.out));
        QVERIFY(r.err.contains(QStringLiteral("C does not match the reference")));
    }

    // A decomposition's operand fault lands before the tasks read it: with --exact-restore (which
    // rewrites A from the host copy) C's checks still see it, and the run says where.
    void decompositionOperandFaultIsSeenWithExactRestore()
    {
        const Result r = cli(QStringLiteral("strassen --backend cpu --shape 64x64x64 --devices 3 --inject-at a:1 "
                                            "--exact-restore"));
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains(QStringLiteral("check c    recomputed")), qPrintable(r.out));
    }

    // The delta as given, 0 included (as run --inject-at R,C:0).
    void zeroDeltaIsUsedAsGiven()
    {
        const Result r = cli(QStringLiteral("strassen --backend cpu --shape 64x64x64 --inject-at c:1:0"));
        QCOMPARE(r.exitCode, 0);
        // The cell as it was and is: adding 0 leaves it as it was.
        const QRegularExpression unchanged(QStringLiteral("injected at c:1:0: (\\S+) -> (\\S+)\n"));
        const QRegularExpressionMatch m = unchanged.match(r.out);
        QVERIFY2(m.hasMatch(), qPrintable(r.out));
        QCOMPARE(m.captured(1), m.captured(2));
        QVERIFY(!r.out.contains(QStringLiteral("corrected")));
    }

    // The headline says what ran: --leaf kernel on the CPU makes OpenBLAS calls.
    void cpuLeavesAreNamedAsRun()
    {
        const Result r = cli(QStringLiteral("strassen --backend cpu --shape 64x64x64 --leaf kernel"));
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains(QStringLiteral("leaves: OpenBLAS")), qPrintable(r.out));
        QVERIFY(!r.out.contains(QStringLiteral("multi-target kernel")));
    }

    // --leaf cutlass on the CPU: TF32 leaves emulated with the operands rounded to nearest, as the
    // CUTLASS kernel multiplies them; the report and the record count the leaf GEMMs; refused
    // without TF32.
    void cutlassLeavesOnTheCpu()
    {
        QTemporaryDir dir;
        const QString json = dir.filePath(QStringLiteral("s.json"));
        const Result r = cli(QStringLiteral("strassen --backend cpu --shape 96x64x80 --levels 2 --type tf32 --leaf cutlass "
                                            "--check-leaves --json ") + json);
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains(QStringLiteral("(emulated: operands rounded to TF32, FP32 products)")), qPrintable(r.out));
        QVERIFY2(!r.out.contains(QStringLiteral("truncated")), qPrintable(r.out));
        QVERIFY2(r.out.contains(QStringLiteral("leaves     CUTLASS TF32 emulated by OpenBLAS: 144 leaf GEMMs\n")),
                 qPrintable(r.out));
        QFile f(json);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QJsonObject s = QJsonDocument::fromJson(f.readAll()).object().value(QStringLiteral("strassen")).toObject();
        QCOMPARE(s.value(QStringLiteral("leaf")).toString(), QStringLiteral("cutlass"));
        QCOMPARE(s.value(QStringLiteral("leaf_gemms_cutlass")).toInt(), 144);
        QCOMPARE(s.value(QStringLiteral("leaf_gemms_fallback")).toInt(), 0);
        const Result shown = cli(QStringLiteral("show ") + json);
        QCOMPARE(shown.exitCode, 0);
        QVERIFY2(shown.out.contains(QStringLiteral("CUTLASS TF32 emulated by OpenBLAS: 144 leaf GEMMs")), qPrintable(shown.out));

        const Result f32 = cli(QStringLiteral("strassen --backend cpu --shape 64x64x64 --leaf cutlass"));
        QCOMPARE(f32.exitCode, 2);
        QVERIFY2(f32.err.contains(QStringLiteral("--leaf cutlass multiplies in TF32: it takes --type tf32")), qPrintable(f32.err));
        const Result unknown = cli(QStringLiteral("strassen --backend cpu --shape 64x64x64 --leaf cutless"));
        QCOMPARE(unknown.exitCode, 2);
        QVERIFY2(unknown.err.contains(QStringLiteral("cublas, kernel or cutlass")), qPrintable(unknown.err));
    }

    void badInputExitsTwoWithOneLine()
    {
        for (const char* line : {"strassen --shape 64x64 --backend cpu", "strassen --shape 64x64x64 --levels 5",
                                 "strassen --shape 64x64x64 --variant fast", "strassen --shape 64x64x64 --inject-at d:1",
                                 "strassen --shape 64x64x64 --inject-at c:4", "strassen --shape 64x64x64 --type f16",
                                 "strassen --levels 2"}) {
            const Result r = cli(QString::fromLatin1(line));
            QCOMPARE(r.exitCode, 2);
            QVERIFY2(r.err.startsWith(QStringLiteral("gigacheck: error: ")), qPrintable(r.err));
            QCOMPARE(r.err.count(QLatin1Char('\n')), 1);
        }
        // The messages name what is valid.
        QVERIFY(cli(QStringLiteral("strassen --shape 64x64x64 --type f16")).err.contains(QStringLiteral("f32, f64 or tf32")));
        const Result past = cli(QStringLiteral("strassen --shape 131x97x113 --levels 2 --backend cpu --inject-at product:1000"));
        QCOMPARE(past.exitCode, 2);
        QVERIFY2(past.err.contains(QStringLiteral("product:1000: this run has 52 leaf products")), qPrintable(past.err));
    }
};

QTEST_GUILESS_MAIN(TestCliStrassen)
#include "tst_cli_strassen.moc"
