// Fault placement on the C heatmap: a click adds a fault at that (row, col), drag moves it,
// right-click removes it, and the run's record contains the fault, detected and corrected.
#include "ui/uitestmain.hpp"
#include "ui/uitestruns.hpp"

#include <views/animationpanel.hpp>
#include <engine/enginecontroller.hpp>
#include <panels/faultspanel.hpp>
#include <views/heatmapview.hpp>
#include <window/mainwindow.hpp>

#include <qcustomplot.h>

#include <QListWidget>

using namespace gigacheck;
using namespace gigacheck::ui;

namespace {

RunConfig config()
{
    RunConfig c;
    c.shape = Shape{96, 128, 80};  // small enough that every element is a few pixels wide
    c.memCapBytes = 48 * 1024;    // several blocks
    c.strategy = StrategyKind::S1;
    c.backend = BackendKind::Cpu;
    return c;
}

}  // namespace

class TestHeatmapFaults : public QObject {
    Q_OBJECT
private:
    std::unique_ptr<MainWindow> window_;
    HeatmapView* heatmap() { return window_->heatmap(); }
    QCustomPlot* plot() { return window_->heatmap()->plot(); }

private slots:
    void init()
    {
        window_ = std::make_unique<MainWindow>();
        window_->resize(1400, 1000);
        window_->setConfig(config());
        window_->show();
        QVERIFY(QTest::qWaitForWindowExposed(window_.get()));
        window_->showView(MainWindow::View::Heatmap);
        plot()->replot();
    }
    void cleanup() { window_.reset(); }

    void pixelsMapToCells()
    {
        for (auto [row, col] : {std::pair<std::int64_t, std::int64_t>{0, 0}, {37, 51}, {95, 79}}) {
            std::int64_t r = -1, c = -1;
            QVERIFY(heatmap()->cellAt(heatmap()->pixelOfCell(row, col), &r, &c));
            QCOMPARE(r, row);
            QCOMPARE(c, col);
        }
        std::int64_t r = -1, c = -1;
        QVERIFY(!heatmap()->cellAt(QPointF(2, 2), &r, &c));  // the margin is not a cell
    }

