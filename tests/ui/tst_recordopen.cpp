// A record made by `gigacheck` (on any machine) opens in the GUI and draws: timeline, heatmap
// layers and fault markers, animation, roofline and report. Broken files give a message.
#include "ui/uitestmain.hpp"

#include "gigacheck/backend.hpp"
#include "gigacheck/family.hpp"

#include <export/screenshots.hpp>
#include <views/animationpanel.hpp>
#include <views/gallery/galleryview.hpp>
#include <views/heatmapview.hpp>
#include <window/mainwindow.hpp>
#include <views/rooflineview.hpp>
#include <views/timelineview.hpp>

#include <qcustomplot.h>

#include <QDragEnterEvent>
#include <QDropEvent>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMimeData>
#include <QProcess>
#include <QUrl>
#include <QTemporaryDir>

using namespace gigacheck;
using namespace gigacheck::ui;

namespace {

// True when the image is not one flat colour: something was drawn.
bool hasContent(const QImage& image)
{
    if (image.isNull())
        return false;
    const QRgb first = image.pixel(0, 0);
    int different = 0;
    for (int y = 0; y < image.height(); y += 7)
        for (int x = 0; x < image.width(); x += 7)
            different += image.pixel(x, y) != first;
    return different > 50;
}

}  // namespace

class TestRecordOpen : public QObject {
    Q_OBJECT

    void checkOpens(const QString& path)
    {
        const RunRecord expected = loadRecord(path.toStdString());
        MainWindow window;
        window.resize(1400, 950);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QString error;
        QVERIFY2(window.openRecord(path, &error), qPrintable(error));

        QCOMPARE(window.timeline()->model().spanCount(), expected.spans.size());
        QCOMPARE(window.heatmap()->rows(), expected.config.shape.m);
        QCOMPARE(window.heatmap()->cols(), expected.config.shape.q);
        QCOMPARE(window.heatmap()->faults().size(), expected.config.faults.at.size());
        QVERIFY(!window.heatmap()->hasMatrix());  // a record carries no matrix ...
        QVERIFY(window.heatmap()->layer() != HeatmapView::Layer::Values);  // ... so a sparse layer is shown
        if (expected.faults.corrected > 0) {
            const auto& steps = window.animation()->steps();
            QVERIFY(std::any_of(steps.begin(), steps.end(), [](const AnimationStep& s) { return s.stage == AnimationStage::Correct; }));
        }
        QVERIFY(!window.roofline()->roofs().empty());
        QCOMPARE(window.roofline()->runs().size(), std::size_t(1));
        QVERIFY(!window.roofline()->runs()[0].points.empty());

        for (MainWindow::View view : {MainWindow::View::Timeline, MainWindow::View::Heatmap, MainWindow::View::Roofline}) {
            window.showView(view);
            QCustomPlot* plot = view == MainWindow::View::Timeline ? window.timeline()->plot()
                                : view == MainWindow::View::Heatmap ? window.heatmap()->plot()
                                                                    : window.roofline()->plot();
            plot->replot();
            QVERIFY(hasContent(plot->toPixmap().toImage()));
        }
        QVERIFY(window.lastRecord() != nullptr);
        QCOMPARE(window.lastRecord()->spans.size(), expected.spans.size());
    }

private slots:
    void sampleRecordFromTheCliOpens()
    {
        const QString path = QStringLiteral(GIGACHECK_TEST_DATA "/ui_record_s2_cli.json");
        QVERIFY(QFileInfo::exists(path));
        checkOpens(path);
    }

