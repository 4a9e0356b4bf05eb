// Nothing lost: Edit › Undo / Redo of fault placement, Clear and configuration changes; opening a
// record over placed faults asks first and Undo brings them back; a campaign's re-run reproduces
// exactly that run (blocked ABFT whatever scheme was chosen, its strategy, cap, seed and fault),
// and Undo gives back the configuration it replaced.
#include "ui/uitestmain.hpp"

#include <panels/faultspanel.hpp>
#include <panels/onlineschemebox.hpp>
#include <panels/runpanel.hpp>
#include <panels/strategypanel.hpp>
#include <views/campaignview.hpp>
#include <views/heatmapview.hpp>
#include <views/strassen/strassenview.hpp>
#include <window/confighistory.hpp>
#include <window/mainwindow.hpp>

#include <gigacheck/backend.hpp>
#include <gigacheck/campaign.hpp>
#include <gigacheck/strassen.hpp>

#include <qcustomplot.h>

#include <QAction>
#include <QMenuBar>
#include <QPushButton>
#include <QSettings>
#include <QTemporaryDir>
#include <QUndoStack>

using namespace gigacheck;
using namespace gigacheck::ui;

namespace {

RunConfig smallRun()
{
    RunConfig c;
    c.shape = Shape{96, 64, 80};
    c.memCapBytes = 64 * 1024;
    c.strategy = StrategyKind::S2;
    c.backend = BackendKind::Cpu;
    return c;
}

void clickCell(MainWindow& window, std::int64_t row, std::int64_t col)
{
    QTest::mouseClick(window.heatmap()->plot(), Qt::LeftButton, Qt::NoModifier, window.heatmap()->pixelOfCell(row, col));
    window.configHistory()->flush();
}

QPushButton* clearButton(MainWindow& window)
{
    for (QPushButton* b : window.faultsPanel()->findChildren<QPushButton*>())
        if (b->text() == QStringLiteral("Clear"))
            return b;
    return nullptr;
}

RunConfig configOf(MainWindow& window)
{
    RunConfig c;
    QString error;
    if (!window.currentConfig(&c, &error))
        qWarning("%s", qPrintable(error));
    return c;
}

}  // namespace

class TestUndo : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<MainWindow> window_;

    void open()
    {
        window_ = std::make_unique<MainWindow>();
        window_->resize(1400, 1000);
        window_->setConfig(smallRun());
        window_->show();
        QVERIFY(QTest::qWaitForWindowExposed(window_.get()));
        window_->showView(MainWindow::View::Heatmap);
        window_->heatmap()->plot()->replot();
        QCoreApplication::processEvents();
        window_->configHistory()->resetBaseline();
        window_->undoStack()->clear();
    }

