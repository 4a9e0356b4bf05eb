// The CLI's output and input files as a hostile but fair user tries them: an output option never
// replaces a FIFO, a device, a directory or a symbolic link, keeps an existing file's mode, and
// every failed write is exit 2 with one line; `show` refuses what is not a regular file (without
// blocking on a FIFO or reading /dev/zero forever) and a file above the readers' size limit.
// Never writes to /dev/null: CI may run as root, where a broken writer would replace it.
#include <QDir>
#include <QFile>
#include <QMap>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include "app/cli_process.hpp"
#include "engine/npy_fixture.hpp"

#include <csignal>

#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

namespace {

using Result = gigacheck::test::CliResult;
using gigacheck::test::gigacheckCli;
using gigacheck::test::words;

// A refusal or a failure must end well before this; it only keeps a regression (a writer or a
// reader blocked on a FIFO) from hanging the suite.
constexpr int kLimitMs = 60000;

mode_t modeOf(const QString& path, bool follow = true)
{
    struct stat st {};
    const QByteArray p = QFile::encodeName(path);
    if ((follow ? ::stat(p.constData(), &st) : ::lstat(p.constData(), &st)) != 0)
        return 0;
    return st.st_mode;
}

bool isFifo(const QString& path) { return S_ISFIFO(modeOf(path, false)); }

QByteArray contents(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// One line on stderr, nothing else: the CLI's error contract.
bool oneLine(const Result& r) { return r.err.trimmed().count(QLatin1Char('\n')) == 0 && !r.err.trimmed().isEmpty(); }

// The CLI under a file-size limit, with SIGXFSZ ignored (as an inherited disposition): every write
// past limitBytes fails as on a full disk.
Result underFileSizeLimit(const QStringList& args, rlim_t limitBytes)
{
    QProcess p;
    p.setChildProcessModifier([limitBytes] {
        ::signal(SIGXFSZ, SIG_IGN);
        rlimit limit{};
        ::getrlimit(RLIMIT_FSIZE, &limit);
        limit.rlim_cur = limitBytes;
        ::setrlimit(RLIMIT_FSIZE, &limit);
    });
    p.start(QStringLiteral(GIGACHECK_CLI), args);
    if (!p.waitForFinished(kLimitMs)) {
        p.kill();
        p.waitForFinished();
        return {};
    }
    return gigacheck::test::finished(p);
}

}  // namespace

class TestCliFiles : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { QVERIFY(tmp_.isValid()); }

    // Each output option of each verb: a FIFO is refused before anything runs and stays a FIFO.
    void outputToAFifoIsRefused_data()
    {
        QTest::addColumn<QString>("args");
        QTest::newRow("run --json") << "run --shape 8x8x8 --backend cpu --json";
        QTest::newRow("run --save-c") << "run --shape 8x8x8 --backend cpu --save-c";
        QTest::newRow("online --json") << "run --shape 32x32x32 --backend cpu --scheme online --json";
        QTest::newRow("campaign --json") << "campaign --runs 2 --shape 16x16x16 --backend cpu --json";
        QTest::newRow("campaign --csv") << "campaign --runs 2 --shape 16x16x16 --backend cpu --csv";
        QTest::newRow("transpose --json") << "transpose --shape 48x16 --variant inplace --backend cpu --json";
        QTest::newRow("devices --json") << "devices --json";
    }
    void outputToAFifoIsRefused()
    {
        QFETCH(QString, args);
        const QString fifo = tmp_.filePath(QStringLiteral("out.fifo"));
        QFile::remove(fifo);
        QVERIFY(::mkfifo(QFile::encodeName(fifo).constData(), 0600) == 0);
        const Result r = gigacheckCli(args.split(QLatin1Char(' ')) << fifo, kLimitMs);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(oneLine(r) && r.err.contains(QStringLiteral("FIFO")), qPrintable(r.err));
        QVERIFY(isFifo(fifo));
        QFile::remove(fifo);
    }

