// The online ABFT family in the lab (issue 9 item 6): the scheme chosen in the Strategy panel
// makes the right configuration; an online run with a fault after step j (fq = 1) shows it
// struck at step j and caught at step j's check through the step slider's model; the fq sweep
// model on the CPU; online and blocked records open (and an online record saves as one).
#include "ui/uitestmain.hpp"
#include "ui/windowrun.hpp"

#include <panels/faultspanel.hpp>
#include <panels/onlinefaultbox.hpp>
#include <panels/onlineschemebox.hpp>
#include <panels/strategypanel.hpp>
#include <engine/onlinerun.hpp>
#include <session/labsession.hpp>
#include <views/animationpanel.hpp>
#include <views/heatmapview.hpp>
#include <views/online/fqsweepmodel.hpp>
#include <views/online/onlinestepview.hpp>
#include <views/plotstyle.hpp>
#include <models/rooflinemodel.hpp>
#include <views/reportview.hpp>
#include <views/timelineview.hpp>
#include <window/mainwindow.hpp>

#include <gigacheck/blocked_gemm/run.hpp>
#include <gigacheck/online_abft.hpp>

#include <QComboBox>
#include <QLabel>
#include <QRadioButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>

using namespace gigacheck;
using namespace gigacheck::ui;

class TestOnlineLab : public QObject {
    Q_OBJECT

private slots:
    void eachSchemeMakesItsConfig()
    {
        MainWindow window;
        window.setConfig(test::smallCpuRun());
        window.heatmap()->setFaults({FaultAt{3, 50, {}, {}}});
        auto* scheme = window.findChild<QComboBox*>(QStringLiteral("scheme"));
        QVERIFY(scheme);
        window.findChild<QSpinBox*>(QStringLiteral("panelWidth"))->setValue(16);
        window.findChild<QSpinBox*>(QStringLiteral("checkEvery"))->setValue(2);
        window.findChild<QSpinBox*>(QStringLiteral("checksums"))->setValue(2);
        window.findChild<QSpinBox*>(QStringLiteral("columnBlocks"))->setValue(2);
        auto* target = window.faultsPanel()->findChild<QComboBox*>(QStringLiteral("onlineTarget"));
        target->setCurrentIndex(target->findData(int(OnlineTarget::A)));
        window.faultsPanel()->findChild<QSpinBox*>(QStringLiteral("onlineStep"))->setValue(1);

        for (Scheme s : {Scheme::Blocked, Scheme::Online, Scheme::Offline, Scheme::Tmr}) {
            scheme->setCurrentIndex(scheme->findData(int(s)));
            QString error;
            const std::optional<OnlineConfig> c = window.currentOnlineConfig(&error);
            QVERIFY2(error.isEmpty(), qPrintable(error));
            if (s == Scheme::Blocked) {
                QVERIFY(!c);  // blocked ABFT: the RunConfig of today
                RunConfig blocked;
                QVERIFY(window.currentConfig(&blocked, &error));
                QCOMPARE(blocked.faults.at.size(), std::size_t(1));
                continue;
            }
            QVERIFY(c);
            QVERIFY(c->scheme == s);
            QCOMPARE(c->shape.m, std::int64_t(96));
            QCOMPARE(c->shape.n, std::int64_t(80));
            QVERIFY(c->backend == BackendKind::Cpu);
            QCOMPARE(c->panel, std::int64_t(16));
            QCOMPARE(c->checkEvery, s == Scheme::Offline ? 0 : 2);
            QCOMPARE(c->checksums, 2);
            QCOMPARE(c->columnBlocks, 2);
            QCOMPARE(c->faults.size(), std::size_t(1));
            QVERIFY(c->faults[0].target == OnlineTarget::A);
            QCOMPARE(c->faults[0].row, std::int64_t(3));
            QCOMPARE(c->faults[0].col, std::int64_t(50));  // A(3, 50): inside n = 80
            QVERIFY(c->faults[0].step == std::optional<int>(1));
        }
        // A placed cell beyond n lands on A's last column; B clamps the row.
        window.heatmap()->setFaults({FaultAt{90, 60, {}, {}}});
        scheme->setCurrentIndex(scheme->findData(int(Scheme::Online)));
        QString error;
        QCOMPARE(window.currentOnlineConfig(&error)->faults[0].row, std::int64_t(90));
        target->setCurrentIndex(target->findData(int(OnlineTarget::B)));
        QCOMPARE(window.currentOnlineConfig(&error)->faults[0].row, std::int64_t(79));
        QCOMPARE(window.currentOnlineConfig(&error)->faults[0].col, std::int64_t(60));
        target->setCurrentIndex(target->findData(int(OnlineTarget::ChecksumRow)));
        QCOMPARE(window.currentOnlineConfig(&error)->faults[0].row, std::int64_t(0));
        window.findChild<QSpinBox*>(QStringLiteral("columnBlocks"))->setValue(0);  // auto: what the CPU runs
        QVERIFY(validateOnlineConfigAccepts(*window.currentOnlineConfig(&error)));
    }

