// BF16 / FP16 inputs in the lab's online schemes: the precision box's bf16 (as `--type bf16`) makes
// an online configuration with the 16-bit variant, a CPU run with a fault after a middle step is
// emulated with the rounded operands and corrected at that step's check, the report names the
// inputs, TMR is refused with the reason, and a device run's step view is replayed on the CPU with
// the same rounding.
#include "ui/uitestmain.hpp"
#include "ui/windowrun.hpp"

#include <engine/onlinerun.hpp>
#include <panels/faultspanel.hpp>
#include <panels/onlinefaultbox.hpp>
#include <panels/onlineschemebox.hpp>
#include <panels/strategypanel.hpp>
#include <session/labsession.hpp>
#include <views/heatmapview.hpp>
#include <views/reportview.hpp>
#include <window/mainwindow.hpp>

#include <gigacheck/online_abft.hpp>

#include <QComboBox>

using namespace gigacheck;
using namespace gigacheck::ui;

class TestOnline16BitLab : public QObject {
    Q_OBJECT

private slots:
    void bf16RunsOnline()
    {
        MainWindow window;
        RunConfig base = test::smallCpuRun();
        base.gemm = GemmVariant::CublasBf16;  // what the precision box's bf16 item sets
        window.setConfig(base);
        window.strategyPanel()->schemeBox()->setSettings({Scheme::Online, 16, 1, 1});  // 5 steps
        window.faultsPanel()->onlineFaultBox()->setSettings({OnlineTarget::Result, 2});
        window.heatmap()->setFaults({FaultAt{10, 20, 50.0, {}}});
        QString error;
        const std::optional<OnlineConfig> c = window.currentOnlineConfig(&error);
        QVERIFY2(c, qPrintable(error));
        QVERIFY(c->gemm == GemmVariant::CublasBf16);
        QVERIFY(c->precision == Precision::F32);

        QVERIFY(test::runAndWaitForRecord(window));
        QVERIFY(window.session()->online());
        const OnlineRecord& r = window.session()->online()->record;
        QVERIFY(r.config.gemm == GemmVariant::CublasBf16);
        QVERIFY(r.verifiedCorrect());
        bool caught = false;
        for (const VerifyEvent& e : r.verifications)
            caught = caught || (e.block.k == 2 && e.result.verdict == Verdict::Corrected);
        QVERIFY(caught);
        QVERIFY2(window.report()->text().contains(QStringLiteral("BF16 inputs")), qPrintable(window.report()->text()));

        OnlineConfig tmr = *c;
        tmr.scheme = Scheme::Tmr;
        tmr.faults.clear();
        QString refusal;
        try {
            validateOnlineConfig(tmr, BackendKind::Cpu);
        } catch (const InputError& e) {
            refusal = QString::fromUtf8(e.what());
        }
        QVERIFY2(refusal.contains(QStringLiteral("--scheme tmr with --type bf16")), qPrintable(refusal));
    }

    // The replay of a device run on the CPU keeps the 16-bit rounding; other kernels replay as FP32.
    void replayKeepsTheRounding()
    {
        OnlineConfig c;
        c.shape = {32, 32, 32};
        c.backend = BackendKind::Cuda;
        c.gemm = GemmVariant::CublasF16;
        QVERIFY(cpuReplayOf(c).gemm == GemmVariant::CublasF16);
        QVERIFY(cpuReplayOf(c).backend == BackendKind::Cpu);
        c.gemm = GemmVariant::CutlassTf32;
        QVERIFY(cpuReplayOf(c).gemm == GemmVariant::Cublas);
    }
};

GIGACHECK_UI_TEST_MAIN(TestOnline16BitLab)
#include "tst_online16bitlab.moc"
