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
#include <QLabel>

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
};

GIGACHECK_UI_TEST_MAIN(TestScreenshots)
#include "tst_screenshots.moc"
