// Runs the gigacheck CLI as a script would, for the app tests: its exit code and output, and the
// same with a signal sent once the run is under way.
#pragma once

#include <QElapsedTimer>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStringList>
#include <QThread>
#include <QtTest>

#include <csignal>
#include <sys/types.h>

namespace gigacheck::test {

struct CliResult {
    int exitCode = -1;
    QString out, err;
};

inline CliResult finished(QProcess& p)
{
    CliResult r;
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err = QString::fromUtf8(p.readAllStandardError());
    return r;
}

inline CliResult gigacheckCli(const QStringList& args, int timeoutMs = 120000)
{
    QProcess p;
    p.start(QStringLiteral(GIGACHECK_CLI), args);
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished();
        CliResult r;
        r.err = QStringLiteral("timed out");
        return r;
    }
    return finished(p);
}

inline QStringList words(const char* text) { return QString::fromUtf8(text).split(QLatin1Char(' '), Qt::SkipEmptyParts); }

// The JSON object a run or campaign wrote to `path`; empty when it cannot be read.
inline QJsonObject readJson(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(f.readAll()).object();
}

// Refused as a usage error: exit 2, one "gigacheck: error: " line that says `expected`.
inline bool refusedInOneLine(const CliResult& r, const QString& expected)
{
    return r.exitCode == 2 && r.err.startsWith(QStringLiteral("gigacheck: error: ")) &&
           r.err.count(QLatin1Char('\n')) == 1 && r.err.contains(expected);
}

// True once the process catches this signal (its handler is installed): /proc/PID/status SigCgt.
inline bool catchesSignal(qint64 pid, int signal)
{
    QFile status(QStringLiteral("/proc/%1/status").arg(pid));
    if (!status.open(QIODevice::ReadOnly))
        return false;
    for (const QByteArray& line : status.readAll().split('\n'))
        if (line.startsWith("SigCgt:"))
            return (line.mid(7).trimmed().toULongLong(nullptr, 16) >> (signal - 1)) & 1u;
    return false;
}

// Starts gigacheck, waits until it handles the signal and then afterMs more (past the parsing, into
// the run), sends the signal and waits for the end.
inline CliResult signalled(const QStringList& args, int signal, int afterMs)
{
    QProcess p;
    p.start(QStringLiteral(GIGACHECK_CLI), args);
    if (!p.waitForStarted())
        return {};
    QElapsedTimer waited;
    waited.start();
    while (!catchesSignal(p.processId(), signal) && waited.elapsed() < 30000 && p.state() == QProcess::Running)
        QThread::usleep(200);
    QTest::qWait(afterMs);
    if (p.state() == QProcess::Running)
        ::kill(pid_t(p.processId()), signal);
    if (!p.waitForFinished(60000))
        p.kill();
    return finished(p);
}

}  // namespace gigacheck::test
