// The timeline widget: 100 000 spans replot quickly (only visible spans, sub-pixel spans
// merged), hover tooltips name the span under the mouse, zooming keeps it correct.
#include "ui/uitestmain.hpp"

#include <views/timelineplottable.hpp>
#include <views/timelineview.hpp>

#include <session/labsession.hpp>

#include <QLabel>

#include <qcustomplot.h>

using namespace gigacheck;
using namespace gigacheck::ui;

namespace {

// A synthetic s2-like run: per step two loads, two checksums, a product and a verify.
QVector<Span> syntheticRun(int steps)
{
    QVector<Span> spans;
    double t = 0;
    int op = 0;
    for (int i = 0; i < steps; ++i) {
        auto add = [&](Queue q, int stream, OpKind k, double start, double duration) {
            Span s;
            s.opId = op++;
            s.queue = q;
            s.stream = stream;
            s.kind = k;
            s.block = BlockIndex{i / 100, (i / 10) % 10, i % 10};
            s.start = start;
            s.end = start + duration;
            s.bytes = 1 << 20;
            s.flops = k == OpKind::Product ? 2e9 : 0;
            spans.push_back(s);
        };
        add(Queue::H2D, i % 2, OpKind::CopyH2D, t, 2e-4);
        add(Queue::H2D, i % 2, OpKind::CopyH2D, t + 2e-4, 2e-4);
        add(Queue::Compute, i % 2, OpKind::Checksum, t + 4e-4, 5e-5);
        add(Queue::Compute, i % 2, OpKind::Checksum, t + 4.5e-4, 5e-5);
        add(Queue::Compute, i % 2, OpKind::Product, t + 5e-4, 1e-3);
        add(Queue::Compute, i % 2, OpKind::Verify, t + 1.5e-3, 1e-4);
        t += 1.6e-3;
    }
    return spans;
}

}  // namespace

class TestTimelineView : public QObject {
    Q_OBJECT
private slots:
    void hundredThousandSpansStaySmooth()
    {
        TimelineView view;
        view.resize(1400, 600);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.beginRun(QStringLiteral("s2"), false);
        const QVector<Span> spans = syntheticRun(100000 / 6 + 1);
        // Arrive in batches as from the engine worker.
        for (qsizetype i = 0; i < spans.size(); i += 500)
            view.addSpans(spans.mid(i, 500));
        QCOMPARE(view.model().spanCount(), std::size_t(spans.size()));
        QVERIFY(view.model().spanCount() >= 100000);

        QCustomPlot* plot = view.plot();
        auto* plottable = qobject_cast<TimelinePlottable*>(plot->plottable(0));
        QVERIFY(plottable);
        // Whole run in view: a replot draws at most a few rectangles per pixel column and lane.
        QElapsedTimer clock;
        clock.start();
        plot->replot();
        const qint64 wholeMs = clock.elapsed();
        const int lanes = view.model().laneCount();
        QVERIFY(plottable->lastRectCount() <= lanes * plot->axisRect()->width() * 2);
        // Zoomed into 1% of the run: only the visible spans are drawn.
        plot->xAxis->setRange(view.model().endTime() * 0.5, view.model().endTime() * 0.51);
        clock.restart();
        plot->replot();
        const qint64 zoomedMs = clock.elapsed();
        QVERIFY(plottable->lastRectCount() < 2000);
        qInfo("100k spans: whole-run replot %lld ms, zoomed replot %lld ms, %d rects drawn zoomed", wholeMs,
              zoomedMs, plottable->lastRectCount());
        QVERIFY2(wholeMs < 100, qPrintable(QStringLiteral("whole-run replot took %1 ms").arg(wholeMs)));
    }

