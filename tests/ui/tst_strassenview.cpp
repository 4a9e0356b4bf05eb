// The Strassen view (issue 10 item 9): the stage highlighting of known recipe steps (what each
// reads, overwrites and accumulates, with the sign; zoomed and inside a level-2 node), the ops of a
// real schedule attributed to their steps, a real small CPU run driven through the view reaching
// its verdict, faults placed by clicks (a block, a product of the step list) reaching the run's
// config and caught, and a `gigacheck strassen --json` record opened by File › Open.
#include "views/strassen/strassenblockswidget.hpp"
#include "views/strassen/strassenplots.hpp"
#include "views/strassen/strassensteps.hpp"
#include "views/strassen/strassenview.hpp"
#include "window/mainwindow.hpp"
#include "export/screenshots.hpp"

#include "families/strassen/ops.hpp"
#include "families/strassen/recipe.hpp"
#include "uitestmain.hpp"

#include <qcustomplot.h>

#include <atomic>
#include <map>
#include <set>

#include <QCheckBox>
#include <QLabel>
#include <QHeaderView>
#include <QLineEdit>
#include <QSpinBox>
#include <QComboBox>
#include <QProcess>
#include <QSignalSpy>
#include <QSplitter>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTreeWidget>
#include <QtTest>

using namespace gigacheck;
using namespace gigacheck::ui;
using namespace gigacheck::ui::strassenlab;

namespace {

BlockCell a(int r, int c) { return {MatrixId::A, r, c}; }
BlockCell b(int r, int c) { return {MatrixId::B, r, c}; }
BlockCell cc(int r, int c) { return {MatrixId::C, r, c}; }

bool waitRun(StrassenView& view)
{
    QSignalSpy finished(&view, &StrassenView::runFinished);
    QSignalSpy failed(&view, &StrassenView::runFailed);
    view.startRun();
    for (int i = 0; i < 600 && finished.isEmpty() && failed.isEmpty(); ++i)
        QTest::qWait(100);  // the run is on the view's worker thread: the event loop keeps going
    if (!failed.isEmpty())
        qWarning() << "run failed:" << failed.first().first().toString();
    return !finished.isEmpty();
}

}  // namespace

class TestStrassenView : public QObject {
    Q_OBJECT

private slots:
    void msmesStepsLightWhatTheyTouch()
    {
        const std::vector<StepView> steps = recipeSteps(StrassenVariant::Msmes, false, 2, -1);
        QCOMPARE(int(steps.size()), 23);  // stages 1-7 of the seed
        // Stage 1, "A2 = A2 + A3": A3 read, A2 overwritten in place, no C block.
        QCOMPARE(steps[0].stage, 1);
        QCOMPARE(steps[0].formula, QStringLiteral("A2 = A2 + A3"));
        QCOMPARE(steps[0].reads, std::vector<BlockCell>{a(1, 1)});
        QCOMPARE(steps[0].overwrites, std::vector<BlockCell>{a(1, 0)});
        QVERIFY(steps[0].accumulates.empty());
        QVERIFY(steps[0].words.contains(QLatin1String("A2 += A3")));
        // Stage 2, "M1 = A2 x B0; C2 += M1; C3 -= M1".
        const StepView& m1 = steps[4];
        QVERIFY(m1.product);
        QCOMPARE(m1.productIndex, 0);
        QCOMPARE(m1.stageName, QStringLiteral("stage 2: multiplication, group 1"));
        QCOMPARE(m1.reads, (std::vector<BlockCell>{a(1, 0), b(0, 0)}));
        QVERIFY(m1.overwrites.empty());
        QCOMPARE(m1.accumulates, (std::vector<SignedCell>{{cc(1, 0), +1}, {cc(1, 1), -1}}));
        QVERIFY(m1.words.contains(QStringLiteral("C2 (+)")) && m1.words.contains(QStringLiteral("C3 (−)")));
        // Stage 6 recovers A0: "A0 = A0 - A3".
        QCOMPARE(steps[17].stage, 6);
        QCOMPARE(steps[17].overwrites, std::vector<BlockCell>{a(0, 0)});
        QVERIFY(steps[17].words.contains(QLatin1String("recovery")));
        // Exact restore drops stages 6-7 at the top level.
        QCOMPARE(int(recipeSteps(StrassenVariant::Msmes, true, 2, -1).size()), 17);
        // Block names.
        QCOMPARE(blockName(cc(1, 1), 2), QStringLiteral("C3"));
        QCOMPARE(blockName(a(3, 0), 4), QStringLiteral("A22"));
    }

