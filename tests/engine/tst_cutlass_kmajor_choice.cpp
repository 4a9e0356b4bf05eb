// Which K-major configuration of the CUTLASS TF32 kernel a call with config -1 keeps
// (gemm/cutlass/kmajor_choice.hpp): the default below 2048 in any extent, else the fastest timed one
// unless the default is within 1 % of it.
#include "gemm/cutlass/kmajor_choice.hpp"

#include <QtTest>

using namespace gigacheck::cuda;

class TestCutlassKMajorChoice : public QObject {
    Q_OBJECT
private slots:
    void tunesFrom2048InEveryExtent()
    {
        QVERIFY(cutlassTunesKMajor(2048, 2048, 2048));
        QVERIFY(cutlassTunesKMajor(16384, 4096, 8192));
        QVERIFY(!cutlassTunesKMajor(2047, 16384, 16384));
        QVERIFY(!cutlassTunesKMajor(16384, 1024, 16384));
        QVERIFY(!cutlassTunesKMajor(16384, 16384, 64));
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
};

QTEST_GUILESS_MAIN(TestCutlassKMajorChoice)
#include "tst_cutlass_kmajor_choice.moc"
