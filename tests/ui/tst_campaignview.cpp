// The Campaign view: the model over a real (small, CPU) campaign, the stacked outcome-by-bit chart,
// its hit test, a click that re-runs one run, and the main window replaying that run exactly.
#include "ui/uitestmain.hpp"

#include <panels/runpanel.hpp>
#include <views/campaignmodel.hpp>
#include <views/campaignview.hpp>
#include <views/strassen/strassenview.hpp>
#include <window/mainwindow.hpp>

#include <gigacheck/strassen/campaign.hpp>
#include <models/familyrecord.hpp>

#include <qcustomplot.h>

#include <QAbstractItemModelTester>
#include <QLabel>
#include <QSignalSpy>
#include <QTemporaryDir>

using namespace gigacheck;
using namespace gigacheck::ui;


namespace {

CampaignResult smallCampaign()
{
    CampaignConfig c;
    c.runs = 24;
    c.shape = {24, 20, 16};
    c.backend = BackendKind::Cpu;
    c.strategies = {StrategyKind::S1, StrategyKind::S2};
    c.seed = 11;
    return runCampaign(c);
}

// The pixel in the middle of a segment of the stacked bar of group g.
QPointF middleOf(const CampaignView& view, int g, Outcome outcome)
{
    const OutcomeCounts& counts = view.model()->groups()[std::size_t(g)].counts;
    double base = 0;
    for (Outcome o : kOutcomes) {
        if (o == outcome)
            break;
        base += double(counts[o]) / double(counts.total);
    }
    const double height = double(counts[outcome]) / double(counts.total);
    return {view.plot()->xAxis->coordToPixel(g), view.plot()->yAxis->coordToPixel(base + height / 2)};
}

// The campaign written to NAME in dir and opened in the window, shown at a size where every view
// fits: what each replay test starts from. False (with the reason in error) when it could not be.
bool openInWindow(const CampaignResult& campaign, const QTemporaryDir& dir, const QString& name, MainWindow& window,
                  QString* error)
{
    const QString path = dir.filePath(name);
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        *error = file.errorString();
        return false;
    }
    file.write(QByteArray::fromStdString(campaignToJson(campaign)));
    file.close();
    window.resize(1400, 950);
    window.show();
    if (!QTest::qWaitForWindowExposed(&window)) {
        *error = QStringLiteral("the window was not exposed");
        return false;
    }
    return window.openCampaign(path, error);
}

}  // namespace

