// The bounded grid that makes huge C matrices drawable: block maximum keeps every spike.
#include "ui/uitestmain.hpp"

#include <models/heatmapgrid.hpp>

using namespace gigacheck;
using namespace gigacheck::ui;

class TestHeatmapGrid : public QObject {
    Q_OBJECT
private slots:
    void smallMatrixIsOneCellPerElement()
    {
        HostMatrix m(Precision::F64, 3, 4);
        for (int r = 0; r < 3; ++r)
            for (int c = 0; c < 4; ++c)
                m.set(r, c, r * 10 + c);
        const HeatmapGrid g = HeatmapGrid::fromMatrix(m, {0, 0, 3, 4}, 1024);
        QCOMPARE(g.cellsX(), 4);
        QCOMPARE(g.cellsY(), 3);
        QCOMPARE(g.value(3, 2), 23.0);
        QCOMPARE(g.value(0, 1), 10.0);
    }

    void hugeMatrixIsBoundedAndKeepsASpike()
    {
        // 20000 x 2000 as in the seed's runs; one element far larger than the rest.
        HostMatrix m(Precision::F32, 20000, 2000);
        fillRandom(m, Distribution::Uniform, 7, 1);
        m.set(12345, 1777, -5000.0);
        QElapsedTimer clock;
        clock.start();
        const HeatmapGrid g = HeatmapGrid::fromMatrix(m, {0, 0, 20000, 2000}, 1024);
        qInfo("20000 x 2000 reduced to %d x %d cells in %lld ms", g.cellsY(), g.cellsX(), clock.elapsed());
        QCOMPARE(g.cellsY(), 1024);
        QCOMPARE(g.cellsX(), 1024);
        const int cy = g.cellOfRow(12345), cx = g.cellOfCol(1777);
        QCOMPARE(g.value(cx, cy), -5000.0);  // the sign of the largest magnitude is kept
        // Every other cell holds a value of the uniform inputs' range.
        QVERIFY(std::abs(g.value((cx + 1) % 1024, cy)) <= 1.0);
    }

    void cellsPartitionTheRows_data()
    {
        QTest::addColumn<int>("rows");
        QTest::addColumn<int>("cells");
        QTest::newRow("exact") << 4096 << 1024;
        QTest::newRow("uneven") << 20000 << 1024;
        QTest::newRow("barely larger") << 1025 << 1024;
        QTest::newRow("smaller than the cap") << 700 << 1024;
    }
    void cellsPartitionTheRows()
    {
        QFETCH(int, rows);
        QFETCH(int, cells);
        const HeatmapGrid g({0, 0, rows, 1}, cells);
        int previous = 0;
        for (int r = 0; r < rows; ++r) {
            const int cy = g.cellOfRow(r);
            QVERIFY(cy == previous || cy == previous + 1);  // monotone, no gaps
            QVERIFY(g.rowOfCell(cy) <= r);
            if (cy + 1 < g.cellsY())
                QVERIFY(g.rowOfCell(cy + 1) > r);
            previous = cy;
        }
        QCOMPARE(previous, g.cellsY() - 1);
    }

    void windowRefinesAZoomedRegion()
    {
        HostMatrix m(Precision::F32, 16384, 16384 / 8);  // keep memory modest: 16384 x 2048
        m.set(8000, 1000, 3.0);
        const HeatmapGrid whole = HeatmapGrid::fromMatrix(m, {0, 0, 16384, 2048}, 1024);
        QCOMPARE(whole.cellsY(), 1024);
        const HeatmapGrid zoomed = HeatmapGrid::fromMatrix(m, {7990, 990, 20, 20}, 1024);
        QCOMPARE(zoomed.cellsY(), 20);  // one cell per element once zoomed in
        QCOMPARE(zoomed.value(10, 10), 3.0);
        QCOMPARE(zoomed.value(9, 10), 0.0);
    }

    void sparseLayersAccumulateBands()
    {
        HeatmapGrid g({0, 0, 100, 100}, 1024);
        g.accumulateRow(5, 10, 20, 2.5);
        g.accumulateCol(50, 0, 100, 1.0);
        g.accumulate(5, 50, 7.0);
        QCOMPARE(g.value(10, 5), 2.5);
        QCOMPARE(g.value(20, 5), 0.0);  // the band is [10, 20)
        QCOMPARE(g.value(50, 99), 1.0);
        QCOMPARE(g.value(50, 5), 7.0);
        g.accumulate(500, 500, 1.0);  // outside: ignored, no crash
    }

    void liveTilesMergeIntoAnyGrid()
    {
        // A C block reduced to a small tile on the engine thread lands on the cells it covers.
        HostMatrix m(Precision::F64, 400, 300);
        m.set(150, 250, -9.0);
        m.set(10, 10, 2.0);
        const HeatmapGrid tile = HeatmapGrid::sampledFromMatrix(m, {100, 200, 100, 100}, 10, 100);
        QCOMPARE(tile.cellsX(), 10);
        QCOMPARE(tile.value(tile.cellOfCol(250), tile.cellOfRow(150)), -9.0);
        HeatmapGrid whole({0, 0, 400, 300}, 40);
        whole.accumulateGrid(tile);
        QCOMPARE(whole.value(whole.cellOfCol(250), whole.cellOfRow(150)), -9.0);
        QCOMPARE(whole.value(whole.cellOfCol(10), whole.cellOfRow(10)), 0.0);  // outside the tile
        QCOMPARE(whole.value(whole.cellOfCol(199), whole.cellOfRow(150)), 0.0);  // left of it
        // Sampling bounds the work: a 1 x 1 lattice reads one element per block.
        const HeatmapGrid coarse = HeatmapGrid::sampledFromMatrix(m, {0, 0, 400, 300}, 4, 1);
        QCOMPARE(coarse.value(0, 0), 0.0);  // reads (0, 0) only; the work stays bounded
        HeatmapGrid rect({0, 0, 10, 10}, 10);
        rect.accumulateRect(2, 4, 5, 20, 1.5);
        QCOMPARE(rect.value(9, 3), 1.5);
        QCOMPARE(rect.value(4, 3), 0.0);
        QCOMPARE(rect.value(5, 4), 0.0);
    }

    void clampWindowStaysInside()
    {
        const MatrixWindow w = clampWindow({-5, 90, 50, 50}, 30, 100);
        QCOMPARE(w.row0, 0);
        QCOMPARE(w.rows, 30);
        QCOMPARE(w.col0, 90);
        QCOMPARE(w.cols, 10);
    }
};

GIGACHECK_UI_TEST_MAIN(TestHeatmapGrid)
#include "tst_heatmapgrid.moc"
