// The roofline (issue 12): a run keeps its colour wherever it sits in the list, the legend sits
// under the axes, the memory roof's label stays inside the plot at a projector's size, and with
// datasheet roofs the note says why naive points may sit above them and how to measure.
#include "ui/uitestmain.hpp"

#include <models/rooflinemodel.hpp>
#include <views/rooflineview.hpp>

#include <qcustomplot.h>

#include <QLabel>

#include <set>

using namespace gigacheck;
using namespace gigacheck::ui;

namespace {

// A CPU run (the CPU datasheet preset applies) with a measured point far past the ridge, so its
// naive point lies above the compute roofs, and a product and a checksum operation point.
RunRecord cpuRun(StrategyKind strategy, const std::string& createdAt)
{
    RunRecord r;
    r.devices.front().backend = BackendKind::Cpu;
    r.devices.front().name = "CPU: test processor (2 threads)";
    r.config.strategy = strategy;
    r.config.shape = Shape{4096, 4096, 4096};
    r.createdAt = createdAt;
    r.metrics.intensityHostLink = 67;
    r.metrics.gflops = 24;
    Span product;
    product.kind = OpKind::Product;
    product.queue = Queue::Compute;
    product.end = 1e-3;
    product.flops = 4e7;
    product.bytes = 6e5;
    Span checksum = product;
    checksum.kind = OpKind::Checksum;
    checksum.flops = 1e5;
    checksum.bytes = 4e5;
    r.spans = {product, checksum};
    return r;
}

}  // namespace

class TestRooflineView : public QObject {
    Q_OBJECT
private slots:
    void colourIndicesFollowTheKeyNotThePosition()
    {
        const QString a = QStringLiteral("s1 4096×4096×4096@2026-11-29T09:33:00Z");
        const QString b = QStringLiteral("s2 4096×4096×4096@2026-11-29T09:40:00Z");
        const std::vector<int> alone = runColorIndices({b}, 6);
        QCOMPARE(alone.size(), std::size_t(1));
        QVERIFY(alone[0] >= 0 && alone[0] < 6);
        // The same in every call (a fixed hash, not Qt's per-process seed).
        QCOMPARE(runColorIndices({b}, 6), alone);
        const std::vector<int> ab = runColorIndices({a, b}, 6), ba = runColorIndices({b, a}, 6);
        QVERIFY(ab[0] != ab[1]);
        QCOMPARE(ba[0], alone[0]);  // first in the list: its own colour
        if (runColorIndices({a}, 6)[0] != alone[0]) {
            // No clash: each keeps its colour in either order.
            QCOMPARE(ab[1], alone[0]);
            QCOMPARE(ab[0], ba[1]);
        }
        // Equal keys clash and move on; six distinct colours for six runs.
        const std::vector<int> same = runColorIndices({a, a, a, a, a, a}, 6);
        QCOMPARE(std::set<int>(same.begin(), same.end()).size(), std::size_t(6));
        // More runs than colours: every index still valid.
        for (int i : runColorIndices(std::vector<QString>(9, a), 6))
            QVERIFY(i >= 0 && i < 6);
    }

    void aRunKeepsItsColourWhenReopenedOrJoined()
    {
        // Find two records whose colours do not clash (so neither has to move on).
        const RunRecord s1 = cpuRun(StrategyKind::S1, "2026-11-29T09:33:00Z");
        RunRecord s2;
        for (int minute = 10; minute < 60; ++minute) {
            s2 = cpuRun(StrategyKind::S2, "2026-11-29T09:" + std::to_string(minute) + ":00Z");
            if (runColorIndices({runColorKey(s1)}, 6) != runColorIndices({runColorKey(s2)}, 6))
                break;
        }
        RooflineView view;
        view.setRuns(std::vector<RunRecord>{s2});
        const QColor alone = view.runColor(0);
        view.setRuns(std::vector<RunRecord>{s1, s2});
        QCOMPARE(view.runColor(1), alone);  // second in the list now, same colour
        const QColor s1Colour = view.runColor(0);
        QVERIFY(s1Colour != alone);
        view.setRuns(std::vector<RunRecord>{s2, s1});
        QCOMPARE(view.runColor(0), alone);
        QCOMPARE(view.runColor(1), s1Colour);
    }

