// Drawing over the heatmap is bounded by pixels, not by what a plan or a fault list claims
// (issue 15: a record with split_m = split_q = 2147483647 froze the lab for minutes in
// HeatmapOverlay::drawGrid; 200 000 placed faults kept it busy ~10 s). The plans are built here
// directly: readers may refuse such records, the drawing must stay bounded regardless. Costs are
// the GUI thread's own CPU time, never a wall clock.
#include "ui/threadcpu.hpp"
#include "ui/uitestmain.hpp"

#include <views/heatmapoverlay.hpp>
#include <views/heatmapview.hpp>
#include <window/mainwindow.hpp>

#include <qcustomplot.h>

#include <limits>
#include <random>

using namespace gigacheck;
using namespace gigacheck::ui;
using gigacheck::ui::test::threadCpuMs;

namespace {

constexpr std::int64_t kIntMax = std::numeric_limits<int>::max();
// Generous: the bounded passes take a few ms to a few tens of ms; the unbounded ones took
// seconds to minutes.
constexpr double kBoundMs = 1500;

Plan absurdPlan(std::int64_t m, std::int64_t q, std::int64_t block)
{
    Plan p;
    p.shape = Shape{m, 4096, q};
    p.splitM = p.splitQ = int(kIntMax);
    p.blockM = p.blockQ = block;
    return p;
}

std::vector<FaultAt> manyFaults(std::int64_t rows, std::int64_t cols, std::size_t count)
{
    std::mt19937_64 random(7);
    std::vector<FaultAt> faults(count);
    for (FaultAt& f : faults) {
        f.row = std::int64_t(random() % std::uint64_t(rows));
        f.col = std::int64_t(random() % std::uint64_t(cols));
    }
    return faults;
}

}  // namespace

Q_DECLARE_METATYPE(std::vector<std::int64_t>)

class TestHeatmapBounded : public QObject {
    Q_OBJECT
private slots:
    void gridLinesFollowThePixels_data()
    {
        QTest::addColumn<qlonglong>("block");
        QTest::addColumn<qlonglong>("count");
        QTest::addColumn<qlonglong>("extent");
        QTest::addColumn<double>("lo");
        QTest::addColumn<double>("hi");
        QTest::addColumn<double>("pixelsPerUnit");
        QTest::addColumn<std::vector<std::int64_t>>("expected");
        // A real plan: every boundary, as before.
        QTest::newRow("4 blocks of 512") << 512LL << 4LL << 2048LL << 0.0 << 2048.0 << 0.4 << std::vector<std::int64_t>{512, 1024, 1536};
        // Zoomed in: only the boundaries inside the view.
        QTest::newRow("zoomed") << 512LL << 4LL << 2048LL << 600.0 << 1100.0 << 2.0 << std::vector<std::int64_t>{1024};
        // Blocks of 1 px: every fourth line, starting from the first boundary as before.
        QTest::newRow("thin blocks") << 1LL << 20LL << 20LL << 0.0 << 20.0 << 1.0 << std::vector<std::int64_t>{1, 5, 9, 13, 17};
        QTest::newRow("no block size") << 0LL << qlonglong(kIntMax) << 4096LL << 0.0 << 4096.0 << 0.2 << std::vector<std::int64_t>{};
        QTest::newRow("one block") << 4096LL << 1LL << 4096LL << 0.0 << 4096.0 << 0.2 << std::vector<std::int64_t>{};
        QTest::newRow("view before the matrix") << 16LL << 256LL << 4096LL << -500.0 << -10.0 << 1.0 << std::vector<std::int64_t>{};
    }

    void gridLinesFollowThePixels()
    {
        QFETCH(qlonglong, block);
        QFETCH(qlonglong, count);
        QFETCH(qlonglong, extent);
        QFETCH(double, lo);
        QFETCH(double, hi);
        QFETCH(double, pixelsPerUnit);
        QFETCH(std::vector<std::int64_t>, expected);
        QCOMPARE(gridLineOffsets(block, count, extent, lo, hi, pixelsPerUnit, HeatmapOverlay::kMinGridSpacing), expected);
    }

    // Unequal blocks (the planner's tapered ends): the starts inside the view, thinned to the
    // pixels, and a million of them cost as many steps as lines drawn.
    void unequalBlocksDrawTheirOwnBoundaries()
    {
        const std::vector<std::int64_t> tapered{0, 256, 1280, 2304, 3328};  // ends of 256, blocks of 1024
        QCOMPARE(gridLineOffsetsAt(tapered, 0, 3584, 0.2, HeatmapOverlay::kMinGridSpacing),
                 (std::vector<std::int64_t>{256, 1280, 2304, 3328}));
        QCOMPARE(gridLineOffsetsAt(tapered, 1000, 2400, 1.0, HeatmapOverlay::kMinGridSpacing),
                 (std::vector<std::int64_t>{1280, 2304}));
        QCOMPARE(gridLineOffsetsAt({0}, 0, 100, 1.0, HeatmapOverlay::kMinGridSpacing), std::vector<std::int64_t>{});
        std::vector<std::int64_t> many(1'000'000);
        for (std::size_t i = 0; i < many.size(); ++i)
            many[i] = std::int64_t(i);
        const auto lines = gridLineOffsetsAt(many, 0, 1e6, 1000.0 / 1e6, HeatmapOverlay::kMinGridSpacing);
        QVERIFY2(lines.size() <= 1000 / HeatmapOverlay::kMinGridSpacing + 2, qPrintable(QString::number(lines.size())));
        QVERIFY(lines.size() >= 200);
        for (std::size_t i = 1; i < lines.size(); ++i)
            QVERIFY(double(lines[i] - lines[i - 1]) * 1000.0 / 1e6 >= HeatmapOverlay::kMinGridSpacing - 1e-9);
    }

