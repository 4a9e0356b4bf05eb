// The CUTLASS TF32 kernel's persistent grid (gemm/cutlass/persistent_grid.hpp): how many CTAs
// CUTLASS launches for a multiprocessor count and cluster size, how many tiles it walks, and the
// smallest grid that takes as many turns as the whole device, whose idle SMs the checksum passes use.
#include "gemm/cutlass/persistent_grid.hpp"

#include <QtTest>

using namespace gigacheck::cuda;

class TestPersistentGrid : public QObject {
    Q_OBJECT
private slots:
    void ctasFitClustersInGpcs()
    {
        // 132 SMs (H200): 7 GPCs of 18 and 6 left over.
        QCOMPARE(persistentCtas(132, 1), 132);
        QCOMPARE(persistentCtas(132, 2), 132);
        QCOMPARE(persistentCtas(132, 4), 7 * 16 + 4);  // each GPC of 18 holds 4 clusters of 4
        QCOMPARE(persistentCtas(128, 2), 128);
        QCOMPARE(persistentCtas(131, 2), 130);  // an odd SM holds no pair
        QCOMPARE(persistentCtas(10, 4), 10);    // fewer SMs than a GPC: CUTLASS takes them all
        QCOMPARE(persistentCtas(0, 2), 0);
    }

    void tilesRoundToClustersAndSwizzle()
    {
        // C' = C^T of 8192 x 8192 in 128 x 256 tiles: 64 x 32.
        QCOMPARE(scheduledTiles(8192, 8192, 128, 256, 2, 1, 1), std::int64_t(2048));
        QCOMPARE(scheduledTiles(8192, 8192, 128, 256, 2, 2, 4), std::int64_t(2048));
        // 1000 x 1000: 8 x 4 tiles; clusters of 2 x 1 keep 8; a swizzle of 4 rounds 4 x 1 clusters' strips.
        QCOMPARE(scheduledTiles(1000, 1000, 128, 256, 2, 1, 1), std::int64_t(32));
        QCOMPARE(scheduledTiles(1000, 1000, 128, 256, 2, 1, 4), std::int64_t(8 * 4));
        QCOMPARE(scheduledTiles(1100, 1000, 128, 256, 2, 1, 1), std::int64_t(10 * 4));  // 9 rounded to 10
        QCOMPARE(scheduledTiles(1100, 1000, 128, 256, 2, 1, 4), std::int64_t(16 * 4));  // to strips of 8
        QCOMPARE(scheduledTiles(0, 1000, 128, 256, 2, 1, 1), std::int64_t(0));
    }

    void shrinksOnlyWhileTheTurnsStay_data()
    {
        QTest::addColumn<qint64>("tiles");
        QTest::addColumn<int>("cluster");
        QTest::addColumn<int>("smCount");
        QTest::addColumn<int>("spare");
        QTest::newRow("4096: 512 tiles, 4 turns on 128") << qint64(512) << 2 << 128 << 4;
        QTest::newRow("8192: 2048 tiles, 16 turns on 128") << qint64(2048) << 2 << 128 << 4;
        QTest::newRow("16384: 8192 tiles need all 132") << qint64(8192) << 2 << 132 << 0;
        QTest::newRow("clusters of 4 idle 16 anyway") << qint64(2048) << 4 << 130 << 16;
        QTest::newRow("one turn: as many CTAs as tiles") << qint64(40) << 2 << 40 << 92;
    }

    void shrinksOnlyWhileTheTurnsStay()
    {
        QFETCH(qint64, tiles);
        QFETCH(int, cluster);
        QFETCH(int, smCount);
        QFETCH(int, spare);
        const SparingGrid g = gridSparingSms(tiles, 132, cluster);
        QCOMPARE(g.smCount, smCount);
        QCOMPARE(g.spare, spare);
        QCOMPARE(g.ctas, 132 - spare);
        // The turns are those of the whole device, and one SM fewer would take one more.
        const int whole = persistentCtas(132, cluster);
        QCOMPARE((tiles + g.ctas - 1) / g.ctas, (tiles + whole - 1) / whole);
        const int fewer = persistentCtas(g.smCount - 1, cluster);
        QVERIFY(fewer <= 0 || (tiles + fewer - 1) / fewer > (tiles + whole - 1) / whole);
    }
};

QTEST_GUILESS_MAIN(TestPersistentGrid)
#include "tst_persistent_grid.moc"