    void outputToADirectoryIsRefused()
    {
        const Result r = gigacheckCli(words("run --shape 8x8x8 --backend cpu --json") << tmp_.path(), kLimitMs);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(oneLine(r) && r.err.contains(QStringLiteral("directory")), qPrintable(r.err));
        QVERIFY(QFileInfo(tmp_.path()).isDir());
    }

    // --json LINK writes the link's target; the link stays a link. A --save-c link too.
    void outputThroughALinkWritesItsTarget()
    {
        QTemporaryDir dir;
        const QString target = dir.filePath(QStringLiteral("record.json"));
        const QString link = dir.filePath(QStringLiteral("latest.json"));
        QVERIFY(QFile::link(QStringLiteral("record.json"), link));  // dangling until the run writes it
        const QString cTarget = dir.filePath(QStringLiteral("c.npy"));
        const QString cLink = dir.filePath(QStringLiteral("c-link.npy"));
        QVERIFY(QFile::link(cTarget, cLink));
        const Result r = gigacheckCli(words("run --shape 8x8x8 --backend cpu --json") << link << QStringLiteral("--save-c") << cLink,
                                      kLimitMs);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY(S_ISLNK(modeOf(link, false)));
        QVERIFY(S_ISLNK(modeOf(cLink, false)));
        QVERIFY(contents(target).contains("\"format_version\""));
        QVERIFY(contents(cTarget).startsWith("\x93NUMPY"));
        // And show reads through the link.
        const Result shown = gigacheckCli({QStringLiteral("show"), link}, kLimitMs);
        QVERIFY2(shown.exitCode == 0, qPrintable(shown.err));
    }

