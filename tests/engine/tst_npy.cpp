// The .npy reader and writer (issue 12, item 7) on real files written by a fixture: every accepted
// layout (versions 1-3, float32 / float64, little / big endian, C / Fortran order) reads to the
// right values, every broken or lying file is refused with a reason before anything large is
// allocated, and runGemm multiplies the user's own matrices. Where NumPy is installed, files it
// wrote are read and files the lab wrote are loaded by it (skipped visibly otherwise).
#include "engine/npy_fixture.hpp"
#include "engine/test_helpers.hpp"

#include "gigacheck/npy.hpp"
#include "gigacheck/operands.hpp"
#include "gigacheck/blocked_gemm/run.hpp"

#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <csignal>
#include <limits>

#include <sys/resource.h>

Q_DECLARE_METATYPE(gigacheck::Precision)

using namespace gigacheck;
using gigacheck::test::inputErrorOf;
using gigacheck::test::NpySpec;
using gigacheck::test::npyHeader;
using gigacheck::test::npyMatrix;
using gigacheck::test::npyValues;
using gigacheck::test::writeFile;

namespace {

double sample(std::int64_t r, std::int64_t c)
{
    return double(r) * 10.0 + double(c) + 0.25;  // exact in float32 too
}

HostMatrix fromBytes(const QByteArray& bytes)
{
    return npyFromBytes(std::string_view(bytes.constData(), std::size_t(bytes.size())));
}

// A Python with NumPy: the PATH's, or Debian's own (a pyenv shim may hide the system one).
QString pythonWithNumpy()
{
    for (const QString& python : {QStringLiteral("python3"), QStringLiteral("/usr/bin/python3")}) {
        QProcess p;
        p.start(python, {QStringLiteral("-c"), QStringLiteral("import numpy")});
        if (p.waitForFinished(60000) && p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0)
            return python;
    }
    return {};
}

}  // namespace

class TestNpy : public QObject {
    Q_OBJECT
private slots:
    void readsEveryLayout_data();
    void readsEveryLayout();
    void writesWhatItReads_data();
    void writesWhatItReads();
    void writerHeaderIsNumpys();
    void refusesBadFiles_data();
    void refusesBadFiles();
    void lyingHeaderAllocatesNothing();
    void fileErrorsNameTheFile();
    void failedWriteKeepsTheOldFile();
    void operandChecks();
    void runMultipliesGivenMatrices_data();
    void runMultipliesGivenMatrices();
    void runRefusesGivenMatricesOfAnotherShape();
    void numpyCrossCheck();
};

void TestNpy::readsEveryLayout_data()
{
    QTest::addColumn<QString>("descr");
    QTest::addColumn<bool>("fortran");
    QTest::addColumn<int>("major");
    for (const char* descr : {"<f4", "<f8", ">f4", ">f8"})
        for (bool fortran : {false, true})
            for (int major : {1, 2, 3})
                QTest::addRow("%s/%s/v%d", descr, fortran ? "F" : "C", major)
                    << QString::fromLatin1(descr) << fortran << major;
}

void TestNpy::readsEveryLayout()
{
    QFETCH(QString, descr);
    QFETCH(bool, fortran);
    QFETCH(int, major);
    NpySpec spec;
    spec.descr = descr.toStdString();
    spec.fortran = fortran;
    spec.major = major;
    const std::int64_t rows = 7, cols = 5;
    const HostMatrix m = fromBytes(npyMatrix(spec, rows, cols, sample));
    QCOMPARE(m.rows(), rows);
    QCOMPARE(m.cols(), cols);
    QVERIFY(m.precision() == (descr.endsWith(QLatin1Char('4')) ? Precision::F32 : Precision::F64));
    for (std::int64_t r = 0; r < rows; ++r)
        for (std::int64_t c = 0; c < cols; ++c)
            QCOMPARE(m.at(r, c), sample(r, c));
}