    void accumulateAndZoomedSteps()
    {
        // accumulate keeps C transformed: "C3 = C3 - C1" overwrites C3 and reads C1.
        const std::vector<StepView> acc = recipeSteps(StrassenVariant::Accumulate, false, 2, -1);
        QCOMPARE(acc[2].formula, QStringLiteral("C3 = C3 - C1"));
        QCOMPARE(acc[2].overwrites, std::vector<BlockCell>{cc(1, 1)});
        QCOMPARE(acc[2].reads, std::vector<BlockCell>{cc(0, 1)});
        // Its P1 lands in one C block; winograd's P1 in all four.
        QCOMPARE(acc[6].accumulates.size(), std::size_t(1));
        QCOMPARE(recipeSteps(StrassenVariant::Winograd, false, 2, -1)[3].accumulates.size(), std::size_t(4));

        // Zoomed, the top level's "A2 = A2 + A3" covers the four sub-blocks of each quarter.
        const std::vector<StepView> top4 = recipeSteps(StrassenVariant::Msmes, false, 4, -1);
        QCOMPARE(top4[0].overwrites, (std::vector<BlockCell>{a(2, 0), a(2, 1), a(3, 0), a(3, 1)}));
        QCOMPARE(top4[0].reads, (std::vector<BlockCell>{a(2, 2), a(2, 3), a(3, 2), a(3, 3)}));
        // Inside M1 (= A2 x B0 into C2 +, C3 -), level 2: its first sum acts on A2's sub-blocks
        // (A22 = A22 + A23) and its first product (A22 x B00) lands in C22 (+), C23 (-) from C2's
        // target and, with M1's minus sign, C32 (-), C33 (+) from C3's.
        const std::vector<StepView> inside = recipeSteps(StrassenVariant::Msmes, false, 4, 0);
        QCOMPARE(inside[0].overwrites, std::vector<BlockCell>{a(3, 0)});
        QCOMPARE(inside[0].reads, std::vector<BlockCell>{a(3, 1)});
        QCOMPARE(inside[4].reads, (std::vector<BlockCell>{a(3, 0), b(0, 0)}));
        QCOMPARE(inside[4].accumulates,
                 (std::vector<SignedCell>{{cc(3, 0), +1}, {cc(3, 1), -1}, {cc(3, 2), -1}, {cc(3, 3), +1}}));
        QCOMPARE(blockName(inside[4].accumulates[2].cell, 4), QStringLiteral("C32"));
    }

    void scheduleOpsFindTheirSteps()
    {
        StrassenConfig c;
        c.shape = {64, 64, 64};
        c.levels = 1;
        const Schedule one = buildStrassenSchedule(c);
        const StepAttribution at = attributeOps(one, 1, false, StrassenVariant::Msmes);
        QVERIFY(at.matched);
        QCOMPARE(at.firstLeafOfProduct, (std::vector<int>{0, 1, 2, 3, 4, 5, 6}));
        // Every product op lands on the step whose A and B quarters it reads.
        const auto& recipe = strassen::recipeOf(StrassenVariant::Msmes);
        int products = 0;
        for (const Operation& op : one.ops)
            if (op.kind == strassen::kProduct) {
                const int step = at.stepOfOp[std::size_t(op.id)];
                QVERIFY(step >= 0);
                const auto& s = recipe.steps[std::size_t(step)];
                QCOMPARE(op.operands[0].row, (s.a / 2) * 32);
                QCOMPARE(op.operands[0].col, (s.a % 2) * 32);
                QCOMPARE(op.operands[1].row, (s.b / 2) * 32);
                ++products;
            }
        QCOMPARE(products, 7);
        // Odd shape, two levels: the three fringe products come first (product:K counts them).
        c.shape = {67, 66, 65};
        c.levels = 2;
        const Schedule two = buildStrassenSchedule(c);
        const StepAttribution at2 = attributeOps(two, 2, false, StrassenVariant::Msmes);
        QVERIFY(at2.matched);
        QCOMPARE(at2.firstLeafOfProduct.front(), 3);
        // Two levels: each top-level product is a node of 7 leaves.
        std::map<int, int> leavesPerStep;
        for (const Operation& op : two.ops)
            if (op.kind == strassen::kProduct && op.block.i == 2) {
                const int step = at2.stepOfOp[std::size_t(op.id)];
                QVERIFY(step >= 0 && recipe.steps[std::size_t(step)].kind == strassen::Step::Kind::Product);
                ++leavesPerStep[step];
            }
        QCOMPARE(leavesPerStep.size(), std::size_t(7));
        for (const auto& [step, n] : leavesPerStep)
            QCOMPARE(n, 7);
        // Inside node 0: its own sums and its 7 leaves.
        const StepAttribution node = attributeOps(two, 2, false, StrassenVariant::Msmes, 0);
        QVERIFY(node.matched);
        QCOMPARE(node.firstLeafOfProduct, (std::vector<int>{3, 4, 5, 6, 7, 8, 9}));
    }

