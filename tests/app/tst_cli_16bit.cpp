// gigacheck run / campaign --type bf16|f16 as a script uses them: FP32 values multiplied with 16-bit
// inputs (emulated on the CPU backend), a conflicting --gemm refused, FP16's range enforced with
// exit 2 and the cell named.
#include "cli_process.hpp"

#include "gigacheck/matrix.hpp"
#include "gigacheck/npy.hpp"

#include <QTemporaryDir>
#include <QtTest>

using gigacheck::test::gigacheckCli;
using gigacheck::test::words;

class TestCli16Bit : public QObject {
    Q_OBJECT
private slots:
    void runsVerifiedWithOneFaultCorrected()
    {
        for (const char* type : {"bf16", "f16"}) {
            const auto r = gigacheckCli(words("run --shape 150x97x83 --backend cpu --strategy s2 --mem 64KiB --errors 1 "
                                              "--type") << QString::fromLatin1(type));
            QVERIFY2(r.exitCode == 0, qPrintable(r.err));
            QVERIFY2(r.out.contains(QStringLiteral("VERIFIED CORRECT")), qPrintable(r.out));
            QVERIFY2(r.out.contains(QStringLiteral("injected 1, detected 1, corrected 1")), qPrintable(r.out));
            QVERIFY(r.out.contains(QString::fromLatin1(type) == QStringLiteral("bf16") ? QStringLiteral("BF16 inputs emulated")
                                                                                          : QStringLiteral("FP16 inputs emulated")));
        }
    }

    void aConflictingGemmIsRefused()
    {
        const auto r = gigacheckCli(words("run --shape 16x16x16 --backend cpu --type bf16 --gemm cublas-tf32"));
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(QStringLiteral("cublas-bf16")), qPrintable(r.err));
    }

    void f16RefusesAnOperandBeyond65504()
    {
        QTemporaryDir dir;
        gigacheck::HostMatrix a(gigacheck::Precision::F32, 12, 7), b(gigacheck::Precision::F32, 7, 5);
        for (std::int64_t i = 0; i < 12 * 7; ++i)
            a.as<float>()[i] = 1.0f;
        for (std::int64_t i = 0; i < 7 * 5; ++i)
            b.as<float>()[i] = 1.0f;
        a.as<float>()[4 * 7 + 6] = 70000.0f;
        const QString pa = dir.filePath(QStringLiteral("A.npy")), pb = dir.filePath(QStringLiteral("B.npy"));
        gigacheck::writeNpy(a, pa.toStdString());
        gigacheck::writeNpy(b, pb.toStdString());
        const QStringList files{QStringLiteral("--load-a"), pa, QStringLiteral("--load-b"), pb};
        auto r = gigacheckCli(words("run --backend cpu --type f16") + files);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(QStringLiteral("A(4, 6)")) && r.err.contains(QStringLiteral("65504")), qPrintable(r.err));
        r = gigacheckCli(words("run --backend cpu --type bf16") + files);  // BF16 has FP32's range
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    }

    void campaignTakesTheTypes()
    {
        for (const char* type : {"bf16", "f16"}) {
            const auto r = gigacheckCli(words("campaign --runs 12 --shape 64x48x40 --backend cpu --strategy all --type")
                                        << QString::fromLatin1(type));
            QVERIFY2(r.exitCode == 0, qPrintable(r.err + r.out));  // the outcomes: tests/engine/tst_16bit_runs
            QVERIFY2(r.out.contains(QString::fromLatin1(type)), qPrintable(r.out));
        }
        const auto online = gigacheckCli(words("campaign --runs 2 --backend cpu --family online --scheme online --type bf16"));
        QCOMPARE(online.exitCode, 2);
        QVERIFY2(online.err.contains(QStringLiteral("blocked family")), qPrintable(online.err));
    }
};

QTEST_GUILESS_MAIN(TestCli16Bit)
#include "tst_cli_16bit.moc"