void TestNpy::writesWhatItReads_data()
{
    QTest::addColumn<Precision>("precision");
    QTest::addColumn<qint64>("rows");
    QTest::addColumn<qint64>("cols");
    QTest::newRow("f32 3x4") << Precision::F32 << qint64(3) << qint64(4);
    QTest::newRow("f64 1x1") << Precision::F64 << qint64(1) << qint64(1);
    QTest::newRow("f64 100x37 (Fortran transposes tiles)") << Precision::F64 << qint64(100) << qint64(37);
}

void TestNpy::writesWhatItReads()
{
    QFETCH(Precision, precision);
    QFETCH(qint64, rows);
    QFETCH(qint64, cols);
    HostMatrix m(precision, rows, cols);
    fillRandom(m, Distribution::Wide, 7, 1);
    QTemporaryDir dir;
    const std::string path = dir.filePath(QStringLiteral("m.npy")).toStdString();
    writeNpy(m, path);
    const HostMatrix back = readNpy(path);
    QVERIFY(back.precision() == precision);
    QCOMPARE(back.rows(), rows);
    QCOMPARE(back.cols(), cols);
    QVERIFY(std::memcmp(back.data(), m.data(), m.bytes()) == 0);
    QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("m.npy.part"))));  // renamed into place
}

void TestNpy::writerHeaderIsNumpys()
{
    HostMatrix m(Precision::F32, 2, 3);
    const std::string bytes = npyBytes(m);
    QCOMPARE(bytes.substr(0, 8), std::string("\x93NUMPY\x01\x00", 8));
    const std::size_t length = std::size_t(std::uint8_t(bytes[8])) | std::size_t(std::uint8_t(bytes[9])) << 8;
    QCOMPARE((10 + length) % 64, std::size_t(0));  // values aligned as np.save aligns them
    QCOMPARE(bytes.size(), 10 + length + 2 * 3 * 4);
    QVERIFY(bytes.find("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }") == 10);
    QCOMPARE(bytes[10 + length - 1], '\n');
}