    void realRunReachesItsVerdict()
    {
        StrassenView view;
        view.resize(1200, 800);
        view.show();
        StrassenConfig c;
        c.shape = {96, 96, 96};
        c.levels = 2;
        c.backend = BackendKind::Cpu;
        view.setConfig(c);
        QVERIFY(waitRun(view));
        QVERIFY(view.result());
        QCOMPARE(QString::fromStdString(strassenOutcome(*view.result())), QStringLiteral("ok"));
        QVERIFY2(view.verdictText().startsWith(QLatin1String("VERIFIED")), qPrintable(view.verdictText()));
        // The steps carry the run's measured times ("from a real run").
        double total = 0;
        for (const StepView& s : view.steps()) {
            QVERIFY(s.seconds >= 0);
            total += s.seconds;
        }
        QVERIFY(total > 0);
        QVERIFY(view.stagePlot()->plottableCount() > 0);
        QVERIFY(view.lanesPlot()->graphCount() > 0);
        // Step / back move through the recipe.
        view.goToStep(0);
        view.stepForward();
        QCOMPARE(view.currentStep(), 1);
        view.stepBack();
        QCOMPARE(view.currentStep(), 0);
        // Zoomed into node 0 the level-2 steps get times too.
        view.setZoom(true);
        view.setNode(0);
        QCOMPARE(view.blocks()->grid(), 4);
        QVERIFY(!view.steps().empty());
        QVERIFY(view.steps().front().seconds >= 0);
    }

    // A four-device run has 12 lanes: with the Timeline plot shown, the plots take the height
    // they need to be read from the step picture above (at 1366x768 they were 5 px a lane).
    void timelineMakesRoomForEveryDevicesLanes()
    {
        StrassenView view;
        view.dockPanels();  // as in the lab: the set-up is in the docks, the view is the picture and the plots
        view.resize(1300, 700);
        view.show();
        StrassenConfig c;
        c.shape = {128, 128, 128};
        c.levels = 1;
        c.devices = 4;
        c.decomposition = StrassenDecomposition::Winograd;
        c.backend = BackendKind::Cpu;
        view.setConfig(c);
        QVERIFY(waitRun(view));
        QCOMPARE(QString::fromStdString(strassenOutcome(*view.result())), QStringLiteral("ok"));
        auto* tabs = view.findChild<QTabWidget*>(QStringLiteral("strassenPlots"));
        auto* split = view.findChild<QSplitter*>(QStringLiteral("strassenSplit"));
        QVERIFY(tabs && split);
        const int before = split->sizes().value(1);
        tabs->setCurrentWidget(view.lanesPlot());
        QCoreApplication::processEvents();
        view.lanesPlot()->replot();  // the plot lays itself out when it draws
        std::set<std::pair<int, int>> lanes;
        for (const Span& sp : view.result()->spans)
            lanes.insert({sp.device, int(sp.queue)});
        QVERIFY(lanes.size() >= 12);
        const int lineHeight = QFontMetrics(view.lanesPlot()->yAxis->tickLabelFont()).height();
        QVERIFY2(view.lanesPlot()->axisRect()->height() >= int(lanes.size()) * lineHeight,
                 qPrintable(QStringLiteral("%1 px for %2 lanes").arg(view.lanesPlot()->axisRect()->height()).arg(lanes.size())));
        QVERIFY(split->sizes().value(1) >= before);
    }

