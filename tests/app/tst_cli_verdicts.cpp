// The exit-code contract of a verdict (README "CLI reference"): 0 only when a check that could
// have seen the fault ran and says C is right, 1 only when C is wrong, 3 when nothing checked.
#include "cli_process.hpp"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

using gigacheck::test::CliResult;
using gigacheck::test::gigacheckCli;
using gigacheck::test::words;
using gigacheck::test::readJson;

namespace {

QString explain(const CliResult& r) { return QStringLiteral("exit %1\n%2\n%3").arg(r.exitCode).arg(r.out, r.err); }

}  // namespace

class TestCliVerdicts : public QObject {
    Q_OBJECT
private slots:
    void nothingCheckedIsNotVerified()
    {
        const CliResult r = gigacheckCli(words("run --shape 64x64x64 --backend cpu --no-abft --reference none --inject-at 3,3"));
        QVERIFY2(r.exitCode == 3, qPrintable(explain(r)));
        QVERIFY2(r.out.contains(QStringLiteral("NOT VERIFIED")), qPrintable(explain(r)));
        QVERIFY2(!r.out.contains(QStringLiteral("VERIFIED CORRECT")), qPrintable(explain(r)));
        QCOMPARE(r.err.count(QLatin1Char('\n')), 1);

        const CliResult q = gigacheckCli(words("strassen --shape 64x64x64 --levels 2 --backend cpu --no-abft --reference none "
                                               "--inject-at c:0"));
        QVERIFY2(q.exitCode == 3, qPrintable(explain(q)));
        QVERIFY2(q.out.contains(QStringLiteral("NOT VERIFIED")), qPrintable(explain(q)));
    }