    void tooltipNamesTheSpanUnderTheMouse()
    {
        TimelineView view;
        view.resize(1000, 500);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.beginRun(QStringLiteral("s1"), false);
        view.addSpans(syntheticRun(10));
        view.resetZoom();
        view.plot()->replot();
        // The product of step 3 on stream 1: lane "compute s1".
        const Span* product = nullptr;
        int lane = -1;
        for (int l = 0; l < view.model().laneCount(); ++l)
            if (view.model().lane(l).queue == Queue::Compute && view.model().lane(l).stream == 1) {
                lane = l;
                for (const Span& s : view.model().lane(l).spans)
                    if (s.kind == OpKind::Product && s.block.k == 3)
                        product = &s;
            }
        QVERIFY(product);
        const QPoint pixel(int(view.plot()->xAxis->coordToPixel((product->start + product->end) / 2)),
                           int(view.plot()->yAxis->coordToPixel(lane)));
        const QString text = view.tooltipAt(pixel);
        QVERIFY2(text.contains(QStringLiteral("product")), qPrintable(text));
        QVERIFY(text.contains(QStringLiteral("(op %1)").arg(product->opId)));
        QVERIFY(text.contains(QStringLiteral("block (0, 0, 3)")));
        QVERIFY(text.contains(QStringLiteral("1 ms")) || text.contains(QStringLiteral("1.000 ms")));
        // Between lanes: nothing.
        const QPoint between(pixel.x(), int(view.plot()->yAxis->coordToPixel(lane + 0.5)));
        QVERIFY(view.tooltipAt(between).isEmpty());
        // Before the first product, where that lane has no span: the run's fill (0.5 ms of loads
        // and checksums before step 0's product), with fill + drain of the whole run.
        const QPoint fill(int(view.plot()->xAxis->coordToPixel(2.5e-4)), pixel.y());
        const QString fillText = view.tooltipAt(fill);
        QVERIFY2(fillText.contains(QStringLiteral("<b>fill</b>: 500.0 µs")), qPrintable(fillText));
        QVERIFY2(fillText.contains(QStringLiteral("fill + drain")), qPrintable(fillText));
    }

    void plotsFollowThePalette()
    {
        // Dark mode: a palette change recolours axes and background (Hotspot's updateColors).
        TimelineView view;
        QPalette dark = view.palette();
        dark.setColor(QPalette::Base, QColor(30, 30, 30));
        dark.setColor(QPalette::WindowText, QColor(230, 230, 230));
        view.setPalette(dark);
        QCOMPARE(view.plot()->xAxis->tickLabelColor(), QColor(230, 230, 230));
        QCOMPARE(view.plot()->axisRect()->backgroundBrush().color(), QColor(30, 30, 30));
    }

    void compareShowsTwoRunsOnOneAxis()
    {
        TimelineView view;
        view.beginRun(QStringLiteral("s1"), false);
        view.addSpans(syntheticRun(5));
        view.beginRun(QStringLiteral("s4"), true);
        view.addSpans(syntheticRun(3));
        QCOMPARE(view.model().runCount(), 2);
        QCOMPARE(view.model().spanCount(0), std::size_t(30));
        QCOMPARE(view.model().spanCount(1), std::size_t(18));
        // The finished record replaces the live spans of the new run only.
        const QVector<Span> finished = syntheticRun(4);
        const std::vector<Span> record(finished.begin(), finished.end());
        view.setRunSpans(record);
        QCOMPARE(view.model().spanCount(0), std::size_t(30));
        QCOMPARE(view.model().spanCount(1), std::size_t(24));
    }

    void cpuNoteQuotesTheBusySharesItShows()
    {
        // The note under a CPU run says how busy the load lanes were (issue 12: it spoke of "thin
        // red slivers" under a lane drawn solid red).
        LabSession session;
        TimelineView view;
        view.subscribe(&session);
        RunRecord r;  // blocked GEMM on the CPU
        const QVector<Span> spans = syntheticRun(40);
        r.spans.assign(spans.begin(), spans.end());
        session.openRecord(r);
        auto* note = view.findChild<QLabel*>(QStringLiteral("timelineCpuNote"));
        QVERIFY(note && !note->isHidden());
        // Per stream, every other 1.6-ms step: 0.4 ms of loads (12.5 %), 1.2 ms of compute (37.5 %).
        QVERIFY(std::abs(view.model().busyShare(0, Queue::H2D) - 0.125) < 1e-3);
        const QString loads = QStringLiteral("busy %1 %").arg(std::lround(100 * view.model().busyShare(0, Queue::H2D)));
        QVERIFY2(note->text().contains(loads), qPrintable(note->text()));
        QVERIFY2(note->text().contains(QStringLiteral("compute lanes 38 %")), qPrintable(note->text()));
        QVERIFY(note->text().contains(QStringLiteral("pale")));
        QVERIFY(!note->text().contains(QStringLiteral("slivers")));
    }
};

GIGACHECK_UI_TEST_MAIN(TestTimelineView)
#include "tst_timelineview.moc"