    // The steps shown are those that would run: over several devices the Winograd decomposition's
    // (not the variant box's msmes), and the 2D decomposition says it has none.
    void decompositionStepsFollowTheDevices()
    {
        StrassenView view;
        view.resize(1200, 800);
        view.show();
        StrassenConfig c;
        c.shape = {128, 128, 128};
        c.variant = StrassenVariant::Msmes;
        c.backend = BackendKind::Cpu;
        view.setConfig(c);
        QVERIFY(!view.steps().empty());
        QVERIFY(view.steps()[1].formula.startsWith(QLatin1String("B1 = B1 - B3")));  // msmes's second sum
        auto* devices = view.findChild<QSpinBox*>(QStringLiteral("strassenDevices"));
        auto* decomposition = view.findChild<QComboBox*>(QStringLiteral("strassenDecomposition"));
        QVERIFY(devices && decomposition);
        devices->setValue(4);
        decomposition->setCurrentText(QStringLiteral("winograd"));
        QVERIFY(!view.steps().empty());
        QVERIFY2(view.steps()[1].formula.startsWith(QLatin1String("B1 = B1 - B0")), qPrintable(view.steps()[1].formula));
        decomposition->setCurrentText(QStringLiteral("2d"));
        QVERIFY(view.steps().empty());
        const QString title = view.findChild<QLabel*>(QStringLiteral("strassenStepTitle"))->text();
        QVERIFY2(title.contains(QLatin1String("2D decomposition")), qPrintable(title));
        devices->setValue(1);
        decomposition->setCurrentText(QStringLiteral("none"));
        QVERIFY(view.steps()[1].formula.startsWith(QLatin1String("B1 = B1 - B3")));
    }

    void clickedFaultsReachTheRun()
    {
        StrassenView view;
        view.resize(1200, 800);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        StrassenConfig c;
        c.shape = {64, 64, 64};
        c.levels = 1;
        c.backend = BackendKind::Cpu;
        view.setConfig(c);
        // A click on C1 in the picture: "c:1".
        StrassenBlocksWidget* blocks = view.blocks();
        QTest::mouseClick(blocks, Qt::LeftButton, {}, blocks->cellRect(cc(0, 1)).center().toPoint());
        QCOMPARE(view.faultSpecs(), QStringList{QStringLiteral("c:1")});
        // A click on M2's fault column in the step list: its leaf, product:1.
        QTreeWidget* list = view.stepList();
        int m2 = -1;
        for (int i = 0; i < int(view.steps().size()); ++i)
            if (view.steps()[std::size_t(i)].productIndex == 1)
                m2 = i;
        QVERIFY(m2 >= 0);
        QTreeWidgetItem* item = list->topLevelItem(m2);
        list->scrollToItem(item);
        const QRect cell = list->visualItemRect(item);
        const int x = list->header()->sectionViewportPosition(StrassenView::kFaultColumn) + 4;
        QTest::mouseClick(list->viewport(), Qt::LeftButton, {}, QPoint(x, cell.center().y()));
        QCOMPARE(view.faultSpecs(), (QStringList{QStringLiteral("c:1"), QStringLiteral("product:1")}));
        StrassenConfig config;
        QVERIFY(view.currentConfig(&config, nullptr));
        QCOMPARE(config.faults.size(), std::size_t(2));
        QCOMPARE(int(config.faults[0].where), int(StrassenFault::Where::C));
        QCOMPARE(config.faults[0].index, 1);
        QCOMPARE(int(config.faults[1].where), int(StrassenFault::Where::Product));
        QCOMPARE(config.faults[1].index, 1);
        // A second click on the same block takes its fault back.
        QTest::mouseClick(blocks, Qt::LeftButton, {}, blocks->cellRect(cc(0, 1)).center().toPoint());
        QCOMPARE(view.faultSpecs(), QStringList{QStringLiteral("product:1")});
        // The run injects it, the checksums catch and correct it.
        QVERIFY(waitRun(view));
        QCOMPARE(view.result()->config.faults.size(), std::size_t(1));
        QVERIFY2(view.verdictText().startsWith(QLatin1String("CORRECTED")), qPrintable(view.verdictText()));
    }

