// The timeline paints each pixel column in the kind that takes most of its time (issue 12: at 4096³
// under 1 MiB, 1-µs inject spans painted the compute lane purple over 1.69 s of products), as
// opaque as the column is busy (the H2D lane, busy 207 ms of 9.6 s, was drawn solid red).
#include "ui/uitestmain.hpp"

#include <models/timelinepixels.hpp>

using namespace gigacheck;
using namespace gigacheck::ui;

namespace {

Span span(double start, double end, OpKind kind)
{
    Span s;
    s.start = start;
    s.end = end;
    s.kind = kind;
    s.queue = Queue::Compute;
    return s;
}

}  // namespace

class TestTimelinePixels : public QObject {
    Q_OBJECT

private slots:
    void shortSpansNeverHideLongOnes()
    {
        // 2000 products of 0.85 ms, each followed by a 1-µs inject, drawn 200 px wide.
        std::vector<Span> spans;
        double t = 0;
        for (int i = 0; i < 2000; ++i) {
            spans.push_back(span(t, t + 0.85e-3, OpKind::Product));
            t += 0.85e-3;
            spans.push_back(span(t, t + 1e-6, OpKind::Inject));
            t += 1e-6;
        }
        const TimeMapper mapper{0, t, 0, 200};
        const std::vector<PixelRun> runs = dominantKindRuns(spans, 0, spans.size(), mapper, 0, 200);
        QCOMPARE(runs.size(), std::size_t(1));
        QVERIFY(runs[0].kind == OpKind::Product);
        QCOMPARE(runs[0].x0, 0);
        QCOMPARE(runs[0].x1, 200);
    }

    void aLoneShortSpanStillShows()
    {
        const std::vector<Span> spans{span(0.0, 0.5, OpKind::CopyH2D), span(0.7, 0.7 + 1e-9, OpKind::Verify)};
        const std::vector<PixelRun> runs = dominantKindRuns(spans, 0, spans.size(), TimeMapper{0, 1, 0, 100}, 0, 100);
        QCOMPARE(runs.size(), std::size_t(2));
        QVERIFY(runs[0].kind == OpKind::CopyH2D);
        QCOMPARE(runs[0].x1, 50);
        QVERIFY(runs[1].kind == OpKind::Verify);
        QCOMPARE(runs[1].x0, 70);
        QCOMPARE(runs[1].x1, 71);
    }

    void eachColumnTakesItsLargestShare()
    {
        // Column 0: 0.3 of load then 0.7 of product; column 1: product only.
        const std::vector<Span> spans{span(0.0, 0.3, OpKind::CopyH2D), span(0.3, 2.0, OpKind::Product)};
        const std::vector<PixelRun> runs = dominantKindRuns(spans, 0, spans.size(), TimeMapper{0, 2, 0, 2}, 0, 2);
        QCOMPARE(runs.size(), std::size_t(1));
        QVERIFY(runs[0].kind == OpKind::Product);
        // Zoomed in, the load is there again.
        const std::vector<PixelRun> zoomed = dominantKindRuns(spans, 0, spans.size(), TimeMapper{0, 2, 0, 20}, 0, 20);
        QVERIFY(zoomed.front().kind == OpKind::CopyH2D);
        QCOMPARE(zoomed.front().x1, 3);
    }

    void shortSpansSpreadOverAnIdleLaneAreFaint()
    {
        // The CPU's H2D lane at 4096³ under 1 MiB: 2873 loads of 72 µs, one every 3.34 ms
        // (207 ms busy of 9.6 s), drawn 1000 px wide: every column is touched, none is busy.
        std::vector<Span> spans;
        const int loads = 2873;
        const double period = 9.6 / loads;
        for (int i = 0; i < loads; ++i)
            spans.push_back(span(i * period, i * period + 72e-6, OpKind::CopyH2D));
        const TimeMapper mapper{0, 9.6, 0, 1000};
        const std::vector<PixelRun> runs = dominantKindRuns(spans, 0, spans.size(), mapper, 0, 1000);
        QVERIFY(!runs.empty());
        int painted = 0;
        double busyPixels = 0;
        for (const PixelRun& r : runs) {
            QVERIFY(r.kind == OpKind::CopyH2D);
            QVERIFY2(r.busy <= 3.0 / kBusyLevels, qPrintable(QStringLiteral("busy %1 at x %2").arg(r.busy).arg(r.x0)));
            QVERIFY(busyOpacity(r.busy) <= 0.2);
            painted += r.x1 - r.x0;
            busyPixels += r.busy * (r.x1 - r.x0);
        }
        QCOMPARE(painted, 1000);  // the loads still show everywhere, faintly
        // The drawn share follows the real one (2.2 %), rounded up by at most a level per column.
        QVERIFY(busyPixels >= 0.02 * 1000);
        QVERIFY(busyPixels <= (0.022 + 1.0 / kBusyLevels) * 1000);
    }

    void aFullyBusyLaneIsSolid()
    {
        // Back-to-back products of uneven length, edges falling inside columns.
        std::vector<Span> spans;
        double t = 0;
        for (int i = 0; i < 500; ++i) {
            const double d = 1e-3 * (1 + i % 7);
            spans.push_back(span(t, t + d, OpKind::Product));
            t += d;
        }
        const std::vector<PixelRun> runs = dominantKindRuns(spans, 0, spans.size(), TimeMapper{0, t, 0, 333}, 0, 333);
        QCOMPARE(runs.size(), std::size_t(1));
        QCOMPARE(runs[0].x0, 0);
        QCOMPARE(runs[0].x1, 333);
        QCOMPARE(runs[0].busy, 1.0);
        QCOMPARE(busyOpacity(runs[0].busy), 1.0);
    }

    void aHalfBusyLaneIsInBetween()
    {
        // 1 ms on, 1 ms off, 10 ms per column: half busy, half as opaque.
        std::vector<Span> spans;
        for (int i = 0; i < 500; ++i)
            spans.push_back(span(2e-3 * i, 2e-3 * i + 1e-3, OpKind::Product));
        const std::vector<PixelRun> runs = dominantKindRuns(spans, 0, spans.size(), TimeMapper{0, 1, 0, 100}, 0, 100);
        QCOMPARE(runs.size(), std::size_t(1));
        QCOMPARE(runs[0].busy, 0.5);
        QVERIFY(busyOpacity(runs[0].busy) > busyOpacity(1.0 / kBusyLevels));
        QVERIFY(busyOpacity(runs[0].busy) < busyOpacity(1.0));
    }
};

GIGACHECK_UI_TEST_MAIN(TestTimelinePixels)
#include "tst_timelinepixels.moc"
