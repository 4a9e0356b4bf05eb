// End-to-end operand checks on the device (gigacheck/blocked_gemm/operand_checks.hpp): an operand element
// corrupted after A and B entered the program (here in the host matrix, so every device copy of
// its block carries it, as a fault in transit would) is seen by the sums pass over the device copy,
// restored on the host, and the C blocks it fed recomputed: the run ends verified correct with C
// the product of the inputs as they entered -- the campaign's `a` / `b` targets, never SDC.
// FP32, FP64 and TF32, in one block and in blocks.
#include "blocked_device_runs.hpp"
#include "gpu_available.hpp"

#include "gigacheck/blocked_gemm.hpp"
#include "gigacheck/blocked_gemm/campaign.hpp"
#include "engine/gemm_run_helpers.hpp"

#include <QtTest>

#include <algorithm>
#include <cmath>

using namespace gigacheck;

namespace {

RunConfig deviceRun(Precision p, GemmVariant g, StrategyKind k)
{
    RunConfig c = test::deviceRun(g, {200, 160, 180}, k, p);
    c.seed = 11;
    return c;
}

}  // namespace

class TestCudaOperandChecks : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { GIGACHECK_REQUIRE_CUDA_DEVICE(); }

    void cleanRunsCheckEveryCopy_data() { rows(false); }
    void cleanRunsCheckEveryCopy()
    {
        QFETCH(int, precision);
        QFETCH(int, gemm);
        QFETCH(int, strategy);
        const test::FinishedRun clean = test::runKeepingC(deviceRun(Precision(precision), GemmVariant(gemm), StrategyKind(strategy)), {});
        const OperandCheckReport& o = clean.record.operandChecks;
        QVERIFY(o.ran);
        QVERIFY(o.copiesChecked > 0);
        QVERIFY2(o.mismatches.empty(), formatReport(clean.record).c_str());
        // Sums in double over the copy, against sums in double at entry: far inside the threshold.
        QVERIFY2(o.maxCleanRatio < 0.1, std::to_string(o.maxCleanRatio).c_str());
        QVERIFY(clean.record.verifiedCorrect());
    }

    void operandCorruptedAfterEntryIsRepaired_data() { rows(true); }
    void operandCorruptedAfterEntryIsRepaired()
    {
        QFETCH(int, precision);
        QFETCH(int, gemm);
        QFETCH(int, strategy);
        QFETCH(char, operand);
        QFETCH(int, bit);
        const RunConfig config = deviceRun(Precision(precision), GemmVariant(gemm), StrategyKind(strategy));
        const test::FinishedRun clean = test::runKeepingC(config, {});
        Injection flip;
        flip.model = FaultModel::BitFlip;
        flip.bit = bit;
        const test::FinishedRun hit = test::runKeepingC(config, [&](HostMatrix& a, HostMatrix& b) {
            HostMatrix& m = operand == 'a' ? a : b;
            m.set(17, 29, applyFault(flip, m.at(17, 29), m.precision()));
        });
        const OperandCheckReport& o = hit.record.operandChecks;
        QVERIFY2(!o.mismatches.empty(), formatReport(hit.record).c_str());
        QVERIFY(std::all_of(o.mismatches.begin(), o.mismatches.end(),
                            [&](const OperandMismatch& m) { return m.operand == operand; }));
        QCOMPARE(o.hostElementsRestored, std::int64_t(1));
        QCOMPARE(o.hostBlocksUnrestorable, std::int64_t(0));
        QVERIFY2(hit.record.verifiedCorrect(), formatReport(hit.record).c_str());
        // C is the product of the inputs as they entered (the recompute runs on the host: its own
        // rounding, TF32's included, stays within the reference tolerance of the clean run's C).
        const double scale = std::max(1.0, test::maxAbs(clean.c));
        const double tolerance = precision == int(Precision::F64) ? 1e-10 : gemm == int(GemmVariant::CublasTf32) ? 1e-2 : 1e-4;
        QVERIFY2(test::maxDifference(hit.c, clean.c) <= tolerance * scale, formatReport(hit.record).c_str());
        RunRecord forCampaign = hit.record;
        forCampaign.faults.injected = 1;  // as the campaign counts its operand fault
        QVERIFY(classifyRun(forCampaign) == Outcome::CorrectedByRecompute);
    }

private:
    void rows(bool withFaults)
    {
        QTest::addColumn<int>("precision");
        QTest::addColumn<int>("gemm");
        QTest::addColumn<int>("strategy");
        QTest::addColumn<char>("operand");
        QTest::addColumn<int>("bit");
        struct Kind {
            const char* name;
            Precision p;
            GemmVariant g;
        };
        for (const Kind& kind : {Kind{"f32", Precision::F32, GemmVariant::Cublas},
                                 Kind{"f64", Precision::F64, GemmVariant::Cublas},
                                 Kind{"tf32", Precision::F32, GemmVariant::CublasTf32}})
            for (StrategyKind s : {StrategyKind::None, StrategyKind::S2, StrategyKind::S4}) {
                const std::string strategy(toString(s));
                if (!withFaults) {
                    QTest::addRow("%s %s", kind.name, strategy.c_str())
                        << int(kind.p) << int(kind.g) << int(s) << 'a' << 0;
                    continue;
                }
                for (char operand : {'a', 'b'})
                    for (int top : {1, 2, 10}) {  // the top exponent bit (huge), the next, a mantissa bit
                        const int bit = (kind.p == Precision::F64 ? 64 : 32) - top;
                        QTest::addRow("%s %s %c bit %d", kind.name, strategy.c_str(), operand, bit)
                            << int(kind.p) << int(kind.g) << int(s) << operand << bit;
                    }
            }
    }
};

QTEST_GUILESS_MAIN(TestCudaOperandChecks)
#include "tst_cuda_operand_checks.moc"
