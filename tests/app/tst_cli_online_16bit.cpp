// gigacheck run --scheme online|offline --type bf16|f16 on the CPU backend (the emulation: operands
// rounded, FP32 products): a fault after a middle step corrected at that step, the report naming
// the 16-bit inputs, and TMR refused with exit 2.
#include "cli_process.hpp"

#include <QtTest>

using gigacheck::test::gigacheckCli;
using gigacheck::test::words;

class TestCliOnline16Bit : public QObject {
    Q_OBJECT
private slots:
    void faultCorrectedAtItsStep()
    {
        for (const char* type : {"bf16", "f16"}) {
            const QString t = QString::fromLatin1(type);
            const auto r = gigacheckCli(words("run --shape 90x130x70 --backend cpu --scheme online --panel 32 "
                                              "--check-every 1 --inject-at 5,7:100@2 --type") << t);
            QVERIFY2(r.exitCode == 0, qPrintable(r.err + r.out));
            QVERIFY2(r.out.contains(QStringLiteral("check after step 2: corrected")), qPrintable(r.out));
            QVERIFY2(r.out.contains(QStringLiteral("verdict: verified correct")), qPrintable(r.out));
            QVERIFY2(r.out.contains(t == QStringLiteral("bf16") ? QStringLiteral("products of BF16 inputs (--type bf16)")
                                                                : QStringLiteral("products of FP16 inputs (--type f16)")),
                     qPrintable(r.out));
            const auto offline = gigacheckCli(words("run --shape 90x130x70 --backend cpu --scheme offline --panel 32 "
                                                    "--inject-at 5,7:100@2 --type") << t);
            QVERIFY2(offline.exitCode == 0, qPrintable(offline.err + offline.out));
            QVERIFY2(offline.out.contains(QStringLiteral("verdict: verified correct")), qPrintable(offline.out));
        }
    }

    void tmrIsRefused()
    {
        const auto r = gigacheckCli(words("run --shape 16x16x16 --backend cpu --scheme tmr --type bf16"));
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(QStringLiteral("--scheme tmr with --type bf16")), qPrintable(r.err));
    }
};

QTEST_GUILESS_MAIN(TestCliOnline16Bit)
#include "tst_cli_online_16bit.moc"