    // Four faults on a rectangle's corners (+d, -d, -d, +d) cancel in every row and column sum:
    // no check sees them. The run knows it struck C beyond the checks' threshold, so without a
    // reference of every cell it says C is wrong (exit 1), never verified; the full reference
    // finds and (Strassen) repairs the cells. TMR's form: one cell struck alike in all replicas.
    void faultsNoCheckCanSeeAreNeverVerified_data()
    {
        QTest::addColumn<QString>("line");
        QTest::addColumn<QString>("words");
        const QString corners = QStringLiteral(" --inject-at 3,4:100 --inject-at 3,9:-100 --inject-at 7,4:-100 --inject-at 7,9:100");
        QTest::newRow("blocked") << QStringLiteral("run --shape 64x64x64 --backend cpu") + corners
                                 << QStringLiteral("rows and columns no check flagged");
        // A fault the check sees and corrects in the same block does not hide the corners.
        QTest::newRow("blocked, beside a corrected fault")
            << QStringLiteral("run --shape 64x64x64 --backend cpu --inject-at 20,30:500") + corners
            << QStringLiteral("4 cell(s) of C struck");
        // Nor two faults the check could not correct, whose rows and columns the repair recomputed.
        QTest::newRow("blocked, beside an uncorrectable pair the repair recomputed")
            << QStringLiteral("run --shape 64x64x64 --backend cpu --inject-at 40,50:7 --inject-at 45,55:9") + corners
            << QStringLiteral("4 cell(s) of C struck");
        // A corner on the corrected fault's row is on a flagged line: only the two others are claimed.
        QTest::newRow("blocked, a corner on the corrected fault's row")
            << QStringLiteral("run --shape 64x64x64 --backend cpu --inject-at 3,30:500") + corners
            << QStringLiteral("2 cell(s) of C struck");
        QTest::newRow("blocked, sampled reference")
            << QStringLiteral("run --shape 512x64x64 --backend cpu --reference sample --inject-at 200,4:100 --inject-at "
                              "200,9:-100 --inject-at 301,4:-100 --inject-at 301,9:100")
            << QStringLiteral("rows and columns no check flagged");
        QTest::newRow("online") << QStringLiteral("run --scheme online --shape 64x64x64 --backend cpu") + corners
                                << QStringLiteral("no check saw them");
        QTest::newRow("offline") << QStringLiteral("run --scheme offline --shape 64x64x64 --backend cpu") + corners
                                 << QStringLiteral("no check saw them");
        QTest::newRow("strassen") << QStringLiteral("strassen --shape 64x64x64 --backend cpu") + corners
                                  << QStringLiteral("the checks let them pass");
        // An operand fault the checks repair (rows of C recomputed) does not hide the corners.
        QTest::newRow("strassen, beside a repaired operand fault")
            << QStringLiteral("strassen --shape 64x64x64 --backend cpu --inject-at a:1") + corners
            << QStringLiteral("the checks let them pass");
        QTest::newRow("tmr") << QStringLiteral("run --scheme tmr --shape 64x64x64 --backend cpu --inject-at 3,4:5@0 "
                                               "--inject-at 3,4:5@1 --inject-at 3,4:5@2")
                             << QStringLiteral("struck alike in all three replicas");
    }
    void faultsNoCheckCanSeeAreNeverVerified()
    {
        QFETCH(QString, line);
        QFETCH(QString, words);
        const bool sampled = line.contains(QStringLiteral("--reference sample"));
        const CliResult r = gigacheckCli((line + (sampled ? QString() : QStringLiteral(" --reference none"))).split(QLatin1Char(' ')));
        QVERIFY2(r.exitCode == 1, qPrintable(explain(r)));
        QVERIFY2(r.err.contains(words), qPrintable(explain(r)));
        QVERIFY2(r.out.contains(QStringLiteral("C IS WRONG")), qPrintable(explain(r)));
        QVERIFY2(!r.out.contains(QStringLiteral("VERIFIED CORRECT")) && !r.out.contains(QStringLiteral("verified correct (")),
                 qPrintable(explain(r)));
        const CliResult quiet = gigacheckCli((line + (sampled ? QString() : QStringLiteral(" --reference none")) +
                                              QStringLiteral(" --quiet")).split(QLatin1Char(' ')));
        QCOMPARE(quiet.exitCode, 1);
        QCOMPARE(quiet.out, QStringLiteral("NOT verified correct\n"));
        if (sampled)
            return;
        // The full reference judges every cell: Strassen repairs them from it, the others say C
        // differs from it; none says verified over the faults.
        const CliResult full = gigacheckCli(line.split(QLatin1Char(' ')));
        if (line.startsWith(QStringLiteral("strassen"))) {
            QVERIFY2(full.exitCode == 0 && full.out.contains(QStringLiteral("check reference    corrected")), qPrintable(explain(full)));
        } else {
            QVERIFY2(full.exitCode == 1, qPrintable(explain(full)));
            QVERIFY2(full.err.contains(QStringLiteral("reference")), qPrintable(explain(full)));
        }
        // Two replicas struck alike are out-voted by computing the cell again: verified, no "wrong".
        if (line.contains(QStringLiteral("tmr"))) {
            const CliResult two = gigacheckCli(
                ::words("run --scheme tmr --shape 64x64x64 --backend cpu --inject-at 3,4:5@0 --inject-at 3,4:5@1 --reference none"));
            QVERIFY2(two.exitCode == 0, qPrintable(explain(two)));
        }
    }

    // Faults that cancel on one cell (+d then -d; the same bit flipped twice) leave C right: the
    // run judges the cells it struck, not each fault alone, and stays verified.
    void faultsThatCancelOnOneCellStayVerified_data()
    {
        QTest::addColumn<QString>("line");
        QTest::newRow("blocked") << QStringLiteral("run --shape 64x64x64 --inject-at 3,4:100 --inject-at 3,4:-100");
        QTest::newRow("blocked, beside a corrected fault")
            << QStringLiteral("run --shape 64x64x64 --inject-at 20,30:500 --inject-at 3,4:100 --inject-at 3,4:-100");
        // Corners struck at the first k step and struck back at the second: C's cells are right.
        QTest::newRow("blocked, cancelling over two k steps")
            << QStringLiteral("run --shape 64x256x64 --mem 64KiB --strategy s1 --inject-at 3,4:100@0 --inject-at 3,9:-100@0 "
                              "--inject-at 20,4:-100@0 --inject-at 20,9:100@0 --inject-at 3,4:-100@1 --inject-at 3,9:100@1 "
                              "--inject-at 20,4:100@1 --inject-at 20,9:-100@1 --inject-at 40,50:7@0");
        QTest::newRow("online") << QStringLiteral("run --scheme online --shape 64x64x64 --inject-at 3,4:100 --inject-at 3,4:-100");
        QTest::newRow("tmr") << QStringLiteral("run --scheme tmr --shape 64x64x64 --inject-at 3,4:5@1 --inject-at 3,4:-5@1");
        QTest::newRow("strassen") << QStringLiteral("strassen --shape 128x128x128 --inject-at c:3,5:100 --inject-at c:3,5:-100");
        QTest::newRow("strassen, one bit twice")
            << QStringLiteral("strassen --shape 128x128x128 --fault bitflip:30 --inject-at c:3,5 --inject-at c:3,5");
    }
    void faultsThatCancelOnOneCellStayVerified()
    {
        QFETCH(QString, line);
        const CliResult r = gigacheckCli((line + QStringLiteral(" --backend cpu --reference none --quiet")).split(QLatin1Char(' ')));
        QVERIFY2(r.exitCode == 0, qPrintable(explain(r)));
        QCOMPARE(r.out, QStringLiteral("verified correct\n"));
    }