    // The GEMM selector offers cutlass-tf32 to the online schemes: the configuration carries it, the
    // CPU emulates it (a fault still caught), and where a GPU run would refuse it (K = 2 weighted
    // checksums) the refusal names the kernel and what to use instead; a kernel the online schemes
    // do not take on the GPU is refused naming the three they do.
    void cutlassTf32OfferedToTheOnlineScheme()
    {
        MainWindow window;
        window.setConfig(test::smallCpuRun());
        auto* gemm = window.findChild<QComboBox*>(QStringLiteral("gemm"));
        QVERIFY(gemm);
        const int cutlass = gemm->findData(int(GemmVariant::CutlassTf32));
        QVERIFY(cutlass >= 0);
        QCOMPARE(gemm->itemText(cutlass), QStringLiteral("cutlass-tf32"));
        gemm->setCurrentIndex(cutlass);
        window.strategyPanel()->schemeBox()->setSettings({Scheme::Online, 16, 1, 1});
        window.faultsPanel()->onlineFaultBox()->setSettings({OnlineTarget::Result, 2});
        window.heatmap()->setFaults({FaultAt{10, 20, 50.0, {}}});
        QString error;
        std::optional<OnlineConfig> c = window.currentOnlineConfig(&error);
        QVERIFY2(c, qPrintable(error));
        QVERIFY(c->gemm == GemmVariant::CutlassTf32);
        QVERIFY(validateOnlineConfigAccepts(*c));

        QVERIFY(test::runAndWaitForRecord(window));
        QVERIFY(window.session()->online());
        const OnlineRecord& r = window.session()->online()->record;
        QVERIFY(r.config.gemm == GemmVariant::CutlassTf32);
        QVERIFY(r.verifiedCorrect());
        QVERIFY2(window.report()->text().contains(QStringLiteral("cutlass-tf32")), qPrintable(window.report()->text()));

        OnlineConfig weighted = *c;
        weighted.checksums = 2;
        const QString refusal = refusalOf(weighted, BackendKind::Cuda);
        QVERIFY2(refusal.contains(QStringLiteral("--gemm cutlass-tf32")) && refusal.contains(QStringLiteral("use --gemm cublas")),
                 qPrintable(refusal));
        OnlineConfig tiled = *c;
        tiled.gemm = GemmVariant::Tiled;
        const QString tiledRefusal = refusalOf(tiled, BackendKind::Cuda);
        QVERIFY2(tiledRefusal.contains(QStringLiteral("cublas, cublas-tf32, cutlass-tf32 or tf32x3")),
                 qPrintable(tiledRefusal));
    }