    void clickAddsAFaultThatTheRunInjectsAndCorrects()
    {
        QSignalSpy changed(heatmap(), &HeatmapView::faultsChanged);
        QTest::mouseClick(plot(), Qt::LeftButton, Qt::NoModifier, heatmap()->pixelOfCell(37, 51));
        QCOMPARE(changed.count(), 1);
        QCOMPARE(heatmap()->faults().size(), std::size_t(1));
        QCOMPARE(heatmap()->faults()[0].row, std::int64_t(37));
        QCOMPARE(heatmap()->faults()[0].col, std::int64_t(51));
        // The faults panel lists it, and the configuration carries it.
        QCOMPARE(window_->findChild<QListWidget*>(QStringLiteral("explicitFaults"))->count(), 1);
        RunConfig c;
        QVERIFY(window_->currentConfig(&c, nullptr));
        QCOMPARE(c.faults.at.size(), std::size_t(1));

        QSignalSpy finished(window_.get(), &MainWindow::runFinished);
        window_->startRun();
        QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty(), 60000);
        const RunRecord record = test::blockedRunOf(finished);
        QCOMPARE(record.config.faults.at.size(), std::size_t(1));
        QCOMPARE(record.config.faults.at[0].row, std::int64_t(37));
        QCOMPARE(record.config.faults.at[0].col, std::int64_t(51));
        const auto hit = std::find_if(record.injections.begin(), record.injections.end(), [](const InjectEvent& e) {
            return e.injection.globalRow == 37 && e.injection.globalCol == 51;
        });
        QVERIFY(hit != record.injections.end());
        QVERIFY(hit->injection.applied);
        QCOMPARE(record.faults.injected, 1);
        QCOMPARE(record.faults.detected, 1);
        QCOMPARE(record.faults.corrected, 1);
        QVERIFY(record.verifiedCorrect());
        // The result drawn on the heatmap is the corrected C.
        QVERIFY(heatmap()->hasMatrix());
        // The sparse layers show where the fault was: its injected error, and the residuals of
        // the mismatching row and column checks.
        heatmap()->setLayer(HeatmapView::Layer::InjectedError);
        const HeatmapGrid& e = heatmap()->grid();
        QVERIFY(e.value(e.cellOfCol(51), e.cellOfRow(37)) > 0);
        heatmap()->setLayer(HeatmapView::Layer::Residuals);
        const HeatmapGrid& res = heatmap()->grid();
        QVERIFY(res.value(res.cellOfCol(51), res.cellOfRow(37)) > 0);
        QVERIFY(res.value(res.cellOfCol(52 % 80), res.cellOfRow(37)) > 0);  // the whole row lights up in its block
        heatmap()->setLayer(HeatmapView::Layer::Values);
    }

    void dragMovesAFault()
    {
        QTest::mouseClick(plot(), Qt::LeftButton, Qt::NoModifier, heatmap()->pixelOfCell(10, 10));
        QCOMPARE(heatmap()->faults().size(), std::size_t(1));
        QSignalSpy changed(heatmap(), &HeatmapView::faultsChanged);
        const QPoint from = heatmap()->pixelOfCell(10, 10), to = heatmap()->pixelOfCell(60, 70);
        QTest::mousePress(plot(), Qt::LeftButton, Qt::NoModifier, from);
        QMouseEvent move(QEvent::MouseMove, QPointF(to), plot()->mapToGlobal(QPointF(to)), Qt::NoButton, Qt::LeftButton,
                         Qt::NoModifier);
        QApplication::sendEvent(plot(), &move);
        QTest::mouseRelease(plot(), Qt::LeftButton, Qt::NoModifier, to);
        QCOMPARE(changed.count(), 1);
        QCOMPARE(heatmap()->faults().size(), std::size_t(1));
        QCOMPARE(heatmap()->faults()[0].row, std::int64_t(60));
        QCOMPARE(heatmap()->faults()[0].col, std::int64_t(70));
    }

    void rightClickRemovesAFault()
    {
        QTest::mouseClick(plot(), Qt::LeftButton, Qt::NoModifier, heatmap()->pixelOfCell(20, 30));
        QTest::mouseClick(plot(), Qt::LeftButton, Qt::NoModifier, heatmap()->pixelOfCell(50, 30));
        QCOMPARE(heatmap()->faults().size(), std::size_t(2));
        QTest::mouseClick(plot(), Qt::RightButton, Qt::NoModifier, heatmap()->pixelOfCell(20, 30));
        QCOMPARE(heatmap()->faults().size(), std::size_t(1));
        QCOMPARE(heatmap()->faults()[0].row, std::int64_t(50));
        // Right-click on empty space removes nothing.
        QTest::mouseClick(plot(), Qt::RightButton, Qt::NoModifier, heatmap()->pixelOfCell(90, 5));
        QCOMPARE(heatmap()->faults().size(), std::size_t(1));
    }

    void largeMatricesAreReducedOffTheGuiThread()
    {
        HostMatrix c(Precision::F32, 2048, 3000);
        c.set(1234, 2345, 99.0);
        heatmap()->setMatrix(c);
        QTRY_VERIFY(!heatmap()->gridPending());
        const HeatmapGrid& g = heatmap()->grid();
        QCOMPARE(g.window().rows, std::int64_t(2048));
        QCOMPARE(g.value(g.cellOfCol(2345), g.cellOfRow(1234)), 99.0);
    }

    void issueWalkthrough4096()
    {
        // The issue's "done when": 4096^2 FP32, three faults clicked onto the heatmap (two in one
        // row, one in another block), s2 under a 64 MiB cap; the run corrects all three and the
        // animation walks through detect -> locate -> correct.
        RunConfig c;
        c.shape = Shape{4096, 4096, 4096};
        c.strategy = StrategyKind::S2;
        c.memCapBytes = 64ull << 20;
        c.backend = BackendKind::Cpu;
        window_->setConfig(c);
        plot()->replot();
        const QPoint a = heatmap()->pixelOfCell(300, 500), b = heatmap()->pixelOfCell(300, 1500);
        const QPoint other = heatmap()->pixelOfCell(3500, 3000);
        for (QPoint p : {a, QPoint(b.x(), a.y()), other})
            QTest::mouseClick(plot(), Qt::LeftButton, Qt::NoModifier, p);
        const auto& f = heatmap()->faults();
        QCOMPARE(f.size(), std::size_t(3));
        QCOMPARE(f[0].row, f[1].row);  // same pixel row, same matrix row
        QSignalSpy finished(window_.get(), &MainWindow::runFinished);
        // C fills the heatmap while the run goes: count spans seen when the first blocks arrive.
        std::size_t spansSeen = 0, spansAtFirstTiles = 0;
        int tiles = 0;
        connect(window_->engine(), &EngineController::spansArrived, this,
                [&](const QVector<Span>& s) { spansSeen += std::size_t(s.size()); });
        connect(window_->engine(), &EngineController::resultTilesArrived, this, [&](const QVector<HeatmapGrid>& t) {
            if (tiles == 0)
                spansAtFirstTiles = spansSeen;
            tiles += int(t.size());
        });
        window_->startRun();
        QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty(), 120000);
        const RunRecord r = test::blockedRunOf(finished);
        QCOMPARE(tiles, r.plan.blockCount());  // one tile per block of C, each once
        QVERIFY2(spansAtFirstTiles < r.spans.size() / 2,
                 qPrintable(QStringLiteral("first blocks after %1 of %2 spans").arg(spansAtFirstTiles).arg(r.spans.size())));
        QCOMPARE(r.faults.injected, 3);
        QCOMPARE(r.faults.corrected, 3);
        QVERIFY(r.verifiedCorrect());
        QVERIFY(r.plan.blockCount() > 1);
        const auto& steps = window_->animation()->steps();
        const auto correct = std::count_if(steps.begin(), steps.end(), [](const AnimationStep& s) { return s.stage == AnimationStage::Correct; });
        QCOMPARE(int(correct), 2);  // one block with the row pair, one with the single fault
        qInfo("4096^2 s2 under 64 MiB: %d blocks, %zu spans, %.2f s", r.plan.blockCount(), r.spans.size(), r.metrics.totalSeconds);
    }

    void liveBlocksFillTheValuesLayer()
    {
        // A run in progress: the last run's values go, and each block of C that is final shows up.
        HostMatrix old(Precision::F32, 96, 80);
        old.set(90, 70, 5.0);
        heatmap()->setMatrix(old);
        heatmap()->beginLiveResult();
        QVERIFY(!heatmap()->hasMatrix());
        QCOMPARE(heatmap()->grid().value(heatmap()->grid().cellOfCol(70), heatmap()->grid().cellOfRow(90)), 0.0);
        HostMatrix c(Precision::F32, 96, 80);
        c.set(10, 20, -3.0);  // in the top-left block
        c.set(90, 70, 4.0);   // in a block that is not done yet
        heatmap()->addResultTiles({HeatmapGrid::sampledFromMatrix(c, {0, 0, 48, 40}, 64, 512)});
        QTRY_COMPARE(heatmap()->grid().value(heatmap()->grid().cellOfCol(20), heatmap()->grid().cellOfRow(10)), -3.0);
        QCOMPARE(heatmap()->grid().value(heatmap()->grid().cellOfCol(70), heatmap()->grid().cellOfRow(90)), 0.0);
        QCOMPARE(heatmap()->liveTileCount(), 1);
        heatmap()->setMatrix(c);  // the run ends: the full matrix takes over
        QCOMPARE(heatmap()->liveTileCount(), 0);
        QCOMPARE(heatmap()->grid().value(heatmap()->grid().cellOfCol(70), heatmap()->grid().cellOfRow(90)), 4.0);
    }

    void hugeMatricesStayBounded()
    {
        // 16384^2: no cell-by-cell drawing; the grid is at most 1024 x 1024 and clicks still map.
        heatmap()->setShape(16384, 16384);
        QVERIFY(heatmap()->grid().cellsX() <= HeatmapView::kMaxCells);
        QVERIFY(heatmap()->grid().cellsY() <= HeatmapView::kMaxCells);
        std::int64_t r = -1, c = -1;
        QVERIFY(heatmap()->cellAt(heatmap()->pixelOfCell(8000, 12000), &r, &c));
        QVERIFY(std::abs(r - 8000) <= 16384 / plot()->axisRect()->height() + 1);
        QVERIFY(std::abs(c - 12000) <= 16384 / plot()->axisRect()->width() + 1);
    }
};

GIGACHECK_UI_TEST_MAIN(TestHeatmapFaults)
#include "tst_heatmapfaults.moc"