    // The two boxes of the controls reach the run: "check leaves" (--check-leaves) and "sums beside"
    // (--sums beside | inline); a record opened later sets them back.
    void leafChecksAndSumsBesideBoxes()
    {
        StrassenView view;
        auto* leaves = view.findChild<QCheckBox*>(QStringLiteral("strassenCheckLeaves"));
        auto* beside = view.findChild<QCheckBox*>(QStringLiteral("strassenSumsBeside"));
        QVERIFY(leaves && beside);
        QVERIFY(!leaves->isChecked());
        QVERIFY(beside->isChecked());
        StrassenConfig c;
        c.shape = {128, 128, 128};
        c.levels = 2;
        c.backend = BackendKind::Cpu;
        c.checkLeaves = true;
        c.sumsBeside = false;
        c.faults = {{StrassenFault::Where::Product, 3, 0}};
        view.setConfig(c);
        QVERIFY(leaves->isChecked());
        QVERIFY(!beside->isChecked());
        QVERIFY(waitRun(view));
        const StrassenResult& r = *view.result();
        QVERIFY(r.config.checkLeaves);
        QVERIFY(!r.config.sumsBeside);
        QCOMPARE(r.leavesChecked, 49);
        bool caught = false;
        for (const StrassenCheck& k : r.checks)
            caught |= k.where == "product 3" && k.verdict == "detected";
        QVERIFY(caught);
        // The leaf caught it and its repair put C right before C's checks ran: the headline
        // credits the leaf.
        QVERIFY2(view.verdictText().startsWith(QStringLiteral("CORRECTED — caught by leaf product 3")),
                 qPrintable(view.verdictText()));
        // The details say where the repair came from: the leaf, not C's checksums.
        const QString details = view.findChild<QLabel*>(QStringLiteral("strassenDetails"))->text();
        QVERIFY2(details.contains(QStringLiteral("C's columns named by the leaf: ")), qPrintable(details));
        QVERIFY2(!details.contains(QStringLiteral("C's row and column checksums: recomputed")), qPrintable(details));
        leaves->setChecked(false);
        StrassenConfig now;
        QVERIFY(view.currentConfig(&now, nullptr));
        QVERIFY(!now.checkLeaves);
    }

    void badInputIsAMessage()
    {
        StrassenView view;
        QSignalSpy failed(&view, &StrassenView::runFailed);
        auto* faults = view.findChild<QLineEdit*>(QStringLiteral("strassenFaults"));
        QVERIFY(faults);
        faults->setText(QStringLiteral("d:9"));
        view.startRun();
        QCOMPARE(failed.size(), 1);
        QVERIFY(!view.running());

        // A fault model outside the --fault grammar: refused by name, nothing runs.
        faults->setText(QStringLiteral("c:1"));
        auto* model = view.findChild<QLineEdit*>(QStringLiteral("strassenFaultModel"));
        QVERIFY(model);
        model->setText(QStringLiteral("bitflip:x"));
        view.startRun();
        QCOMPARE(failed.size(), 2);
        QVERIFY2(failed.last().first().toString().startsWith(QLatin1String("fault model:")),
                 qPrintable(failed.last().first().toString()));
        QVERIFY(!view.running());
    }

    // Seed, fault model and reference are controls: a campaign's run set into the view reads back
    // as the same configuration, and a run from the controls runs it.
    void seedFaultModelAndReferenceAreControls()
    {
        StrassenView view;
        StrassenConfig c;
        c.shape = {64, 64, 64};
        c.levels = 2;
        c.backend = BackendKind::Cpu;
        c.seed = 5000000000ULL;  // past a spin box's range
        c.faultModel = parseFaultModelSpec("bitflip:3+9");
        c.reference = true;
        c.referenceAlways = true;
        c.faults = {parseStrassenFault("c:2")};
        view.setConfig(c);
        StrassenConfig back;
        QString error;
        QVERIFY2(view.currentConfig(&back, &error), qPrintable(error));
        QCOMPARE(back.seed, c.seed);
        QVERIFY(back.faultModel == c.faultModel);
        QVERIFY(back.reference && back.referenceAlways);
        c.reference = false;
        c.referenceAlways = false;
        c.faultModel = parseFaultModelSpec("delta");
        view.setConfig(c);
        QVERIFY(view.currentConfig(&back, &error));
        QVERIFY(!back.reference && !back.referenceAlways);
        QCOMPARE(view.findChild<QLineEdit*>(QStringLiteral("strassenFaultModel"))->text(), QStringLiteral("delta"));

        // A bit flip from the controls strikes C: the run records the model, and is corrected.
        c.reference = true;
        c.faultModel = parseFaultModelSpec("bitflip:30");
        view.setConfig(c);
        QVERIFY(waitRun(view));
        QVERIFY(view.result()->config.faultModel == c.faultModel);
        QCOMPARE(view.result()->config.seed, c.seed);
        QVERIFY2(strassenOutcome(*view.result()) == "ok", strassenOutcome(*view.result()).c_str());
    }