    // A fault after step 2 with fq = 1 appears at step 2 and is caught (corrected) at step 2's check.
    void faultCaughtAtItsStep()
    {
        MainWindow window;
        window.resize(1366, 768);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.setConfig(test::smallCpuRun());
        auto* s2 = window.strategyPanel()->findChild<QRadioButton*>(QStringLiteral("strategy_s2"));
        auto* summary = window.strategyPanel()->findChild<QLabel*>(QStringLiteral("planSummary"));
        QVERIFY(s2 && summary && s2->isEnabled());
        window.strategyPanel()->schemeBox()->setSettings({Scheme::Online, 16, 1, 1});  // 5 steps
        // The strategies and the plan are blocked ABFT's: greyed out, and the panel says what runs.
        QVERIFY(!s2->isEnabled());
        QVERIFY2(summary->text().contains(QLatin1String("5 panel product(s) of width b = 16")), qPrintable(summary->text()));
        window.faultsPanel()->onlineFaultBox()->setSettings({OnlineTarget::Result, 2});
        window.heatmap()->setFaults({FaultAt{10, 20, {}, {}}});
        QVERIFY(test::runAndWaitForRecord(window));
        QVERIFY(window.session()->online());
        const OnlineRecord& r = window.session()->online()->record;
        QCOMPARE(r.steps, 5);
        QVERIFY(r.verifiedCorrect());
        QVERIFY(window.timeline()->model().spanCount() > 5);  // panel products and checks on the timeline
        QVERIFY(!window.onlineSteps()->isHidden());  // in the error animation's place (the tab behind the timeline)
        QVERIFY(window.animation()->isHidden());

        const OnlineStepModel& m = window.onlineSteps()->model();
        QCOMPARE(m.faults().size(), std::size_t(1));
        QCOMPARE(m.faults()[0].step, 2);
        QCOMPARE(m.faults()[0].caughtAtStep, 2);
        QVERIFY(m.faults()[0].corrected);
        const int before = m.positionOf(2, OnlineStepModel::Phase::Product);
        const int struck = m.positionOf(2, OnlineStepModel::Phase::Fault);
        const int check = m.positionOf(2, OnlineStepModel::Phase::Check);
        QVERIFY(before >= 0 && struck == before + 1 && check == struck + 1);
        QVERIFY(m.faultsAt(before).empty());
        QCOMPARE(m.faultsAt(struck).size(), std::size_t(1));
        QVERIFY(!m.faultsAt(struck)[0].caught);
        QVERIFY(m.faultsAt(check)[0].caught);
        QVERIFY(m.checkAt(check)->result.verdict == Verdict::Corrected);
        QVERIFY(m.checkAt(m.positionOf(1, OnlineStepModel::Phase::Check))->result.verdict == Verdict::Clean);

        // The frames: the spike is there after the fault and gone after the check.
        const StepFrames& f = window.session()->online()->frames;
        QVERIFY(!f.replayedOnCpu);
        QCOMPARE(f.checksums, 1);
        const auto cell = [&](int position) {
            const StepFrame* frame = m.frame(position);
            return frame ? double(frame->cells[std::size_t(f.cellRow(10) * (f.gridCols + 1) + f.cellCol(20))]) : 0.0;
        };
        QVERIFY(m.frame(before) && m.frame(struck) && m.frame(check));
        QVERIFY(std::abs(cell(struck) - cell(before)) > 5 * std::abs(cell(check) - cell(before)));
        QVERIFY(f.frames.size() <= std::size_t(StepFrames::kMaxFrames));

        // The slider says so.
        window.onlineSteps()->setPosition(struck);
        QVERIFY2(window.onlineSteps()->description().contains(QStringLiteral("fault in C(10, 20)")),
                 qPrintable(window.onlineSteps()->description()));
        window.onlineSteps()->setPosition(check);
        QVERIFY2(window.onlineSteps()->description().contains(QStringLiteral("corrected")),
                 qPrintable(window.onlineSteps()->description()));
        // The report is the online family's.
        QVERIFY(window.report()->text().contains(QStringLiteral("online")));
    }

    void sweepModelOnCpu()
    {
        FqSweepModel model;
        FqSweepOptions o;
        o.n = 48;
        o.panel = 8;  // 6 steps
        o.trials = 2;
        o.reps = 1;
        o.checkEvery = {1, 0};
        o.faultCounts = {1, 3};
        QSignalSpy done(&model, &FqSweepModel::finished);
        QSignalSpy failed(&model, &FqSweepModel::failed);
        QVERIFY(model.start(o, BackendKind::Cpu));
        QVERIFY(!model.start(o, BackendKind::Cpu));  // one at a time
        for (int i = 0; i < 600 && done.isEmpty() && failed.isEmpty(); ++i)
            done.wait(200);
        QVERIFY(failed.isEmpty());
        QCOMPARE(done.size(), 1);
        QVERIFY(!model.running());
        const FqSweepResult& r = *model.result();
        QCOMPARE(r.rows.size(), std::size_t(2));
        QCOMPARE(r.rows[0].checkEvery, 1);
        QCOMPARE(r.rows[1].checkEvery, 0);
        QVERIFY(r.plainSeconds > 0);
        QVERIFY(std::isfinite(r.rows[0].overhead));
        QCOMPARE(r.rows[0].correctable[0], 2);  // one fault, checked after its step: always corrected
        QCOMPARE(r.rows[1].correctable[0], 2);  // one fault offline: corrected at the end
        QCOMPARE(model.csv().count(QLatin1Char('\n')), qsizetype(3));
    }

