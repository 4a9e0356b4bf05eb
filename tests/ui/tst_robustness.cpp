// A demanding user's bad inputs: broken files, impossible runs, faults left outside a shrunk C,
// Cancel right after Start, closing during a run, stale settings. Each gets a clear message,
// loses nothing, and the window stays usable (the next run works). Also: roof labels legible.
#include "ui/uitestmain.hpp"
#include "ui/uitestruns.hpp"

#include <engine/backgroundjobs.hpp>
#include <engine/enginecontroller.hpp>
#include <engine/onlinerun.hpp>
#include <models/onlinestepmodel.hpp>
#include <panels/faultspanel.hpp>
#include <views/heatmapview.hpp>
#include <window/mainwindow.hpp>
#include <views/rooflineview.hpp>
#include <views/timelineview.hpp>

#include <qcustomplot.h>

#include <QFile>
#include <QListWidget>
#include <QMessageBox>
#include <QSettings>
#include <QSpinBox>
#include <QTemporaryDir>

using namespace gigacheck;
using namespace gigacheck::ui;

Q_DECLARE_METATYPE(gigacheck::Ceilings)

namespace {

const QString kSample = QStringLiteral(GIGACHECK_TEST_DATA "/ui_record_s2_cli.json");
const QString kCorpus = QStringLiteral(GIGACHECK_TEST_DATA "/fuzz/record/");

RunConfig smallRun()
{
    RunConfig c;
    c.shape = Shape{256, 192, 224};
    c.memCapBytes = 128 * 1024;
    c.strategy = StrategyKind::S2;
    c.backend = BackendKind::Cpu;
    return c;
}

RunConfig longRun() { return test::longCpuRun(); }

QByteArray fileBytes(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

QByteArray sampleBytes() { return fileBytes(kSample); }

// The warning boxes the window shows (non-modal, so tests are never blocked).
QStringList warnings(const QWidget& window)
{
    QStringList texts;
    for (const QMessageBox* box : window.findChildren<QMessageBox*>())
        if (box->isVisible())
            texts << box->text();
    return texts;
}

void closeWarnings(const QWidget& window)
{
    for (QMessageBox* box : window.findChildren<QMessageBox*>())
        box->close();
}

// A run through the window ends with runFinished and status ok.
bool nextRunWorks(MainWindow& window)
{
    window.setConfig(smallRun());
    QSignalSpy finished(&window, &MainWindow::runFinished);
    window.startRun();
    if (!QTest::qWaitFor([&] { return !finished.isEmpty(); }, 60000))
        return false;
    return test::blockedRunOf(finished).status == "ok";
}

QRectF textRect(const QCPItemText* text)
{
    return QRectF(text->topLeft->pixelPosition(), text->bottomRight->pixelPosition()).normalized();
}

}  // namespace

class TestRobustness : public QObject {
    Q_OBJECT

private slots:
    void init() { QSettings().clear(); }

