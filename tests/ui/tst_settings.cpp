// Settings persist: window state and dock layout, the last configuration, recent files.
#include "ui/uitestmain.hpp"

#include <mainwindow.hpp>
#include <strategypanel.hpp>

#include <QDockWidget>
#include <QLabel>
#include <QMenuBar>

using namespace gigacheck;
using namespace gigacheck::ui;

class TestSettings : public QObject {
    Q_OBJECT
private slots:
    void init() { QSettings().clear(); }

    void layoutAndConfigurationSurviveARestart()
    {
        {
            MainWindow window;
            window.show();
            QVERIFY(QTest::qWaitForWindowExposed(&window));
            RunConfig c;
            c.shape = Shape{4096, 4096, 4096};
            c.strategy = StrategyKind::S2;
            c.memCapBytes = 64ull << 20;
            c.faults.at = {FaultAt{1, 2, {}, {}}, FaultAt{1, 3000, {}, {}}, FaultAt{3000, 100, {}, {}}};
            window.setConfig(c);
            window.findChild<QDockWidget*>(QStringLiteral("dockFaults"))->setFloating(true);
            window.close();  // saves
        }
        MainWindow again;
        again.show();
        QVERIFY(QTest::qWaitForWindowExposed(&again));
        RunConfig restored;
        QVERIFY(again.currentConfig(&restored, nullptr));
        QVERIFY(restored.shape == (Shape{4096, 4096, 4096}));
        QVERIFY(restored.strategy == StrategyKind::S2);
        QCOMPARE(restored.memCapBytes, std::uint64_t(64) << 20);
        QCOMPARE(restored.faults.at.size(), std::size_t(3));
        QVERIFY(again.findChild<QDockWidget*>(QStringLiteral("dockFaults"))->isFloating());
    }

    void openedRecordsBecomeRecentFiles()
    {
        MainWindow window;
        QString error;
        const QString path = QStringLiteral(GIGACHECK_TEST_DATA "/ui_record_s2_cli.json");
        QVERIFY2(window.openRecord(path, &error), qPrintable(error));
        const QStringList recent = QSettings().value(QStringLiteral("recentFiles")).toStringList();
        QCOMPARE(recent.size(), 1);
        QCOMPARE(recent.first(), QFileInfo(path).absoluteFilePath());
        QMenu* menu = window.menuBar()->findChild<QMenu*>();
        QVERIFY(menu);
    }

    void planUpdatesImmediatelyAndExplainsWhenNothingFits()
    {
        MainWindow window;
        RunConfig c;
        c.shape = Shape{4096, 4096, 4096};
        c.strategy = StrategyKind::S2;
        c.memCapBytes = 64ull << 20;
        window.setConfig(c);
        auto* summary = window.strategyPanel()->findChild<QLabel*>(QStringLiteral("planSummary"));
        QVERIFY(summary->text().contains(QStringLiteral("block products")));
        c.memCapBytes = 1024;
        window.setConfig(c);
        QVERIFY2(summary->text().contains(QStringLiteral("No plan")), qPrintable(summary->text()));
        QVERIFY(summary->text().contains(QStringLiteral("cap")));
    }
};

GIGACHECK_UI_TEST_MAIN(TestSettings)
#include "tst_settings.moc"