    // The faults field reads the command line's grammar: a cell's comma is not a separator.
    void faultsFieldReadsCellsAndQuadrants()
    {
        StrassenView view;
        auto* faults = view.findChild<QLineEdit*>(QStringLiteral("strassenFaults"));
        QVERIFY(faults);
        faults->setText(QStringLiteral("c:3,4:2, a:2,product:5;b:10,11@3"));
        StrassenConfig c;
        QString error;
        QVERIFY2(view.currentConfig(&c, &error), qPrintable(error));
        QCOMPARE(int(c.faults.size()), 4);
        QCOMPARE(c.faults[0].row, std::int64_t(3));
        QCOMPARE(c.faults[0].col, std::int64_t(4));
        QCOMPARE(c.faults[1].index, 2);
        QVERIFY(!c.faults[1].hasCell());
        QVERIFY(c.faults[2].where == StrassenFault::Where::Product);
        QCOMPARE(c.faults[3].afterProduct, 3);
        // And writes them back the same way.
        view.setConfig(c);
        QCOMPARE(faults->text(), QStringLiteral("c:3,4:2, a:2, product:5, b:10,11@3"));
    }

    // The sweep: speedup points for every variant (workspace and accumulate are the ones that
    // beat cuBLAS), error and recovery points per level on the chosen distribution, the kernel
    // leaf only where CUDA has it; the recovery plot draws max ulps and changed counts.
    void sweepCoversEveryVariantAndTheRecovery()
    {
        SweepRequest request;
        request.backend = BackendKind::Cpu;
        request.fromExponent = request.toExponent = 6;
        request.errorN = 64;
        request.maxErrorLevels = 2;
        request.repeats = 1;
        request.distribution = Distribution::Wide;
        request.multiTargetKernel = true;
        QCOMPARE(int(sweepConfig(request, StrassenVariant::Accumulate, 64, 2).distribution), int(Distribution::Wide));
        QVERIFY(!sweepConfig(request, StrassenVariant::Msmes, 64, 2).multiTargetKernel);  // the CPU has no kernel
        SweepRequest cuda = request;
        cuda.backend = BackendKind::Cuda;
        QVERIFY(sweepConfig(cuda, StrassenVariant::Msmes, 64, 2).multiTargetKernel);
        QVERIFY(!sweepConfig(cuda, StrassenVariant::Accumulate, 64, 2).multiTargetKernel);
        std::vector<SweepPoint> points;
        std::atomic<bool> cancel{false};
        double work = 0;  // the progress the Run dock shows: by work done, 1 at the end
        runSweep(
            request,
            [&](const SweepPoint& p) {
                points.push_back(p);
                work += pointWork(request, p);
            },
            cancel);
        QCOMPARE(work / sweepWork(request), 1.0);
        std::set<StrassenVariant> timed;
        int recovered = 0;
        for (const SweepPoint& p : points) {
            QVERIFY2(p.error.isEmpty(), qPrintable(p.error));
            if (p.kind == SweepPoint::Kind::Speedup)
                timed.insert(p.variant);
            else if (p.levels > 0) {
                QVERIFY(p.recovery.changedA + p.recovery.changedB > 0);  // wide inputs: recovery rounds
                QVERIFY(p.recovery.maxUlpsA > 0);
                ++recovered;
            }
        }
        QCOMPARE(timed, (std::set<StrassenVariant>{StrassenVariant::Msmes, StrassenVariant::Winograd,
                                                    StrassenVariant::Workspace, StrassenVariant::Accumulate}));
        QCOMPARE(recovered, 4);  // msmes and winograd at levels 1 and 2
        QCustomPlot plot;
        plotRecoveryVsLevels(&plot, points);
        QCOMPARE(plot.graphCount(), 4);  // per variant: max ulps and changed elements
        for (int g = 0; g < plot.graphCount(); ++g)
            QCOMPARE(plot.graph(g)->dataCount(), 2);
    }