    void brokenRecordsSayWhyAndLoseNothing_data()
    {
        QTest::addColumn<QByteArray>("content");  // empty name below: the path does not exist
        QTest::addColumn<QString>("mentions");
        const QByteArray sample = sampleBytes();
        QVERIFY(!sample.isEmpty());
        QByteArray newer = sample;
        newer.replace("\"format_version\": 1", "\"format_version\": 99");
        QVERIFY(newer != sample);
        QTest::newRow("truncated") << sample.left(sample.size() / 2) << "not valid JSON";
        QTest::newRow("empty file") << QByteArray() << "not valid JSON";
        QTest::newRow("array") << QByteArray("[1, 2, 3]") << "must be an object";
        QTest::newRow("object of the wrong shape") << QByteArray("{\"format_version\": 1, \"status\": 3}") << "status";
        QTest::newRow("newer format") << newer << "newer";
        QTest::newRow("binary") << QByteArray("\x00\xff\xfe garbage", 12) << "not valid JSON";
        QTest::newRow("missing file") << QByteArray("<missing>") << "no such file";
        // Hostile files (issue 15): each once crashed the lab or froze it for minutes.
        QTest::newRow("100 000 nested objects")
            << QByteArray("{\"a\":").repeated(100000) + "1" + QByteArray("}").repeated(100000) << "nested deeper";
        QByteArray deep = sample;
        deep.replace("\"error\": \"\"", "\"error\": " + QByteArray("[").repeated(1000000) + QByteArray("]").repeated(1000000));
        QVERIFY(deep.size() > 2000000);
        QTest::newRow("an array nested 1 000 000 deep") << deep << "nested deeper";
        QByteArray splits = sample;
        splits.replace("\"split_m\": 2", "\"split_m\": 2147483647").replace("\"split_q\": 3", "\"split_q\": 2147483647");
        QVERIFY(splits != sample);
        QTest::newRow("2^31 - 1 splits") << splits << "split_m";
        QByteArray huge = sample;
        huge.replace("\"m\": 512", "\"m\": 18446744073709551615");
        QVERIFY(huge != sample);
        QTest::newRow("shape 2^64 - 1") << huge << "shape.m";
        QTest::newRow("a directory") << QByteArray("<directory>") << "directory";
        // Forged records of the fuzz corpus (issue 15): 2^31 - 1 online steps spun the GUI thread
        // into gigabytes; a shape of -4 opened as "-4x64x64"; splits of a 2^31 - 1 square C, each
        // consistent with the shape, overflowed the product count.
        const QByteArray steps = fileBytes(kCorpus + QStringLiteral("online-steps-2147483647.json"));
        QVERIFY(steps.contains("\"steps\": 2147483647"));
        QTest::newRow("online steps 2^31 - 1") << steps << "'online_abft.steps' is 2147483647";
        const QByteArray negative = fileBytes(kCorpus + QStringLiteral("online-shape-negative.json"));
        QVERIFY(negative.contains("\"m\": -4"));
        QTest::newRow("online shape m = -4") << negative << "'online_abft.config.shape.m' is -4";
        const QByteArray products = fileBytes(kCorpus + QStringLiteral("blocked-splits-2147483647.json"));
        QVERIFY(!products.isEmpty());
        QTest::newRow("2^31 - 1 x 2^31 - 1 blocks") << products << "more than a run schedules";
    }

    // A record that got past the reader some other way still gives the step view bounded work:
    // a position per step up to OnlineStepModel::kMaxSteps, found without a scan per step.
    void onlineStepViewWorkIsBounded()
    {
        auto run = std::make_shared<OnlineRun>();
        OnlineRecord& r = run->record;
        r.config.shape = Shape{64, 2147483647, 64};
        r.config.panel = 1;
        r.steps = 2147483647;
        r.checkSteps = {0, 5, 2147483646};
        InjectEvent fault;
        fault.injection.block.k = 5;
        fault.injection.localRow = fault.injection.localCol = 3;
        r.injections.assign(20000, fault);
        VerifyEvent check;
        check.block.k = 5;
        check.result.verdict = Verdict::Corrected;
        check.result.corrections = {Correction{3, 3, 1.0, 0.0}};
        r.verifications.assign(20000, check);
        OnlineStepModel model;
        model.setRun(run);
        // One product position per shown step, the fault and the checks inside them.
        QCOMPARE(model.count(), OnlineStepModel::kMaxSteps + 3);
        QCOMPARE(model.position(model.count() - 1).step, OnlineStepModel::kMaxSteps - 1);
        const int fault5 = model.positionOf(5, OnlineStepModel::Phase::Fault);
        QVERIFY(fault5 > 0);
        QCOMPARE(model.faults().size(), std::size_t(20000));
        QCOMPARE(model.faults().front().caughtAtStep, 5);
        QVERIFY(model.faults().front().corrected);
        QVERIFY(model.describe(fault5).contains(QStringLiteral("of 2147483647")));
    }

    void brokenRecordsSayWhyAndLoseNothing()
    {
        QFETCH(QByteArray, content);
        QFETCH(QString, mentions);
        QTemporaryDir dir;
        QString path = dir.filePath(QStringLiteral("bad.json"));
        if (content == "<missing>") {
            path = dir.filePath(QStringLiteral("missing.json"));
        } else if (content == "<directory>") {
            path = dir.path();
        } else {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(content);
        }

        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QString error;
        QVERIFY2(window.openRecord(kSample, &error), qPrintable(error));
        const std::size_t spans = window.lastRecord()->spans.size();
        const QString title = window.windowTitle();

        QVERIFY(!window.openRecordReporting(path, &error));
        QVERIFY2(error.contains(mentions, Qt::CaseInsensitive), qPrintable(error));
        // The user sees why, in a message naming the file.
        const QStringList shown = warnings(window);
        QCOMPARE(shown.size(), 1);
        QVERIFY2(shown.first().contains(path) && shown.first().contains(error), qPrintable(shown.first()));
        // Nothing lost: the record on screen stays, the title still names it.
        QVERIFY(window.lastRecord() != nullptr);
        QCOMPARE(window.lastRecord()->spans.size(), spans);
        QCOMPARE(window.timeline()->model().spanCount(), spans);
        QCOMPARE(window.windowTitle(), title);
        closeWarnings(window);
        QVERIFY(nextRunWorks(window));
    }