class TestCampaignView : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        qRegisterMetaType<gigacheck::RunConfig>();
        campaign_ = smallCampaign();
        QCOMPARE(campaign_.runs.size(), std::size_t(24));
    }

    void modelListsEveryRun()
    {
        CampaignModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setCampaign(campaign_);
        QCOMPARE(model.rowCount(), 24);
        QVERIFY(model.groupsAreBits());
        std::int64_t total = 0;
        for (const CampaignGroup& g : model.groups())
            total += g.counts.total;
        QCOMPARE(total, std::int64_t(24));
        // runFor picks a run of that bit and outcome; its configuration is the campaign's own.
        for (int g = 0; g < int(model.groups().size()); ++g) {
            for (Outcome o : kOutcomes) {
                const auto run = model.runFor(g, o);
                QCOMPARE(run.has_value(), model.groups()[std::size_t(g)].counts[o] > 0);
                if (!run)
                    continue;
                const CampaignRun& r = campaign_.runs[*run];
                QVERIFY(r.outcome == o);
                QCOMPARE(std::to_string(r.bit), model.groups()[std::size_t(g)].key);
                QCOMPARE(model.runConfig(*run).seed, r.seed);
                QCOMPARE(model.runConfig(*run).faults.at, r.positions);
            }
        }
        QCOMPARE(model.data(model.index(0, CampaignModel::OutcomeColumn)).toString(),
                 outcomeLabel(campaign_.runs[0].outcome));
        // The blocked family's words: the strategy cycled run by run, the cells it changed.
        QCOMPARE(model.headerData(CampaignModel::StrategyColumn, Qt::Horizontal).toString(), QStringLiteral("strategy"));
        QCOMPARE(model.data(model.index(0, CampaignModel::StrategyColumn)).toString(), QStringLiteral("s1"));
        QCOMPARE(model.data(model.index(1, CampaignModel::StrategyColumn)).toString(), QStringLiteral("s2"));
        QVERIFY(!campaign_.runs[0].applied.empty());
        const Injection& first = campaign_.runs[0].applied.front();
        QVERIFY(model.data(model.index(0, CampaignModel::PositionColumn))
                    .toString()
                    .startsWith(QStringLiteral("(%1, %2)").arg(first.globalRow).arg(first.globalCol)));
        QCOMPARE(model.data(model.index(0, CampaignModel::OutcomeColumn), Qt::DecorationRole).value<QColor>(),
                 outcomeColor(campaign_.runs[0].outcome));
    }

    void chartStacksFractionsPerBit()
    {
        CampaignView view;
        view.setCampaign(campaign_);
        const auto& groups = view.model()->groups();
        for (Outcome o : kOutcomes) {
            QCPBars* bars = view.bars(o);
            QCOMPARE(bars->brush().color(), outcomeColor(o));  // legend and chart share the class colours
            QCOMPARE(bars->data()->size(), int(groups.size()));
        }
        // Every bar sums to one.
        for (int g = 0; g < int(groups.size()); ++g) {
            double sum = 0;
            for (Outcome o : kOutcomes)
                sum += (view.bars(o)->data()->constBegin() + g)->value;
            QVERIFY(std::abs(sum - 1.0) < 1e-12);
        }
        QCOMPARE(view.plot()->legend->itemCount(), kOutcomeCount);
        // Drawn: the bars cover a good part of the plot in more than the background colour.
        const QImage image = view.plot()->toPixmap(900, 500).toImage();
        QSet<QRgb> colours;
        for (int y = 0; y < image.height(); y += 5)
            for (int x = 0; x < image.width(); x += 5)
                colours.insert(image.pixel(x, y));
        QVERIFY(colours.contains(outcomeColor(campaign_.runs[0].outcome).rgb()));
        const QString saveDir = qEnvironmentVariable("GIGACHECK_TEST_IMAGES");  // to look at it by eye
        if (!saveDir.isEmpty())
            image.save(saveDir + QStringLiteral("/campaign-chart.png"));
    }

    void clickOnASegmentAsksForThatRun()
    {
        CampaignView view;
        view.resize(900, 700);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.setCampaign(campaign_);
        view.plot()->replot();
        QSignalSpy spy(&view, &CampaignView::runRequested);

        const auto& groups = view.model()->groups();
        int checked = 0;
        for (int g = 0; g < int(groups.size()); ++g) {
            for (Outcome o : kOutcomes) {
                if (groups[std::size_t(g)].counts[o] == 0)
                    continue;
                const QPointF at = middleOf(view, g, o);
                const auto hit = view.segmentAt(at);
                QVERIFY(hit.has_value());
                QCOMPARE(hit->group, g);
                QVERIFY(hit->outcome == o);
                ++checked;
            }
        }
        QVERIFY(checked >= int(groups.size()));
        // Between two bars and above the stacks there is nothing.
        QVERIFY(!view.segmentAt({view.plot()->xAxis->coordToPixel(0.5), view.plot()->yAxis->coordToPixel(0.5)}));

        const Outcome first = [&] {
            for (Outcome o : kOutcomes)
                if (groups[0].counts[o] > 0)
                    return o;
            return Outcome::Masked;
        }();
        QTest::mouseClick(view.plot(), Qt::LeftButton, {}, middleOf(view, 0, first).toPoint());
        QCOMPARE(spy.count(), 1);
        const auto config = spy.at(0).at(0).value<RunConfig>();
        const CampaignRun& expected = campaign_.runs[*view.model()->runFor(0, first)];
        QCOMPARE(config.seed, expected.seed);
        QVERIFY(config.strategy == expected.strategy);
        QCOMPARE(config.faults.bit, expected.bit);
        QVERIFY(spy.at(0).at(1).toString().contains(QStringLiteral("bit %1").arg(expected.bit)));
    }

    void mainWindowReplaysTheRun()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("campaign.json"));
        {
            QFile file(path);
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write(QByteArray::fromStdString(campaignToJson(campaign_)));
        }
        MainWindow window;
        window.resize(1400, 950);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QString error;
        QVERIFY2(window.openCampaign(path, &error), qPrintable(error));
        QVERIFY(window.currentView() == MainWindow::View::Campaign);
        QCOMPARE(window.campaignView()->model()->rowCount(), 24);

        QSignalSpy finished(&window, &MainWindow::runFinished);
        const std::size_t pick = 5;
        QVERIFY(window.campaignView()->openRun(pick));
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 60000);
        QVERIFY(window.currentView() == MainWindow::View::Heatmap);
        const auto replayRecord = blockedRecordOf(window.lastRecord());
        QVERIFY(replayRecord);
        const RunRecord& replay = *replayRecord;
        const CampaignRun& run = campaign_.runs[pick];
        QCOMPARE(replay.config.seed, run.seed);
        QVERIFY(replay.config.strategy == run.strategy);
        QCOMPARE(replay.injections.size(), run.applied.size());
        QCOMPARE(replay.injections[0].injection.globalRow, run.applied[0].globalRow);
        QCOMPARE(replay.injections[0].injection.globalCol, run.applied[0].globalCol);
        QCOMPARE(replay.injections[0].injection.after, run.applied[0].after);  // same inputs, same flip
        QVERIFY(classifyRun(replay) == run.outcome);
    }

    // A run of an online / offline / TMR campaign replays in the lab as that run: its scheme, seed,
    // bit, faults and step, ending as the campaign judged it.
    void mainWindowReplaysAnOnlineRun_data()
    {
        QTest::addColumn<QString>("scheme");
        QTest::newRow("online") << "online";
        QTest::newRow("offline") << "offline";
        QTest::newRow("tmr") << "tmr";
    }
    void mainWindowReplaysAnOnlineRun()
    {
        QFETCH(QString, scheme);
        CampaignConfig c;
        c.family = "online";
        c.scheme = scheme.toStdString();
        setFamilySettings(c, OnlineCampaignSettings{1, 8});
        c.runs = 6;
        c.shape = {40, 32, 24};
        c.backend = BackendKind::Cpu;
        c.seed = 7;
        const CampaignResult campaign = runCampaign(c);
        QTemporaryDir dir;
        MainWindow window;
        QString error;
        QVERIFY2(openInWindow(campaign, dir, QStringLiteral("online.json"), window, &error), qPrintable(error));
        QSignalSpy finished(&window, &MainWindow::runFinished);
        const std::size_t pick = 3;
        QVERIFY(window.campaignView()->openRun(pick));
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 60000);
        const OnlineRecord* replay = onlineRecordOf(*window.lastRecord());
        QVERIFY(replay);
        const CampaignRun& run = campaign.runs[pick];
        const OnlineConfig expected = onlineCampaignRunConfig(campaign.config, run);
        QVERIFY(replay->config.scheme == expected.scheme);
        QCOMPARE(replay->config.seed, run.seed);
        QCOMPARE(replay->config.bit, run.bit);
        QCOMPARE(replay->config.panelWidth(), expected.panelWidth());
        QCOMPARE(replay->config.faults.size(), expected.faults.size());
        for (std::size_t f = 0; f < expected.faults.size(); ++f) {
            QVERIFY(replay->config.faults[f].target == expected.faults[f].target);
            QCOMPARE(replay->config.faults[f].row, expected.faults[f].row);
            QCOMPARE(replay->config.faults[f].col, expected.faults[f].col);
            QCOMPARE(replay->config.faults[f].step, expected.faults[f].step);
        }
        // The same values struck: the same inputs, the same flip.
        std::vector<Injection> struck;
        for (const InjectEvent& e : replay->injections)
            if (e.injection.applied)
                struck.push_back(e.injection);
        QCOMPARE(struck.size(), run.applied.size());
        for (std::size_t f = 0; f < struck.size(); ++f)
            QCOMPARE(struck[f].after, run.applied[f].after);
        // The campaign's run ended masked, corrected or recomputed: so does its replay.
        QCOMPARE(replay->verifiedCorrect(), run.outcome != Outcome::DetectedUncorrectable && run.outcome != Outcome::SilentCorruption);
    }

    // A run of a Strassen campaign replays in the lab as that run: the Strassen view runs its
    // levels, seed, bit and faults between stages, queued as every run is, ending as judged.
    void mainWindowReplaysAStrassenRun()
    {
        CampaignConfig c;
        c.family = "strassen";
        c.scheme = "strassen";
        setFamilySettings(c, StrassenCampaignSettings{{1, 2}});
        c.runs = 4;
        c.shape = {64, 48, 56};
        c.backend = BackendKind::Cpu;
        c.seed = 9;
        c.model = FaultModel::BitFlip;
        c.target = CampaignTarget::Any;
        const CampaignResult campaign = runCampaign(c);
        QTemporaryDir dir;
        MainWindow window;
        QString error;
        QVERIFY2(openInWindow(campaign, dir, QStringLiteral("strassen.json"), window, &error), qPrintable(error));
        strassenlab::StrassenView* view = window.strassenView();
        QSignalSpy finished(view, &strassenlab::StrassenView::runFinished);
        const std::size_t pick = 3;  // an L2 run (levels cycle 1, 2)
        QVERIFY(window.campaignView()->openRun(pick));
        QVERIFY2(view->statusText().contains(QStringLiteral("Strassen campaign run 3")), qPrintable(view->statusText()));
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 60000);
        const CampaignRun& run = campaign.runs[pick];
        const StrassenConfig expected = strassenCampaignRunConfig(campaign.config, run);
        const StrassenResult* replay = view->result();
        QVERIFY(replay);
        QCOMPARE(replay->config.levels, run.level);
        QCOMPARE(replay->config.levels, 2);
        QCOMPARE(replay->config.seed, run.seed);
        QCOMPARE(replay->config.faultModel.bit, run.bit);
        QCOMPARE(replay->config.faults.size(), expected.faults.size());
        for (std::size_t f = 0; f < expected.faults.size(); ++f)
            QCOMPARE(QString::fromStdString(toString(replay->config.faults[f])), QString::fromStdString(toString(expected.faults[f])));
        // The controls show what ran; the campaign's verdict is the replay's.
        StrassenConfig shown;
        QVERIFY(view->currentConfig(&shown, nullptr));
        QCOMPARE(shown.levels, 2);
        QCOMPARE(shown.shape.m, std::int64_t(64));
        const bool right = run.outcome != Outcome::DetectedUncorrectable && run.outcome != Outcome::SilentCorruption;
        QCOMPARE(replay->status == "ok", right);
        QVERIFY2(window.runPanel()->logText().contains(QStringLiteral("re-running Strassen campaign run 3")),
                 qPrintable(window.runPanel()->logText()));
    }

    void brokenCampaignFilesAreRefused()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("deep.json"));
        {
            QFile file(path);
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write(QByteArray(200000, '[') + QByteArray(200000, ']'));
        }
        MainWindow window;
        QString error;
        QVERIFY(!window.openCampaign(path, &error));
        QVERIFY2(error.contains(QStringLiteral("nested")), qPrintable(error));
        QVERIFY(!window.openCampaign(dir.filePath(QStringLiteral("missing.json")), &error));
        QVERIFY(!error.isEmpty());
        // The caller puts the path in front of the reason: the reason does not repeat it.
        QVERIFY2(!error.startsWith(dir.filePath(QStringLiteral("missing.json"))), qPrintable(error));
    }

    // A campaign file opened where a record is expected (gigacheck-lab FILE, File › Open) shows
    // the campaign instead of refusing a record field it does not have.
    void aCampaignOpenedAsARecordShowsTheCampaign()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("campaign.json"));
        {
            QFile file(path);
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write(QByteArray::fromStdString(campaignToJson(campaign_)));
        }
        MainWindow window;
        QString error;
        QVERIFY2(window.openRecord(path, &error), qPrintable(error));
        QVERIFY(window.currentView() == MainWindow::View::Campaign);
        QCOMPARE(window.campaignView()->model()->rowCount(), 24);
    }

    // Online and Strassen campaigns open (File > Open campaign): the family in the summary, its
    // column in the table, and a run is not replayed in the blocked animation but named by its
    // reproduce command.
    void familyCampaignsOpen()
    {
        CampaignConfig strassen;
        strassen.family = "strassen";
        strassen.scheme = "strassen";
        setFamilySettings(strassen, StrassenCampaignSettings{{1, 2}});
        strassen.model = FaultModel::Delta;
        strassen.target = CampaignTarget::Any;
        CampaignConfig tmr;
        tmr.family = "online";
        tmr.scheme = "tmr";
        for (CampaignConfig c : {strassen, tmr}) {
            c.runs = 6;
            c.shape = {32, 32, 32};
            c.backend = BackendKind::Cpu;
            QTemporaryDir dir;
            const QString path = dir.filePath(QStringLiteral("family.json"));
            {
                QFile file(path);
                QVERIFY(file.open(QIODevice::WriteOnly));
                file.write(QByteArray::fromStdString(campaignToJson(runCampaign(c))));
            }
            MainWindow window;
            window.resize(1200, 800);
            window.show();
            QVERIFY(QTest::qWaitForWindowExposed(&window));
            QString error;
            QVERIFY2(window.openCampaign(path, &error), qPrintable(error));
            CampaignView* view = window.campaignView();
            QCOMPARE(view->model()->rowCount(), 6);
            // The column of what varies run by run and the faults, in the family's own words.
            const CampaignModel& model = *view->model();
            const bool isStrassen = c.scheme == "strassen";
            QCOMPARE(model.headerData(CampaignModel::StrategyColumn, Qt::Horizontal).toString(),
                     isStrassen ? QStringLiteral("levels") : QStringLiteral("step"));
            for (int row = 0; row < 6; ++row) {
                const CampaignRun& run = model.campaign().runs[std::size_t(row)];
                const QString varies = model.data(model.index(row, CampaignModel::StrategyColumn)).toString();
                const QString where = model.data(model.index(row, CampaignModel::PositionColumn)).toString();
                if (isStrassen) {
                    QCOMPARE(varies, QStringLiteral("L%1").arg(run.level));
                    QVERIFY2(where.startsWith(QString::fromStdString(run.places.at(0).where) + QLatin1Char(':')),
                             qPrintable(where));
                } else {
                    QCOMPARE(varies, run.step >= 0 ? QStringLiteral("replica %1").arg(run.step) : QStringLiteral("at encoding"));
                    QCOMPARE(where, QStringLiteral("(%1, %2)").arg(run.positions.at(0).row).arg(run.positions.at(0).col));
                }
            }
            const auto* summary = view->findChild<QLabel*>(QStringLiteral("campaignSummary"));
            QVERIFY(summary && summary->text().contains(QStringLiteral("family ") +
                                                        QString::fromStdString(c.family)));
            QSignalSpy spy(view, &CampaignView::runRequested);
            QSignalSpy online(view, &CampaignView::onlineRunRequested);
            if (isStrassen) {  // Strassen's runs replay in the Strassen view (mainWindowReplaysAStrassenRun)
                QSignalSpy strassen(view, &CampaignView::strassenRunRequested);
                QVERIFY(view->openRun(0));
                QCOMPARE(spy.count() + online.count(), 0);
                QCOMPARE(strassen.count(), 1);
                QTRY_VERIFY_WITH_TIMEOUT(!window.strassenView()->running(), 60000);
            }
        }
    }

private:
    CampaignResult campaign_;
};

GIGACHECK_UI_TEST_MAIN(TestCampaignView)
#include "tst_campaignview.moc"
