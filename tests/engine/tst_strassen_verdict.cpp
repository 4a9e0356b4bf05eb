// The strassen family's verdict: never "verified" over a wrong C. C's checks at every level and
// variant have a threshold tight enough to see a fault that moves a cell past the reference's
// tolerance, round-off never raises an alarm, a located cell is recomputed (not patched by a
// residual that cancels), the reference always takes part, and a run with no check is "not
// verified".
#include "gigacheck/strassen.hpp"

#include "families/strassen/run/verify.hpp"

#include <QtTest>

#include <algorithm>
#include <cstdlib>
#include <map>

using namespace gigacheck;

namespace {

StrassenConfig config(Shape shape, int levels, StrassenVariant v, Precision p = Precision::F32)
{
    StrassenConfig c;
    c.shape = shape;
    c.levels = levels;
    c.variant = v;
    c.precision = p;
    c.backend = BackendKind::Cpu;
    return c;
}

StrassenResult run(const StrassenConfig& c)
{
    auto backend = makeStrassenBackend(c);
    return runStrassen(c, *backend);
}

bool cRepaired(const StrassenResult& r)
{
    return std::any_of(r.checks.begin(), r.checks.end(), [](const StrassenCheck& k) {
        return k.where == "c" && (k.verdict == "corrected" || k.verdict == "recomputed");
    });
}

bool anyAlarm(const StrassenResult& r)
{
    return std::any_of(r.checks.begin(), r.checks.end(), [](const StrassenCheck& k) { return k.verdict != "clean"; });
}

QString describe(const StrassenResult& r)
{
    QString s = QStringLiteral("status %1, error %2 (%3 cells past the reference's tolerance), clean ratio %4;")
                    .arg(QString::fromStdString(strassenOutcome(r)))
                    .arg(r.maxErrorC)
                    .arg(r.referenceMismatches)
                    .arg(r.cWorstCleanRatio);
    for (const StrassenCheck& k : r.checks)
        s += QStringLiteral(" [%1 %2: %3]").arg(QString::fromStdString(k.where), QString::fromStdString(k.verdict),
                                                QString::fromStdString(k.detail));
    return s;
}

}  // namespace

class TestStrassenVerdict : public QObject {
    Q_OBJECT
private slots:
    // A fault of 1000 x the typical |C| in a C quadrant: C's own checks see it at every level and
    // variant (the reference only confirms), so the run ends with C right.
    void cFaultCaughtByCsChecksAtEveryLevel_data()
    {
        QTest::addColumn<int>("n");
        QTest::addColumn<int>("levels");
        QTest::addColumn<int>("variant");
        QTest::addColumn<int>("quadrant");
        for (StrassenVariant v : {StrassenVariant::Msmes, StrassenVariant::Winograd, StrassenVariant::Workspace,
                                  StrassenVariant::Accumulate})
            for (int levels : {2, 3})
                for (int quadrant : {0, 3})
                    QTest::addRow("%s-L%d-c%d", toString(v).data(), levels, quadrant)
                        << 512 << levels << int(v) << quadrant;
        // The case a user found at 2048^3: a fault larger than every entry of C passed as VERIFIED.
        QTest::addRow("msmes-2048-L2-c0") << 2048 << 2 << int(StrassenVariant::Msmes) << 0;
    }
    void cFaultCaughtByCsChecksAtEveryLevel()
    {
        QFETCH(int, n);
        QFETCH(int, levels);
        QFETCH(int, variant);
        QFETCH(int, quadrant);
        StrassenConfig c = config({n, n, n}, levels, StrassenVariant(variant));
        c.faults.push_back(parseStrassenFault("c:" + std::to_string(quadrant)));
        const StrassenResult r = run(c);
        QVERIFY2(strassenOutcome(r) == "ok", qPrintable(describe(r)));
        QVERIFY2(cRepaired(r), qPrintable(describe(r)));
        QCOMPARE(r.referenceMismatches, std::int64_t(0));
        QCOMPARE(QString::fromStdString(r.verifiedBy), QStringLiteral("checksums+reference"));
        QVERIFY2(r.cWorstCleanRatio >= 0 && r.cWorstCleanRatio < 1, qPrintable(describe(r)));
    }

