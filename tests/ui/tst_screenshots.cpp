// gigacheck-lab --screenshots: the pictures of a family show the docks of that family beside its
// record (an online run's step view beside the online scheme, never blocked ABFT's controls).
#include "ui/uitestmain.hpp"

#include <export/screenshots.hpp>
#include <models/familyrecord.hpp>
#include <panels/onlineschemebox.hpp>
#include <panels/strategypanel.hpp>
#include <views/online/onlinestepview.hpp>
#include <window/mainwindow.hpp>

#include <QComboBox>
#include <QFileInfo>
#include <QLabel>
#include <QProcess>
#include <QTemporaryDir>

using namespace gigacheck;
using namespace gigacheck::ui;

class TestScreenshots : public QObject {
    Q_OBJECT
private slots:
    void onlineShotsShowTheOnlineScheme()
    {
        MainWindow window;
        window.resize(1366, 768);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        auto* scheme = window.strategyPanel()->schemeBox()->findChild<QComboBox*>(QStringLiteral("scheme"));
        auto* summary = window.strategyPanel()->findChild<QLabel*>(QStringLiteral("planSummary"));
        QVERIFY(scheme && summary);

        ScreenshotOptions options;
        options.config.backend = BackendKind::Cpu;
        options.timeoutSeconds = 120;
        QStringList taken;
        const auto grab = [&](const QString& name) {
            taken << name;
            if (!name.startsWith(QLatin1String("online-step-")))
                return;
            // What the picture shows: the online run's record beside the online scheme's controls.
            QVERIFY2(window.lastRecord() && onlineRecordOf(*window.lastRecord()), qPrintable(name));
            QVERIFY(window.strategyPanel()->schemeBox()->settings().scheme == Scheme::Online);
            QVERIFY2(scheme->currentText().contains(QLatin1String("online"), Qt::CaseInsensitive),
                     qPrintable(name + QLatin1String(": ") + scheme->currentText()));
            QVERIFY2(summary->text().contains(QLatin1String("online ABFT family")), qPrintable(name + QLatin1String(": ") + summary->text()));
            QVERIFY2(!summary->text().contains(QLatin1String("<b>Plan</b>")), qPrintable(summary->text()));
        };
        QString error;
        QVERIFY2(takeOnlineScreenshots(window, options, grab, &error), qPrintable(error));
        QCOMPARE(taken, (QStringList{QStringLiteral("online-step-fault.png"), QStringLiteral("online-step-check.png"),
                                     QStringLiteral("online-sweep.png")}));
        // Blocked ABFT again afterwards, as the shots that follow expect.
        QVERIFY(window.strategyPanel()->schemeBox()->settings().scheme == Scheme::Blocked);
    }

    // --screenshots DIR --record FILE: the shots follow the view the record's family opens it in
    // (a blocked or online record: the GEMM views; tst_strassenview has the Strassen tab's).
    void recordShotsFollowTheFamilysView_data()
    {
        QTest::addColumn<QString>("scheme");
        QTest::newRow("blocked GEMM") << QStringLiteral("blocked");
        QTest::newRow("online ABFT") << QStringLiteral("online");
    }
    void recordShotsFollowTheFamilysView()
    {
        QFETCH(QString, scheme);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("record.json"));
        QProcess cli;
        cli.start(QStringLiteral(GIGACHECK_CLI), {QStringLiteral("run"), QStringLiteral("--shape"), QStringLiteral("64x64x64"),
                                                  QStringLiteral("--scheme"), scheme, QStringLiteral("--backend"),
                                                  QStringLiteral("cpu"), QStringLiteral("--json"), path});
        QVERIFY(cli.waitForFinished(120000));
        QVERIFY2(cli.exitCode() == 0, cli.readAllStandardError().constData());
        MainWindow window;
        ScreenshotOptions options;
        options.directory = dir.filePath(QStringLiteral("shots"));
        options.recordPath = path;
        options.quick = true;
        options.width = 1366;
        options.height = 768;
        QString error;
        const QStringList written = takeScreenshots(window, options, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QStringList names;
        for (const QString& f : written)
            names << QFileInfo(f).fileName();
        QCOMPARE(names, (QStringList{QStringLiteral("timeline.png"), QStringLiteral("heatmap.png"), QStringLiteral("report.png")}));
        QVERIFY(window.currentView() != MainWindow::View::Strassen);
    }
};

GIGACHECK_UI_TEST_MAIN(TestScreenshots)
#include "tst_screenshots.moc"