    void existingFileKeepsItsMode()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("private.json"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.close();
        QVERIFY(::chmod(QFile::encodeName(path).constData(), 0600) == 0);
        const Result r = gigacheckCli(words("run --shape 8x8x8 --backend cpu --json") << path, kLimitMs);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QCOMPARE(modeOf(path) & 07777, mode_t(0600));
        QVERIFY(contents(path).contains("\"format_version\""));
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden), QStringList{QStringLiteral("private.json")});
    }

    // /dev/full: a character device, refused before the run (it would fail every write anyway).
    void outputToDevFullIsExit2_data()
    {
        QTest::addColumn<QString>("args");
        QTest::newRow("run --json") << "run --shape 8x8x8 --backend cpu --json";
        QTest::newRow("devices --json") << "devices --json";
        QTest::newRow("campaign --csv") << "campaign --runs 2 --shape 16x16x16 --backend cpu --csv";
    }
    void outputToDevFullIsExit2()
    {
        QFETCH(QString, args);
        if (!QFile::exists(QStringLiteral("/dev/full")))
            QSKIP("no /dev/full here");
        const Result r = gigacheckCli(args.split(QLatin1Char(' ')) << QStringLiteral("/dev/full"), kLimitMs);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(oneLine(r) && r.err.contains(QStringLiteral("character device")), qPrintable(r.err));
        QVERIFY(S_ISCHR(modeOf(QStringLiteral("/dev/full"))));
    }

    // A write that fails after the run (here a file-size limit; elsewhere a full disk) is exit 2 with
    // one line, and the file that was there before is left whole, with no temporary beside it.
    void failedWriteIsExit2AndKeepsTheOldFile_data()
    {
        QTest::addColumn<QString>("args");
        QTest::newRow("run --json") << "run --shape 64x64x64 --backend cpu --json";
        QTest::newRow("online --json") << "run --shape 64x64x64 --backend cpu --scheme online --json";
        QTest::newRow("transpose --json") << "transpose --shape 48x16 --variant inplace --backend cpu --json";
    }
    void failedWriteIsExit2AndKeepsTheOldFile()
    {
        QFETCH(QString, args);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("record.json"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("previous");
        f.close();
        const Result r = underFileSizeLimit(args.split(QLatin1Char(' ')) << path, 512);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(QStringLiteral("write failed")), qPrintable(r.err));
        QVERIFY2(r.err.count(QStringLiteral("gigacheck: error:")) == 1, qPrintable(r.err));
        QCOMPARE(contents(path), QByteArray("previous"));
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden), QStringList{QStringLiteral("record.json")});
    }

    // An output never replaces an input or another output, however it is named (another path to
    // the same file, a link): refused before anything runs, the files as they were. Cases a review
    // found: run's own matrices replaced by C or by the record, a rerun's record replaced by its
    // partial one on an interrupt, a campaign's JSON by its CSV, a shard by the merge.
    void anOutputNeverReplacesAnInputOrAnotherOutput_data()
    {
        QTest::addColumn<QString>("args");  // DIR: the test's folder, holding A.npy, B.npy, r.json, s1/s2.json
        QTest::addColumn<QString>("words");
        QTest::newRow("--save-c over --load-a")
            << "run --load-a DIR/A.npy --load-b DIR/B.npy --save-c DIR/A.npy --backend cpu" << "is also --load-a's file";
        QTest::newRow("--json over --load-b, another path")
            << "run --load-a DIR/A.npy --load-b DIR/B.npy --json DIR/./B.npy --backend cpu" << "is also --load-b's file";
        QTest::newRow("--json and --save-c") << "run --shape 8x8x8 --backend cpu --json DIR/out.x --save-c DIR/out.x"
                                             << "both name";
        QTest::newRow("rerun over its record") << "rerun DIR/r.json --json DIR/r.json" << "is also the record's file";
        QTest::newRow("rerun over its record through a link") << "rerun DIR/r.json --json DIR/link.json"
                                                              << "is also the record's file";
        QTest::newRow("--json through a dangling link and --save-c at its end")
            << "run --shape 8x8x8 --backend cpu --json DIR/dangling.json --save-c DIR/real.npy" << "both name";
        QTest::newRow("campaign --json and --csv")
            << "campaign --runs 2 --shape 16x16x16 --backend cpu --json DIR/c.out --csv DIR/c.out" << "both name";
        QTest::newRow("campaign --json and the summary")
            << "campaign --runs 2 --shape 16x16x16 --backend cpu --csv DIR/d.csv --json DIR/d-summary.csv" << "both name";
        QTest::newRow("merge over a shard") << "campaign merge DIR/s1.json DIR/s2.json --json DIR/s1.json"
                                            << "is also a shard's file";
    }
    void anOutputNeverReplacesAnInputOrAnotherOutput()
    {
        QFETCH(QString, args);
        QFETCH(QString, words);
        QTemporaryDir dir;
        const auto value = [](std::int64_t r, std::int64_t c) { return double((r + 2 * c) % 5) - 2; };
        gigacheck::test::NpySpec spec;
        spec.descr = "<f8";
        QVERIFY(gigacheck::test::writeFile(dir.filePath(QStringLiteral("A.npy")), gigacheck::test::npyMatrix(spec, 6, 5, value)));
        QVERIFY(gigacheck::test::writeFile(dir.filePath(QStringLiteral("B.npy")), gigacheck::test::npyMatrix(spec, 5, 4, value)));
        const QString record = dir.filePath(QStringLiteral("r.json"));
        QCOMPARE(gigacheckCli(gigacheck::test::words("transpose --shape 48x16 --backend cpu --quiet --json") << record).exitCode, 0);
        QVERIFY(QFile::link(record, dir.filePath(QStringLiteral("link.json"))));
        QVERIFY(QFile::link(dir.filePath(QStringLiteral("real.npy")), dir.filePath(QStringLiteral("dangling.json"))));
        for (const char* k : {"1", "2"})
            QCOMPARE(gigacheckCli(gigacheck::test::words("campaign --runs 4 --shape 16x16x16 --backend cpu --shard") << k + QStringLiteral("/2")
                                                                 << QStringLiteral("--json") << dir.filePath(QStringLiteral("s%1.json").arg(QLatin1String(k))))
                         .exitCode,
                     0);
        QMap<QString, QByteArray> before;
        for (const QString& name : QDir(dir.path()).entryList(QDir::Files))
            before[name] = contents(dir.filePath(name));

        const Result r = gigacheckCli(args.replace(QStringLiteral("DIR"), dir.path()).split(QLatin1Char(' ')), kLimitMs);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(words), qPrintable(r.err));
        QVERIFY2(r.err.count(QStringLiteral("gigacheck: error:")) == 1 && r.out.isEmpty(), qPrintable(r.out + r.err));
        QMap<QString, QByteArray> after;
        for (const QString& name : QDir(dir.path()).entryList(QDir::Files))
            after[name] = contents(dir.filePath(name));
        QCOMPARE(after.keys(), before.keys());  // nothing written, nothing removed
        for (const QString& name : before.keys())
            QVERIFY2(after[name] == before[name], qPrintable(name));
    }

    // show of what is not a regular file: refused by stat before anything opens it.
    void showRefusesWhatIsNotAFile_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("mentions");
        QTest::newRow("/dev/zero") << "/dev/zero" << "character device";
        QTest::newRow("/dev/urandom") << "/dev/urandom" << "character device";
        QTest::newRow("a FIFO") << "<fifo>" << "FIFO";
        QTest::newRow("a directory") << "<dir>" << "directory";
    }
    void showRefusesWhatIsNotAFile()
    {
        QFETCH(QString, path);
        QFETCH(QString, mentions);
        const QString fifo = tmp_.filePath(QStringLiteral("show.fifo"));
        if (path == QStringLiteral("<fifo>")) {
            QFile::remove(fifo);
            QVERIFY(::mkfifo(QFile::encodeName(fifo).constData(), 0600) == 0);
            path = fifo;
        } else if (path == QStringLiteral("<dir>")) {
            path = tmp_.path();
        } else if (!QFile::exists(path)) {
            QSKIP("no such device here");
        }
        const Result r = gigacheckCli({QStringLiteral("show"), path}, kLimitMs);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(oneLine(r) && r.err.contains(mentions), qPrintable(r.err));
        QVERIFY(r.out.isEmpty());
        QFile::remove(fifo);
    }

    // --load-a / --load-b of a FIFO: refused before it is opened (opening it would wait for a writer).
    void loadingAFifoIsRefused()
    {
        const QString fifo = tmp_.filePath(QStringLiteral("a.fifo"));
        QFile::remove(fifo);
        QVERIFY(::mkfifo(QFile::encodeName(fifo).constData(), 0600) == 0);
        const Result r = gigacheckCli({QStringLiteral("run"), QStringLiteral("--backend"), QStringLiteral("cpu"),
                                       QStringLiteral("--load-a"), fifo, QStringLiteral("--load-b"), fifo},
                                      kLimitMs);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(oneLine(r) && r.err.contains(QStringLiteral("FIFO")), qPrintable(r.err));
        QVERIFY(isFifo(fifo));
        QFile::remove(fifo);
    }

    // A file above the readers' limit (1 GiB) is refused by its size: a sparse file, no disk used.
    void showRefusesAFileAboveTheLimit()
    {
        const QString path = tmp_.filePath(QStringLiteral("huge.json"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        QVERIFY(f.resize((qint64(1) << 30) + 1));
        f.close();
        const Result r = gigacheckCli({QStringLiteral("show"), path}, kLimitMs);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(oneLine(r) && r.err.contains(QStringLiteral("larger than 1 GiB")), qPrintable(r.err));
        QFile::remove(path);
    }

private:
    QTemporaryDir tmp_;
};

QTEST_GUILESS_MAIN(TestCliFiles)
#include "tst_cli_files.moc"