    void referenceAloneSeesAnUnprotectedFault()
    {
        const CliResult r = gigacheckCli(words("run --shape 64x64x64 --backend cpu --no-abft --inject-at 3,3"));
        QVERIFY2(r.exitCode == 1, qPrintable(explain(r)));
        QVERIFY2(r.err.contains(QStringLiteral("does not match the reference")), qPrintable(explain(r)));
        const CliResult clean = gigacheckCli(words("run --shape 64x64x64 --backend cpu --no-abft"));
        QVERIFY2(clean.exitCode == 0, qPrintable(explain(clean)));
        QVERIFY2(clean.out.contains(QStringLiteral("checked by the full reference")), qPrintable(explain(clean)));
    }

    // The case a user found: C quadrant 0 struck at 2048^3, two levels, printed VERIFIED with C wrong.
    void strassenCFaultAtTwoLevelsIsCaught()
    {
        const CliResult r = gigacheckCli(words("strassen --shape 2048x2048x2048 --levels 2 --inject-at c:0 --backend cpu"));
        QVERIFY2(r.exitCode == 0, qPrintable(explain(r)));
        QVERIFY2(r.out.contains(QStringLiteral("check c    corrected")) || r.out.contains(QStringLiteral("check c    recomputed")),
                 qPrintable(explain(r)));
        QVERIFY2(r.out.contains(QStringLiteral("0 cells beyond its tolerance")), qPrintable(explain(r)));
        QVERIFY2(r.out.contains(QStringLiteral("largest clean residual")), qPrintable(explain(r)));
    }

    // An overflowing f64 fault in A after step 0 spreads over a whole row of C: the operand is
    // restored and its row recomputed, never "corrected" as one cell.
    void onlineOverflowingOperandFaultRepairedAtTheOperand()
    {
        QTemporaryDir dir;
        const QString json = dir.filePath(QStringLiteral("online.json"));
        for (const char* reference : {"sample", "full"}) {
            const CliResult r = gigacheckCli(
                words("run --shape 257x129x31 --type f64 --backend cpu --scheme online --panel 8 --target a "
                      "--inject-at 1,128@0 --fault bitflip:62 --reference")
                << QString::fromLatin1(reference) << QStringLiteral("--json") << json);
            QVERIFY2(r.exitCode == 0, qPrintable(explain(r)));
            const QJsonObject section = readJson(json).value(QStringLiteral("online_abft")).toObject();
            const QJsonArray faults = section.value(QStringLiteral("input_faults")).toArray();
            QVERIFY2(!faults.isEmpty(), qPrintable(explain(r)));
            const QJsonObject f = faults.first().toObject();
            QCOMPARE(f.value(QStringLiteral("row")).toInt(), 1);
            QCOMPARE(f.value(QStringLiteral("col")).toInt(), 128);
            QVERIFY(f.value(QStringLiteral("corrected")).toBool());
        }
    }

