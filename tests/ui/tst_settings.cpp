// Settings persist: window state and dock layout, the last configuration, recent files.
#include "ui/uitestmain.hpp"

#include <window/mainwindow.hpp>
#include <panels/seededit.hpp>
#include <panels/setuppanel.hpp>
#include <panels/memorybar.hpp>
#include <panels/strategypanel.hpp>

#include <QComboBox>
#include <QDockWidget>
#include <QLabel>
#include <QLineEdit>
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
            c.h2dStaging = H2dStaging::Pack;
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
        QVERIFY(restored.h2dStaging == H2dStaging::Pack);
        QCOMPARE(restored.faults.at.size(), std::size_t(3));
        QVERIFY(again.findChild<QDockWidget*>(QStringLiteral("dockFaults"))->isFloating());
    }

    // The GPU a run uses is picked in the setup panel (as --device N) and survives a restart; on
    // the CPU backend there is nothing to pick; a record's device this machine lacks stays visible.
    void gpuChoiceReachesTheRunConfig()
    {
        SetupPanel panel;
        DeviceInfo h200, h100, cpu;
        h200.backend = h100.backend = BackendKind::Cuda;
        h200.name = "NVIDIA H200";
        h200.index = 0;
        h100.name = "NVIDIA H100 80GB HBM3";
        h100.index = 1;
        cpu.name = "CPU: test";
        panel.setDevices({h200, h100, cpu}, QString());
        auto* gpu = panel.findChild<QComboBox*>(QStringLiteral("gpu"));
        auto* backend = panel.findChild<QComboBox*>(QStringLiteral("backend"));
        QVERIFY(gpu && backend);
        QCOMPARE(gpu->count(), 3);  // first GPU, 0, 1
        QVERIFY(gpu->itemText(2).contains(QStringLiteral("H100")));

        backend->setCurrentIndex(backend->findData(int(BackendKind::Cuda)));
        QVERIFY(gpu->isEnabled());
        gpu->setCurrentIndex(gpu->findData(1));
        RunConfig c;
        QVERIFY(panel.apply(c, nullptr));
        QCOMPARE(c.device, 1);

        backend->setCurrentIndex(backend->findData(int(BackendKind::Cpu)));
        QVERIFY(!gpu->isEnabled());
        QVERIFY(panel.apply(c, nullptr));
        QCOMPARE(c.device, -1);

        RunConfig fromServer;
        fromServer.backend = BackendKind::Cuda;
        fromServer.device = 5;
        panel.load(fromServer);
        QVERIFY(gpu->currentText().contains(QStringLiteral("not on this machine")));
        QVERIFY(panel.apply(c, nullptr));
        QCOMPARE(c.device, 5);

        SetupPanel laptop;
        laptop.setDevices({cpu}, QStringLiteral("no CUDA device found"));
        auto* none = laptop.findChild<QComboBox*>(QStringLiteral("gpu"));
        QVERIFY(!none->isEnabled());
        // The box says so in words that fit the dock; the reason is its tooltip.
        QCOMPARE(none->currentText(), QStringLiteral("no CUDA device"));
        QVERIFY(none->toolTip().contains(QStringLiteral("no CUDA device found")));
        laptop.setDevices({cpu}, QStringLiteral("CUDA driver version is insufficient for CUDA runtime version"));
        QCOMPARE(none->currentText(), QStringLiteral("no CUDA device"));
        QVERIFY(none->toolTip().contains(QStringLiteral("no CUDA device: CUDA driver version is insufficient")));
    }

    // How the block loads leave the host (--h2d-staging) is chosen beside the CUDA GEMM: auto by
    // default, each choice reaching the run's config, a record's choice shown when it is opened.
    void hostStagingReachesTheRunConfig()
    {
        SetupPanel panel;
        auto* staging = panel.findChild<QComboBox*>(QStringLiteral("h2dStaging"));
        QVERIFY(staging);
        QCOMPARE(staging->count(), 3);
        RunConfig c;
        QVERIFY(panel.apply(c, nullptr));
        QVERIFY(c.h2dStaging == H2dStaging::Auto);
        QVERIFY(staging->toolTip().contains(QStringLiteral("--h2d-staging")));
        for (const H2dStaging s : {H2dStaging::Pack, H2dStaging::Direct}) {
            staging->setCurrentIndex(staging->findData(int(s)));
            QCOMPARE(staging->currentText(), QString::fromUtf8(toString(s).data()));
            QVERIFY(panel.apply(c, nullptr));
            QVERIFY(c.h2dStaging == s);
        }
        RunConfig opened;
        opened.h2dStaging = H2dStaging::Pack;
        panel.load(opened);
        QCOMPARE(staging->currentText(), QStringLiteral("pack"));
    }

    // A record of a shape beyond what the boxes offer for typing (300000 rows, which the CLI
    // runs) opens with that shape: clamping it to the boxes' range redrew C smaller and dropped
    // the record's faults outside it.
    void aRecordsLargeShapeIsKept()
    {
        SetupPanel panel;
        RunConfig opened;
        opened.shape = Shape{300000, 8, 8};
        panel.load(opened);
        RunConfig c;
        QVERIFY(panel.apply(c, nullptr));
        QVERIFY(c.shape == (Shape{300000, 8, 8}));
    }

    // Seeds use all 64 bits: a record made with a large seed reruns the same matrices and faults.
    void largeSeedsSurviveThePanels()
    {
        MainWindow window;
        RunConfig c;
        c.shape = Shape{64, 64, 64};
        c.seed = 0xfedcba9876543210ULL;
        c.faults.seed = 18446744073709551615ULL;
        window.setConfig(c);
        RunConfig back;
        QVERIFY(window.currentConfig(&back, nullptr));
        QCOMPARE(back.seed, 0xfedcba9876543210ULL);
        QCOMPARE(back.faults.seed, 18446744073709551615ULL);
        // Typing past 2^64 - 1 or a letter is refused by the field.
        auto* seed = window.findChild<SeedEdit*>();
        QVERIFY(seed);
        seed->setText(QString());
        QTest::keyClicks(seed, QStringLiteral("18446744073709551616x"));
        QCOMPARE(seed->text(), QStringLiteral("1844674407370955161"));
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

    // A record's cap is shown in the largest binary unit that writes it exactly, never raw bytes.
    void capShownInBinaryUnits()
    {
        MainWindow window;
        auto* cap = window.setupPanel()->findChild<QLineEdit*>(QStringLiteral("memoryCap"));
        QVERIFY(cap);
        const std::pair<std::uint64_t, QString> cases[] = {
            {196608, QStringLiteral("192KiB")}, {64ull << 20, QStringLiteral("64MiB")},
            {2ull << 30, QStringLiteral("2GiB")}, {1000, QStringLiteral("1000B")}, {0, QString()}};
        for (const auto& [bytes, text] : cases) {
            RunConfig c;
            c.shape = Shape{256, 256, 256};
            c.memCapBytes = bytes;
            window.setConfig(c);
            QCOMPARE(cap->text(), text);
        }
    }

    // No cap is the whole device, said in words (the empty field and the memory bar), never a bare
    // "1.07 GB"; a typed 0 is refused as the CLI's --mem 0 is, saying how to ask for the whole device.
    void capZeroRefusedEmptyIsTheWholeDevice()
    {
        MainWindow window;
        auto* cap = window.setupPanel()->findChild<QLineEdit*>(QStringLiteral("memoryCap"));
        auto* summary = window.strategyPanel()->findChild<QLabel*>(QStringLiteral("planSummary"));
        auto* bar = window.strategyPanel()->findChild<MemoryBar*>();
        QVERIFY(cap && summary && bar);
        RunConfig c;
        c.shape = Shape{512, 512, 512};
        c.strategy = StrategyKind::S2;
        c.backend = BackendKind::Cpu;
        c.memCapBytes = 0;  // a record with no cap
        window.setConfig(c);
        QCOMPARE(cap->text(), QString());
        QCOMPARE(cap->placeholderText(), QStringLiteral("whole device"));
        QVERIFY2(summary->text().contains(QStringLiteral("block products")), qPrintable(summary->text()));
        QVERIFY2(bar->usageText().contains(QStringLiteral(" of 1 GiB, the whole device (")), qPrintable(bar->usageText()));
        QVERIFY2(!summary->text().contains(QStringLiteral("1.07 GB")), qPrintable(summary->text()));
        RunConfig read;
        QVERIFY(window.currentConfig(&read, nullptr));
        QCOMPARE(read.memCapBytes, std::uint64_t(0));

        for (const QString& zero : {QStringLiteral("0"), QStringLiteral(" 0 "), QStringLiteral("0.0")}) {
            cap->setText(zero);
            QString error;
            QVERIFY(!window.currentConfig(&read, &error));
            QVERIFY2(error.contains(QStringLiteral("--mem 0")) && error.contains(QStringLiteral("empty")), qPrintable(error));
            QVERIFY2(summary->text().contains(QStringLiteral("No plan")), qPrintable(summary->text()));
            QVERIFY2(summary->text().contains(QStringLiteral("whole device")), qPrintable(summary->text()));
        }

        cap->setText(QStringLiteral("1MiB"));  // a cap of its own: no "whole device" words
        QVERIFY(window.currentConfig(&read, nullptr));
        QCOMPARE(read.memCapBytes, std::uint64_t(1) << 20);
        QVERIFY2(bar->usageText().contains(QStringLiteral(" of 1 MiB (")), qPrintable(bar->usageText()));
    }
};

GIGACHECK_UI_TEST_MAIN(TestSettings)
#include "tst_settings.moc"