    void blockedSchemeBringsTheStrategiesBack()
    {
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.setConfig(test::smallCpuRun());
        auto* s2 = window.strategyPanel()->findChild<QRadioButton*>(QStringLiteral("strategy_s2"));
        auto* summary = window.strategyPanel()->findChild<QLabel*>(QStringLiteral("planSummary"));
        window.strategyPanel()->schemeBox()->setSettings({Scheme::Tmr, 16, 1, 1});
        QVERIFY(!s2->isEnabled());
        QVERIFY2(summary->text().contains(QLatin1String("TMR")), qPrintable(summary->text()));
        QVERIFY(window.strategyPanel()->findChild<QLabel*>(QStringLiteral("strategyExplanation"))->isHidden());
        window.strategyPanel()->schemeBox()->setSettings({Scheme::Blocked, 16, 1, 1});
        QVERIFY(s2->isEnabled());
        QVERIFY(!window.strategyPanel()->findChild<QLabel*>(QStringLiteral("strategyExplanation"))->isHidden());
        QVERIFY2(summary->text().startsWith(QLatin1String("<b>Plan</b>")), qPrintable(summary->text()));
    }

    void recordsOpen()
    {
        QTemporaryDir dir;
        OnlineConfig oc;
        oc.shape = {64, 48, 40};
        oc.backend = BackendKind::Cpu;
        oc.panel = 12;
        oc.faults = {OnlineFault{OnlineTarget::Result, 5, 6, std::nullopt, 1}};
        const OnlineRecord online = runOnline(oc);
        const QString onlinePath = dir.filePath(QStringLiteral("online.json"));
        saveOnlineRecord(online, onlinePath.toStdString());
        RunConfig bc = test::smallCpuRun();
        const QString blockedPath = dir.filePath(QStringLiteral("blocked.json"));
        saveRecord(runGemm(bc), blockedPath.toStdString());

        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QString error;
        QVERIFY2(window.openRecord(onlinePath, &error), qPrintable(error));
        QVERIFY(window.session()->online());
        QCOMPARE(window.session()->record()->family, std::string(OnlineRecord::kFamily));
        QCOMPARE(window.timeline()->model().spanCount(), online.spans.size());
        // Named by its scheme and panel width (the log, the timeline's run, the roofline), and
        // without the note on S2-S4's loads, which is about blocked GEMM's strategies.
        QCOMPARE(runLabel(*window.session()->record()), QStringLiteral("online fq 1 b=12 64×48×40"));
        QVERIFY(window.timeline()->findChild<QLabel*>(QStringLiteral("timelineCpuNote"))->isHidden());
        // Its panel products and checks are drawn as products and checks (by role), and the
        // legend lists what the spans are.
        QVERIFY(kindColor(opKindFromString("panel-product")) == kindColor(OpKind::Product));
        QVERIFY(kindColor(opKindFromString("check")) == kindColor(OpKind::Verify));
        QStringList legend;
        for (const auto& [color, label] : window.timeline()->legendEntries())
            legend << label;
        QCOMPARE(legend.join(QLatin1Char(' ')), QStringLiteral("copy-h2d checksum product inject verify copy-d2h pale: partly idle"));
        QVERIFY(window.onlineSteps()->isVisible());
        QCOMPARE(window.onlineSteps()->model().faults().size(), std::size_t(1));
        QCOMPARE(window.onlineSteps()->model().faults()[0].caughtAtStep, 1);
        QVERIFY(window.onlineSteps()->model().frame(0) == nullptr);  // a file keeps no frames: replay offered
        // The panels took its setup, scheme and fault (they showed blocked ABFT at 1024^3): Run
        // runs it again.
        const std::optional<OnlineConfig> again0 = window.currentOnlineConfig(&error);
        QVERIFY2(again0, qPrintable(error));
        QCOMPARE(again0->shape.m, oc.shape.m);
        QCOMPARE(again0->shape.n, oc.shape.n);
        QCOMPARE(again0->shape.q, oc.shape.q);
        QCOMPARE(int(again0->scheme), int(Scheme::Online));
        QCOMPARE(again0->panel, std::int64_t(12));
        QCOMPARE(again0->checkEvery, 1);
        QCOMPARE(int(again0->backend), int(BackendKind::Cpu));
        QCOMPARE(again0->faults.size(), std::size_t(1));
        QCOMPARE(again0->faults[0].row, std::int64_t(5));
        QCOMPARE(again0->faults[0].col, std::int64_t(6));
        QCOMPARE(again0->faults[0].step.value_or(-1), 1);
        // It saves as an online record again.
        const QString again = dir.filePath(QStringLiteral("again.json"));
        QVERIFY(window.saveRecord(again, &error));
        QCOMPARE(recordFamilyOfFile(again.toStdString()), std::string(OnlineRecord::kFamily));

        QVERIFY2(window.openRecord(blockedPath, &error), qPrintable(error));
        QVERIFY(!window.session()->online());
        QVERIFY(!window.timeline()->findChild<QLabel*>(QStringLiteral("timelineCpuNote"))->isHidden());
        QVERIFY(!window.currentOnlineConfig(nullptr));  // the scheme box is back on blocked ABFT
        QVERIFY(!window.onlineSteps()->isVisible());
        QVERIFY(window.animation()->isVisible());
    }