    // The same fault at column 64 after step 1: multiplied in at step 8, it raises every check's
    // threshold to Inf, so C's checks pass whatever C holds. A clean check with an overflowed
    // threshold must still compare the operands: the element is restored and C is right (the full
    // reference agrees); before, the run said "verified correct" over a wrong row without a reference.
    void operandFaultThatOverflowsTheThresholdsIsStillRepaired()
    {
        QTemporaryDir dir;
        const QString json = dir.filePath(QStringLiteral("overflow.json"));
        for (const char* scheme : {"online", "offline"})
            for (const char* reference : {"none", "full"}) {
                const CliResult r = gigacheckCli(
                    words("run --shape 257x129x31 --type f64 --backend cpu --panel 8 --target a --inject-at 200,64@1 "
                          "--fault bitflip:62 --scheme")
                    << QString::fromLatin1(scheme) << QStringLiteral("--reference") << QString::fromLatin1(reference)
                    << QStringLiteral("--json") << json);
                QVERIFY2(r.exitCode == 0, qPrintable(explain(r)));
                const QJsonArray faults = readJson(json)
                                              .value(QStringLiteral("online_abft"))
                                              .toObject()
                                              .value(QStringLiteral("input_faults"))
                                              .toArray();
                QCOMPARE(faults.size(), 1);  // found once: the restored copy's sums are kept
                const QJsonObject f = faults.first().toObject();
                QCOMPARE(f.value(QStringLiteral("row")).toInt(), 200);
                QCOMPARE(f.value(QStringLiteral("col")).toInt(), 64);
                QVERIFY(f.value(QStringLiteral("corrected")).toBool());
            }
    }

    // An overflowing operand fault and a cell of C struck in the same check interval: the operand
    // fault overflows the thresholds of the cell's column, so the first pass "corrects" the wrong
    // cells. Once the operand is restored those corrections are undone and C is checked afresh:
    // both faults are repaired and the full reference agrees (before: exit 1, one cell left wrong).
    void operandFaultAndCellFaultInOneCheck()
    {
        for (const char* scheme : {"offline", "online"}) {
            const CliResult r = gigacheckCli(
                words("run --shape 257x129x31 --type f64 --backend cpu --panel 8 --inject-at a:1,128@0 "
                      "--inject-at c:7,9:3@14 --fault bitflip:62 --reference full --scheme")
                << QString::fromLatin1(scheme));
            QVERIFY2(r.exitCode == 0, qPrintable(explain(r)));
            QVERIFY2(r.out.contains(QStringLiteral("input fault in a (1, 128)")), qPrintable(explain(r)));
            QVERIFY2(r.out.contains(QStringLiteral("0 mismatch(es)")), qPrintable(explain(r)));
        }
    }

    // Two replicas struck alike out-vote the right one; the disputed cell is computed again from A
    // and B, so C is right without a reference.
    void tmrTwoEqualFaultsDoNotWin()
    {
        QTemporaryDir dir;
        const QString json = dir.filePath(QStringLiteral("tmr.json"));
        const CliResult r = gigacheckCli(words("run --shape 64x64x64 --backend cpu --scheme tmr --inject-at 3,3:5@0 "
                                               "--inject-at 3,3:5@1 --reference none --json")
                                         << json);
        QVERIFY2(r.exitCode == 0, qPrintable(explain(r)));
        const QJsonObject vote =
            readJson(json).value(QStringLiteral("online_abft")).toObject().value(QStringLiteral("vote")).toObject();
        QCOMPARE(vote.value(QStringLiteral("cells_recomputed")).toInt(), 1);
        QCOMPARE(vote.value(QStringLiteral("majority_overruled")).toInt(), 1);
        // The same run with the full reference agrees that C is right.
        const CliResult checked = gigacheckCli(words("run --shape 64x64x64 --backend cpu --scheme tmr --inject-at 3,3:5@0 "
                                                     "--inject-at 3,3:5@1 --reference full"));
        QVERIFY2(checked.exitCode == 0, qPrintable(explain(checked)));
    }