    // Without the reference the checksums alone decide, and still end with C right.
    void checksumsAloneVerify()
    {
        StrassenConfig c = config({1024, 1024, 1024}, 3, StrassenVariant::Accumulate);
        c.faults.push_back(parseStrassenFault("c:1"));
        c.reference = false;
        const StrassenResult r = run(c);
        QVERIFY2(strassenOutcome(r) == "ok" && cRepaired(r), qPrintable(describe(r)));
        QCOMPARE(QString::fromStdString(r.verifiedBy), QStringLiteral("checksums"));
        QCOMPARE(r.relErrorC, -1.0);
        QCOMPARE(strassenExitCode(r), 0);
    }

    // Faults from tiny to huge: none may end "verified" with a cell past the reference's tolerance
    // that C's checks did not see; every one ends with C right.
    void noFaultSlipsUnderTheThreshold()
    {
        for (int levels : {1, 2, 3})
            for (double delta : {1e-4, 1e-3, 1e-2, 0.1, 1.0, 10.0, 1e3, 1e6}) {
                StrassenConfig c = config({256, 320, 288}, levels, StrassenVariant::Winograd);
                c.faults.push_back(parseStrassenFault("c:2:" + std::to_string(delta)));
                const StrassenResult r = run(c);
                QVERIFY2(strassenOutcome(r) == "ok", qPrintable(describe(r)));
                // A fault C's checks let pass is one the reference repairs; from 10 up, C's own checks see it.
                const bool repairedByReference = std::any_of(r.checks.begin(), r.checks.end(), [](const StrassenCheck& k) {
                    return k.where == "reference" && k.verdict == "corrected";
                });
                QVERIFY2(delta < 10.0 || !repairedByReference, qPrintable(describe(r)));
            }
    }

    // TF32 leaves: a cell off by 5 (8 % of max |C|) at 1200^3 L3 is far under C's row and column
    // thresholds (a whole line's round-off); the reference's per-cell tolerance (growth 2^L) sees
    // it and the cell takes the reference's value: C ends right, never VERIFIED over a wrong C.
    void tf32SmallCellFaultRepaired()
    {
        StrassenConfig c = config({1200, 1200, 1200}, 3, StrassenVariant::Msmes);
        c.tf32 = true;
        c.faults.push_back(parseStrassenFault("c:0:5"));
        const StrassenResult r = run(c);
        QVERIFY2(strassenOutcome(r) == "ok", qPrintable(describe(r)));
        QCOMPARE(r.referenceMismatches > 0 || cRepaired(r), true);  // someone saw it
        QVERIFY2(r.maxErrorC < 0.5, qPrintable(describe(r)));        // and C ends right
        QVERIFY2(r.referenceWorstRatio <= 1, qPrintable(describe(r)));
        QCOMPARE(strassenExitCode(r), 0);
    }

    // TF32 leaves at four levels: a cell off by 3 (5.9 % of max |C|) at 1537x999x1301. C's checks see
    // one cell only past ~1.7 x max |C| (a row sums 1301 cells' rounding of the stage sums); the
    // reference's per-cell tolerance, from the stage sums that cell's leaves multiply
    // (leaf_rounding.hpp), is under 3 there (4^L over the operands' scale: 6.5, and the run said
    // VERIFIED with the cell off), so the cell takes the reference's value and C ends at the clean
    // TF32 error (0.55).
    void tf32FourLevelsSmallCellFaultRepaired()
    {
        StrassenConfig c = config({1537, 999, 1301}, 4, StrassenVariant::Msmes);
        c.tf32 = true;
        c.faults.push_back(parseStrassenFault("c:1:3"));
        const StrassenResult r = run(c);
        QVERIFY2(strassenOutcome(r) == "ok", qPrintable(describe(r)));
        const bool repairedByReference = std::any_of(r.checks.begin(), r.checks.end(), [](const StrassenCheck& k) {
            return k.where == "reference" && k.verdict == "corrected";
        });
        QVERIFY2(repairedByReference, qPrintable(describe(r)));
        QVERIFY2(r.maxErrorC < 1.0, qPrintable(describe(r)));  // the fault (3) is gone; 0.55 is TF32's own
        QCOMPARE(QString::fromStdString(r.verifiedBy), QStringLiteral("reference"));
        // C's own checks: a threshold from the actual stage sums, far under 4^L's (92 x max |C|).
        QVERIFY2(r.cDetectionFloor > 0 && r.cDetectionFloor < 3.0 * r.cMaxAbs, qPrintable(describe(r)));
        QVERIFY2(r.cWorstCleanRatio < 0.5, qPrintable(describe(r)));
        QCOMPARE(strassenExitCode(r), 0);
        // The same product without the fault: no cell past the tighter tolerance.
        c.faults.clear();
        const StrassenResult clean = run(c);
        QVERIFY2(strassenOutcome(clean) == "ok" && !anyAlarm(clean), qPrintable(describe(clean)));
        QVERIFY2(clean.referenceWorstRatio < 0.5, qPrintable(describe(clean)));
    }