    // The distribution and leaf selectors reach the config; the leaf choice only where CUDA is.
    void distributionAndLeafSelectors()
    {
        StrassenView view;
        auto* dist = view.findChild<QComboBox*>(QStringLiteral("strassenDist"));
        auto* leaf = view.findChild<QComboBox*>(QStringLiteral("strassenLeaf"));
        auto* backend = view.findChild<QComboBox*>(QStringLiteral("strassenBackend"));
        QVERIFY(dist && leaf && backend);
        backend->setCurrentIndex(0);  // CPU
        QVERIFY(!leaf->isEnabled());
        leaf->setCurrentIndex(1);
        dist->setCurrentText(QStringLiteral("normal"));
        StrassenConfig c;
        QString error;
        QVERIFY2(view.currentConfig(&c, &error), qPrintable(error));
        QCOMPARE(int(c.distribution), int(Distribution::Normal));
        QVERIFY(!c.multiTargetKernel);  // OpenBLAS on the CPU, whatever the box says
        if (backend->count() > 1) {
            backend->setCurrentIndex(1);
            QVERIFY(leaf->isEnabled());
            QVERIFY(view.currentConfig(&c, &error));
            QVERIFY(c.multiTargetKernel);
        }
        QVERIFY(view.plotTabs()->indexOf(view.recoveryPlot()) >= 0);
    }

