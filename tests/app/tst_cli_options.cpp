// The gigacheck CLI's options as every verb reads them: --device N honoured or refused up front
// (exit 2, one line, nothing run) and an option that takes one value refused when repeated.
#include <QtTest>

#include "app/cli_process.hpp"

namespace {

using Result = gigacheck::test::CliResult;
using gigacheck::test::gigacheckCli;
using gigacheck::test::words;

// No machine has CUDA device 99 (the CPU backend's emulated devices are not --device numbers).
constexpr int kAbsentDevice = 99;

}  // namespace

class TestCliOptions : public QObject {
    Q_OBJECT

private slots:
    void absentDeviceIsRefusedByEveryVerb_data()
    {
        QTest::addColumn<QString>("command");
        // Every bench suite, each of which once could run without looking at --device.
        for (const char* suite : {"abft-overhead", "kernels", "out-of-core", "paper", "link", "online", "strassen",
                                  "multi-gpu-strassen", "reduced", "transpose", "multi-gpu-gemm"})
            QTest::addRow("bench %s", suite) << QStringLiteral("bench --quick %1").arg(QLatin1String(suite));
        QTest::newRow("run") << QStringLiteral("run --shape 64x64x64");
        QTest::newRow("run online") << QStringLiteral("run --shape 64x64x64 --scheme online");
        QTest::newRow("run tmr") << QStringLiteral("run --shape 64x64x64 --scheme tmr");
        QTest::newRow("campaign") << QStringLiteral("campaign --runs 3 --shape 32x32x32");
        QTest::newRow("strassen") << QStringLiteral("strassen --shape 64x64x64");
        QTest::newRow("transpose") << QStringLiteral("transpose --shape 64x64");
        QTest::newRow("reduced") << QStringLiteral("reduced --n 64");
    }

    void absentDeviceIsRefusedByEveryVerb()
    {
        QFETCH(QString, command);
        const Result r = gigacheckCli(words(qPrintable(command)) << QStringLiteral("--device")
                                                                 << QString::number(kAbsentDevice));
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.startsWith(QStringLiteral("gigacheck: error: --device %1 ").arg(kAbsentDevice)), qPrintable(r.err));
        QCOMPARE(r.err.count(QLatin1Char('\n')), 1);
        QVERIFY2(r.out.isEmpty(), qPrintable(r.out));  // refused before anything ran
    }

    void deviceWithTheCpuBackendIsRefused_data()
    {
        QTest::addColumn<QString>("command");
        QTest::newRow("run") << QStringLiteral("run --shape 64x64x64");
        QTest::newRow("campaign") << QStringLiteral("campaign --runs 3 --shape 32x32x32");
        QTest::newRow("strassen") << QStringLiteral("strassen --shape 64x64x64");
        QTest::newRow("transpose") << QStringLiteral("transpose --shape 64x64");
        QTest::newRow("reduced") << QStringLiteral("reduced --n 64");
    }

    void deviceWithTheCpuBackendIsRefused()
    {
        QFETCH(QString, command);
        const Result r = gigacheckCli(words(qPrintable(command)) << QStringLiteral("--backend") << QStringLiteral("cpu")
                                                                 << QStringLiteral("--device") << QStringLiteral("0"));
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(QStringLiteral("--backend cpu runs on the CPU")), qPrintable(r.err));
        QCOMPARE(r.err.count(QLatin1Char('\n')), 1);
        QVERIFY2(r.out.isEmpty(), qPrintable(r.out));
    }

    void repeatedSingleValuedOptionIsRefused_data()
    {
        QTest::addColumn<QString>("command");
        QTest::addColumn<QString>("option");
        QTest::newRow("run --shape") << QStringLiteral("run --backend cpu --shape 8x8x8 --shape 9x9x9") << "shape";
        QTest::newRow("run --seed") << QStringLiteral("run --backend cpu --shape 8x8x8 --seed 1 --seed=2") << "seed";
        QTest::newRow("run --json") << QStringLiteral("run --backend cpu --shape 8x8x8 --json a.json --json b.json")
                                    << "json";
        QTest::newRow("campaign --runs") << QStringLiteral("campaign --backend cpu --runs 2 --runs 3") << "runs";
        QTest::newRow("strassen --levels") << QStringLiteral("strassen --backend cpu --shape 8x8x8 --levels 1 --levels 2")
                                           << "levels";
        QTest::newRow("transpose --variant")
            << QStringLiteral("transpose --backend cpu --shape 8x8 --variant naive --variant blocked") << "variant";
        QTest::newRow("reduced --n") << QStringLiteral("reduced --backend cpu --n 8 --n 16") << "n";
        QTest::newRow("bench --device") << QStringLiteral("bench --quick reduced --device 0 --device 1") << "device";
        QTest::newRow("devices --json") << QStringLiteral("devices --json a.json --json b.json") << "json";
    }

    void repeatedSingleValuedOptionIsRefused()
    {
        QFETCH(QString, command);
        QFETCH(QString, option);
        const Result r = gigacheckCli(words(qPrintable(command)));
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.startsWith(QStringLiteral("gigacheck: error: --%1 given 2 times").arg(option)), qPrintable(r.err));
        QCOMPARE(r.err.count(QLatin1Char('\n')), 1);
        QVERIFY2(r.out.isEmpty(), qPrintable(r.out));
    }

    // Lists by design keep working, and a switch said twice is still the switch.
    void listsAndSwitchesMayRepeat()
    {
        const Result run = gigacheckCli(words("run --backend cpu --shape 32x32x32 --inject-at 1,1 --inject-at 5,7 "
                                              "--quiet --quiet"));
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        QCOMPARE(run.out, QStringLiteral("verified correct\n"));
        const Result strassen = gigacheckCli(words("strassen --backend cpu --shape 16x16x16 --inject-at product:0 "
                                                   "--inject-at product:3 --quiet"));
        QVERIFY2(strassen.exitCode != 2, qPrintable(strassen.err));  // accepted; its verdict is another test's
    }
};

QTEST_GUILESS_MAIN(TestCliOptions)
#include "tst_cli_options.moc"