    // Bit flips of bits 11-19 of a C cell or a leaf product at 64^3, L1 / L2 (the runs of a
    // 200-run campaign that C's former worst-case threshold let pass: cell errors above the
    // reference's tolerance and below that threshold, repaired only by the reference). C's own
    // checks, from the variance of the actual sums, now see each one and C ends right without the
    // reference's repair.
    void formerBitFlipEscapesAreCaughtByCsChecks_data()
    {
        QTest::addColumn<int>("levels");
        QTest::addColumn<qulonglong>("seed");
        QTest::addColumn<int>("bit");
        QTest::addColumn<QString>("fault");
        QTest::addRow("L2 c:1 bit 18") << 2 << 456853728ull << 18 << "c:1";
        QTest::addRow("L1 product:6 bit 13") << 1 << 417551666ull << 13 << "product:6";
        QTest::addRow("L1 c:0 bit 16") << 1 << 620418961ull << 16 << "c:0";
        QTest::addRow("L2 product:15 bit 14") << 2 << 471894649ull << 14 << "product:15";
        QTest::addRow("L1 c:2 bit 11") << 1 << 423575254ull << 11 << "c:2";
        QTest::addRow("L1 c:3 bit 14") << 1 << 889434172ull << 14 << "c:3";
        QTest::addRow("L2 product:12 bit 13") << 2 << 843517772ull << 13 << "product:12";
        QTest::addRow("L2 c:3 bit 18") << 2 << 986204368ull << 18 << "c:3";
        QTest::addRow("L2 c:1 bit 15") << 2 << 1034859865ull << 15 << "c:1";
        QTest::addRow("L2 product:43 bit 14") << 2 << 348913010ull << 14 << "product:43";
        QTest::addRow("L1 product:6 bit 19") << 1 << 41502221ull << 19 << "product:6";
        QTest::addRow("L1 c:3 bit 15") << 1 << 913612016ull << 15 << "c:3";
        QTest::addRow("L1 c:1 bit 12") << 1 << 525958678ull << 12 << "c:1";
        QTest::addRow("L2 c:3 bit 14") << 2 << 593568841ull << 14 << "c:3";
    }
    void formerBitFlipEscapesAreCaughtByCsChecks()
    {
        QFETCH(int, levels);
        QFETCH(qulonglong, seed);
        QFETCH(int, bit);
        QFETCH(QString, fault);
        StrassenConfig c = config({64, 64, 64}, levels, StrassenVariant::Msmes);
        c.seed = seed;
        c.reference = true;
        c.referenceAlways = true;
        c.faults.push_back(parseStrassenFault(fault.toStdString()));
        c.faultModel = FaultModelSpec{FaultModel::BitFlip, bit, -1};
        const StrassenResult r = run(c);
        QVERIFY2(strassenOutcome(r) == "ok", qPrintable(describe(r)));
        QVERIFY2(cRepaired(r), qPrintable(describe(r)));
        const bool referenceRepaired = std::any_of(r.checks.begin(), r.checks.end(), [](const StrassenCheck& k) {
            return k.where == "reference" && (k.verdict == "corrected" || k.verdict == "mismatch");
        });
        QVERIFY2(!referenceRepaired, qPrintable(describe(r)));
        QCOMPARE(r.referenceMismatches, std::int64_t(0));
        QVERIFY2(r.referenceWorstRatio >= 0 && r.referenceWorstRatio < 1, qPrintable(describe(r)));
    }

