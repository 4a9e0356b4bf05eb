// The strassen family's verdict on a real GPU (cuBLAS and tensor-core leaves): C's checks see a
// fault in C at two and more levels, and clean runs of odd and large shapes raise no alarm.
// GIGACHECK_CLEAN_RUNS sets the number of clean runs (default 240; the device run uses 10 000).
#include "gpu_available.hpp"

#include "gigacheck/strassen.hpp"

#include <QElapsedTimer>
#include <QtTest>

#include <algorithm>
#include <cstdlib>
#include <map>

using namespace gigacheck;

namespace {

StrassenResult runOnGpu(const StrassenConfig& c)
{
    auto backend = makeStrassenBackend(c);
    return runStrassen(c, *backend);
}

bool anyAlarm(const StrassenResult& r)
{
    return std::any_of(r.checks.begin(), r.checks.end(), [](const StrassenCheck& k) { return k.verdict != "clean"; });
}

QString describe(const StrassenResult& r)
{
    QString s = QStringLiteral("%1x%2x%3 L%4 %5%6 %7: status %8, clean ratio %9;")
                    .arg(r.config.shape.m)
                    .arg(r.config.shape.n)
                    .arg(r.config.shape.q)
                    .arg(r.config.levels)
                    .arg(QString::fromLatin1(toString(r.config.precision).data()))
                    .arg(r.config.tf32 ? QStringLiteral("/tf32") : QString())
                    .arg(QString::fromLatin1(toString(r.config.variant).data()))
                    .arg(QString::fromStdString(strassenOutcome(r)))
                    .arg(r.cWorstCleanRatio);
    for (const StrassenCheck& k : r.checks)
        s += QStringLiteral(" [%1 %2: %3]").arg(QString::fromStdString(k.where), QString::fromStdString(k.verdict),
                                                QString::fromStdString(k.detail));
    return s;
}

}  // namespace

class TestCudaStrassenVerdict : public QObject {
    Q_OBJECT
private slots:
    void cFaultCaughtAtTwoAndMoreLevels_data()
    {
        QTest::addColumn<int>("n");
        QTest::addColumn<int>("levels");
        QTest::addColumn<int>("variant");
        QTest::addColumn<bool>("leaves");
        QTest::addColumn<int>("quadrant");
        QTest::newRow("2048 L2 msmes c0") << 2048 << 2 << int(StrassenVariant::Msmes) << false << 0;
        QTest::newRow("2048 L2 msmes c3") << 2048 << 2 << int(StrassenVariant::Msmes) << false << 3;
        QTest::newRow("2048 L2 accumulate c0") << 2048 << 2 << int(StrassenVariant::Accumulate) << false << 0;
        QTest::newRow("2048 L2 msmes check-leaves c0") << 2048 << 2 << int(StrassenVariant::Msmes) << true << 0;
        QTest::newRow("2048 L3 winograd c1") << 2048 << 3 << int(StrassenVariant::Winograd) << false << 1;
        QTest::newRow("4096 L2 msmes c0") << 4096 << 2 << int(StrassenVariant::Msmes) << false << 0;
        QTest::newRow("4096 L4 accumulate c2") << 4096 << 4 << int(StrassenVariant::Accumulate) << false << 2;
    }
    void cFaultCaughtAtTwoAndMoreLevels()
    {
        GIGACHECK_REQUIRE_CUDA_DEVICE();
        QFETCH(int, n);
        QFETCH(int, levels);
        QFETCH(int, variant);
        QFETCH(bool, leaves);
        QFETCH(int, quadrant);
        StrassenConfig c;
        c.shape = {n, n, n};
        c.levels = levels;
        c.variant = StrassenVariant(variant);
        c.checkLeaves = leaves;
        c.backend = BackendKind::Cuda;
        c.referenceAlways = true;
        c.faults.push_back(parseStrassenFault("c:" + std::to_string(quadrant)));
        const StrassenResult r = runOnGpu(c);
        QVERIFY2(strassenOutcome(r) == "ok", qPrintable(describe(r)));
        QCOMPARE(r.referenceMismatches, std::int64_t(0));
        const bool repaired = std::any_of(r.checks.begin(), r.checks.end(), [](const StrassenCheck& k) {
            return k.where == "c" && (k.verdict == "corrected" || k.verdict == "recomputed");
        });
        QVERIFY2(repaired, qPrintable(describe(r)));
        qInfo("%s", qPrintable(describe(r)));
    }

