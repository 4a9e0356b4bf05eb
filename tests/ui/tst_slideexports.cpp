// Issue 12, exports for slides: a title naming the view and the run, the timeline's legend in the
// picture, the chosen resolution (File › Export resolution, remembered), and the view unchanged
// after the export.
#include "ui/uitestmain.hpp"

#include <export/plotexport.hpp>
#include <views/timelineview.hpp>
#include <window/mainwindow.hpp>

#include <qcustomplot.h>

#include <QSettings>
#include <QTemporaryDir>

using namespace gigacheck;
using namespace gigacheck::ui;

class TestSlideExports : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { QSettings().clear(); }

    void titleLegendAndResolution()
    {
        QTemporaryDir dir;
        MainWindow window;
        window.resize(1300, 900);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        RunConfig c;
        c.shape = Shape{256, 192, 320};
        c.memCapBytes = 192 * 1024;
        c.strategy = StrategyKind::S3;
        c.backend = BackendKind::Cpu;
        window.setConfig(c);
        QSignalSpy finished(&window, &MainWindow::runFinished);
        window.startRun();
        QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty(), 60000);
        // On the CPU backend the timeline says why S2-S4's overlap is hard to see.
        auto* note = window.timeline()->findChild<QLabel*>(QStringLiteral("timelineCpuNote"));
        QVERIFY(note && note->isVisibleTo(window.timeline()));
        QCustomPlot* plot = window.timeline()->plot();
        const int elements = plot->plotLayout()->elementCount();
        const int graphs = plot->graphCount();

        setExportScale(2);
        QCOMPARE(exportScale(), 2.0);
        const QString png = dir.filePath(QStringLiteral("timeline.png"));
        QString error;
        QVERIFY2(window.exportView(MainWindow::View::Timeline, png, &error), qPrintable(error));
        const QImage image(png);
        QCOMPARE(image.width(), 2 * plot->width());
        QCOMPARE(image.height(), 2 * plot->height());

        // The SVG carries the title and every legend entry as text.
        const QString svg = dir.filePath(QStringLiteral("timeline.svg"));
        QVERIFY2(window.exportView(MainWindow::View::Timeline, svg, &error), qPrintable(error));
        QFile f(svg);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(f.readAll());
        for (const QString& word : {QStringLiteral("Timeline of the queues"), QStringLiteral("s3")})
            QVERIFY2(text.contains(word), qPrintable(word));
        for (const auto& [color, label] : window.timeline()->legendEntries())
            QVERIFY2(text.contains(label.toHtmlEscaped()), qPrintable(label));

        // The view itself is as it was.
        QCOMPARE(plot->plotLayout()->elementCount(), elements);
        QCOMPARE(plot->graphCount(), graphs);
    }
};

GIGACHECK_UI_TEST_MAIN(TestSlideExports)
#include "tst_slideexports.moc"