    // An A fault with --exact-restore (A put back, so only C shows it): C's checks see a few rows of
    // its class; the products that cancel the fault elsewhere round differently (TF32 leaves), so
    // the other rows of the class carry a residue under a line's threshold. The whole class is
    // recomputed: C ends at its clean error with no cell left to the reference (222 were).
    void operandFaultResidueRecomputedByClass()
    {
        StrassenConfig c = config({700, 513, 901}, 3, StrassenVariant::Msmes);
        c.tf32 = true;
        c.exactRestore = true;
        c.faults.push_back(parseStrassenFault("a:1"));
        const StrassenResult r = run(c);
        QVERIFY2(strassenOutcome(r) == "ok" && cRepaired(r), qPrintable(describe(r)));
        QCOMPARE(QString::fromStdString(r.verifiedBy), QStringLiteral("checksums+reference"));
        QCOMPARE(r.referenceMismatches, std::int64_t(0));
        QVERIFY2(r.maxErrorC < 0.3, qPrintable(describe(r)));  // clean TF32 L3 here: 0.15
    }

    // What C's checks can see is in the run: a TF32 L3 C check sees one cell only above max |C|,
    // so --reference auto runs the reference whatever the size; past 2^34 multiply-adds a fault of
    // 20 % of max |C| is then still repaired (not VERIFIED over a wrong C, as C's checks alone say).
    void weakChecksBringTheReference()
    {
        StrassenConfig c = config({2600, 2600, 2600}, 3, StrassenVariant::Msmes);
        c.tf32 = true;
        c.faults.push_back(parseStrassenFault("c:0:20"));  // 0.2 x max |C|; C's checks see 1.4 x max |C|
        const StrassenResult r = run(c);
        QVERIFY2(r.cDetectionFloor > 0.2 * r.cMaxAbs && r.cMaxAbs > 0, qPrintable(describe(r)));
        QVERIFY2(r.relErrorC >= 0, qPrintable(describe(r)));  // the reference ran (2600^3 > 2^34)
        QVERIFY2(strassenOutcome(r) == "ok" && r.maxErrorC < 0.5, qPrintable(describe(r)));
        QCOMPARE(QString::fromStdString(r.verifiedBy), QStringLiteral("reference"));
        const std::string report = formatStrassenReport(r);
        QVERIFY(report.find("C sees") != std::string::npos);

        StrassenConfig small = config({256, 256, 256}, 1, StrassenVariant::Msmes, Precision::F64);
        const StrassenResult tight = run(small);  // FP64 L1: C's checks see far less than 1 % of max |C|
        QVERIFY2(tight.cDetectionFloor >= 0 && tight.cDetectionFloor < 0.01 * tight.cMaxAbs, qPrintable(describe(tight)));
        const std::optional<StrassenResult> back = strassenResultFromJson(strassenRecordJson(r));
        QVERIFY(back.has_value());
        QCOMPARE(back->cDetectionFloor, r.cDetectionFloor);
        QCOMPARE(back->cMaxAbs, r.cMaxAbs);
    }

    // The same clean product has no cell past the reference's tolerance (no repair, no alarm).
    void tf32CleanWithinReference()
    {
        for (int levels : {1, 3}) {
            StrassenConfig c = config({1200, 1200, 1200}, levels, StrassenVariant::Msmes);
            c.tf32 = true;
            const StrassenResult r = run(c);
            QVERIFY2(strassenOutcome(r) == "ok" && !anyAlarm(r), qPrintable(describe(r)));
            QCOMPARE(r.referenceMismatches, std::int64_t(0));
            QVERIFY2(r.referenceWorstRatio < 0.5, qPrintable(describe(r)));
        }
    }

    // The false alarm of the 10 000-run sweep: TF32 leaves on wide-range data at 142x8x2 (winograd,
    // one level: q = 2). Strassen pairs A's column k + N/2 with B's row k; the thresholds take the
    // largest norm over those inner-index classes, so the round-off of that pairing is covered.
    void innerIndexPairingNoFalseAlarm()
    {
        StrassenConfig c = config({142, 8, 2}, 2, StrassenVariant::Winograd);
        c.tf32 = true;
        c.distribution = Distribution::Wide;
        c.seed = 9924;
        c.reference = false;  // C's own checks are under test
        const StrassenResult r = run(c);
        QVERIFY2(strassenOutcome(r) != "uncorrectable" && strassenOutcome(r) != "failed" && !anyAlarm(r), qPrintable(describe(r)));
        QVERIFY2(r.cWorstCleanRatio < 1, qPrintable(describe(r)));
        c.reference = true;
        const StrassenResult judged = run(c);
        QVERIFY2(strassenOutcome(judged) == "ok" && !anyAlarm(judged), qPrintable(describe(judged)));
    }

