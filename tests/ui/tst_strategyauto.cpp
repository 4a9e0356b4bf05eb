// Strategy "auto" in the lab (issue 13): the cost-model planner's preview runs on a worker thread
// (never the GUI thread), debounced; the panel shows its choice in bold with the plan text; the
// run uses that strategy and the timeline labels its lanes "auto→sN"; a cap too small for any
// strategy shows the planner's message in the panel.
#include "ui/uitestmain.hpp"

#include <models/autoplanner.hpp>
#include <models/rooflinemodel.hpp>
#include <panels/setuppanel.hpp>
#include <panels/strategypanel.hpp>
#include <views/timelineview.hpp>
#include <window/mainwindow.hpp>

#include <QLabel>
#include <QLineEdit>
#include <QRadioButton>
#include <QSettings>
#include <QSpinBox>

using namespace gigacheck;
using namespace gigacheck::ui;

namespace {

RunConfig smallRun()
{
    RunConfig c;
    c.shape = Shape{384, 320, 352};
    c.memCapBytes = 256 * 1024;
    c.strategy = StrategyKind::S1;
    c.backend = BackendKind::Cpu;
    c.faults.at = {FaultAt{10, 20, 50.0, {}}};
    return c;
}

QString name(StrategyKind s)
{
    return QString::fromUtf8(toString(s).data(), qsizetype(toString(s).size()));
}

bool waitForPlan(MainWindow& window)
{
    return QTest::qWaitFor([&] { return !window.autoPlanner()->pending(); }, 120000);
}

}  // namespace

class TestStrategyAuto : public QObject {
    Q_OBJECT

private slots:
    void init() { QSettings().clear(); }

    void autoPicksAStrategyOffTheGuiThread()
    {
        MainWindow window;
        window.setConfig(smallRun());
        auto* autoButton = window.strategyPanel()->findChild<QRadioButton*>(QStringLiteral("strategy_auto"));
        QVERIFY(autoButton);
        QSignalSpy planned(window.autoPlanner(), &AutoPlanner::planned);
        autoButton->click();
        QVERIFY(window.strategyPanel()->isAuto());
        QVERIFY(window.autoPlanner()->pending());  // debounced: nothing planned on the click itself
        QVERIFY(waitForPlan(window));
        QCOMPARE(planned.count(), 1);
        const AutoPlanResult result = planned.first().first().value<AutoPlanResult>();
        QVERIFY2(result.ok, qPrintable(result.error));
        QVERIFY(!result.onGuiThread);
        // The same choice as the engine's planner for this configuration.
        RunConfig c = smallRun();
        c.planByCostModel = true;
        QCOMPARE(int(result.plan.strategy), int(planAuto(c).plan.strategy));

        const StrategyKind chosen = result.plan.strategy;
        QVERIFY(window.strategyPanel()->autoChoice() == chosen);
        QCOMPARE(int(window.strategyPanel()->strategy()), int(chosen));
        auto* choice = window.strategyPanel()->findChild<QLabel*>(QStringLiteral("autoChoice"));
        QVERIFY(choice && choice->isVisibleTo(window.strategyPanel()));
        QVERIFY2(choice->text().contains(QStringLiteral("<b>auto → %1</b>").arg(name(chosen))), qPrintable(choice->text()));
        auto* chosenButton = window.strategyPanel()->findChild<QRadioButton*>(QStringLiteral("strategy_") + name(chosen));
        QVERIFY(chosenButton && chosenButton->font().bold());
        // The plan text explains why.
        auto* summary = window.strategyPanel()->findChild<QLabel*>(QStringLiteral("planSummary"));
        QVERIFY2(summary->text().contains(QStringLiteral("Best predicted per strategy")), qPrintable(summary->text()));
        QVERIFY2(summary->toolTip().contains(QStringLiteral("Planner (cost model")), qPrintable(summary->toolTip()));
        QVERIFY2(summary->text().contains(QStringLiteral("Chosen: strategy %1").arg(name(chosen))), qPrintable(summary->text()));

        // Edits in a row are planned once, for the last shape.
        planned.clear();
        auto* m = window.setupPanel()->findChild<QSpinBox*>(QStringLiteral("shapeM"));
        m->setValue(400);
        m->setValue(416);
        m->setValue(448);
        QVERIFY(waitForPlan(window));
        QCOMPARE(planned.count(), 1);
        QCOMPARE(planned.first().first().value<AutoPlanResult>().plan.shape.m, std::int64_t(448));

        // Another strategy: auto off, no bold left.
        window.strategyPanel()->setStrategy(StrategyKind::S3);
        QVERIFY(!window.strategyPanel()->isAuto());
        QCOMPARE(int(window.strategyPanel()->strategy()), int(StrategyKind::S3));
        QVERIFY(!chosenButton->font().bold());
    }