void TestNpy::refusesBadFiles_data()
{
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("reason");  // a part of the message the user reads
    const auto values = [](int n, bool f32 = false) { return npyValues(std::vector<double>(std::size_t(n), 1.5), f32, false); };
    const auto with = [](auto change) {
        NpySpec s;
        change(s);
        return npyHeader(s);
    };

    QTest::newRow("1-D") << with([](NpySpec& s) { s.shape = "(6,)"; }) + values(6) << QStringLiteral("1-D array of 6");
    QTest::newRow("3-D") << with([](NpySpec& s) { s.shape = "(1, 2, 3)"; }) + values(6) << QStringLiteral("3-D");
    QTest::newRow("0-D") << with([](NpySpec& s) { s.shape = "()"; }) + values(1) << QStringLiteral("0-D");
    QTest::newRow("empty") << with([](NpySpec& s) { s.shape = "(0, 3)"; }) << QStringLiteral("empty");
    QTest::newRow("truncated values") << npyHeader({}) + values(5) << QStringLiteral("truncated");
    QTest::newRow("header only") << npyHeader({}) << QStringLiteral("truncated");
    QTest::newRow("extra bytes") << npyHeader({}) + values(7) << QStringLiteral("byte(s) after");
    QTest::newRow("lying shape") << with([](NpySpec& s) { s.shape = "(4611686018427387904, 4)"; }) + values(6)
                                 << QStringLiteral("header lies");
    QTest::newRow("overflowing shape") << with([](NpySpec& s) { s.shape = "(99999999999999999999, 1)"; }) + values(6)
                                       << QStringLiteral("too large");
    QTest::newRow("int64") << with([](NpySpec& s) { s.descr = "<i8"; }) + values(6) << QStringLiteral("integers of 8");
    QTest::newRow("float16") << with([](NpySpec& s) { s.descr = "<f2"; }) + values(2) << QStringLiteral("astype");
    QTest::newRow("complex") << with([](NpySpec& s) { s.descr = "<c16"; }) + values(12) << QStringLiteral("complex");
    QTest::newRow("native order") << with([](NpySpec& s) { s.descr = "=f8"; }) + values(6) << QStringLiteral("'=f8'");
    QTest::newRow("structured") << with([](NpySpec& s) { s.dictOverride = "{'descr': [('x', '<f8')], 'fortran_order': False, 'shape': (2, 3), }"; }) + values(6)
                                << QStringLiteral("structured");
    QTest::newRow("wrong dtype for its size") << with([](NpySpec& s) { s.descr = "<f4"; }) + values(6)
                                              << QStringLiteral("byte(s) after");
    QTest::newRow("missing key") << with([](NpySpec& s) { s.dictOverride = "{'descr': '<f8', 'shape': (2, 3), }"; }) + values(6)
                                 << QStringLiteral("missing key 'fortran_order'");
    QTest::newRow("duplicate key") << with([](NpySpec& s) { s.extraKeys = "'shape': (2, 3), "; }) + values(6)
                                   << QStringLiteral("appears twice");
    QTest::newRow("unknown key") << with([](NpySpec& s) { s.extraKeys = "'x': 1, "; }) + values(6)
                                 << QStringLiteral("unexpected key 'x'");
    QTest::newRow("fortran_order not a bool") << with([](NpySpec& s) { s.dictOverride = "{'descr': '<f8', 'fortran_order': 0, 'shape': (2, 3), }"; }) + values(6)
                                              << QStringLiteral("True or False");
    QTest::newRow("unclosed string") << with([](NpySpec& s) { s.dictOverride = "{'descr: '<f8', 'fortran_order': False, 'shape': (2, 3), }"; }) + values(6)
                                     << QStringLiteral("expected ':'");
    QTest::newRow("not a dict") << with([](NpySpec& s) { s.dictOverride = "__import__('os')"; }) + values(6)
                                << QStringLiteral("'{'");
    QTest::newRow("text after the dict") << with([](NpySpec& s) { s.dictOverride = "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3), } x"; }) + values(6)
                                         << QStringLiteral("after the dict");
    QTest::newRow("negative dimension") << with([](NpySpec& s) { s.shape = "(-2, 3)"; }) + values(6)
                                        << QStringLiteral("non-negative integer");

    QByteArray badMagic = npyHeader({}) + values(6);
    badMagic[1] = 'X';
    QTest::newRow("bad magic") << badMagic << QStringLiteral("not a NumPy .npy file");
    QTest::newRow("too short") << QByteArray("\x93NUM", 4) << QStringLiteral("not a NumPy .npy file");
    QByteArray version = npyHeader({}) + values(6);
    version[6] = 4;
    QTest::newRow("version 4.0") << version << QStringLiteral("version 4.0");
    QByteArray minor = npyHeader({}) + values(6);
    minor[7] = 1;
    QTest::newRow("version 1.1") << minor << QStringLiteral("version 1.1");
    QByteArray longHeader = npyHeader({}) + values(6);
    longHeader[8] = char(0xff);
    longHeader[9] = char(0xff);
    QTest::newRow("header length 65535") << longHeader << QStringLiteral("claims 65535 bytes");
    QByteArray pastEnd = npyHeader({});
    pastEnd[9] = char(0x30);  // 12 KiB of header in a file of a few dozen bytes
    QTest::newRow("header past the end") << pastEnd << QStringLiteral("truncated");
    QByteArray noNewline = npyHeader({}) + values(6);
    noNewline[npyHeader({}).size() - 1] = ' ';
    QTest::newRow("no newline") << noNewline << QStringLiteral("newline");
    QByteArray binary = npyHeader({}) + values(6);
    binary[60] = char(0xc3);
    QTest::newRow("non-ASCII header") << binary << QStringLiteral("printable ASCII");
}

void TestNpy::refusesBadFiles()
{
    QFETCH(QByteArray, bytes);
    QFETCH(QString, reason);
    const QString memory = inputErrorOf([&] { fromBytes(bytes); });
    QVERIFY2(memory.contains(reason), qPrintable(memory));
    // The same through a file, with the file's name in front.
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("bad.npy"));
    QVERIFY(writeFile(path, bytes));
    const QString file = inputErrorOf([&] { readNpy(path.toStdString()); });
    QVERIFY2(file.contains(reason) && file.contains(path), qPrintable(file));
}