    void impossibleRunsSayWhyAndTheNextRunWorks_data()
    {
        QTest::addColumn<RunConfig>("config");
        QTest::addColumn<QString>("mentions");
        RunConfig zero = smallRun();
        zero.shape.n = 0;
        QTest::newRow("zero dimension") << zero << "empty";
        RunConfig tiny = smallRun();
        tiny.memCapBytes = 512;
        QTest::newRow("cap too small") << tiny << "cap";
        RunConfig huge = smallRun();
        huge.shape = Shape{200000, 200000, 200000};
        huge.memCapBytes = 64ull << 20;
        QTest::newRow("no host memory for the shape") << huge << "not enough host memory";
        RunConfig slivers = smallRun();
        slivers.shape = Shape{20000, 2000, 2000};
        slivers.strategy = StrategyKind::S1;
        slivers.memCapBytes = bytesForBlocks(StrategyKind::S1, Precision::F32, true, 8, 8, 8);
        QTest::newRow("too many block products") << slivers << "raise the memory cap";
        RunConfig outside = smallRun();
        outside.faults.at = {FaultAt{smallRun().shape.m, 3, std::nullopt, std::nullopt}};
        QTest::newRow("fault outside C") << outside << "outside";
    }

    void impossibleRunsSayWhyAndTheNextRunWorks()
    {
        // Straight into the engine thread, as the window's checks might not catch them all.
        QFETCH(RunConfig, config);
        QFETCH(QString, mentions);
        MainWindow window;
        QSignalSpy failed(&window, &MainWindow::runFailed);
        QSignalSpy finished(&window, &MainWindow::runFinished);
        QElapsedTimer clock;
        clock.start();
        window.engine()->start(config);
        QTRY_VERIFY_WITH_TIMEOUT(!failed.isEmpty(), 20000);
        qInfo("reported after %lld ms: %s", clock.elapsed(), qPrintable(failed.first().first().toString()));
        QVERIFY(clock.elapsed() < 10000);
        const QString message = failed.first().first().toString();
        QVERIFY2(message.contains(mentions, Qt::CaseInsensitive), qPrintable(message));
        QVERIFY(finished.isEmpty());
        QVERIFY(!window.engine()->isRunning());
        QVERIFY(!warnings(window).isEmpty());
        closeWarnings(window);
        QVERIFY(nextRunWorks(window));
    }

    void faultsOutsideAShrunkShapeAreDroppedEverywhere()
    {
        MainWindow window;
        RunConfig c = smallRun();
        c.faults.at = {FaultAt{200, 200, std::nullopt, std::nullopt}, FaultAt{10, 20, std::nullopt, std::nullopt}};
        window.setConfig(c);
        auto* list = window.faultsPanel()->findChild<QListWidget*>(QStringLiteral("explicitFaults"));
        QVERIFY(list);
        QCOMPARE(list->count(), 2);

        // Shrink m below the first fault's row: it leaves the heatmap, the list and the run.
        window.findChild<QSpinBox*>(QStringLiteral("shapeM"))->setValue(100);
        QCOMPARE(window.heatmap()->faults().size(), std::size_t(1));
        QCOMPARE(list->count(), 1);
        QCOMPARE(list->item(0)->text(), QStringLiteral("(10, 20)"));
        // "Remove selected" on the list must not bring the dropped fault back.
        list->clearSelection();
        for (QPushButton* b : window.faultsPanel()->findChildren<QPushButton*>())
            if (b->text().startsWith(QStringLiteral("Remove")))
                b->click();
        QCOMPARE(window.heatmap()->faults().size(), std::size_t(1));

        // A config (record, settings) whose faults lie outside its own shape: dropped too.
        RunConfig stale = smallRun();
        stale.faults.at = {FaultAt{5, 5, std::nullopt, std::nullopt},
                           FaultAt{stale.shape.m + 7, 1, std::nullopt, std::nullopt}};
        window.setConfig(stale);
        QCOMPARE(window.heatmap()->faults().size(), std::size_t(1));
        QCOMPARE(list->count(), 1);
        RunConfig current;
        QVERIFY(window.currentConfig(&current, nullptr));
        QCOMPARE(current.faults.at.size(), std::size_t(1));

        QSignalSpy finished(&window, &MainWindow::runFinished);
        QSignalSpy failed(&window, &MainWindow::runFailed);
        window.startRun();
        QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty() || !failed.isEmpty(), 60000);
        QVERIFY2(failed.isEmpty(), failed.isEmpty() ? "" : qPrintable(failed.first().first().toString()));
        const RunRecord r = test::blockedRunOf(finished);
        QCOMPARE(r.status, std::string("ok"));
        QCOMPARE(r.faults.injected, 1);
        QVERIFY(r.verifiedCorrect());
    }

