// gigacheck-lab --help / --version on a machine without a display print and exit 0 (the xcb
// platform plugin would abort before Qt's parser runs); started with no display and nothing that
// works without one, it says how to start it instead of aborting.
#include <QProcess>
#include <QProcessEnvironment>
#include <QtTest>

class TestLabHelp : public QObject {
    Q_OBJECT
private slots:
    void helpAndVersionWithoutADisplay_data()
    {
        QTest::addColumn<QString>("option");
        QTest::addColumn<QString>("expect");
        QTest::newRow("--help") << "--help" << "Usage:";
        QTest::newRow("-h") << "-h" << "--screenshots";
        QTest::newRow("--version") << "--version" << "gigacheck-lab";
    }
    void helpAndVersionWithoutADisplay()
    {
        QFETCH(QString, option);
        QFETCH(QString, expect);
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.remove(QStringLiteral("DISPLAY"));
        env.remove(QStringLiteral("WAYLAND_DISPLAY"));
        env.remove(QStringLiteral("QT_QPA_PLATFORM"));
        QProcess lab;
        lab.setProcessEnvironment(env);
        lab.start(QStringLiteral(GIGACHECK_LAB), {option});
        QVERIFY(lab.waitForFinished(60000));
        QCOMPARE(lab.exitStatus(), QProcess::NormalExit);
        QCOMPARE(lab.exitCode(), 0);
        QVERIFY2(QString::fromUtf8(lab.readAllStandardOutput()).contains(expect), qPrintable(option));
    }
    void noDisplaySaysHowToStart_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::newRow("no arguments") << QStringList{};
        QTest::newRow("a record") << QStringList{QStringLiteral("run.json")};
    }
    void noDisplaySaysHowToStart()
    {
        QFETCH(QStringList, arguments);
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.remove(QStringLiteral("DISPLAY"));
        env.remove(QStringLiteral("WAYLAND_DISPLAY"));
        env.remove(QStringLiteral("QT_QPA_PLATFORM"));
        QProcess lab;
        lab.setProcessEnvironment(env);
        lab.start(QStringLiteral(GIGACHECK_LAB), arguments);
        QVERIFY(lab.waitForFinished(60000));
        QCOMPARE(lab.exitStatus(), QProcess::NormalExit);  // not aborted in the platform plugin
        QCOMPARE(lab.exitCode(), 2);
        const QString said = QString::fromUtf8(lab.readAllStandardError());
        QVERIFY2(said.contains(QStringLiteral("xvfb-run")), qPrintable(said));
        QVERIFY2(said.contains(QStringLiteral("--screenshots")), qPrintable(said));
        QVERIFY2(said.contains(QStringLiteral("gigacheck run")), qPrintable(said));
    }
};

QTEST_GUILESS_MAIN(TestLabHelp)
#include "tst_labhelp.moc"