    // Round-off never raises an alarm: odd shapes, every level, distribution and precision.
    void cleanRunsRaiseNoAlarm()
    {
        const Shape shapes[] = {{1, 1, 1}, {17, 33, 9}, {129, 257, 65}, {300, 200, 100}, {511, 513, 512}};
        int runs = 0;
        double worst = 0;
        for (const Shape& s : shapes)
            for (int levels = 0; levels <= 4; ++levels)
                for (Distribution d : {Distribution::Uniform, Distribution::Normal, Distribution::Wide})
                    for (int type = 0; type < 3; ++type) {
                        StrassenConfig c = config(s, levels, levels % 2 ? StrassenVariant::Winograd : StrassenVariant::Msmes,
                                                  type == 1 ? Precision::F64 : Precision::F32);
                        c.tf32 = type == 2;
                        c.distribution = d;
                        c.seed = std::uint64_t(runs + 1);
                        const StrassenResult r = run(c);
                        const QString what = QStringLiteral("%1x%2x%3 L%4 dist %5 type %6: ")
                                                 .arg(s.m).arg(s.n).arg(s.q).arg(levels).arg(int(d)).arg(type);
                        QVERIFY2(strassenOutcome(r) == "ok" && !anyAlarm(r), qPrintable(what + describe(r)));
                        QCOMPARE(r.referenceMismatches, std::int64_t(0));
                        worst = std::max(worst, r.cWorstCleanRatio);
                        ++runs;
                    }
        QVERIFY2(worst < 1, qPrintable(QString::number(worst)));
        QVERIFY(runs == 225);
    }

