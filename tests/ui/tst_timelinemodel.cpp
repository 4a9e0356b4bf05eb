// Time <-> pixel maths, lanes and hit-testing of the timeline, without a screen.
#include "ui/uitestmain.hpp"

#include <models/timelinemapper.hpp>
#include <models/timelinemodel.hpp>

using namespace gigacheck;
using namespace gigacheck::ui;

namespace {
Span span(Queue q, int stream, OpKind k, double start, double end, int op = 0)
{
    Span s;
    s.queue = q;
    s.stream = stream;
    s.kind = k;
    s.start = start;
    s.end = end;
    s.opId = op;
    return s;
}
}  // namespace

class TestTimelineModel : public QObject {
    Q_OBJECT
private slots:
    void mapTimeToX_data()
    {
        QTest::addColumn<double>("t0");
        QTest::addColumn<double>("t1");
        QTest::addColumn<double>("time");
        QTest::addColumn<double>("x");
        // 1000 px wide, starting at pixel 50.
        QTest::newRow("start") << 0.0 << 10.0 << 0.0 << 50.0;
        QTest::newRow("end") << 0.0 << 10.0 << 10.0 << 1050.0;
        QTest::newRow("middle") << 0.0 << 10.0 << 5.0 << 550.0;
        QTest::newRow("zoomed") << 2.0 << 2.5 << 2.25 << 550.0;
        QTest::newRow("zoomed, left of view") << 2.0 << 2.5 << 1.5 << -950.0;
        QTest::newRow("microseconds") << 1e-6 << 2e-6 << 1.5e-6 << 550.0;
    }
    void mapTimeToX()
    {
        QFETCH(double, t0);
        QFETCH(double, t1);
        QFETCH(double, time);
        QFETCH(double, x);
        const TimeMapper m{t0, t1, 50, 1000};
        QCOMPARE(m.mapTimeToX(time), x);
        QVERIFY(std::abs(m.mapXToTime(x) - time) <= 1e-12 * std::max(1.0, std::abs(time)));
    }

    void laneAt_data()
    {
        QTest::addColumn<double>("y");
        QTest::addColumn<int>("lane");
        // Lanes 0..2 over values -0.5..2.5 drawn on pixels 0..300: lane i centred at 50 + 100 i.
        QTest::newRow("lane 0 centre") << 50.0 << 0;
        QTest::newRow("lane 1 top edge") << 113.0 << 1;
        QTest::newRow("between lanes 0 and 1") << 100.0 << -1;
        QTest::newRow("lane 2") << 250.0 << 2;
        QTest::newRow("below all lanes") << 299.0 << -1;
        QTest::newRow("above all lanes") << -20.0 << -1;
    }
    void laneAt()
    {
        QFETCH(double, y);
        QFETCH(int, lane);
        const LaneMapper m{-0.5, 2.5, 0, 300};
        QCOMPARE(m.laneAt(y, 3), lane);
    }

    void lanesPerRunQueueAndStream()
    {
        TimelineModel model;
        const int run = model.addRun("s4");
        QCOMPARE(model.laneCount(), 3);  // H2D, compute, D2H of stream 0 exist from the start
        model.addSpans(run, {span(Queue::Compute, 1, OpKind::Product, 0, 1), span(Queue::H2D, 0, OpKind::CopyH2D, 0, 0.5)});
        QCOMPARE(model.laneCount(), 4);
        QVERIFY(model.lane(2).queue == Queue::Compute);
        QCOMPARE(model.lane(2).stream, 1);
        QCOMPARE(model.laneLabel(2), std::string("compute s1"));
        QCOMPARE(model.spanCount(), std::size_t(2));
        QCOMPARE(model.endTime(), 1.0);
    }

    void lanesPerDevice()
    {
        TimelineModel model;
        const int run = model.addRun("two devices");
        Span onSecond = span(Queue::Compute, 0, OpKind::Product, 0, 1);
        onSecond.device = 1;
        model.addSpans(run, {onSecond, span(Queue::Compute, 0, OpKind::Product, 0, 2)});
        QCOMPARE(model.laneCount(), 4);  // device 0's three lanes, then device 1's compute lane
        QCOMPARE(model.lane(3).device, 1);
        QCOMPARE(model.laneLabel(3), std::string("d1 compute s0"));
        QCOMPARE(model.lane(1).spans.size(), std::size_t(1));
        QCOMPARE(model.laneLabel(1), std::string("compute s0"));
    }

