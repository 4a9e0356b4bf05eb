// gigacheck run with your own matrices, as a script uses it: --load-a / --load-b give the shape
// and the type, --save-c writes C (for any run), and every mistake is exit 2 with a message that
// says what to change (issue 12, item 7).
#include "engine/npy_fixture.hpp"

#include "gigacheck/npy.hpp"
#include "gigacheck/blocked_gemm/record.hpp"

#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

using gigacheck::test::NpySpec;
using gigacheck::test::npyMatrix;
using gigacheck::test::writeFile;

namespace {

struct Result {
    int exitCode = -1;
    QString out, err;
};

Result gigacheckCli(const QStringList& args)
{
    QProcess p;
    p.start(QStringLiteral(GIGACHECK_CLI), args);
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

double aValue(std::int64_t r, std::int64_t c) { return double((r * 5 + c) % 9) - 4; }
double bValue(std::int64_t r, std::int64_t c) { return double((2 * r + c) % 7) - 3; }

}  // namespace

class TestCliNpy : public QObject {
    Q_OBJECT

private:
    QTemporaryDir dir_;
    QString path(const char* name) const { return dir_.filePath(QString::fromLatin1(name)); }
    // A (m x n) and B (n x q) in the given type, B in Fortran order and big-endian.
    void writeOperands(std::int64_t m, std::int64_t n, std::int64_t q, const char* type)
    {
        NpySpec a, b;
        a.descr = std::string("<") + type;
        b.descr = std::string(">") + type;
        b.fortran = true;
        b.major = 2;
        QVERIFY(writeFile(path("A.npy"), npyMatrix(a, m, n, aValue)));
        QVERIFY(writeFile(path("B.npy"), npyMatrix(b, n, q, bValue)));
    }

private slots:
    void shapeAndTypeFollowTheFiles_data()
    {
        QTest::addColumn<QString>("type");
        QTest::addColumn<QString>("words");  // the report names the precision
        QTest::newRow("float64") << QStringLiteral("f8") << QStringLiteral("Values type: double");
        QTest::newRow("float32") << QStringLiteral("f4") << QStringLiteral("Values type: float");
    }