    // A GPU run in column blocks (config and record say 2): the lab opens its record, and its step
    // view replays it on the CPU as one block, a fault in block 1's checksum column striking C's one.
    void columnBlockRecordOpensAndReplays()
    {
        QTemporaryDir dir;
        OnlineConfig oc;
        oc.shape = {64, 48, 160};
        oc.backend = BackendKind::Cpu;
        oc.panel = 12;
        oc.faults = {OnlineFault{OnlineTarget::Result, 5, 100, std::nullopt, 1}};
        OnlineRecord device = runOnline(oc);
        device.config.backend = BackendKind::Cuda;
        device.config.columnBlocks = 2;
        device.config.faults.push_back(OnlineFault{OnlineTarget::ChecksumCol, 3, 1, std::nullopt, 2});
        device.columnBlocks = 2;
        // Block 1's checksum column rebuilt at its check: a cell at column q + 1, beyond C's one.
        QVERIFY(!device.verifications.empty());
        VerifyEvent& check = device.verifications.front();
        check.block.j = 1;
        check.result.verdict = Verdict::Corrected;
        check.result.checksumsRecomputed = true;
        check.result.mismatchCols = {161};
        check.result.corrections.push_back(Correction{3, 161, 1.0, 2.0});
        const QString path = dir.filePath(QStringLiteral("blocks.json"));
        saveOnlineRecord(device, path.toStdString());

        const OnlineConfig replay = cpuReplayOf(device.config);
        QVERIFY(replay.backend == BackendKind::Cpu);
        QCOMPARE(replay.columnBlocks, 0);
        QCOMPARE(replay.faults[1].col, std::int64_t(0));
        QVERIFY(validateOnlineConfigAccepts(replay));
        QCOMPARE(runOnline(replay).status, std::string("ok"));

        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QString error;
        QVERIFY2(window.openRecord(path, &error), qPrintable(error));
        QVERIFY(window.session()->online());
        QVERIFY(window.onlineSteps()->isVisible());
        window.resize(1366, 768);
        QVERIFY(!window.grab().isNull());  // heatmap, animation and step view drew it
        QVERIFY2(window.report()->text().contains(QStringLiteral("column block 1")), qPrintable(window.report()->text()));
    }

private:
    // The message validateOnlineConfig refuses c with on that backend; empty when it accepts it.
    static QString refusalOf(const OnlineConfig& c, BackendKind backend)
    {
        try {
            validateOnlineConfig(c, backend);
            return {};
        } catch (const std::exception& e) {
            return QString::fromStdString(e.what());
        }
    }
    static bool validateOnlineConfigAccepts(const OnlineConfig& c)
    {
        try {
            validateOnlineConfig(c, BackendKind::Cpu);
            return true;
        } catch (const std::exception& e) {
            qWarning() << e.what();
            return false;
        }
    }
};

GIGACHECK_UI_TEST_MAIN(TestOnlineLab)
#include "tst_onlinelab.moc"