    void legendAndMemoryLabelStayClearOfThePlot()
    {
        // The roofline tab at 1366×768 is about 700 × 640 pixels.
        RooflineView view;
        view.resize(700, 640);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.setRuns(std::vector<RunRecord>{cpuRun(StrategyKind::S1, "2026-11-29T09:33:00Z")});
        QCustomPlot* plot = view.plot();
        plot->replot();
        const QRect axes = plot->axisRect()->rect();
        // The legend is a row of the plot's layout below the axes, not an inset over them.
        QCOMPARE(plot->legend->layout(), static_cast<QCPLayout*>(plot->plotLayout()));
        QVERIFY(plot->legend->visible());
        QVERIFY2(plot->legend->outerRect().top() >= axes.bottom(),
                 qPrintable(QStringLiteral("legend top %1, axes bottom %2").arg(plot->legend->outerRect().top()).arg(axes.bottom())));
        QVERIFY(plot->legend->outerRect().bottom() <= plot->height());
        // Every roof label lies wholly inside the axes (the memory roof's lost its "m" before).
        int memoryLabels = 0;
        for (int i = 0; i < plot->itemCount(); ++i) {
            auto* text = qobject_cast<QCPItemText*>(plot->item(i));
            if (!text || !text->text().contains(QStringLiteral("memory")))
                continue;
            ++memoryLabels;
            const QPointF topLeft = text->topLeft->pixelPosition(), bottomRight = text->bottomRight->pixelPosition();
            QVERIFY2(axes.contains(topLeft.toPoint()) && axes.contains(bottomRight.toPoint()),
                     qPrintable(QStringLiteral("'%1' at (%2, %3)-(%4, %5), axes (%6, %7)-(%8, %9)")
                                    .arg(text->text())
                                    .arg(topLeft.x()).arg(topLeft.y()).arg(bottomRight.x()).arg(bottomRight.y())
                                    .arg(axes.left()).arg(axes.top()).arg(axes.right()).arg(axes.bottom())));
        }
        QCOMPARE(memoryLabels, 1);
    }

    void datasheetRoofsExplainNaivePointsAboveThem()
    {
        RooflineView view;
        view.setRuns(std::vector<RunRecord>{cpuRun(StrategyKind::S1, "2026-11-29T09:33:00Z")});
        QVERIFY(QString::fromStdString(view.activeCeilings().source).startsWith(QStringLiteral("datasheet")));
        // The naive point is above the highest compute roof here...
        double peak = 0;
        for (const Roof& r : view.roofs())
            if (!r.memory)
                peak = std::max(peak, r.value);
        bool naiveAbove = false;
        for (const RooflinePoint& p : view.runs().front().points)
            naiveAbove |= p.kind == RooflinePoint::Kind::Naive && p.gflops > peak;
        QVERIFY(naiveAbove);
        // ...and the note says why, and how to get this machine's roofs.
        const QString note = view.noteText();
        QVERIFY2(note.contains(QStringLiteral("not this one")), qPrintable(note));
        QVERIFY2(note.contains(QStringLiteral("gigacheck devices --measure")), qPrintable(note));
        QVERIFY2(note.contains(QStringLiteral("above")), qPrintable(note));

        // Measured ceilings carry no such warning.
        RunRecord measured = cpuRun(StrategyKind::S1, "2026-11-29T09:33:00Z");
        measured.devices.front().ceilings.source = "measured 2026-11-29";
        measured.devices.front().ceilings.gflopsF32 = 60;
        measured.devices.front().ceilings.h2dGBs = 8;
        view.setRuns(std::vector<RunRecord>{measured});
        QVERIFY(!view.noteText().contains(QStringLiteral("--measure")));
    }
};

GIGACHECK_UI_TEST_MAIN(TestRooflineView)
#include "tst_rooflineview.moc"