    void shapeAndTypeFollowTheFiles()
    {
        QFETCH(QString, type);
        QFETCH(QString, words);
        writeOperands(23, 17, 31, type.toLatin1().constData());
        const Result r = gigacheckCli({QStringLiteral("run"), QStringLiteral("--load-a"), path("A.npy"), QStringLiteral("--load-b"),
                                       path("B.npy"), QStringLiteral("--save-c"), path("C.npy"), QStringLiteral("--backend"),
                                       QStringLiteral("cpu"), QStringLiteral("--inject-at"), QStringLiteral("3,4:500"),
                                       QStringLiteral("--json"), path("run.json")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains(QStringLiteral("A: 23 x 17  B: 17 x 31")), qPrintable(r.out));
        QVERIFY2(r.out.contains(QStringLiteral("Your matrices: A from ")), qPrintable(r.out));
        QVERIFY2(r.out.contains(words), qPrintable(r.out));
        QVERIFY(r.out.contains(QStringLiteral("C written to")));
        const gigacheck::HostMatrix c = gigacheck::readNpy(path("C.npy").toStdString());
        QCOMPARE(c.rows(), std::int64_t(23));
        QCOMPARE(c.cols(), std::int64_t(31));
        QVERIFY(c.precision() == (type == QLatin1String("f4") ? gigacheck::Precision::F32 : gigacheck::Precision::F64));
        // Small integers: exact, and the injected fault was corrected.
        for (std::int64_t i = 0; i < 23; ++i)
            for (std::int64_t j = 0; j < 31; ++j) {
                double sum = 0;
                for (std::int64_t k = 0; k < 17; ++k)
                    sum += aValue(i, k) * bValue(k, j);
                QCOMPARE(c.at(i, j), sum);
            }
    }

    // The run record keeps the files (its "inputs" section): run prints the record's line once,
    // and gigacheck show prints the same line from the saved record.
    void theRecordKeepsTheFiles()
    {
        writeOperands(6, 5, 4, "f8");
        const Result r = gigacheckCli({QStringLiteral("run"), QStringLiteral("--load-a"), path("A.npy"), QStringLiteral("--load-b"),
                                       path("B.npy"), QStringLiteral("--backend"), QStringLiteral("cpu"), QStringLiteral("--json"),
                                       path("inputs.json")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QString expected = QStringLiteral("Your matrices: A from A.npy (6 x 5, float64, C order), B from B.npy "
                                                "(5 x 4, float64, Fortran order); the run computes in f64");
        QVERIFY2(r.out.contains(expected), qPrintable(r.out));
        QCOMPARE(r.out.count(QStringLiteral("Your matrices:")), 1);
        const Result shown = gigacheckCli({QStringLiteral("show"), path("inputs.json")});
        QVERIFY2(shown.exitCode == 0, qPrintable(shown.err));
        QVERIFY2(shown.out.contains(expected), qPrintable(shown.out));
        const gigacheck::RunRecord record = gigacheck::loadRecord(path("inputs.json").toStdString());
        QCOMPARE(record.inputs.size(), std::size_t(2));
        QVERIFY(record.inputs[1].fortranOrder);
        // A generated run's record has none.
        const Result generated = gigacheckCli({QStringLiteral("run"), QStringLiteral("--shape"), QStringLiteral("4x4x4"),
                                               QStringLiteral("--backend"), QStringLiteral("cpu"), QStringLiteral("--json"),
                                               path("generated.json")});
        QVERIFY2(generated.exitCode == 0, qPrintable(generated.err));
        QVERIFY(!generated.out.contains(QStringLiteral("Your matrices")));
        QVERIFY(gigacheck::loadRecord(path("generated.json").toStdString()).inputs.empty());
    }

    void typeOverridesTheFiles()
    {
        writeOperands(8, 9, 10, "f8");
        const Result r = gigacheckCli({QStringLiteral("run"), QStringLiteral("--load-a"), path("A.npy"), QStringLiteral("--load-b"),
                                       path("B.npy"), QStringLiteral("--type"), QStringLiteral("f32"), QStringLiteral("--shape"),
                                       QStringLiteral("8x9x10"), QStringLiteral("--save-c"), path("C32.npy"),
                                       QStringLiteral("--backend"), QStringLiteral("cpu")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY(gigacheck::readNpy(path("C32.npy").toStdString()).precision() == gigacheck::Precision::F32);
    }

    void saveCForAGeneratedRun()
    {
        const Result r = gigacheckCli({QStringLiteral("run"), QStringLiteral("--shape"), QStringLiteral("12x5x7"), QStringLiteral("--save-c"),
                                       path("gen.npy"), QStringLiteral("--backend"), QStringLiteral("cpu"), QStringLiteral("--quiet")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const gigacheck::HostMatrix c = gigacheck::readNpy(path("gen.npy").toStdString());
        QCOMPARE(c.rows(), std::int64_t(12));
        QCOMPARE(c.cols(), std::int64_t(7));
        QCOMPARE(r.out.trimmed(), QStringLiteral("verified correct"));  // --quiet stays one line
    }

    void mistakesAreExit2_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        const QString a = dir_.filePath(QStringLiteral("A.npy")), b = dir_.filePath(QStringLiteral("B.npy"));
        const QString run = QStringLiteral("run");
        const QString la = QStringLiteral("--load-a"), lb = QStringLiteral("--load-b");
        QTest::newRow("mismatch") << QStringList{run, la, a, lb, a} << QStringLiteral("B needs as many rows as A has columns");
        QTest::newRow("shape disagrees") << QStringList{run, la, a, lb, b, QStringLiteral("--shape"), QStringLiteral("4x4x4")}
                                         << QStringLiteral("disagrees with the files");
        QTest::newRow("only A") << QStringList{run, la, a} << QStringLiteral("--load-a needs --load-b too");
        QTest::newRow("dist") << QStringList{run, la, a, lb, b, QStringLiteral("--dist"), QStringLiteral("normal")}
                              << QStringLiteral("--dist chooses generated values");
        QTest::newRow("online scheme") << QStringList{run, la, a, lb, b, QStringLiteral("--scheme"), QStringLiteral("online")}
                                       << QStringLiteral("work with --scheme blocked");
        QTest::newRow("missing file") << QStringList{run, la, dir_.filePath(QStringLiteral("none.npy")), lb, b}
                                      << QStringLiteral("none.npy");
        QTest::newRow("1-D") << QStringList{run, la, dir_.filePath(QStringLiteral("vector.npy")), lb, b} << QStringLiteral("1-D array");
        QTest::newRow("truncated") << QStringList{run, la, a, lb, dir_.filePath(QStringLiteral("short.npy"))}
                                   << QStringLiteral("truncated");
        QTest::newRow("integers") << QStringList{run, la, dir_.filePath(QStringLiteral("int.npy")), lb, b}
                                  << QStringLiteral("integers");
        QTest::newRow("NaN") << QStringList{run, la, dir_.filePath(QStringLiteral("nan.npy")), lb, b} << QStringLiteral("holds NaN at row 1, column 2");
        QTest::newRow("no shape, no files") << QStringList{run} << QStringLiteral("--load-a A.npy --load-b B.npy");
        QTest::newRow("unwritable C") << QStringList{run, QStringLiteral("--shape"), QStringLiteral("4x4x4"), QStringLiteral("--save-c"),
                                                     dir_.filePath(QStringLiteral("no/such/C.npy"))}
                                      << QStringLiteral("cannot write C");
    }

    void mistakesAreExit2()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        writeOperands(4, 3, 5, "f8");
        NpySpec vector;
        vector.shape = "(3,)";
        QVERIFY(writeFile(path("vector.npy"), gigacheck::test::npyHeader(vector) + gigacheck::test::npyValues({1, 2, 3}, false, false)));
        QVERIFY(writeFile(path("short.npy"), npyMatrix(NpySpec{}, 3, 5, bValue).chopped(8)));
        NpySpec ints;
        ints.descr = "<i8";
        ints.shape = "(4, 3)";
        QVERIFY(writeFile(path("int.npy"), gigacheck::test::npyHeader(ints) + QByteArray(96, '\0')));
        QVERIFY(writeFile(path("nan.npy"), npyMatrix(NpySpec{}, 4, 3, [](std::int64_t r, std::int64_t c) {
                              return r == 1 && c == 2 ? std::nan("") : 1.0;
                          })));
        const Result r = gigacheckCli(args);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(message), qPrintable(r.err));
        QVERIFY(!QFile::exists(path("C.npy")) || QFileInfo(path("C.npy")).size() > 0);
    }
};

QTEST_GUILESS_MAIN(TestCliNpy)
#include "tst_cli_npy.moc"
