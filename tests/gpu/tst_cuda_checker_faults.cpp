// The checker's own faults and two-bit flips on the device (gigacheck/fault_models.hpp): a check
// that lies, a hit correction write, a hit c_A / r_B entry and two bits of one word, injected by
// the CUDA backend's ops, end each run of a 256^3 FP32 campaign in the same outcome class as the
// CPU backend's emulation of the same seed -- and never in SDC, DUE or a false alarm. Faults of
// high bits, so that the round-off of cuBLAS against OpenBLAS cannot move a run across classes.
// Two models are held to the classes they promise (engine/src/campaign/README.md) rather than to
// the CPU's class run by run: the lying check, whose one-axis location rests on round-off
// residuals, and the encoding, whose c_A on the device lives only inside a product's pass (its
// round-off scales are those of the true c_A, the CPU's of the hit one).
#include "gpu_available.hpp"

#include "gigacheck/campaign.hpp"

#include <QtTest>

#include <set>

using namespace gigacheck;

namespace {

CampaignConfig campaignOf(CampaignTarget target, const char* fault, BackendKind backend)
{
    CampaignConfig c;
    c.runs = 12;
    c.shape = {256, 256, 256};
    c.strategies = {StrategyKind::S1, StrategyKind::S2};
    c.backend = backend;
    c.target = target;
    c.seed = 41;
    parseCampaignFault(fault, c);
    return c;
}

std::multiset<int> targetsOf(const CampaignRun& run)
{
    std::multiset<int> out;
    for (const Injection& inj : run.applied)
        out.insert(int(inj.target));
    return out;
}

QString describe(const CampaignConfig& c, const CampaignRun& run)
{
    return QStringLiteral("%1: %2").arg(QString::fromLatin1(toString(run.outcome).data(), qsizetype(toString(run.outcome).size())),
                                        QString::fromStdString(reproduceCommand(c, run)));
}

}  // namespace

class TestCudaCheckerFaults : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { GIGACHECK_REQUIRE_CUDA_DEVICE(); }

    void sameOutcomeAsTheCpu_data()
    {
        QTest::addColumn<int>("target");
        QTest::addColumn<QString>("fault");
        QTest::addColumn<bool>("sameClass");  // run by run as the CPU's, else within the promised classes
        QTest::addRow("correction bit 30") << int(CampaignTarget::Correction) << "bitflip:30" << true;
        QTest::addRow("two bits 30+29") << int(CampaignTarget::Result) << "bitflip:30+29" << true;
        QTest::addRow("two bits 28+22") << int(CampaignTarget::Result) << "bitflip:28+22" << true;
        QTest::addRow("encoding bit 30") << int(CampaignTarget::Encoding) << "bitflip:30" << false;
        QTest::addRow("encoding delta") << int(CampaignTarget::Encoding) << "delta" << false;
        QTest::addRow("check") << int(CampaignTarget::Check) << "bitflip:30" << false;
    }
    void sameOutcomeAsTheCpu()
    {
        QFETCH(int, target);
        QFETCH(QString, fault);
        QFETCH(bool, sameClass);
        const std::string text = fault.toStdString();
        const CampaignConfig cpuConfig = campaignOf(CampaignTarget(target), text.c_str(), BackendKind::Cpu);
        const CampaignConfig gpuConfig = campaignOf(CampaignTarget(target), text.c_str(), BackendKind::Cuda);
        const CampaignResult cpu = runCampaign(cpuConfig);
        const CampaignResult gpu = runCampaign(gpuConfig);
        QCOMPARE(gpu.runs.size(), cpu.runs.size());
        // Every model: repaired from the checksums or by recompute, never SDC, DUE or a false alarm.
        const std::set<Outcome> promised{Outcome::Corrected, Outcome::CorrectedByRecompute};
        for (std::size_t i = 0; i < gpu.runs.size(); ++i) {
            const CampaignRun& g = gpu.runs[i];
            const CampaignRun& c = cpu.runs[i];
            QVERIFY2(promised.count(g.outcome) == 1, qPrintable(describe(gpuConfig, g)));
            QVERIFY2(g.status == "ok", qPrintable(describe(gpuConfig, g) + " " + QString::fromStdString(g.error)));
            QVERIFY2(!g.applied.empty(), qPrintable(describe(gpuConfig, g)));  // the device injected it
            QCOMPARE(targetsOf(g), targetsOf(c));  // the same faults applied, whatever the report order
            const QString both = QStringLiteral("GPU ") + describe(gpuConfig, g) + QStringLiteral(" / CPU ") +
                                 describe(cpuConfig, c);
            if (sameClass)
                QVERIFY2(g.outcome == c.outcome, qPrintable(both));
            else
                QVERIFY2(promised.count(g.outcome) == 1 && promised.count(c.outcome) == 1, qPrintable(both));
            for (const Injection& inj : g.applied)
                if (inj.target == FaultTarget::Check)  // the line's true threshold kept, then the lie
                    QVERIFY2(inj.before > 0 && inj.after < 0, qPrintable(both));
        }
        if (CampaignTarget(target) == CampaignTarget::Correction)  // every hit write is recomputed
            QVERIFY(gpu.summary.all[Outcome::CorrectedByRecompute] > 0);
    }
};

QTEST_GUILESS_MAIN(TestCudaCheckerFaults)
#include "tst_cuda_checker_faults.moc"