    void freshRecordFromTheCliOpens()
    {
        const QString cli = QStringLiteral(GIGACHECK_CLI);
        if (!QFileInfo(cli).isExecutable())
            QSKIP("the gigacheck CLI is not built in this tree; the checked-in sample covered the format");
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("run.json"));
        QProcess process;
        process.start(cli, {QStringLiteral("run"), QStringLiteral("--shape"), QStringLiteral("300x200x260"), QStringLiteral("--backend"),
                            QStringLiteral("cpu"), QStringLiteral("--strategy"), QStringLiteral("s4"), QStringLiteral("--mem"),
                            QStringLiteral("256KiB"), QStringLiteral("--inject-at"), QStringLiteral("5,6"), QStringLiteral("--json"), path});
        QVERIFY(process.waitForFinished(60000));
        QVERIFY2(process.exitCode() == 0, process.readAllStandardError().constData());
        checkOpens(path);
    }

    // A record made on an H200 whose planner tapered the ends (rows 2752, 5440, 5440, 2752): it opens
    // on a machine without a GPU, and the heat map keeps drawing the record's unequal blocks although
    // the preview of its configuration (auto on CUDA) cannot plan here.
    void recordWithTaperedBlocksKeepsItsGrid()
    {
        const QString path = QStringLiteral(GIGACHECK_TEST_DATA "/ui_record_tapered_h200.json");
        checkOpens(path);
        const RunRecord expected = loadRecord(path.toStdString());
        QVERIFY(expected.plan.tapered());
        QCOMPARE(expected.plan.rowsOf(0), std::int64_t(2752));
        if (makeBackend(BackendKind::Auto)->device().backend != BackendKind::Cpu)
            QSKIP("a GPU is present: the preview plans there and draws its own grid");
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QString error;
        QVERIFY2(window.openRecord(path, &error), qPrintable(error));
        QTRY_VERIFY(window.heatmap()->gridPlan().has_value());
        QTest::qWait(1500);  // the preview (250 ms debounce, a worker) has answered: no CUDA device
        QVERIFY(window.heatmap()->gridPlan().has_value());
        QVERIFY(window.heatmap()->gridPlan()->rowStarts == expected.plan.rowStarts);
    }

    void compareWithARecordShowsBothRuns()
    {
        MainWindow window;
        QString error;
        QVERIFY(window.openRecord(QStringLiteral(GIGACHECK_TEST_DATA "/ui_record_s2_cli.json"), &error));
        const std::size_t current = window.timeline()->model().spanCount();
        const QString baseline = QStringLiteral(GIGACHECK_TEST_DATA "/../../resources/records/cpu-1024-s4.json");
        QVERIFY2(window.compareWithRecord(baseline, &error), qPrintable(error));
        const TimelineModel& model = window.timeline()->model();
        QCOMPARE(model.runCount(), 2);
        QCOMPARE(model.spanCount(1), current);
        QCOMPARE(model.spanCount(0), loadRecord(baseline.toStdString()).spans.size());
        QCOMPARE(window.roofline()->runs().size(), std::size_t(2));
    }

    // File > Compare takes any family's record through the envelope: its spans become the
    // baseline's lanes beside the current run, its metrics and spans the roofline's points; a
    // record with no spans is refused by its family's name; a campaign is refused.
    void compareTakesEveryFamilysRecord()
    {
        const QString current = QStringLiteral(GIGACHECK_TEST_DATA "/ui_record_s2_cli.json");
        for (const char* name : {"online-64", "strassen-64", "transpose-48x32", "reduced-32"}) {
            const QString baseline = QStringLiteral(GIGACHECK_TEST_DATA "/fuzz/record/") + QLatin1String(name) +
                                     QStringLiteral(".json");
            const std::size_t spans = loadAnyRecord(baseline.toStdString())->spans.size();
            QVERIFY2(spans > 0, name);
            MainWindow window;
            QString error;
            QVERIFY2(window.openRecord(current, &error), qPrintable(error));
            const std::size_t currentSpans = window.timeline()->model().spanCount();
            QVERIFY2(window.compareWithRecord(baseline, &error), qPrintable(QLatin1String(name) + QStringLiteral(": ") + error));
            const TimelineModel& model = window.timeline()->model();
            QCOMPARE(model.runCount(), 2);
            QCOMPARE(model.spanCount(0), spans);
            QCOMPARE(model.spanCount(1), currentSpans);
            QVERIFY2(QString::fromStdString(model.runLabel(0)).endsWith(QStringLiteral("(file)")), name);
            QCOMPARE(window.roofline()->runs().size(), std::size_t(2));
        }

        // The same Strassen record without its spans: nothing to lay beside a run, said by family.
        QFile source(QStringLiteral(GIGACHECK_TEST_DATA "/fuzz/record/strassen-64.json"));
        QVERIFY(source.open(QIODevice::ReadOnly));
        QJsonObject record = QJsonDocument::fromJson(source.readAll()).object();
        QVERIFY(record.contains(QStringLiteral("spans")));
        record.insert(QStringLiteral("spans"), QJsonArray());
        QTemporaryDir dir;
        const QString noSpans = dir.filePath(QStringLiteral("no-spans.json"));
        {
            QFile out(noSpans);
            QVERIFY(out.open(QIODevice::WriteOnly));
            out.write(QJsonDocument(record).toJson());
        }
        QVERIFY(loadAnyRecord(noSpans.toStdString())->spans.empty());  // still a readable record
        MainWindow window;
        QString error;
        QVERIFY(window.openRecord(current, &error));
        QVERIFY(!window.compareWithRecord(noSpans, &error));
        QVERIFY2(error.contains(QStringLiteral("Strassen")) && error.contains(QStringLiteral("no timeline to compare")),
                 qPrintable(error));
        QCOMPARE(window.timeline()->model().runCount(), 1);  // the current run alone, as before
    }

    void brokenFilesGiveAMessage()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("broken.json"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{ \"format_version\": 1, \"spans\": [");
        f.close();
        MainWindow window;
        QString error;
        QVERIFY(!window.openRecord(path, &error));
        QVERIFY(!error.isEmpty());
        QVERIFY(!window.openRecord(dir.filePath(QStringLiteral("missing.json")), &error));
        QVERIFY(!error.isEmpty());
        qInfo("messages: %s", qPrintable(error));
    }

    // Every family's loader names the file already; the lab says "Cannot open <path>: <why>", so
    // the reason must not repeat the path. A float where an integer belongs names its field.
    void damagedRecordsOfEveryFamilyNameTheFieldOnce()
    {
        MainWindow window;
        for (const char* name : {"strassen-integers-as-floats", "online-integers-as-floats"}) {
            const QString path = QStringLiteral(GIGACHECK_TEST_DATA "/fuzz/record/") + QLatin1String(name) +
                                 QStringLiteral(".json");
            QString error;
            QVERIFY(!window.openRecord(path, &error));
            QVERIFY2(!error.contains(path), qPrintable(error));
            QVERIFY2(error.contains(QStringLiteral("must be an integer")), qPrintable(error));
        }
    }

    void savedRecordRoundTrips()
    {
        MainWindow window;
        QString error;
        QVERIFY(window.openRecord(QStringLiteral(GIGACHECK_TEST_DATA "/ui_record_s2_cli.json"), &error));
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("again.json"));
        QVERIFY2(window.saveRecord(path, &error), qPrintable(error));
        const RunRecord again = loadRecord(path.toStdString());
        QCOMPARE(again.spans.size(), window.lastRecord()->spans.size());
        QCOMPARE(again.injections.size(), window.lastRecord()->injections.size());
    }

    // File > Save writes the shown record through its family's writer (the registry): every
    // family's record reopens as the same record; a family this build lacks is refused by name.
    void everyFamilysRecordSavesThroughItsFamily()
    {
        MainWindow window;
        QString error;
        const QString online = QStringLiteral(GIGACHECK_TEST_DATA "/fuzz/record/online-64.json");
        QVERIFY2(window.openRecord(online, &error), qPrintable(error));
        QVERIFY(window.lastRecord() && window.lastRecord()->family == "online_abft");
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("online-again.json"));
        QVERIFY2(window.saveRecord(path, &error), qPrintable(error));
        const auto again = loadAnyRecord(path.toStdString());
        QCOMPARE(again->family, std::string("online_abft"));
        QCOMPARE(again->spans.size(), window.lastRecord()->spans.size());
        QCOMPARE(reportOf(*again), reportOf(*window.lastRecord()));

        // A Strassen record too: the same report from the copy.
        const auto strassen = loadAnyRecord(GIGACHECK_TEST_DATA "/fuzz/record/strassen-64.json");
        const std::string strassenAgain = dir.filePath(QStringLiteral("strassen-again.json")).toStdString();
        saveAnyRecord(*strassen, strassenAgain);
        const auto strassenBack = loadAnyRecord(strassenAgain);
        QCOMPARE(strassenBack->family, std::string("strassen"));
        QCOMPARE(reportOf(*strassenBack), reportOf(*strassen));

        // And the kernel gallery's (transpose, reduced matmul).
        for (const char* name : {"transpose-48x32.json", "reduced-32.json"}) {
            const auto gallery = loadAnyRecord(GIGACHECK_TEST_DATA "/fuzz/record/" + std::string(name));
            const std::string copy = dir.filePath(QStringLiteral("gallery-again.json")).toStdString();
            saveAnyRecord(*gallery, copy);
            QCOMPARE(reportOf(*loadAnyRecord(copy)), reportOf(*gallery));
        }

        // A record of a family this build does not have: refused by name, nothing written.
        RecordEnvelope stranger;
        stranger.family = "systolic";
        const QString strangerPath = dir.filePath(QStringLiteral("systolic.json"));
        try {
            saveAnyRecord(stranger, strangerPath.toStdString());
            QFAIL("a record of an unknown family was saved");
        } catch (const InputError& e) {
            QVERIFY2(QString::fromUtf8(e.what()).contains(QStringLiteral("'systolic'")), e.what());
        }
        QVERIFY(!QFileInfo::exists(strangerPath));
    }

    // File > Open takes the kernel gallery's records too: the Kernel gallery shows the record's
    // family and its point, and says what it opened; a sweep going on is not mixed with it.
    void galleryRecordsOpenInTheGallery()
    {
        for (const char* name : {"transpose-48x32", "reduced-32"}) {
            const QString path = QStringLiteral(GIGACHECK_TEST_DATA "/fuzz/record/") + QLatin1String(name) + QStringLiteral(".json");
            MainWindow window;
            QString error;
            QVERIFY2(window.openRecord(path, &error), qPrintable(QLatin1String(name) + QStringLiteral(": ") + error));
            QCOMPARE(window.currentView(), MainWindow::View::Gallery);
            const gallery::GalleryView* view = window.galleryView();
            QCOMPARE(view->points().size(), std::size_t(1));
            QVERIFY(view->points().front().verified);
            QVERIFY(view->points().front().ms > 0);
            QVERIFY2(view->plotTitle().startsWith(std::string_view(name).starts_with("reduced") ? QStringLiteral("Reduced")
                                                                                               : QStringLiteral("Transpose")),
                     qPrintable(view->plotTitle()));
        }
        // --screenshots DIR --record: the gallery's shot, not the empty GEMM views.
        QTemporaryDir dir;
        MainWindow window;
        ScreenshotOptions options;
        options.directory = dir.filePath(QStringLiteral("shots"));
        options.recordPath = QStringLiteral(GIGACHECK_TEST_DATA "/fuzz/record/transpose-48x32.json");
        options.width = 1366;
        options.height = 768;
        QString error;
        const QStringList written = takeScreenshots(window, options, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(written.size(), 1);
        QVERIFY(written.front().endsWith(QStringLiteral("/gallery.png")));
    }

    // A record file dropped on the window opens as File > Open opens it; a drop that is not a
    // local file is not accepted.
    void droppedRecordOpens()
    {
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        const QString path = QStringLiteral(GIGACHECK_TEST_DATA "/ui_record_s2_cli.json");
        QMimeData mime;
        mime.setUrls({QUrl::fromLocalFile(path)});
        QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(&window, &enter);
        QVERIFY(enter.isAccepted());
        QDropEvent drop(QPointF(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(&window, &drop);
        QVERIFY2(window.windowTitle().contains(QStringLiteral("ui_record_s2_cli.json")), qPrintable(window.windowTitle()));
        QVERIFY(window.lastRecord());

        QMimeData text;
        text.setText(QStringLiteral("not a file"));
        QDragEnterEvent other(QPoint(10, 10), Qt::CopyAction, &text, Qt::LeftButton, Qt::NoModifier);
        other.ignore();
        QApplication::sendEvent(&window, &other);
        QVERIFY(!other.isAccepted());
    }
};

GIGACHECK_UI_TEST_MAIN(TestRecordOpen)
#include "tst_recordopen.moc"