    // TMR with no two replicas agreeing at a cell recomputes it, but nothing checks that value: the
    // run is "not verified" (exit 3) unless a reference compared every cell.
    void tmrWithoutMajorityIsNeverVerified()
    {
        const QStringList run = words("run --shape 96x64x64 --backend cpu --scheme tmr --inject-at 3,3:5@0 "
                                      "--inject-at 3,3:7@1 --reference");
        for (const char* reference : {"none", "sample"}) {
            const CliResult r = gigacheckCli(run + QStringList{QString::fromLatin1(reference)});
            QVERIFY2(r.exitCode == 3, qPrintable(explain(r)));
            QVERIFY2(r.out.contains(QStringLiteral("verdict: not verified")), qPrintable(explain(r)));
            QVERIFY2(!r.out.contains(QStringLiteral("verified correct")), qPrintable(explain(r)));
            QVERIFY2(r.err.contains(QStringLiteral("not verified: TMR found no majority")), qPrintable(explain(r)));
            QCOMPARE(r.err.count(QLatin1Char('\n')), 1);
        }
        const CliResult full = gigacheckCli(run + QStringList{QStringLiteral("full")});
        QVERIFY2(full.exitCode == 0, qPrintable(explain(full)));
        QVERIFY2(full.out.contains(QStringLiteral("verified correct (checked by the TMR vote and the full reference)")),
                 qPrintable(explain(full)));
    }

    // An f64 flip of a low bit in A or B before the checksums moves the operand's sums on one axis
    // only (the other absorbs it): too small to locate, and too small to change C. The run is not
    // "uncorrectable" -- C is right -- whichever reference runs, and its record reads back.
    void operandChangeBelowRoundoffIsNotUncorrectable()
    {
        QTemporaryDir dir;
        const QString json = dir.filePath(QStringLiteral("low.json"));
        int belowRoundoff = 0;
        for (const char* scheme : {"online", "offline"})
            for (const char* target : {"a", "b"})
                for (int bit = 0; bit <= 5; ++bit)
                    for (const char* reference : {"none", "sample"}) {
                        const CliResult r = gigacheckCli(
                            words("run --shape 96x80x72 --type f64 --backend cpu --inject-at 1,3 --scheme")
                            << QString::fromLatin1(scheme) << QStringLiteral("--target") << QString::fromLatin1(target)
                            << QStringLiteral("--fault") << QStringLiteral("bitflip:%1").arg(bit)
                            << QStringLiteral("--reference") << QString::fromLatin1(reference) << QStringLiteral("--json")
                            << json);
                        QVERIFY2(r.exitCode == 0, qPrintable(explain(r)));
                        QVERIFY2(!r.err.contains(QStringLiteral("uncorrectable")), qPrintable(explain(r)));
                        const QJsonArray faults = readJson(json)
                                                      .value(QStringLiteral("online_abft"))
                                                      .toObject()
                                                      .value(QStringLiteral("input_faults"))
                                                      .toArray();
                        for (const QJsonValue& f : faults)
                            if (f.toObject().value(QStringLiteral("below_roundoff")).toBool()) {
                                ++belowRoundoff;
                                QCOMPARE(f.toObject().value(QStringLiteral("row")).toInt(), -1);
                                QVERIFY(r.out.contains(QStringLiteral("moved by less than the round-off")));
                            }
                        const CliResult shown = gigacheckCli(QStringList{QStringLiteral("show"), json});
                        QVERIFY2(shown.exitCode == 0, qPrintable(explain(shown)));
                    }
        // The case the issue names (bit 0 in A) is one of them.
        QVERIFY2(belowRoundoff > 0, "no run exercised a change below the operand sums' round-off");
    }

    // A reference that passes never yields "does not match the reference".
    void passingReferenceNeverSaysMismatch()
    {
        for (const char* scheme : {"online", "offline"}) {
            const CliResult r = gigacheckCli(words("run --shape 96x80x72 --type f64 --backend cpu --target a --inject-at 5,7 "
                                                   "--fault bitflip:0 --reference full --scheme")
                                             << QString::fromLatin1(scheme));
            QVERIFY2(!r.err.contains(QStringLiteral("does not match the reference")), qPrintable(explain(r)));
            QVERIFY2(r.exitCode == 0, qPrintable(explain(r)));
        }
    }
};

QTEST_GUILESS_MAIN(TestCliVerdicts)
#include "tst_cli_verdicts.moc"