void TestNpy::lyingHeaderAllocatesNothing()
{
    // A header that claims 2^62 x 2^62 doubles, or 16 EiB, is refused by arithmetic on the file's
    // length: no allocation is tried (an attempt would throw bad_alloc, not this InputError).
    NpySpec s;
    s.shape = "(4611686018427387904, 4611686018427387904)";
    const QString why = inputErrorOf([&] { fromBytes(npyHeader(s) + QByteArray(64, '\0')); });
    QVERIFY2(why.contains(QStringLiteral("header lies")), qPrintable(why));
    s.shape = "(3037000500, 3037000500)";  // rows x cols x 8 overflows 64 bits
    const QString overflow = inputErrorOf([&] { fromBytes(npyHeader(s) + QByteArray(64, '\0')); });
    QVERIFY2(overflow.contains(QStringLiteral("header lies")), qPrintable(overflow));
}

void TestNpy::fileErrorsNameTheFile()
{
    QTemporaryDir dir;
    const QString missing = dir.filePath(QStringLiteral("missing.npy"));
    const QString why = inputErrorOf([&] { readNpy(missing.toStdString()); });
    QVERIFY2(why.contains(missing), qPrintable(why));
    const QString folder = inputErrorOf([&] { readNpy(dir.path().toStdString()); });
    QVERIFY2(folder.contains(QStringLiteral("directory")), qPrintable(folder));
    const QString empty = dir.filePath(QStringLiteral("empty.npy"));
    QVERIFY(writeFile(empty, {}));
    QVERIFY(inputErrorOf([&] { readNpy(empty.toStdString()); }).contains(QStringLiteral("not a NumPy")));
    const QString unwritable = inputErrorOf([&] { writeNpy(HostMatrix(Precision::F32, 1, 1), (missing + QStringLiteral("/x.npy")).toStdString()); });
    QVERIFY2(unwritable.contains(QStringLiteral("cannot write")), qPrintable(unwritable));
}

void TestNpy::failedWriteKeepsTheOldFile()
{
    // The writer goes through a temporary file renamed over the target: a write that fails half way
    // (here a file-size limit; on a desktop a full disk) leaves the old file whole and no temporary.
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("c.npy"));
    HostMatrix old(Precision::F64, 2, 2);
    old.fill(3.0);
    writeNpy(old, path.toStdString());
    rlimit saved{};
    QVERIFY(getrlimit(RLIMIT_FSIZE, &saved) == 0);
    const auto previousHandler = std::signal(SIGXFSZ, SIG_IGN);  // a failed write, not a killed process
    rlimit small = saved;
    small.rlim_cur = 200;
    QVERIFY(setrlimit(RLIMIT_FSIZE, &small) == 0);
    const QString why = inputErrorOf([&] { writeNpy(HostMatrix(Precision::F64, 50, 50), path.toStdString()); });
    setrlimit(RLIMIT_FSIZE, &saved);
    std::signal(SIGXFSZ, previousHandler);
    QVERIFY2(why.contains(QStringLiteral("write failed")), qPrintable(why));
    const HostMatrix back = readNpy(path.toStdString());
    QCOMPARE(back.rows(), std::int64_t(2));
    QCOMPARE(back.at(1, 1), 3.0);
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden), QStringList{QStringLiteral("c.npy")});
}

void TestNpy::operandChecks()
{
    const HostMatrix a(Precision::F64, 3, 4), b(Precision::F32, 4, 2), wrong(Precision::F64, 3, 2);
    const Shape s = shapeOfOperands(a, b);
    QVERIFY(s == (Shape{3, 4, 2}));
    const QString why = inputErrorOf([&] { shapeOfOperands(a, wrong); });
    QVERIFY2(why.contains(QStringLiteral("A is 3 x 4 and B is 3 x 2")) && why.contains(QStringLiteral("(4)")),
             qPrintable(why));

    HostMatrix nan(Precision::F32, 2, 3);
    nan.set(1, 2, std::numeric_limits<double>::quiet_NaN());
    const QString nanWhy = inputErrorOf([&] { requireFinite(nan, "A.npy"); });
    QVERIFY2(nanWhy.contains(QStringLiteral("A.npy holds NaN at row 1, column 2")), qPrintable(nanWhy));
    HostMatrix inf(Precision::F64, 1, 1);
    inf.set(0, 0, std::numeric_limits<double>::infinity());
    QVERIFY(inputErrorOf([&] { requireFinite(inf, "B"); }).contains(QStringLiteral("infinity")));

    HostMatrix d(Precision::F64, 1, 2);
    d.set(0, 0, 0.1);
    d.set(0, 1, -2.5);
    const HostMatrix f = convertedTo(d, Precision::F32);
    QVERIFY(f.precision() == Precision::F32);
    QCOMPARE(f.as<float>()[0], 0.1f);
    QCOMPARE(f.at(0, 1), -2.5);
}

