// The online step-sums path's screen (gigacheck::cuda::screenChecks): a group's checks decided by
// one launch from each step's slots must decide each as verify does after the step is loaded into C
// and aux -- a clean check with the same verdict, threshold range and largest clean ratio bit for
// bit (its verdict is then the one reported), a mismatching one never called clean (it then runs in
// full) -- whatever the other checks of the launch hold, on shapes from one cell to more lines than
// the check's cluster has threads.
#include "gpu_available.hpp"

#ifdef GIGACHECK_HAVE_CUDA
#include "../../engine/src/families/online_abft/cuda/screen_test_support.hpp"
#endif

#include <cstring>

class TestCudaScreenedChecks : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { GIGACHECK_REQUIRE_CUDA_DEVICE(); }
    void screenDecidesAsVerify_data();
    void screenDecidesAsVerify();
};

void TestCudaScreenedChecks::screenDecidesAsVerify_data()
{
    QTest::addColumn<int>("m");
    QTest::addColumn<int>("q");
    QTest::addRow("1x1") << 1 << 1;
    QTest::addRow("5x7") << 5 << 7;
    QTest::addRow("1025x513") << 1025 << 513;
    QTest::addRow("9000x300 (more rows than the cluster's threads)") << 9000 << 300;
}

#ifdef GIGACHECK_HAVE_CUDA
namespace {
bool sameBits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }
}  // namespace
#endif

void TestCudaScreenedChecks::screenDecidesAsVerify()
{
#ifdef GIGACHECK_HAVE_CUDA
    using gigacheck::online_abft::cuda::ScreenedCase;
    QFETCH(int, m);
    QFETCH(int, q);
    // Clean, a fault's row and column, clean after it, a row sum alone off, clean again; then a
    // launch of one clean check and one of the most checks a launch takes.
    const std::vector<std::vector<ScreenedCase>> launches = {
        {{}, {m / 2, q / 3, 10.0}, {}, {m - 1, -1, 5.0}, {}},
        {{}},
        std::vector<ScreenedCase>(8),  // kScreenedMax
    };
    for (const std::vector<ScreenedCase>& checks : launches) {
        const auto outcomes = gigacheck::online_abft::cuda::screenAndVerify(m, q, 8 * 1024, checks);
        QCOMPARE(outcomes.size(), checks.size());
        for (std::size_t t = 0; t < checks.size(); ++t) {
            const auto& o = outcomes[t];
            const QString at = QStringLiteral("check %1 of %2").arg(t).arg(checks.size());
            if (checks[t].row < 0 && checks[t].col < 0) {
                QVERIFY2(o.verifyClean, qPrintable(at));
                QVERIFY2(o.screenClean, qPrintable(at));
                QCOMPARE(o.screenRows, 0);
                QCOMPARE(o.screenCols, 0);
                QVERIFY2(sameBits(o.screenRatio, o.verifyRatio),
                         qPrintable(at + QStringLiteral(": ratio %1 / %2").arg(o.screenRatio).arg(o.verifyRatio)));
                if (m * q > 1)  // a real ratio, not an untouched zero (one cell's sums are exact)
                    QVERIFY2(o.verifyRatio > 0, qPrintable(at));
                QVERIFY2(sameBits(o.screenMinThreshold, o.verifyMinThreshold), qPrintable(at));
                QVERIFY2(sameBits(o.screenMaxThreshold, o.verifyMaxThreshold), qPrintable(at));
                QVERIFY2(o.verifyMinThreshold > 0 && o.verifyMaxThreshold >= o.verifyMinThreshold, qPrintable(at));
            } else {
                QVERIFY2(!o.verifyClean, qPrintable(at));
                QVERIFY2(o.screenMismatch, qPrintable(at));
            }
        }
    }
#else
    QSKIP("GPU test skipped: built without CUDA");
#endif
}

QTEST_GUILESS_MAIN(TestCudaScreenedChecks)
#include "tst_cuda_screened_checks.moc"
