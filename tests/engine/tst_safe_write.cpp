// The engine's output and input files (gigacheck/safe_write.hpp, core/io/input_file.hpp): a write
// never replaces a device, a FIFO, a directory or a symbolic link, keeps the file's mode, and leaves
// the old file and no temporary behind when it fails; a reader refuses what is not a regular file
// before opening it (a FIFO must not block) and what is larger than its limit.
#include "engine/test_helpers.hpp"

#include "core/io/input_file.hpp"
#include "gigacheck/record_envelope.hpp"
#include "gigacheck/safe_write.hpp"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>
#include <fstream>
#include <sstream>

#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace gigacheck;
using gigacheck::test::inputErrorOf;

namespace {

std::string contents(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

mode_t modeOf(const std::string& path, bool follow = true)
{
    struct stat st {};
    if ((follow ? ::stat(path.c_str(), &st) : ::lstat(path.c_str(), &st)) != 0)
        return 0;
    return st.st_mode;
}

// Every file of the folder, hidden ones too: a temporary left behind would show here.
QStringList filesIn(const QTemporaryDir& dir)
{
    return QDir(dir.path()).entryList(QDir::Files | QDir::Hidden | QDir::System, QDir::Name);
}

}  // namespace

class TestSafeWrite : public QObject {
    Q_OBJECT

private slots:
    void writesANewFileWithTheUsualMode()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("new.json")).toStdString();
        const mode_t mask = ::umask(022);
        ::umask(mask);
        writeFileAtomically(path, "hello\n", "test file");
        QCOMPARE(contents(path), std::string("hello\n"));
        QCOMPARE(modeOf(path) & 0777, mode_t(0666 & ~mask));
        QCOMPARE(filesIn(dir), QStringList{QStringLiteral("new.json")});
    }

    void keepsAnExistingFilesMode()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("secret.json")).toStdString();
        writeFileAtomically(path, "old", "test file");
        QVERIFY(::chmod(path.c_str(), 0600) == 0);
        writeFileAtomically(path, "new", "test file");
        QCOMPARE(contents(path), std::string("new"));
        QCOMPARE(modeOf(path) & 07777, mode_t(0600));
    }

    void writesThroughALink()
    {
        QTemporaryDir dir;
        const std::string target = dir.filePath(QStringLiteral("real.json")).toStdString();
        const std::string link = dir.filePath(QStringLiteral("link.json")).toStdString();
        writeFileAtomically(target, "old", "test file");
        QVERIFY(::chmod(target.c_str(), 0640) == 0);
        QVERIFY(::symlink("real.json", link.c_str()) == 0);  // relative, as ln -s makes them
        writeFileAtomically(link, "new", "test file");
        QVERIFY(S_ISLNK(modeOf(link, false)));
        QCOMPARE(contents(target), std::string("new"));
        QCOMPARE(modeOf(target) & 07777, mode_t(0640));

        // A dangling link: its target is created, the link stays.
        const std::string dangling = dir.filePath(QStringLiteral("dangling.json")).toStdString();
        QVERIFY(::symlink("later.json", dangling.c_str()) == 0);
        writeFileAtomically(dangling, "made", "test file");
        QVERIFY(S_ISLNK(modeOf(dangling, false)));
        QCOMPARE(contents(dir.filePath(QStringLiteral("later.json")).toStdString()), std::string("made"));

        // A loop is refused, not followed forever.
        const std::string a = dir.filePath(QStringLiteral("a")).toStdString();
        const std::string b = dir.filePath(QStringLiteral("b")).toStdString();
        QVERIFY(::symlink("b", a.c_str()) == 0 && ::symlink("a", b.c_str()) == 0);
        const QString loop = inputErrorOf([&] { writeFileAtomically(a, "x", "test file"); });
        QVERIFY2(loop.contains(QStringLiteral("symbolic links")), qPrintable(loop));
    }

    void refusesWhatIsNotARegularFile()
    {
        QTemporaryDir dir;
        const std::string fifo = dir.filePath(QStringLiteral("fifo")).toStdString();
        QVERIFY(::mkfifo(fifo.c_str(), 0600) == 0);
        const QString why = inputErrorOf([&] { writeFileAtomically(fifo, "x", "test file"); });
        QVERIFY2(why.startsWith(QStringLiteral("cannot write test file '")) && why.contains(QStringLiteral("FIFO")),
                 qPrintable(why));
        QVERIFY(S_ISFIFO(modeOf(fifo, false)));
        const QString folder = inputErrorOf([&] { checkOutputFile(dir.path().toStdString(), "test file"); });
        QVERIFY2(folder.contains(QStringLiteral("directory")), qPrintable(folder));
        // A link to the FIFO is refused too (its target is what a write would replace).
        const std::string link = dir.filePath(QStringLiteral("to-fifo")).toStdString();
        QVERIFY(::symlink(fifo.c_str(), link.c_str()) == 0);
        QVERIFY(inputErrorOf([&] { writeFileAtomically(link, "x", "test file"); }).contains(QStringLiteral("FIFO")));
        if (QFile::exists(QStringLiteral("/dev/full"))) {
            const QString device = inputErrorOf([&] { checkOutputFile("/dev/full", "test file"); });
            QVERIFY2(device.contains(QStringLiteral("character device")), qPrintable(device));
        }
        const QString missing = inputErrorOf([&] { checkOutputFile(dir.filePath(QStringLiteral("no/x")).toStdString(), "test file"); });
        QVERIFY2(missing.contains(QStringLiteral("does not exist")), qPrintable(missing));
        QCOMPARE(filesIn(dir), (QStringList{QStringLiteral("fifo"), QStringLiteral("to-fifo")}));
    }

    void failedWriteKeepsTheOldFile()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("run.json")).toStdString();
        writeFileAtomically(path, "good", "test file");
        rlimit saved{};
        QVERIFY(getrlimit(RLIMIT_FSIZE, &saved) == 0);
        const auto previousHandler = std::signal(SIGXFSZ, SIG_IGN);  // a failed write, not a killed process
        rlimit small = saved;
        small.rlim_cur = 100;
        QVERIFY(setrlimit(RLIMIT_FSIZE, &small) == 0);
        const QString why = inputErrorOf([&] { writeFileAtomically(path, std::string(1000, 'x'), "test file"); });
        setrlimit(RLIMIT_FSIZE, &saved);
        std::signal(SIGXFSZ, previousHandler);
        QVERIFY2(why.contains(QStringLiteral("write failed")), qPrintable(why));
        QCOMPARE(contents(path), std::string("good"));
        QCOMPARE(filesIn(dir), QStringList{QStringLiteral("run.json")});
    }

    void readerRefusesWhatIsNotARegularFile()
    {
        QTemporaryDir dir;
        const std::string fifo = dir.filePath(QStringLiteral("fifo")).toStdString();
        QVERIFY(::mkfifo(fifo.c_str(), 0600) == 0);
        // Returns at once: the FIFO is never opened (opening it would wait for a writer).
        const QString why = inputErrorOf([&] { readInputFile(fifo, "record", 1000); });
        QVERIFY2(why.contains(QStringLiteral("FIFO")), qPrintable(why));
        QVERIFY(inputErrorOf([&] { recordFamilyOfFile(fifo); }).contains(QStringLiteral("FIFO")));
        if (QFile::exists(QStringLiteral("/dev/zero")))
            QVERIFY(inputErrorOf([&] { readInputFile("/dev/zero", "record", 1000); }).contains(QStringLiteral("character device")));
        QVERIFY(inputErrorOf([&] { readInputFile(dir.path().toStdString(), "record", 1000); }).contains(QStringLiteral("directory")));
        QVERIFY(inputErrorOf([&] { readInputFile(dir.filePath(QStringLiteral("none")).toStdString(), "record", 1000); })
                    .contains(QStringLiteral("no such file")));

        // Larger than the limit: refused by its size, before a byte is read.
        const std::string big = dir.filePath(QStringLiteral("big.json")).toStdString();
        writeFileAtomically(big, std::string(2000, ' '), "test file");
        const QString size = inputErrorOf([&] { readInputFile(big, "record", 1024); });
        QVERIFY2(size.contains(QStringLiteral("larger than 1 KiB")), qPrintable(size));
        QCOMPARE(readInputFile(big, "record", 4096).size(), std::size_t(2000));
    }
};

QTEST_GUILESS_MAIN(TestSafeWrite)
#include "tst_safe_write.moc"