void TestNpy::runMultipliesGivenMatrices_data()
{
    QTest::addColumn<Precision>("files");
    QTest::addColumn<Precision>("run");
    QTest::newRow("f64 files, f64 run") << Precision::F64 << Precision::F64;
    QTest::newRow("f32 files, f32 run") << Precision::F32 << Precision::F32;
    QTest::newRow("f64 files, f32 run") << Precision::F64 << Precision::F32;
}

void TestNpy::runMultipliesGivenMatrices()
{
    QFETCH(Precision, files);
    QFETCH(Precision, run);
    // Small integers: every product and sum is exact, so C must be A B to the last bit.
    const std::int64_t m = 37, n = 29, q = 41;
    NpySpec a, b;
    a.descr = files == Precision::F32 ? "<f4" : "<f8";
    b.descr = files == Precision::F32 ? ">f4" : ">f8";
    b.fortran = true;
    const HostMatrix ha = fromBytes(npyMatrix(a, m, n, [](std::int64_t r, std::int64_t c) { return double((r * 3 + c) % 7) - 3; }));
    const HostMatrix hb = fromBytes(npyMatrix(b, n, q, [](std::int64_t r, std::int64_t c) { return double((r + 2 * c) % 5) - 2; }));

    RunConfig c;
    c.shape = shapeOfOperands(ha, hb);
    c.precision = run;
    c.backend = BackendKind::Cpu;
    c.strategy = StrategyKind::S2;
    c.memCapBytes = 12 * 1024 * elementSize(run) / 4;  // several blocks
    c.faults.at.push_back({5, 7, 1000.0});
    HostMatrix result;
    RunHooks hooks;
    hooks.givenA = &ha;
    hooks.givenB = &hb;
    hooks.resultOut = &result;
    const RunRecord r = runGemm(c, hooks);
    QCOMPARE(QString::fromStdString(r.status), QStringLiteral("ok"));
    QVERIFY(r.plan.productCount() > 1);
    QCOMPARE(r.faults.injected, 1);
    QCOMPARE(r.faults.corrected, 1);
    QVERIFY(r.verifiedCorrect());
    QVERIFY(result.precision() == run);
    for (std::int64_t i = 0; i < m; ++i)
        for (std::int64_t j = 0; j < q; ++j) {
            double sum = 0;
            for (std::int64_t k = 0; k < n; ++k)
                sum += ha.at(i, k) * hb.at(k, j);
            QCOMPARE(result.at(i, j), sum);
        }
}

void TestNpy::runRefusesGivenMatricesOfAnotherShape()
{
    const HostMatrix a(Precision::F64, 4, 3), b(Precision::F64, 3, 5);
    RunConfig c;
    c.shape = {4, 3, 6};
    c.backend = BackendKind::Cpu;
    RunHooks hooks;
    hooks.givenA = &a;
    hooks.givenB = &b;
    const QString why = inputErrorOf([&] { runGemm(c, hooks); });
    QVERIFY2(why.contains(QStringLiteral("4x3x5")) && why.contains(QStringLiteral("4x3x6")), qPrintable(why));
    hooks.givenB = nullptr;
    QVERIFY(inputErrorOf([&] { runGemm(c, hooks); }).contains(QStringLiteral("both A and B")));
    // float64 values beyond float32's range cannot go into a float32 run.
    HostMatrix big(Precision::F64, 4, 3);
    big.set(2, 1, 1e300);
    c.shape = {4, 3, 5};
    c.precision = Precision::F32;
    hooks.givenA = &big;
    hooks.givenB = &b;
    QVERIFY(inputErrorOf([&] { runGemm(c, hooks); }).contains(QStringLiteral("A in f32 holds an infinity")));
}