    // TF32 leaves on the tensor cores (the hardware rounds the stage sums): C's checks and the
    // reference take that rounding from the sums the leaves multiply (leaf_rounding.hpp). Clean
    // runs of 1537x999x1301 at every level raise no alarm (the largest ratios are printed), and a
    // cell off by 3 (5.9 % of max |C|) at L4 ends repaired, C at its clean TF32 error.
    void tf32StageSumThresholdsOnTheDevice()
    {
        GIGACHECK_REQUIRE_CUDA_DEVICE();
        double worstC = 0, worstReference = 0;
        for (StrassenVariant v : {StrassenVariant::Msmes, StrassenVariant::Accumulate})
            for (int levels = 1; levels <= 4; ++levels)
                for (Distribution d : {Distribution::Uniform, Distribution::Normal}) {
                    StrassenConfig c;
                    c.shape = {1537, 999, 1301};
                    c.levels = levels;
                    c.variant = v;
                    c.tf32 = true;
                    c.distribution = d;
                    c.backend = BackendKind::Cuda;
                    c.referenceAlways = true;
                    const StrassenResult r = runOnGpu(c);
                    QVERIFY2(strassenOutcome(r) == "ok" && !anyAlarm(r), qPrintable(describe(r)));
                    QCOMPARE(r.referenceMismatches, std::int64_t(0));
                    worstC = std::max(worstC, r.cWorstCleanRatio);
                    worstReference = std::max(worstReference, r.referenceWorstRatio);
                }
        qInfo("TF32 clean runs, 1537x999x1301 L1-L4: largest clean residual %.4g x threshold, largest cell error "
              "%.4g x the reference's tolerance",
              worstC, worstReference);
        StrassenConfig c;
        c.shape = {1537, 999, 1301};
        c.levels = 4;
        c.tf32 = true;
        c.backend = BackendKind::Cuda;
        c.faults.push_back(parseStrassenFault("c:1:3"));
        const StrassenResult r = runOnGpu(c);
        QVERIFY2(strassenOutcome(r) == "ok" && r.maxErrorC < 1.0, qPrintable(describe(r)));
        QVERIFY2(anyAlarm(r), qPrintable(describe(r)));  // seen by a check, not left in C
        qInfo("%s (error of C %.4g)", qPrintable(describe(r)), r.maxErrorC);
    }

    void cleanRunsRaiseNoAlarm()
    {
        GIGACHECK_REQUIRE_CUDA_DEVICE();
        const char* env = std::getenv("GIGACHECK_CLEAN_RUNS");
        const int runs = env ? std::max(1, std::atoi(env)) : 240;
        // GIGACHECK_CLEAN_MAX_DIM / GIGACHECK_CLEAN_LARGE_EVERY: the odd shapes' largest side (1500)
        // and one run in how many large (25).
        const char* dimEnv = std::getenv("GIGACHECK_CLEAN_MAX_DIM");
        const char* everyEnv = std::getenv("GIGACHECK_CLEAN_LARGE_EVERY");
        const std::uint64_t maxDim = dimEnv ? std::uint64_t(std::max(1, std::atoi(dimEnv))) : 1500;
        const int largeEvery = everyEnv ? std::max(1, std::atoi(everyEnv)) : 25;
        std::map<QString, double> worst;  // by precision and level
        std::uint64_t x = 88172645463325252ull;
        auto next = [&x](std::uint64_t bound) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            return std::int64_t(x % bound);
        };
        const StrassenVariant variants[] = {StrassenVariant::Msmes, StrassenVariant::Winograd, StrassenVariant::Workspace,
                                            StrassenVariant::Accumulate};
        // GIGACHECK_CLEAN_SECONDS: stop after that long (a device command's limit), saying how far.
        const char* secondsEnv = std::getenv("GIGACHECK_CLEAN_SECONDS");
        QElapsedTimer clock;
        clock.start();
        int alarms = 0, done = 0;
        for (int i = 0; i < runs; ++i, ++done) {
            if (secondsEnv && clock.elapsed() > 1000 * std::atoll(secondsEnv))
                break;
            StrassenConfig c;
            // Mostly odd shapes; one run in largeEvery large (2048..4096).
            const bool large = i % largeEvery == largeEvery - 1;
            auto dim = [&]() { return large ? 2048 + 64 * next(33) : 1 + next(maxDim); };
            c.shape = {dim(), dim(), dim()};
            c.levels = int(next(5));
            c.variant = variants[next(4)];
            const int type = int(next(3));
            c.precision = type == 1 ? Precision::F64 : Precision::F32;
            c.tf32 = type == 2;
            c.distribution = Distribution(next(3));
            c.seed = std::uint64_t(i + 1);
            c.backend = BackendKind::Cuda;
            c.reference = false;  // C's own checks are under test; the reference would only slow it
            const StrassenResult r = runOnGpu(c);
            const QString key = QStringLiteral("%1 L%2").arg(c.tf32 ? QStringLiteral("tf32")
                                                                     : QString::fromLatin1(toString(c.precision).data()))
                                    .arg(r.levels);
            worst[key] = std::max(worst[key], r.cWorstCleanRatio);
            // Without the reference, checks too coarse to vouch for each cell end "not_verified"
            // (exit 3): honest, not an alarm.
            if ((strassenOutcome(r) != "ok" && strassenOutcome(r) != "not_verified") || anyAlarm(r)) {
                ++alarms;
                qWarning("false alarm: %s", qPrintable(describe(r)));
            }
        }
        for (const auto& [key, ratio] : worst)
            qInfo("clean runs, %s: largest clean residual %.4g x threshold", qPrintable(key), ratio);
        qInfo("%d clean runs, %d false alarms", done, alarms);
        QCOMPARE(alarms, 0);
    }
};

QTEST_APPLESS_MAIN(TestCudaStrassenVerdict)
#include "tst_cuda_strassen_verdict.moc"