    void spansStaySortedWhenArrivingOutOfOrder()
    {
        TimelineModel model;
        const int run = model.addRun("s1");
        model.addSpans(run, {span(Queue::Compute, 0, OpKind::Product, 3, 4), span(Queue::Compute, 0, OpKind::Checksum, 1, 2),
                             span(Queue::Compute, 0, OpKind::Verify, 2, 3)});
        const auto& spans = model.lane(1).spans;
        QCOMPARE(spans.size(), std::size_t(3));
        QVERIFY(std::is_sorted(spans.begin(), spans.end(), [](const Span& a, const Span& b) { return a.start < b.start; }));
    }

    void visibleRangeIncludesLongSpansStartingEarlier()
    {
        TimelineModel model;
        const int run = model.addRun("s1");
        std::vector<Span> spans;
        spans.push_back(span(Queue::Compute, 0, OpKind::Product, 0, 100));  // long, starts far left
        for (int i = 0; i < 1000; ++i)
            spans.push_back(span(Queue::Compute, 0, OpKind::Checksum, 100 + i, 100.5 + i));
        model.addSpans(run, spans);
        auto [first, last] = model.visibleRange(1, 50, 60);
        QCOMPARE(first, std::size_t(0));
        QVERIFY(last >= 1);
        // A window far right touches only a few spans, not all 1001.
        auto [f2, l2] = model.visibleRange(1, 900, 905);
        QVERIFY(l2 - f2 <= 110);
    }

    void hitTest()
    {
        TimelineModel model;
        const int run = model.addRun("s2");
        model.addSpans(run, {span(Queue::Compute, 0, OpKind::Product, 1.0, 2.0, 7), span(Queue::Compute, 0, OpKind::Verify, 2.5, 2.6, 8)});
        const int compute = 1;
        QCOMPARE(model.spanAt(compute, 1.5, 0.01)->opId, 7);
        QCOMPARE(model.spanAt(compute, 2.55, 0.01)->opId, 8);
        QVERIFY(!model.spanAt(compute, 2.3, 0.01));           // in the gap
        QCOMPARE(model.spanAt(compute, 2.45, 0.1)->opId, 8);  // within tolerance of a tiny span
        QVERIFY(!model.spanAt(0, 1.5, 0.01));                 // H2D lane is empty
        QVERIFY(!model.spanAt(42, 1.5, 0.01));                // no such lane
    }

    void compareKeepsThePreviousRunAsBaseline()
    {
        TimelineModel model;
        int run = model.addRun("s1");
        model.addSpans(run, {span(Queue::Compute, 0, OpKind::Product, 0, 1)});
        model.keepOnlyLastRun();
        run = model.addRun("s4");
        model.addSpans(run, {span(Queue::Compute, 1, OpKind::Product, 0, 0.5)});
        QCOMPARE(model.runCount(), 2);
        QCOMPARE(model.spanCount(0), std::size_t(1));
        QCOMPARE(model.spanCount(1), std::size_t(1));
        QCOMPARE(model.laneLabel(1), std::string("s1 compute s0"));
        // A third run drops the oldest.
        model.keepOnlyLastRun();
        QCOMPARE(model.runCount(), 1);
        QCOMPARE(model.runLabel(0), std::string("s4"));
    }