    // Random odd shapes (one in 25 larger), every variant, level, type and distribution; runs by
    // default 25, GIGACHECK_CLEAN_RUNS for a long sweep (resources/results/strassen_clean_sweep_cpu.txt),
    // GIGACHECK_CLEAN_TYPE=f32|f64|tf32 for one type only.
    void randomCleanSweep()
    {
        const char* env = std::getenv("GIGACHECK_CLEAN_RUNS");
        const int runs = env ? std::max(1, std::atoi(env)) : 25;
        const QString onlyType = QString::fromLocal8Bit(qgetenv("GIGACHECK_CLEAN_TYPE"));
        std::uint64_t x = 0x9E3779B97F4A7C15ull;
        auto next = [&x](std::uint64_t bound) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            return std::int64_t(x % bound);
        };
        const StrassenVariant variants[] = {StrassenVariant::Msmes, StrassenVariant::Winograd, StrassenVariant::Workspace,
                                            StrassenVariant::Accumulate};
        std::map<QString, double> worst, worstReference;
        int alarms = 0;
        for (int i = 0; i < runs; ++i) {
            const bool large = i % 25 == 24;
            auto dim = [&]() { return large ? 512 + next(513) : 1 + next(200); };
            StrassenConfig c = config({dim(), dim(), dim()}, int(next(5)), variants[next(4)]);
            const int drawn = int(next(3));
            const int type = onlyType == QLatin1String("f32")    ? 0
                             : onlyType == QLatin1String("f64")  ? 1
                             : onlyType == QLatin1String("tf32") ? 2
                                                                 : drawn;
            c.precision = type == 1 ? Precision::F64 : Precision::F32;
            c.tf32 = type == 2;
            c.distribution = Distribution(next(3));
            c.seed = std::uint64_t(i + 1);
            // C's own checks are under test; the reference judges too (a cell it repairs is an alarm).
            const StrassenResult r = run(c);
            const QString key = QStringLiteral("%1 L%2")
                                    .arg(c.tf32 ? QStringLiteral("tf32") : QString::fromLatin1(toString(c.precision).data()))
                                    .arg(r.levels);
            worst[key] = std::max(worst[key], r.cWorstCleanRatio);
            worstReference[key] = std::max(worstReference[key], r.referenceWorstRatio);
            if (strassenOutcome(r) != "ok" || anyAlarm(r)) {
                ++alarms;
                qWarning("false alarm at %lldx%lldx%lld: %s", (long long)c.shape.m, (long long)c.shape.n,
                         (long long)c.shape.q, qPrintable(describe(r)));
            }
        }
        if (env)
            for (const auto& [key, ratio] : worst)
                qInfo("clean runs, %s: largest clean residual %.4g x threshold, largest cell error %.4g x the "
                      "reference's tolerance",
                      qPrintable(key), ratio, worstReference[key]);
        qInfo("%d clean runs, %d false alarms", runs, alarms);
        QCOMPARE(alarms, 0);
    }

    // A located cell is recomputed from A and B: a 1e30 fault is not patched to 0 by a residual that
    // cancels against it, and a correct C after a product fault is never "uncorrectable".
    void hugeAndTinyFaultsEndRight_data()
    {
        QTest::addColumn<QString>("shape");
        QTest::addColumn<QString>("fault");
        QTest::addColumn<int>("variant");
        QTest::addColumn<int>("precision");
        QTest::newRow("f32 product:3:1e30") << "64x64x64" << "product:3:1e30" << int(StrassenVariant::Msmes)
                                            << int(Precision::F32);
        QTest::newRow("f64 1x1x1 winograd product:0") << "1x1x1" << "product:0" << int(StrassenVariant::Winograd)
                                                      << int(Precision::F64);
        QTest::newRow("f64 c:0:1e300") << "96x80x72" << "c:0:1e300" << int(StrassenVariant::Accumulate)
                                       << int(Precision::F64);
    }
    void hugeAndTinyFaultsEndRight()
    {
        QFETCH(QString, shape);
        QFETCH(QString, fault);
        QFETCH(int, variant);
        QFETCH(int, precision);
        const QStringList dims = shape.split(QLatin1Char('x'));
        StrassenConfig c = config({dims[0].toLongLong(), dims[1].toLongLong(), dims[2].toLongLong()}, 1,
                                  StrassenVariant(variant), Precision(precision));
        c.faults.push_back(parseStrassenFault(fault.toStdString()));
        const StrassenResult r = run(c);
        QVERIFY2(strassenOutcome(r) == "ok", qPrintable(describe(r)));
        QCOMPARE(r.referenceMismatches, std::int64_t(0));
        QCOMPARE(r.nonFiniteC, std::int64_t(0));
        QVERIFY2(r.relErrorC >= 0 && r.relErrorC < 1e-5, qPrintable(describe(r)));
    }

    // TF32 leaves at four levels: C's line checks see only a cell off by most of max |C|. Without
    // the reference a cell error under that cannot be vouched for: "not verified" (exit 3), never
    // VERIFIED; with the reference (auto) the cell is repaired and the run verified.
    void weakChecksWithoutReferenceNotVerified()
    {
        StrassenConfig c = config({512, 500, 384}, 4, StrassenVariant::Msmes);
        c.tf32 = true;
        c.reference = false;
        c.faults.push_back(parseStrassenFault("c:1:3"));
        StrassenResult r = run(c);
        QVERIFY2(r.cDetectionFloor > 0.01 * r.cMaxAbs, qPrintable(describe(r)));
        QCOMPARE(QString::fromStdString(strassenOutcome(r)), QStringLiteral("not_verified"));
        QCOMPARE(strassenExitCode(r), 3);
        const std::string report = formatStrassenReport(r);
        QVERIFY2(report.find("NOT VERIFIED: C's checks see only a cell off by more than") != std::string::npos,
                 report.c_str());
        QVERIFY(report.find("VERIFIED by") == std::string::npos);

        c.reference = true;
        r = run(c);
        QVERIFY2(strassenOutcome(r) == "ok", qPrintable(describe(r)));
        QCOMPARE(QString::fromStdString(r.verifiedBy), QStringLiteral("reference"));
        QCOMPARE(r.referenceMismatches, std::int64_t(1));  // the struck cell, which took the reference's value
        QCOMPARE(strassenExitCode(r), 0);

        // Checks tight enough (FP32 leaves, one level) still verify C on their own.
        StrassenConfig tight = config({512, 500, 384}, 1, StrassenVariant::Msmes);
        tight.reference = false;
        tight.faults.push_back(parseStrassenFault("c:1:3"));
        const StrassenResult t = run(tight);
        QVERIFY2(t.cDetectionFloor >= 0 && t.cDetectionFloor <= 0.01 * t.cMaxAbs, qPrintable(describe(t)));
        QVERIFY2(strassenOutcome(t) == "ok", qPrintable(describe(t)));
    }

    // No check at all: "not verified" (exit 3), never "verified". The reference alone still decides.
    void withoutAnyCheckNotVerified()
    {
        StrassenConfig c = config({64, 64, 64}, 2, StrassenVariant::Msmes);
        c.verify = false;
        c.reference = false;
        c.faults.push_back(parseStrassenFault("c:0"));
        StrassenResult r = run(c);
        QCOMPARE(QString::fromStdString(strassenOutcome(r)), QStringLiteral("not_verified"));
        QCOMPARE(strassenExitCode(r), 3);
        QVERIFY(formatStrassenReport(r).find("NOT VERIFIED") != std::string::npos);

        c.reference = true;  // the same fault, seen by the reference alone
        r = run(c);
        QCOMPARE(QString::fromStdString(strassenOutcome(r)), QStringLiteral("uncorrectable"));
        QCOMPARE(strassenExitCode(r), 1);
        QVERIFY(r.referenceMismatches > 0);
        QCOMPARE(QString::fromStdString(r.verifiedBy), QStringLiteral("reference"));
    }

    // The record keeps what the verdict rests on.
    void recordKeepsTheVerdictsBasis()
    {
        StrassenConfig c = config({128, 128, 128}, 2, StrassenVariant::Winograd);
        c.faults.push_back(parseStrassenFault("c:3"));
        const StrassenResult r = run(c);
        const std::optional<StrassenResult> back = strassenResultFromJson(strassenRecordJson(r));
        QVERIFY(back.has_value());
        QCOMPARE(QString::fromStdString(back->verifiedBy), QString::fromStdString(r.verifiedBy));
        QCOMPARE(back->cWorstCleanRatio, r.cWorstCleanRatio);
        QVERIFY(r.referenceFloor > 0);  // the reference ran: its largest per-cell tolerance
        QCOMPARE(back->referenceFloor, r.referenceFloor);
        QCOMPARE(back->referenceMismatches, r.referenceMismatches);
        QCOMPARE(QString::fromStdString(strassenOutcome(*back)), QString::fromStdString(strassenOutcome(r)));
    }

    // A reference that was due but does not fit in the host memory left is skipped with its reason
    // (with overcommit it would be granted and the process killed on first touch), and a run with
    // no other check says why it is not verified.
    void referenceThatDoesNotFitIsSkippedWithItsReason()
    {
        const Shape s{300, 200, 100};
        QCOMPARE(strassen::referenceHostBytes(s), (2.0 * (300 * 200 + 200 * 100) + 2.0 * 300 * 100) * 8.0);
        const double need = strassen::referenceHostBytes(s);
        QVERIFY(strassen::referenceMemoryShortfall(s, need).empty());
        QVERIFY(strassen::referenceMemoryShortfall(s, 0).empty());  // unknown: not refused here
        const std::string why = strassen::referenceMemoryShortfall(s, need / 2);
        QVERIFY2(why.find("FP64 reference needs " + formatBytes(need)) != std::string::npos, why.c_str());
        QVERIFY2(why.find("only " + formatBytes(need / 2)) != std::string::npos, why.c_str());

        StrassenConfig c = config({64, 64, 64}, 2, StrassenVariant::Msmes);
        c.verify = false;
        StrassenResult r = run(c);
        r.verdict = StrassenVerdict::NotVerified;
        r.checks.push_back({"reference", "skipped", -1, -1, why});
        const std::string reason = strassenNotVerifiedReason(r);
        QVERIFY2(reason.find("could not run: " + why) != std::string::npos, reason.c_str());
    }
};

QTEST_APPLESS_MAIN(TestStrassenVerdict)
#include "tst_strassen_verdict.moc"
