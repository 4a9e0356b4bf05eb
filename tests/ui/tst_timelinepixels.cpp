// The timeline paints each pixel column in the kind that takes most of its time (issue 12: at 4096³
// under 1 MiB, 1-µs inject spans painted the compute lane purple over 1.69 s of products).
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
};

GIGACHECK_UI_TEST_MAIN(TestTimelinePixels)
#include "tst_timelinepixels.moc"