    // Fill and drain (issue 13's lesson): no product runs before the first one and after the last;
    // the repair pass after the run is not part of them, and each run keeps its own ends.
    void runEndsAreTheFillAndTheDrain()
    {
        TimelineModel model;
        const int run = model.addRun("s2");
        model.addSpans(run, {span(Queue::H2D, 0, OpKind::CopyH2D, 0.5, 1.25), span(Queue::Compute, 0, OpKind::Product, 1.25, 3),
                             span(Queue::Compute, 1, OpKind::Product, 2, 4), span(Queue::D2H, 0, OpKind::CopyD2H, 4, 4.5),
                             span(Queue::Compute, 0, OpKind::Recompute, 5, 9)});
        QVERIFY(model.runEnds(run).hasProduct);
        QCOMPARE(model.runEnds(run).fill(), 0.75);
        QCOMPARE(model.runEnds(run).drain(), 0.5);
        const int other = model.addRun("transpose");
        model.addSpans(other, {span(Queue::Compute, 0, OpKind::CopyH2D, 0, 1)});
        QVERIFY(!model.runEnds(other).hasProduct);
        QCOMPARE(model.runEnds(other).fill(), 0.0);
        model.keepOnlyLastRun();
        QVERIFY(!model.runEnds(0).hasProduct);
        model.clear();
        QCOMPARE(model.runCount(), 0);
    }

    void busyShareIsTheRunTimeALaneWorked()
    {
        // 10 s run: H2D s0 busy 0.2 s, H2D s1 busy 0.4 s, compute busy 9 s; D2H s0 is an empty lane.
        TimelineModel m;
        const int run = m.addRun("s2");
        std::vector<Span> spans{span(Queue::Compute, 0, OpKind::Product, 0.0, 9.0),
                                span(Queue::Compute, 0, OpKind::Verify, 9.5, 10.0)};
        spans.back().end = 9.5;  // a zero-length check
        for (int i = 0; i < 20; ++i)
            spans.push_back(span(Queue::H2D, 0, OpKind::CopyH2D, 0.5 * i, 0.5 * i + 0.01));
        for (int i = 0; i < 20; ++i)
            spans.push_back(span(Queue::H2D, 1, OpKind::CopyH2D, 0.5 * i, 0.5 * i + 0.02));
        spans.push_back(span(Queue::H2D, 1, OpKind::CopyH2D, 9.99, 10.0));
        m.addSpans(run, spans);
        QCOMPARE(m.runEnds(run).end, 10.0);
        // (0.2 / 10 + 0.41 / 10) / 2 lanes
        QVERIFY(std::abs(m.busyShare(run, Queue::H2D) - 0.0305) < 1e-12);
        QVERIFY(std::abs(m.busyShare(run, Queue::Compute) - 0.9) < 1e-12);
        QCOMPARE(m.busyShare(run, Queue::D2H), 0.0);
    }

    void predictedSpansAreLanesOfTheirOwn()
    {
        TimelineModel model;
        const int run = model.addRun("s2");
        model.addSpans(run, {span(Queue::H2D, 0, OpKind::CopyH2D, 0, 1, 0), span(Queue::Compute, 0, OpKind::Product, 1, 3, 1)});
        const int predicted =
            model.addPredictedRun(run, {span(Queue::H2D, 0, OpKind::CopyH2D, 0, 0.8, 0), span(Queue::Compute, 0, OpKind::Product, 0.8, 3.2, 1)});
        QCOMPARE(model.runLabel(predicted), std::string("s2 predicted"));
        QCOMPARE(model.predictionOf(predicted), run);
        QCOMPARE(model.predictionOf(run), -1);
        QCOMPARE(model.spanCount(predicted), std::size_t(2));
        bool labelled = false;
        for (int l = 0; l < model.laneCount(); ++l)
            labelled = labelled || model.laneLabel(l) == "s2 predicted compute s0";
        QVERIFY(labelled);
        const Span* twin = model.measuredTwin(predicted, 1);
        QVERIFY(twin);
        QCOMPARE(twin->end - twin->start, 2.0);
        QVERIFY(!model.measuredTwin(run, 1));  // a measured run has no twin
        // A new prediction of the same run replaces the old one.
        model.addPredictedRun(run, {span(Queue::Compute, 0, OpKind::Product, 0, 2, 1)});
        QCOMPARE(model.runCount(), 2);
        QCOMPARE(model.spanCount(1), std::size_t(1));
    }
};

GIGACHECK_UI_TEST_MAIN(TestTimelineModel)
#include "tst_timelinemodel.moc"