    void theRunUsesTheChosenStrategy()
    {
        MainWindow window;
        window.show();
        RunConfig c = smallRun();
        c.planByCostModel = true;
        window.setConfig(c);  // a record's or the settings' "auto" comes back as auto
        QVERIFY(window.strategyPanel()->isAuto());
        QVERIFY(waitForPlan(window));
        QVERIFY(window.strategyPanel()->autoChoice().has_value());
        const StrategyKind chosen = *window.strategyPanel()->autoChoice();
        QSignalSpy finished(&window, &MainWindow::runFinished);
        window.startRun();
        // The lanes are labelled with the planner's choice from the start.
        QCOMPARE(QString::fromStdString(window.timeline()->model().runLabel(window.timeline()->model().runCount() - 1)),
                 QStringLiteral("auto→") + name(chosen));
        QVERIFY(QTest::qWaitFor([&] { return !finished.isEmpty(); }, 120000));
        const auto record = blockedRecordOf(window.lastRecord());
        QVERIFY(record);
        QCOMPARE(record->status, std::string("ok"));
        QVERIFY(record->config.planByCostModel);
        QCOMPARE(int(record->config.strategy), int(chosen));
        QCOMPARE(int(record->plan.strategy), int(chosen));
        QVERIFY(record->verifiedCorrect());
        const TimelineModel& model = window.timeline()->model();
        QCOMPARE(QString::fromStdString(model.runLabel(model.runCount() - 1)), QStringLiteral("auto→") + name(chosen));
        QVERIFY(runLabel(*record).startsWith(QStringLiteral("auto→") + name(chosen)));
    }

    void aTooSmallCapShowsThePlannersMessage()
    {
        MainWindow window;
        window.setConfig(smallRun());
        window.strategyPanel()->setAuto(true);
        QVERIFY(waitForPlan(window));
        QVERIFY(window.strategyPanel()->autoChoice().has_value());
        auto* cap = window.setupPanel()->findChild<QLineEdit*>(QStringLiteral("memoryCap"));
        cap->setText(QStringLiteral("1KiB"));
        QVERIFY(waitForPlan(window));
        QVERIFY(window.autoPlanner()->latest());
        QVERIFY(!window.autoPlanner()->latest()->ok);
        QVERIFY(!window.autoPlanner()->latest()->onGuiThread);
        auto* summary = window.strategyPanel()->findChild<QLabel*>(QStringLiteral("planSummary"));
        QVERIFY2(summary->text().contains(QStringLiteral("No plan")), qPrintable(summary->text()));
        QVERIFY2(summary->text().contains(QStringLiteral("no strategy fits the memory cap of 1 KiB")), qPrintable(summary->text()));
        QVERIFY(!window.strategyPanel()->autoChoice().has_value());
        auto* choice = window.strategyPanel()->findChild<QLabel*>(QStringLiteral("autoChoice"));
        QVERIFY(choice->text().contains(QStringLiteral("no choice")));
        // A cap that fits again: a choice again.
        cap->setText(QStringLiteral("256KiB"));
        QVERIFY(waitForPlan(window));
        QVERIFY(window.autoPlanner()->latest()->ok);
        QVERIFY(window.strategyPanel()->autoChoice().has_value());
    }
};

GIGACHECK_UI_TEST_MAIN(TestStrategyAuto)
#include "tst_strategyauto.moc"