    void cancelRightAfterStartIsNotLost()
    {
        MainWindow window;
        window.setConfig(longRun());
        QSignalSpy finished(&window, &MainWindow::runFinished);
        QElapsedTimer clock;
        clock.start();
        window.startRun();
        window.cancelRun();  // before the worker has picked the job up
        QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty(), 3000);
        qInfo("cancelled run ended after %lld ms", clock.elapsed());
        QCOMPARE(test::blockedRunOf(finished).status, std::string("cancelled"));
        QVERIFY(!window.engine()->isRunning());

        // The same while the worker still winds the previous run down, so the new job waits in
        // its queue when Cancel comes: it must start cancelled, not run in full.
        finished.clear();
        QSignalSpy batches(window.engine(), &EngineController::spansArrived);
        window.startRun();
        QTRY_VERIFY_WITH_TIMEOUT(batches.count() >= 2, 60000);
        window.startRun();  // queued behind the first, which goes on
        QCOMPARE(BackgroundJobs::instance()->queuedNames().size(), 1);
        BackgroundJobs::instance()->clearQueue();  // taken out before it starts
        window.cancelRun();
        clock.restart();
        QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty(), 3000);
        qInfo("queued cancelled run ended after %lld ms", clock.elapsed());
        QCOMPARE(finished.count(), 1);
        QCOMPARE(test::blockedRunOf(finished).status, std::string("cancelled"));
        QVERIFY(nextRunWorks(window));
    }

    // Start twice in a row: the second waits in the queue and runs after the first, each record
    // its own (no stale result of the first arrives as the second's).
    void startTwiceQuicklyRunsBothInOrder()
    {
        MainWindow window;
        window.setConfig(smallRun());
        QSignalSpy finished(&window, &MainWindow::runFinished);
        QSignalSpy failed(&window, &MainWindow::runFailed);
        window.startRun();
        const quint64 first = window.engine()->currentJob();
        window.startRun();
        QCOMPARE(window.engine()->currentJob(), first);  // the first is not cut
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 2, 60000);
        QTest::qWait(300);  // a stale result would arrive by now
        QCOMPARE(finished.count(), 2);
        QVERIFY(failed.isEmpty());
        QCOMPARE(window.engine()->currentJob(), first + 1);
        QVERIFY(finished.at(0).first().value<RecordPtr>() != finished.at(1).first().value<RecordPtr>());
        for (const QList<QVariant>& args : finished)
            QCOMPARE(blockedRecordOf(*args.first().value<RecordPtr>())->status, std::string("ok"));
        QVERIFY(!window.engine()->isRunning());
        QVERIFY(!BackgroundJobs::instance()->busy());
    }

    void closingDuringARunNeitherCrashesNorHangs()
    {
        auto* window = new MainWindow;
        window->setConfig(longRun());
        window->show();
        QVERIFY(QTest::qWaitForWindowExposed(window));
        QSignalSpy batches(window->engine(), &EngineController::spansArrived);
        window->startRun();
        QTRY_VERIFY_WITH_TIMEOUT(batches.count() >= 2, 60000);  // under way
        QElapsedTimer clock;
        clock.start();
        QVERIFY(!window->close());  // asks first (tst_nothinglost checks each answer)
        QMessageBox* question = window->findChild<QMessageBox*>(QStringLiteral("closeDuringRun"));
        QVERIFY(question);
        question->button(QMessageBox::Discard)->click();
        QTRY_VERIFY_WITH_TIMEOUT(!window->isVisible(), 3000);
        delete window;  // joins the engine thread
        qInfo("closed and destroyed in %lld ms", clock.elapsed());
        QVERIFY(clock.elapsed() < 3000);
    }

    void staleSettingsRestoreSafely()
    {
        // Settings written by another version or for another shape must never break the start.
        RunRecord holder;
        holder.config = smallRun();
        holder.config.faults.at = {FaultAt{holder.config.shape.m + 1, 0, std::nullopt, std::nullopt},
                                   FaultAt{1, 1, std::nullopt, std::nullopt}};
        holder.config.memCapBytes = 600;  // nothing fits any more
        QSettings().setValue(QStringLiteral("lastConfig"), QString::fromStdString(toJson(holder, -1)));
        QSettings().setValue(QStringLiteral("window/state"), QByteArray("not a state"));
        {
            MainWindow window;
            RunConfig restored;
            QVERIFY(window.currentConfig(&restored, nullptr));
            QVERIFY(restored.shape == smallRun().shape);
            QCOMPARE(restored.faults.at.size(), std::size_t(1));  // the one outside C is gone
            auto* summary = window.findChild<QLabel*>(QStringLiteral("planSummary"));
            QVERIFY(summary && summary->text().contains(QStringLiteral("No plan")));
            QSignalSpy failed(&window, &MainWindow::runFailed);
            window.startRun();
            QTRY_VERIFY_WITH_TIMEOUT(!failed.isEmpty(), 20000);
            closeWarnings(window);
            QVERIFY(nextRunWorks(window));
        }
        for (const char* garbage : {"", "{", "[]", "{\"format_version\": 1}", "{\"format_version\": 99}"}) {
            QSettings().setValue(QStringLiteral("lastConfig"), QString::fromLatin1(garbage));
            MainWindow window;
            RunConfig restored;
            QVERIFY2(window.currentConfig(&restored, nullptr), garbage);
            QVERIFY(restored.shape.m >= 1 && restored.shape.n >= 1 && restored.shape.q >= 1);
        }
    }

    void closeComputeRoofsKeepTheirLabelsApart_data()
    {
        QTest::addColumn<Ceilings>("ceilings");
        Ceilings h200;  // measured on the H200 (resources/screenshots/h200-16k-roofline.png)
        h200.gflopsF32 = 51290;
        h200.gflopsTf32 = 416600;
        h200.gflopsF64 = 56510;
        h200.deviceBandwidthGBs = 4236;
        h200.h2dGBs = 55.54;
        h200.d2hGBs = 55.0;
        h200.source = "measured";
        QTest::newRow("H200 measured") << h200;
        Ceilings equal = h200;  // e.g. the RTX 4090 datasheet: FP32 = TF32
        equal.gflopsTf32 = equal.gflopsF32;
        QTest::newRow("equal roofs") << equal;
        Ceilings three = h200;
        three.gflopsTf32 = 60000;
        QTest::newRow("three close roofs") << three;
    }

    void closeComputeRoofsKeepTheirLabelsApart()
    {
        QFETCH(Ceilings, ceilings);
        RooflineView view;
        view.resize(1000, 760);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        RunRecord run;
        run.devices.front().name = "test device";
        run.devices.front().ceilings = ceilings;
        view.setRuns({run});
        view.plot()->replot();
        std::vector<QCPItemText*> labels;
        for (int i = 0; i < view.plot()->itemCount(); ++i)
            if (auto* text = qobject_cast<QCPItemText*>(view.plot()->item(i)); text && text->text().contains(QStringLiteral("peak")))
                labels.push_back(text);
        QCOMPARE(labels.size(), std::size_t(3));
        for (std::size_t a = 0; a < labels.size(); ++a)
            for (std::size_t b = a + 1; b < labels.size(); ++b)
                QVERIFY2(!textRect(labels[a]).intersects(textRect(labels[b])),
                         qPrintable(labels[a]->text() + QStringLiteral(" overlaps ") + labels[b]->text()));
        // Each label stays next to its own roof (within a line or two of text).
        for (QCPItemText* text : labels) {
            const Roof* roof = nullptr;
            for (const Roof& r : view.roofs())
                if (r.label == text->text())
                    roof = &r;
            QVERIFY(roof);
            const double y = view.plot()->yAxis->coordToPixel(roof->value);
            const QRectF rect = textRect(text);
            QVERIFY2(std::min(std::abs(rect.top() - y), std::abs(rect.bottom() - y)) < 3,
                     qPrintable(text->text()));
        }
    }
};

GIGACHECK_UI_TEST_MAIN(TestRobustness)
#include "tst_robustness.moc"
