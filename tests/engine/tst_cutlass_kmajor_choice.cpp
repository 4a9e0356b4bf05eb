// Which K-major configuration of the CUTLASS TF32 kernel a call with config -1 keeps
// (gemm/cutlass/kmajor_choice.hpp): the default for a C below 2048 in m or q or a depth below 512,
// else the fastest timed one unless the default is within 1 % of it.
#include "gemm/cutlass/kmajor_choice.hpp"

#include <QtTest>

using namespace gigacheck::cuda;

class TestCutlassKMajorChoice : public QObject {
    Q_OBJECT
private slots:
    void tunesFrom2048InCAnd512Deep()
    {
        QVERIFY(cutlassTunesKMajor(2048, 2048, 2048));
        QVERIFY(cutlassTunesKMajor(16384, 4096, 8192));
        QVERIFY(!cutlassTunesKMajor(2047, 16384, 16384));
        QVERIFY(!cutlassTunesKMajor(16384, 16384, 2047));
        // The online family's panel products: a large C, depth 1024 (or 512).
        QVERIFY(cutlassTunesKMajor(16384, 1024, 16384));
        QVERIFY(cutlassTunesKMajor(4096, 512, 4096));
        QVERIFY(!cutlassTunesKMajor(16384, 256, 16384));
        QVERIFY(!cutlassTunesKMajor(16384, 16384, 64));
    }

    // A pass beside the kernel gets the multiprocessors the kernel's rounds of tiles do not need
    // (128 x 256 tiles of C^T, whole clusters).
    void leavesOnlyMultiprocessorsItsRoundsDoNotNeed()
    {
        QCOMPARE(cutlassSmsKeepingRounds(4096, 4096, 132, 2), 128);    // 512 tiles: 4 rounds either way
        QCOMPARE(cutlassSmsKeepingRounds(8192, 8192, 132, 2), 128);    // 2048 tiles: 16 rounds
        QCOMPARE(cutlassSmsKeepingRounds(16384, 16384, 132, 2), 132);  // 8192 tiles: 63 rounds need 131 -> 132
        QCOMPARE(cutlassSmsKeepingRounds(8192, 8192, 132, 4), 128);
        QCOMPARE(cutlassSmsKeepingRounds(256, 128, 132, 2), 2);        // one tile: one cluster
        QCOMPARE(cutlassSmsKeepingRounds(4096, 4096, 114, 2), 104);    // 114 SMs: 5 rounds, as on 104
        QCOMPARE(cutlassSmsKeepingRounds(0, 4096, 132, 2), 132);       // nothing to walk: unchanged
        for (const std::int64_t n : {1000, 3000, 4096, 5000, 8192, 12000, 16384})
            for (const int sms : {78, 114, 132}) {
                const int used = cutlassSmsKeepingRounds(n, n, sms, 2);
                const std::int64_t tiles = ((n + 127) / 128) * ((n + 255) / 256);
                QVERIFY(used <= sms);
                QCOMPARE((tiles + used - 1) / used, (tiles + sms - 1) / sms);  // the same rounds
            }
    }

    // The prepared product's checksum column by the kernel: only where its extra tile row adds no
    // round of tiles and the rounds are few.
    void checksumColumnByKernelWhereNoRoundIsAdded()
    {
        QVERIFY(kernelChecksumColumnPaysOn(4096, 4096, 132));    // 512 -> 528 tiles: 4 rounds either way
        QVERIFY(!kernelChecksumColumnPaysOn(2048, 2048, 132));   // 128 -> 136 tiles: a second round
        QVERIFY(!kernelChecksumColumnPaysOn(6144, 6144, 132));   // 9 rounds: the pass beside wins
        QVERIFY(!kernelChecksumColumnPaysOn(8192, 8192, 132));
        QVERIFY(!kernelChecksumColumnPaysOn(4096, 4096, 114));   // 5 rounds on 114 SMs
        QVERIFY(kernelChecksumColumnPaysOn(3072, 4096, 132));    // 384 -> 396 tiles: 3 rounds either way
        QVERIFY(!kernelChecksumColumnPaysOn(4096, 3072, 132));   // 384 -> 400 tiles: a fourth round
        QVERIFY(!kernelChecksumColumnPaysOn(0, 4096, 132));
        QVERIFY(!kernelChecksumColumnPaysOn(4096, 4096, 0));
    }

    void keepsTheFastest_data()
    {
        QTest::addColumn<std::vector<double>>("ms");
        QTest::addColumn<int>("kept");
        QTest::newRow("another 5 % faster") << std::vector<double>{10.0, 9.5, 9.8} << 1;
        QTest::newRow("the last fastest") << std::vector<double>{10.0, 9.9, 9.0} << 2;
        QTest::newRow("default fastest") << std::vector<double>{9.0, 9.5, 9.8} << 0;
        QTest::newRow("default within 1 %") << std::vector<double>{10.0, 9.95, 10.2} << 0;
        QTest::newRow("default did not run") << std::vector<double>{-1.0, 9.95, 9.9} << 2;
        QTest::newRow("refused ones skipped") << std::vector<double>{10.0, -1.0, 9.0} << 2;
        QTest::newRow("nothing ran") << std::vector<double>{-1.0, -1.0} << 0;
        QTest::newRow("no timings") << std::vector<double>{} << 0;
    }

    void keepsTheFastest()
    {
        QFETCH(std::vector<double>, ms);
        QFETCH(int, kept);
        QCOMPARE(keptCutlassKMajorConfig(ms), kept);
    }

    // From 8192 in every extent a swizzled configuration wins a tie instead of the default.
    void prefersSwizzleFrom8192()
    {
        QVERIFY(cutlassPrefersSwizzle(8192, 8192, 8192));
        QVERIFY(cutlassPrefersSwizzle(16384, 8192, 32768));
        QVERIFY(!cutlassPrefersSwizzle(4096, 16384, 16384));
        const std::vector<bool> swizzled{false, true, true, false};
        // The default 0.5 % faster than the swizzled ones: the fastest swizzled one is kept.
        QCOMPARE(keptCutlassKMajorConfig({10.0, 10.05, 10.04, 10.3}, true, swizzled), 2);
        // Below 8192 (no preference for swizzle) the default keeps the tie.
        QCOMPARE(keptCutlassKMajorConfig({10.0, 10.05, 10.04, 10.3}, false, swizzled), 0);
        // A swizzled one more than 1 % slower than the fastest: the fastest is kept.
        QCOMPARE(keptCutlassKMajorConfig({10.0, 10.2, 10.3, 9.9}, true, swizzled), 3);
        // No swizzled one ran: the fastest.
        QCOMPARE(keptCutlassKMajorConfig({10.0, -1.0, -1.0, 10.2}, true, swizzled), 0);
    }

    // From 8192 in every extent the unswizzled configurations are not even timed; below, all are.
    void timesOnlySwizzledFrom8192()
    {
        QVERIFY(cutlassTimesConfig(16384, 16384, 16384, true));
        QVERIFY(!cutlassTimesConfig(16384, 16384, 16384, false));
        QVERIFY(!cutlassTimesConfig(8192, 8192, 8192, false));
        QVERIFY(cutlassTimesConfig(4096, 4096, 4096, false));
        QVERIFY(cutlassTimesConfig(16384, 1024, 16384, false));  // the online family's panels
    }
};

QTEST_GUILESS_MAIN(TestCutlassKMajorChoice)
#include "tst_cutlass_kmajor_choice.moc"