    // A record of one device with a decomposition opens with that decomposition (it came back as
    // a plain msmes schedule before the record said so).
    void opensAOneDeviceDecompositionRecord()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("d.json"));
        QProcess cli;
        cli.start(QStringLiteral(GIGACHECK_CLI), {QStringLiteral("strassen"), QStringLiteral("--shape"), QStringLiteral("64x64x64"),
                                                  QStringLiteral("--devices"), QStringLiteral("1"), QStringLiteral("--decomposition"),
                                                  QStringLiteral("2d"), QStringLiteral("--backend"), QStringLiteral("cpu"),
                                                  QStringLiteral("--json"), path});
        QVERIFY(cli.waitForFinished(120000));
        QVERIFY2(cli.exitCode() == 0, cli.readAllStandardError().constData());
        StrassenView view;
        QString error;
        QVERIFY2(view.openRecordFile(path, &error), qPrintable(error));
        QVERIFY(view.result()->config.distribute);
        QCOMPARE(view.findChild<QComboBox*>(QStringLiteral("strassenDecomposition"))->currentText(), QStringLiteral("2d"));
        StrassenConfig c;
        QVERIFY(view.currentConfig(&c, &error));
        QVERIFY(c.distribute);
        QCOMPARE(int(c.decomposition), int(StrassenDecomposition::TwoD));
    }

    // --screenshots DIR --record strassen.json: the Strassen tab's shots, not the empty GEMM views.
    void screenshotsOfAStrassenRecord()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("s.json"));
        QProcess cli;
        cli.start(QStringLiteral(GIGACHECK_CLI), {QStringLiteral("strassen"), QStringLiteral("--shape"), QStringLiteral("64x64x64"),
                                                  QStringLiteral("--levels"), QStringLiteral("2"), QStringLiteral("--backend"),
                                                  QStringLiteral("cpu"), QStringLiteral("--json"), path});
        QVERIFY(cli.waitForFinished(120000));
        QVERIFY2(cli.exitCode() == 0, cli.readAllStandardError().constData());
        MainWindow window;
        ScreenshotOptions options;
        options.directory = dir.filePath(QStringLiteral("shots"));
        options.recordPath = path;
        options.width = 1366;
        options.height = 768;
        QString error;
        const QStringList written = takeScreenshots(window, options, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QStringList names;
        for (const QString& f : written)
            names << QFileInfo(f).fileName();
        QCOMPARE(names, (QStringList{QStringLiteral("strassen.png"), QStringLiteral("strassen-zoom.png")}));
        QCOMPARE(window.currentView(), MainWindow::View::Strassen);
    }

    void opensAStrassenRecord()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("strassen.json"));
        QProcess cli;
        cli.start(QStringLiteral(GIGACHECK_CLI), {QStringLiteral("strassen"), QStringLiteral("--shape"), QStringLiteral("64x64x64"),
                                                  QStringLiteral("--levels"), QStringLiteral("2"), QStringLiteral("--variant"),
                                                  QStringLiteral("winograd"), QStringLiteral("--backend"), QStringLiteral("cpu"),
                                                  QStringLiteral("--inject-at"), QStringLiteral("a:2"), QStringLiteral("--json"), path});
        QVERIFY(cli.waitForFinished(120000));
        QVERIFY2(cli.exitCode() == 0, cli.readAllStandardError().constData());
        MainWindow window;
        QString error;
        QVERIFY2(window.openRecord(path, &error), qPrintable(error));
        QCOMPARE(window.currentView(), MainWindow::View::Strassen);
        StrassenView* view = window.strassenView();
        QVERIFY(view->result());
        QCOMPARE(int(view->result()->config.variant), int(StrassenVariant::Winograd));
        QCOMPARE(view->faultSpecs().size(), 1);  // the record keeps the delta it used: "a:2:1000..."
        QVERIFY(view->faultSpecs().front().startsWith(QLatin1String("a:2")));
        QVERIFY2(view->verdictText().startsWith(QLatin1String("CORRECTED")), qPrintable(view->verdictText()));
        double total = 0;
        for (const StepView& s : view->steps())
            total += std::max(0.0, s.seconds);
        QVERIFY(total > 0);  // the record's spans fit the rebuilt schedule: per-step times

        // File › Save on the Strassen tab writes the record it shows, which opens as the same run.
        const QString again = dir.filePath(QStringLiteral("again.json"));
        QVERIFY2(window.saveRecord(again, &error), qPrintable(error));
        const StrassenResult first = loadStrassenRecord(path.toStdString());
        const StrassenResult second = loadStrassenRecord(again.toStdString());
        QCOMPARE(strassenOutcome(second), strassenOutcome(first));
        QCOMPARE(second.checks.size(), first.checks.size());
        QCOMPARE(second.spans.size(), first.spans.size());
        QCOMPARE(toString(second.config.faults.front()), toString(first.config.faults.front()));
    }

    // A run made on the Strassen tab is saved by File › Save there, not the GEMM run of the other
    // tabs; with no Strassen run yet Save says so and writes nothing.
    void savesTheStrassenRunOnScreen()
    {
        QTemporaryDir dir;
        MainWindow window;
        window.showView(MainWindow::View::Strassen);
        const QString path = dir.filePath(QStringLiteral("lab-strassen.json"));
        QString error;
        QVERIFY(!window.saveRecord(path, &error));
        QCOMPARE(error, QStringLiteral("no Strassen run to save yet"));
        QVERIFY(!QFileInfo::exists(path));

        StrassenView* view = window.strassenView();
        StrassenConfig c;
        c.shape = {80, 72, 64};
        c.levels = 2;
        c.backend = BackendKind::Cpu;
        c.faults = {parseStrassenFault("c:1")};
        view->setConfig(c);
        QVERIFY(waitRun(*view));
        QVERIFY2(window.saveRecord(path, &error), qPrintable(error));
        const StrassenResult saved = loadStrassenRecord(path.toStdString());
        QCOMPARE(saved.config.shape.m, std::int64_t(80));
        QCOMPARE(saved.config.shape.q, std::int64_t(64));
        QCOMPARE(strassenOutcome(saved), strassenOutcome(*view->result()));
        QCOMPARE(saved.spans.size(), view->result()->spans.size());
        QVERIFY(window.recordOnScreen());
        QVERIFY(window.recordOnScreen()->family == "strassen");
        // Elsewhere Save is about the GEMM run: none yet.
        window.showView(MainWindow::View::Heatmap);
        QVERIFY(!window.recordOnScreen());
        QVERIFY(!window.saveRecord(dir.filePath(QStringLiteral("gemm.json")), &error));
    }
};

GIGACHECK_UI_TEST_MAIN(TestStrassenView)
#include "tst_strassenview.moc"