    void absurdSplitsGiveAtMostAPixelsWorthOfLines_data()
    {
        QTest::addColumn<qlonglong>("extent");
        QTest::addColumn<double>("lo");
        QTest::addColumn<double>("hi");
        QTest::newRow("whole 2^31 matrix") << qlonglong(kIntMax) << 0.0 << double(kIntMax);
        QTest::newRow("4096 matrix") << 4096LL << 0.0 << 4096.0;
        QTest::newRow("zoomed deep inside") << qlonglong(kIntMax) << 1e9 << 1e9 + 300;
    }

    void absurdSplitsGiveAtMostAPixelsWorthOfLines()
    {
        QFETCH(qlonglong, extent);
        QFETCH(double, lo);
        QFETCH(double, hi);
        const double pixels = 1000;
        const auto lines = gridLineOffsets(1, kIntMax, extent, lo, hi, pixels / (hi - lo), HeatmapOverlay::kMinGridSpacing);
        QVERIFY2(double(lines.size()) <= pixels / HeatmapOverlay::kMinGridSpacing + 2, qPrintable(QString::number(lines.size())));
        QVERIFY(!lines.empty());
        QVERIFY(std::is_sorted(lines.begin(), lines.end()));
        QVERIFY(double(lines.front()) >= lo && double(lines.back()) <= hi);
    }

    void absurdPlanAndManyFaultsDrawInBoundedTime_data()
    {
        QTest::addColumn<qlonglong>("extent");
        QTest::addColumn<qlonglong>("block");
        QTest::newRow("4096^2, blocks of 1") << 4096LL << 1LL;
        QTest::newRow("4096^2, blocks of 0") << 4096LL << 0LL;
        QTest::newRow("(2^31-1)^2, blocks of 1") << qlonglong(kIntMax) << 1LL;
    }

    void absurdPlanAndManyFaultsDrawInBoundedTime()
    {
        QFETCH(qlonglong, extent);
        QFETCH(qlonglong, block);
        HeatmapView view;
        view.resize(1200, 900);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.setShape(extent, extent);
        const std::vector<FaultAt> faults = manyFaults(extent, extent, 200000);

        double start = threadCpuMs();
        view.setFaults(faults);
        view.setPlan(absurdPlan(extent, extent, block));
        view.plot()->replot(QCustomPlot::rpImmediateRefresh);
        const double wholeMs = threadCpuMs() - start;
        QCOMPARE(view.faults().size(), faults.size());

        // Zoomed in on a corner: the grid lines become visible, most markers leave the view.
        start = threadCpuMs();
        view.plot()->xAxis->setRange(100, 400);
        view.plot()->yAxis->setRange(100, 400);
        view.plot()->replot(QCustomPlot::rpImmediateRefresh);
        const double zoomedMs = threadCpuMs() - start;

        // An animation step claiming 200 000 mismatching rows and located cells.
        AnimationStep step;
        step.stage = AnimationStage::Locate;
        step.rows = step.cols = std::min<std::int64_t>(extent, 1 << 20);
        for (std::int64_t r = 0; r < 200000; ++r)
            step.mismatchRows.push_back(r % extent);
        step.mismatchCols = step.mismatchRows;
        for (const FaultAt& f : faults)
            step.cells.push_back(AnimationCell{f.row, f.col, 0, 1, false});
        start = threadCpuMs();
        view.setStep(&step);
        view.plot()->replot(QCustomPlot::rpImmediateRefresh);
        const double stepMs = threadCpuMs() - start;

        qInfo("GUI-thread CPU: plan + 200000 faults, whole matrix %.1f ms; zoomed %.1f ms; step with 200000 rows, "
              "columns and cells %.1f ms",
              wholeMs, zoomedMs, stepMs);
        QVERIFY2(wholeMs < kBoundMs, qPrintable(QString::number(wholeMs)));
        QVERIFY2(zoomedMs < kBoundMs, qPrintable(QString::number(zoomedMs)));
        QVERIFY2(stepMs < kBoundMs, qPrintable(QString::number(stepMs)));
    }

    void theLabShowsSuchARecordInBoundedTime()
    {
        // The whole window: faults panel, heatmap, timeline, animation, roofline and report.
        MainWindow window;
        window.resize(1400, 900);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.showView(MainWindow::View::Heatmap);
        RunRecord record;
        record.config.shape = Shape{4096, 4096, 4096};
        record.config.backend = BackendKind::Cpu;
        record.config.faults.at = manyFaults(4096, 4096, 200000);
        record.plan = absurdPlan(4096, 4096, 1);
        record.status = "ok";
        const double start = threadCpuMs();
        window.showRecord(record);
        window.heatmap()->plot()->replot(QCustomPlot::rpImmediateRefresh);
        const double ms = threadCpuMs() - start;
        qInfo("GUI-thread CPU: the lab shows a record with split 2^31-1 and 200000 faults in %.1f ms", ms);
        QCOMPARE(window.heatmap()->faults().size(), record.config.faults.at.size());
        QVERIFY2(ms < kBoundMs, qPrintable(QString::number(ms)));
    }
};

GIGACHECK_UI_TEST_MAIN(TestHeatmapBounded)
#include "tst_heatmapbounded.moc"