private slots:
    void init()
    {
        QSettings().clear();
        open();
    }
    void cleanup() { window_.reset(); }

    void theEditMenuHasUndoAndRedo()
    {
        auto* undo = window_->findChild<QAction*>(QStringLiteral("undoAction"));
        auto* redo = window_->findChild<QAction*>(QStringLiteral("redoAction"));
        QVERIFY(undo && redo);
        QCOMPARE(undo->shortcut(), QKeySequence(QKeySequence::Undo));
        QCOMPARE(redo->shortcut(), QKeySequence(QKeySequence::Redo));
        QVERIFY(!undo->isEnabled());  // nothing done yet
    }

    // The Edit menu is in the menu bar whatever view is shown and whatever can be undone.
    void theEditMenuStaysInTheMenuBar()
    {
        const auto editShown = [&] {
            for (QAction* a : window_->menuBar()->actions())
                if (a->text() == QStringLiteral("&Edit"))
                    return a->isVisible() && !window_->menuBar()->actionGeometry(a).isEmpty();
            return false;
        };
        QVERIFY(editShown());
        clickCell(*window_, 3, 4);
        for (MainWindow::View v : {MainWindow::View::Timeline, MainWindow::View::Roofline, MainWindow::View::Report,
                                   MainWindow::View::Strassen, MainWindow::View::Gallery, MainWindow::View::Heatmap}) {
            window_->showView(v);
            QCoreApplication::processEvents();
            QVERIFY2(editShown(), qPrintable(QString::number(int(v))));
        }
    }

    void faultPlacementAndClearUndo()
    {
        clickCell(*window_, 10, 20);
        clickCell(*window_, 50, 30);
        QCOMPARE(window_->heatmap()->faults().size(), std::size_t(2));
        QCOMPARE(window_->undoStack()->count(), 2);
        clearButton(*window_)->click();
        window_->configHistory()->flush();
        QVERIFY(window_->heatmap()->faults().empty());
        QCOMPARE(window_->undoStack()->undoText(), QStringLiteral("Clear placed faults"));

        window_->findChild<QAction*>(QStringLiteral("undoAction"))->trigger();
        QCOMPARE(window_->heatmap()->faults().size(), std::size_t(2));
        QCOMPARE(configOf(*window_).faults.at.size(), std::size_t(2));  // the run would inject them
        window_->undoStack()->undo();
        QCOMPARE(window_->heatmap()->faults().size(), std::size_t(1));
        QCOMPARE(window_->heatmap()->faults()[0].row, std::int64_t(10));
        window_->undoStack()->redo();
        QCOMPARE(window_->heatmap()->faults().size(), std::size_t(2));
        // An undo is not a new step.
        QCoreApplication::processEvents();
        QCOMPARE(window_->undoStack()->count(), 3);
    }

    void configurationChangeUndo()
    {
        RunConfig other = smallRun();
        other.shape = Shape{128, 64, 128};
        other.strategy = StrategyKind::S4;
        other.memCapBytes = 256 * 1024;
        window_->setConfig(other);
        window_->configHistory()->flush();
        QCOMPARE(configOf(*window_).shape.m, std::int64_t(128));
        window_->undoStack()->undo();
        const RunConfig back = configOf(*window_);
        QCOMPARE(back.shape.m, std::int64_t(96));
        QCOMPARE(back.shape.q, std::int64_t(80));
        QVERIFY(back.strategy == StrategyKind::S2);
        QCOMPARE(back.memCapBytes, std::uint64_t(64 * 1024));
        window_->undoStack()->redo();
        QCOMPARE(configOf(*window_).shape.m, std::int64_t(128));
        QVERIFY(configOf(*window_).strategy == StrategyKind::S4);
    }

    void openingARecordAsksAndUndoRestores()
    {
        clickCell(*window_, 5, 6);
        const QString record = QFINDTESTDATA("../../resources/records/cpu-1024-s2.json");
        QString asked;
        window_->setReplaceQuestion([&](const QString& q) {
            asked = q;
            return false;
        });
        QVERIFY(!window_->openRecordReporting(record));
        QVERIFY(asked.contains(QStringLiteral("1 placed fault")));
        QCOMPARE(window_->heatmap()->faults().size(), std::size_t(1));  // kept
        QCOMPARE(configOf(*window_).shape.m, std::int64_t(96));

        window_->setReplaceQuestion([](const QString&) { return true; });
        QVERIFY(window_->openRecordReporting(record));
        window_->configHistory()->flush();
        QCOMPARE(configOf(*window_).shape.m, std::int64_t(1024));
        QVERIFY(window_->undoStack()->undoText().startsWith(QStringLiteral("Open ")));
        window_->undoStack()->undo();
        QCOMPARE(configOf(*window_).shape.m, std::int64_t(96));
        QCOMPARE(window_->heatmap()->faults().size(), std::size_t(1));
        QCOMPARE(window_->heatmap()->faults()[0].row, std::int64_t(5));
    }

    // Strassen's placed faults are the user's work too: opening a Strassen record over them asks,
    // No keeps them, Yes replaces them and the run log keeps what was placed. The checked GEMM's
    // faults on the heatmap do not make a Strassen record ask.
    void openingAStrassenRecordAsksOverItsFaults()
    {
        StrassenConfig c;
        c.shape = {64, 64, 64};
        c.levels = 1;
        c.backend = BackendKind::Cpu;
        c.faults = {parseStrassenFault("c:2")};
        const auto backend = makeBackend(BackendKind::Cpu);
        const StrassenResult result = runStrassen(c, *backend);
        QTemporaryDir dir;
        const QString record = dir.filePath(QStringLiteral("strassen.json"));
        saveStrassenRecord(result, record.toStdString());

        clickCell(*window_, 5, 6);  // a checked-GEMM fault: not Strassen's
        StrassenConfig placed = c;
        placed.faults = {parseStrassenFault("a:1"), parseStrassenFault("product:3")};
        window_->strassenView()->setConfig(placed);
        window_->configHistory()->flush();
        QString asked;
        window_->setReplaceQuestion([&](const QString& q) {
            asked = q;
            return false;
        });
        QVERIFY(!window_->openRecordReporting(record));
        QVERIFY2(asked.contains(QStringLiteral("Strassen set-up and its 2 placed fault(s) (a:1, product:3)")), qPrintable(asked));
        QCOMPARE(window_->strassenView()->faultSpecs(), (QStringList{QStringLiteral("a:1"), QStringLiteral("product:3")}));

        window_->setReplaceQuestion([](const QString&) { return true; });
        QVERIFY(window_->openRecordReporting(record));
        QCOMPARE(window_->strassenView()->faultSpecs().size(), 1);  // the record's fault, with the delta it drew
        QVERIFY(window_->strassenView()->faultSpecs().front().startsWith(QStringLiteral("c:2:")));
        QVERIFY(window_->runPanel()->logText().contains(QStringLiteral("a:1, product:3")));
        QCOMPARE(window_->heatmap()->faults().size(), std::size_t(1));  // the checked GEMM's kept
        // Edit › Undo brings the replaced Strassen faults back; Redo the record's.
        window_->configHistory()->flush();
        QCOMPARE(window_->undoStack()->undoText(), QStringLiteral("Open strassen.json"));
        window_->undoStack()->undo();
        QCOMPARE(window_->strassenView()->faultSpecs(), (QStringList{QStringLiteral("a:1"), QStringLiteral("product:3")}));
        window_->undoStack()->redo();
        QCOMPARE(window_->strassenView()->faultSpecs().size(), 1);
        QVERIFY(window_->strassenView()->faultSpecs().front().startsWith(QStringLiteral("c:2:")));

        // Without Strassen faults placed, nothing is asked.
        placed.faults.clear();
        window_->strassenView()->setConfig(placed);
        asked.clear();
        window_->setReplaceQuestion([&](const QString& q) {
            asked = q;
            return false;
        });
        QVERIFY(window_->openRecordReporting(record));
        QVERIFY(asked.isEmpty());
    }

    void strassenSetupAndFaultsUndo()
    {
        strassenlab::StrassenView* view = window_->strassenView();
        ConfigHistory* history = window_->configHistory();
        history->flush();
        const QString start = view->controlsState();
        QVERIFY(view->faultSpecs().isEmpty());

        StrassenConfig c;
        c.shape = {96, 64, 80};
        c.levels = 2;
        c.backend = BackendKind::Cpu;
        c.faults = {parseStrassenFault("a:1"), parseStrassenFault("product:3")};
        view->setConfig(c);
        history->flush();
        QCOMPARE(window_->undoStack()->undoText(), QStringLiteral("Strassen fault placement (0 → 2)"));
        view->toggleFault(QStringLiteral("c:2"));  // a click on the picture
        history->flush();
        QCOMPARE(view->faultSpecs().size(), 3);
        view->setConfig([&] {
            StrassenConfig more = c;
            more.levels = 3;
            more.faults.push_back(parseStrassenFault("c:2"));
            return more;
        }());
        history->flush();
        QCOMPARE(window_->undoStack()->undoText(), QStringLiteral("Strassen set-up change"));

        window_->undoStack()->undo();  // levels 3 -> 2
        StrassenConfig now;
        QVERIFY(view->currentConfig(&now, nullptr));
        QCOMPARE(now.levels, 2);
        window_->undoStack()->undo();  // the fault placed on the picture
        QCOMPARE(view->faultSpecs(), (QStringList{QStringLiteral("a:1"), QStringLiteral("product:3")}));
        window_->undoStack()->undo();  // the set-up as it started
        QCOMPARE(view->controlsState(), start);
        QVERIFY(view->faultSpecs().isEmpty());
        window_->undoStack()->redo();
        QVERIFY(view->currentConfig(&now, nullptr));
        QCOMPARE(now.shape, c.shape);
        QCOMPARE(now.faults.size(), std::size_t(2));
        // The checked GEMM's panels were not touched by any of it.
        QVERIFY(window_->heatmap()->faults().empty());
    }

    void aCampaignReRunIsThatRun()
    {
        CampaignConfig cc;
        cc.runs = 6;
        cc.shape = {24, 20, 16};
        cc.backend = BackendKind::Cpu;
        cc.strategies = {StrategyKind::S3};
        cc.memCapBytes = 16 * 1024;
        cc.seed = 7;
        const CampaignResult campaign = runCampaign(cc);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("campaign.json"));
        {
            QFile file(path);
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write(QByteArray::fromStdString(campaignToJson(campaign)));
        }
        // The scheme chosen before is online, with a placed fault: the re-run is still the campaign's.
        window_->strategyPanel()->schemeBox()->setSettings({Scheme::Online, 8, 1, 1});
        clickCell(*window_, 7, 8);
        int asked = 0;
        window_->setReplaceQuestion([&](const QString&) { return ++asked > 0; });
        QString error;
        QVERIFY2(window_->openCampaign(path, &error), qPrintable(error));
        QSignalSpy finished(window_.get(), &MainWindow::runFinished);
        const std::size_t pick = 2;
        QVERIFY(window_->campaignView()->openRun(pick));
        QCOMPARE(asked, 1);
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 60000);
        const auto replayRecord = blockedRecordOf(window_->lastRecord());
        QVERIFY(replayRecord);
        const RunRecord& replay = *replayRecord;
        const CampaignRun& run = campaign.runs[pick];
        QCOMPARE(QString::fromStdString(replay.family), QString::fromStdString(RunRecord().family));
        QVERIFY(replay.config.strategy == run.strategy);
        QCOMPARE(replay.config.memCapBytes, cc.memCapBytes);
        QCOMPARE(replay.config.seed, run.seed);
        QCOMPARE(replay.config.faults.bit, run.bit);
        QCOMPARE(replay.injections.size(), run.applied.size());
        if (!run.applied.empty())
            QCOMPARE(replay.injections[0].injection.after, run.applied[0].after);
        QVERIFY(classifyRun(replay) == run.outcome);
        QVERIFY(window_->strategyPanel()->schemeBox()->settings().scheme == Scheme::Blocked);

        window_->undoStack()->undo();  // the configuration the re-run replaced
        QVERIFY(window_->strategyPanel()->schemeBox()->settings().scheme == Scheme::Online);
        QCOMPARE(window_->heatmap()->faults().size(), std::size_t(1));
        QCOMPARE(configOf(*window_).shape.m, std::int64_t(96));
    }
};

GIGACHECK_UI_TEST_MAIN(TestUndo)
#include "tst_undo.moc"