void TestNpy::numpyCrossCheck()
{
    const QString python = pythonWithNumpy();
    if (python.isEmpty())
        QSKIP("NumPy is not installed (apt-get install python3-numpy): files NumPy writes are not cross-checked");
    QTemporaryDir dir;
    const QString folder = dir.path();
    // NumPy writes one file per layout; element (r, c) = r * 10 + c + 0.25.
    const QString write = QStringLiteral(
        "import numpy as np, sys\n"
        "d = sys.argv[1]\n"
        "m = np.fromfunction(lambda r, c: r * 10 + c + 0.25, (6, 4))\n"
        "np.save(d + '/c64.npy', m)\n"
        "np.save(d + '/c32.npy', m.astype(np.float32))\n"
        "np.save(d + '/f64.npy', np.asfortranarray(m))\n"
        "np.save(d + '/big32.npy', m.astype('>f4'))\n"
        "np.save(d + '/bigf64.npy', np.asfortranarray(m.astype('>f8')))\n"
        "np.lib.format.write_array(open(d + '/v2.npy', 'wb'), m, version=(2, 0))\n"
        "np.lib.format.write_array(open(d + '/v3.npy', 'wb'), m, version=(3, 0))\n"
        "np.save(d + '/int.npy', m.astype(np.int64))\n"
        "np.save(d + '/vector.npy', m[0])\n");
    QProcess p;
    p.start(python, {QStringLiteral("-c"), write, folder});
    QVERIFY(p.waitForFinished(120000));
    QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
    for (const char* name : {"c64", "c32", "f64", "big32", "bigf64", "v2", "v3"}) {
        const HostMatrix m = readNpy(QStringLiteral("%1/%2.npy").arg(folder, QLatin1String(name)).toStdString());
        QCOMPARE(m.rows(), std::int64_t(6));
        QCOMPARE(m.cols(), std::int64_t(4));
        for (std::int64_t r = 0; r < 6; ++r)
            for (std::int64_t c = 0; c < 4; ++c)
                QCOMPARE(m.at(r, c), sample(r, c));
    }
    QVERIFY(inputErrorOf([&] { readNpy((folder + QStringLiteral("/int.npy")).toStdString()); }).contains(QStringLiteral("integers")));
    QVERIFY(inputErrorOf([&] { readNpy((folder + QStringLiteral("/vector.npy")).toStdString()); }).contains(QStringLiteral("1-D")));

    // And NumPy reads what the lab writes.
    for (Precision precision : {Precision::F32, Precision::F64}) {
        HostMatrix m(precision, 3, 5);
        for (std::int64_t r = 0; r < 3; ++r)
            for (std::int64_t c = 0; c < 5; ++c)
                m.set(r, c, sample(r, c));
        const QString path = folder + (precision == Precision::F32 ? QStringLiteral("/lab32.npy") : QStringLiteral("/lab64.npy"));
        writeNpy(m, path.toStdString());
        QProcess check;
        check.start(python, {QStringLiteral("-c"),
                             QStringLiteral("import numpy as np, sys\n"
                                            "a = np.load(sys.argv[1])\n"
                                            "want = np.fromfunction(lambda r, c: r * 10 + c + 0.25, (3, 5))\n"
                                            "assert a.dtype == np.dtype(sys.argv[2]), a.dtype\n"
                                            "assert a.flags.c_contiguous and np.array_equal(a, want), a\n"),
                             path, precision == Precision::F32 ? QStringLiteral("<f4") : QStringLiteral("<f8")});
        QVERIFY(check.waitForFinished(120000));
        QVERIFY2(check.exitCode() == 0, check.readAllStandardError().constData());
    }
}

QTEST_GUILESS_MAIN(TestNpy)
#include "tst_npy.moc"
