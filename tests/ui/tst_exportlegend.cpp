// An export's legend sits in rows of its own under the axes, wrapped to the picture's width
// (issue 12: the exported timeline's legend ran off the image's left edge and covered the H2D
// lane), and the view is as it was afterwards.
#include "ui/uitestmain.hpp"

#include <export/plotexport.hpp>
#include <views/timelineview.hpp>

#include <qcustomplot.h>

#include <QTemporaryDir>

using namespace gigacheck;
using namespace gigacheck::ui;

namespace {

QVector<Span> loadsAndProducts()
{
    QVector<Span> spans;
    for (int i = 0; i < 20; ++i) {
        Span load;
        load.queue = Queue::H2D;
        load.kind = OpKind::CopyH2D;
        load.start = 1e-3 * i;
        load.end = load.start + 1e-4;
        Span product = load;
        product.queue = Queue::Compute;
        product.kind = OpKind::Product;
        product.start = load.end;
        product.end = 1e-3 * (i + 1);
        spans << load << product;
    }
    return spans;
}

}  // namespace

class TestExportLegend : public QObject {
    Q_OBJECT
private slots:
    void legendRowsFitUnderTheAxes_data()
    {
        QTest::addColumn<int>("width");
        QTest::newRow("narrow timeline tab") << 420;
        QTest::newRow("1366x768 timeline tab") << 680;
        QTest::newRow("1920x1080 timeline tab") << 1200;
    }

    void legendRowsFitUnderTheAxes()
    {
        QFETCH(int, width);
        TimelineView view;
        view.resize(width, 500);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.beginRun(QStringLiteral("s2"), false);
        view.addSpans(loadsAndProducts());
        QCustomPlot* plot = view.plot();
        plot->replot();
        const int rowsBefore = plot->plotLayout()->rowCount();
        const QRect axesBefore = plot->axisRect()->rect();

        // The decoration's entries, as exportPlot adds them.
        std::vector<QCPGraph*> entries;
        for (const auto& [color, text] : view.legendEntries()) {
            QCPGraph* entry = plot->addGraph();
            entry->setName(text);
            entry->setPen(QPen(color, 8));
            entries.push_back(entry);
        }
        plot->legend->setVisible(true);
        {
            LegendBelowAxes below(plot, plot->width());
            plot->replot();
            const QRect axes = plot->axisRect()->rect();
            const QRect legend = plot->legend->outerRect();
            QVERIFY2(legend.top() >= axes.bottom(),
                     qPrintable(QStringLiteral("legend top %1 over the axes (bottom %2)").arg(legend.top()).arg(axes.bottom())));
            QVERIFY(legend.bottom() <= plot->height());
            // Every entry inside the picture, left and right.
            for (int i = 0; i < plot->legend->itemCount(); ++i) {
                const QRect item = plot->legend->item(i)->outerRect();
                QVERIFY2(item.left() >= 0 && item.right() <= plot->width(),
                         qPrintable(QStringLiteral("entry %1 at %2..%3 of %4").arg(i).arg(item.left()).arg(item.right()).arg(plot->width())));
                QVERIFY(item.top() >= axes.bottom());
            }
            // Wider pictures take more entries per row.
            if (width >= 1200)
                QVERIFY(plot->legend->columnCount() >= 4);
        }
        // The view is as it was: no extra row, the legend back in the axes' inset.
        for (QCPGraph* entry : entries)
            plot->removeGraph(entry);
        plot->legend->setVisible(false);
        plot->replot();
        QCOMPARE(plot->plotLayout()->rowCount(), rowsBefore);
        QCOMPARE(plot->legend->layout(), static_cast<QCPLayout*>(plot->axisRect()->insetLayout()));
        QCOMPARE(plot->axisRect()->rect(), axesBefore);
    }

    void exportedPictureKeepsTheViewIntact()
    {
        QTemporaryDir dir;
        TimelineView view;
        view.resize(680, 500);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.beginRun(QStringLiteral("s2"), false);
        view.addSpans(loadsAndProducts());
        view.plot()->replot();
        const int rows = view.plot()->plotLayout()->rowCount();
        ExportDecoration decoration;
        decoration.title = QStringLiteral("Timeline of the queues");
        decoration.legend = view.legendEntries();
        QString error;
        const QString png = dir.filePath(QStringLiteral("timeline.png"));
        QVERIFY2(exportPlot(view.plot(), png, decoration, &error), qPrintable(error));
        QVERIFY(!QImage(png).isNull());
        QCOMPARE(view.plot()->plotLayout()->rowCount(), rows);
        QCOMPARE(view.plot()->graphCount(), 0);
        QCOMPARE(view.plot()->legend->layout(), static_cast<QCPLayout*>(view.plot()->axisRect()->insetLayout()));
    }
};

GIGACHECK_UI_TEST_MAIN(TestExportLegend)
#include "tst_exportlegend.moc"
