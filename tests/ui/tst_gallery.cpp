// The kernel gallery view: the access-pattern steps cost what the seeds say (coalesced against
// strided, the symmetric tile pair, 4N against 4N/TILE loads), a CPU sweep runs on its worker
// thread and fills the log-log plot next to the seed's dashed figures, step / play move the
// animation (opened on a pattern of the family swept), each reduced-matmul kernel sits on the roofline
// at its counts and each transpose kernel's GB/s is a bar against the memory roof. Screenshots (grab) go to $GIGACHECK_SCREENSHOT_DIR when it is set.
#include "views/gallery/accesspattern.hpp"
#include "views/gallery/galleryview.hpp"

#include <gigacheck/backend.hpp>
#include <gigacheck/cuda_status.hpp>

#include <qcustomplot.h>

#include <QComboBox>
#include <QListWidget>
#include <QSignalSpy>
#include <QSpinBox>
#include <QtTest>

#include <map>

using namespace gigacheck::ui::gallery;

class TestGallery : public QObject {
    Q_OBJECT

private:
    void screenshot(QWidget& w, const QString& name)
    {
        const QString dir = qEnvironmentVariable("GIGACHECK_SCREENSHOT_DIR");
        if (!dir.isEmpty())
            QVERIFY(w.grab().save(dir + QLatin1Char('/') + name));
    }

private slots:
    void coalescedAgainstStrided()
    {
        const std::vector<AccessStep> naive = buildSteps(Pattern::TransposeGpuNaive);
        QVERIFY(naive.size() >= 2);
        QCOMPARE(naive[0].touches.size(), std::size_t(15));  // warp 0, lanes above the diagonal
        QCOMPARE(naive[0].sectors, 4);                       // one row: 4 lines
        QCOMPARE(naive[1].sectors, 15);                      // its mirror: one line per lane
        for (const AccessStep& s : buildSteps(Pattern::TransposeGpuTilePair)) {
            QCOMPARE(s.touches.size(), std::size_t(8));  // a row of each tile of the pair
            QCOMPARE(s.sectors, 2);                      // two full lines: coalesced both ways
        }
        const std::vector<AccessStep> padded = buildSteps(Pattern::TransposeGpuPadded);
        QCOMPARE(padded.back().touches.front().matrix, 1);  // written into Y
    }

    void blockedVisitsDiagonalFirstThenPairs()
    {
        const std::vector<AccessStep> blocked = buildSteps(Pattern::TransposeCpuBlocked);
        const int blocks = kSide / kTile;
        QCOMPARE(int(blocked.size()), blocks + blocks * (blocks - 1) / 2);
        QVERIFY(blocked.front().title.startsWith(QStringLiteral("diagonal")));
        QVERIFY(blocked.back().title.startsWith(QStringLiteral("block pair")));
        int swaps = 0;
        for (const AccessStep& s : blocked)
            for (const Touch& t : s.touches)
                swaps += t.role == Role::Swap;
        QCOMPARE(swaps, (kSide * kSide - kSide) / 2);  // the seed's (n^2 - n) / 2
    }

    void reducedLoads()
    {
        int naive = 0, tiledPerThread = 0;
        for (const AccessStep& s : buildSteps(Pattern::ReducedNaive))
            naive += int(s.touches.size());
        QCOMPARE(naive, 4 * kSide);  // 4N
        const std::vector<AccessStep> tiled = buildSteps(Pattern::ReducedTiled);
        QCOMPARE(int(tiled.size()), kSide / kTile);
        for (const AccessStep& s : tiled)
            tiledPerThread += int(s.touches.size()) / (kTile * kTile);  // the block's loads over its threads
        QCOMPARE(tiledPerThread, 4 * kSide / kTile);  // 4N / TILE
    }

    void sweepOnTheCpu()
    {
        GalleryView view;
        view.resize(1100, 800);
        view.findChild<QComboBox*>(QStringLiteral("galleryFamily"))->setCurrentIndex(1);  // transpose
        view.findChild<QComboBox*>(QStringLiteral("galleryBackend"))->setCurrentIndex(0);
        const int variants = view.findChild<QListWidget*>(QStringLiteral("galleryVariants"))->count();
        QCOMPARE(variants, 5);  // naive, blocked, outofplace, inplace, library (OpenBLAS somatcopy)
        const QList<QSpinBox*> spins = view.findChildren<QSpinBox*>();
        QCOMPARE(spins.size(), 2);
        spins[0]->setValue(4);
        spins[1]->setValue(7);
        QSignalSpy done(&view, &GalleryView::sweepFinished);
        view.startSweep();
        QVERIFY(view.sweeping());
        QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, 60000);
        QCOMPARE(int(view.points().size()), variants * 4);
        for (const SweepPoint& p : view.points()) {
            QVERIFY2(p.error.isEmpty(), qPrintable(p.error));
            QVERIFY(p.verified);
            QVERIFY(p.rate > 0);
        }
        // No seed figures for the CPU transpose; the memory roof where this machine's ceilings are known.
        int kernels = 0;
        for (int i = 0; i < view.plot()->graphCount(); ++i)
            kernels += !view.plot()->graph(i)->name().startsWith(QStringLiteral("memory roof"));
        QCOMPARE(kernels, variants);
        QCOMPARE(view.plotTitle(), QStringLiteral("Transpose on the CPU: GB/s against N"));  // an export's title
        // No arithmetic, so no roofline point: each kernel's GB/s at N = 128 as a bar (the record's
        // rate), against the memory roof where it is known, in the family's order.
        QCustomPlot* bandwidth = view.roofline();
        std::map<QString, double> atLargest;
        for (const SweepPoint& p : view.points())
            if (p.n == 128)
                atLargest[p.variant] = p.rate;
        QStringList barNames;
        for (int i = 0; i < bandwidth->plottableCount(); ++i)
            if (auto* bar = qobject_cast<QCPBars*>(bandwidth->plottable(i))) {
                QCOMPARE(bar->dataCount(), 1);
                QCOMPARE(bar->data()->begin()->key, double(barNames.size()));
                QCOMPARE(bar->data()->begin()->value, atLargest.at(bar->name()));
                barNames << bar->name();
            }
        QCOMPARE(barNames, variantsOf(Family::Transpose, false));
        const bool roofKnown = view.points().front().memoryRoofGBs > 0;
        QCOMPARE(bandwidth->graphCount(), roofKnown ? 1 : 0);  // the memory roof's dashed line
        QCOMPARE(bandwidth->itemCount(), roofKnown ? variants : 0);  // "NN %" of the roof on each bar
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        screenshot(view, QStringLiteral("gallery_transpose_cpu.png"));
        // The bandwidth chart spans the whole plot.
        bandwidth->replot(QCustomPlot::rpImmediateRefresh);
        QVERIFY2(bandwidth->axisRect()->outerRect().width() >= bandwidth->width() - 2,
                 qPrintable(QStringLiteral("the chart's axes span %1 of its %2 px").arg(bandwidth->axisRect()->outerRect().width()).arg(bandwidth->width())));

        // Reduced matmul: the seed's CPU figure is drawn dashed beside.
        view.findChild<QComboBox*>(QStringLiteral("galleryFamily"))->setCurrentIndex(0);
        spins[0]->setValue(4);
        spins[1]->setValue(6);
        view.startSweep();
        QTRY_COMPARE_WITH_TIMEOUT(done.count(), 2, 60000);
        QCOMPARE(int(view.points().size()), 3 * 3);
        QCOMPARE(view.plot()->graphCount(), 3 + 1);
        // The roofline: each kernel at N = 64, filled at FLOPs / least traffic (the same for
        // every variant: one algorithm), hollow at FLOPs / requested bytes (naive4p asks the
        // most, so its hollow point lies furthest left); its height the kernel's GFLOP/s.
        QCustomPlot* roofline = view.roofline();
        std::map<QString, std::pair<double, double>> filled;
        for (int i = 0; i < roofline->graphCount(); ++i) {
            QCPGraph* g = roofline->graph(i);
            if (variantsOf(Family::Reduced, false).contains(g->name())) {  // a kernel's filled point
                QCOMPARE(g->dataCount(), 1);
                filled[g->name()] = {g->data()->begin()->key, g->data()->begin()->value};
            }
        }
        QCOMPARE(int(filled.size()), 3);
        for (const SweepPoint& p : view.points()) {
            if (p.n != 64)
                continue;
            QVERIFY(filled.count(p.variant));
            QVERIFY(p.flops > 0 && p.memoryBytes > 0 && p.requestedBytes > 0);
            QCOMPARE(filled[p.variant].first, p.flops / p.memoryBytes);
            QVERIFY(qAbs(filled[p.variant].second - p.rate) <= 1e-6 * p.rate);
        }
        QCOMPARE(filled[QStringLiteral("naive4p")].first, filled[QStringLiteral("naivep")].first);
        // The sweep plot's legend sits in a row under the axes, not over the points.
        QCOMPARE(view.plot()->legend->layout(), static_cast<QCPLayout*>(view.plot()->plotLayout()));
        QCOMPARE(view.plot()->axisRect()->insetLayout()->elementCount(), 0);
        QVERIFY(view.plot()->legend->outerRect().top() >= view.plot()->axisRect()->outerRect().bottom());
        screenshot(view, QStringLiteral("gallery_reduced_cpu.png"));
    }

    // A CPU naive4p point at 2^12 runs for a minute or more: Stop ends it inside the point (the
    // loop checks the flag between rows of C, the executor between ops), and a view closed
    // mid-point returns without waiting, its worker ending by itself soon after.
    void stopMidPointAndCloseWithoutWaiting()
    {
        QCOMPARE(GalleryView::maxExponent(Family::Reduced, false), 12);
        QCOMPARE(GalleryView::maxExponent(Family::Transpose, false), 13);
        QCOMPARE(GalleryView::maxExponent(Family::Reduced, true), 15);
        auto* view = new GalleryView;
        view->findChild<QComboBox*>(QStringLiteral("galleryFamily"))->setCurrentIndex(0);  // reduced matmul
        view->findChild<QComboBox*>(QStringLiteral("galleryBackend"))->setCurrentIndex(0);
        auto* list = view->findChild<QListWidget*>(QStringLiteral("galleryVariants"));
        for (int i = 0; i < list->count(); ++i)
            list->item(i)->setCheckState(list->item(i)->text() == QLatin1String("naive4p") ? Qt::Checked : Qt::Unchecked);
        const QList<QSpinBox*> spins = view->findChildren<QSpinBox*>();
        spins[1]->setValue(15);
        QCOMPARE(spins[1]->value(), 12);  // capped on the CPU
        spins[0]->setValue(12);
        QSignalSpy done(view, &GalleryView::sweepFinished);
        view->startSweep();
        QTRY_COMPARE_WITH_TIMEOUT(GalleryView::sweepsRunning(), 1, 10000);
        view->stopSweep();
        QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, 60000);
        QVERIFY(!view->sweeping());
        QVERIFY(view->points().empty());  // the stopped point is incomplete: not drawn
        QCOMPARE(GalleryView::sweepsRunning(), 0);

        view->startSweep();
        QTRY_COMPARE_WITH_TIMEOUT(GalleryView::sweepsRunning(), 1, 10000);
        delete view;  // returns at once: the worker is told to stop, not waited for
        QTRY_COMPARE_WITH_TIMEOUT(GalleryView::sweepsRunning(), 0, 60000);
    }

    // The same sweeps on the GPU (the device machine; skipped visibly elsewhere): every kernel
    // verified, the transpose's memory roof is the device copy each run measures.
    void sweepOnTheGpu()
    {
        if (!gigacheck::cudaCompiledIn())
            QSKIP(("GPU sweep skipped: no CUDA backend: " + gigacheck::whyNoCudaBackend()).c_str());
        std::string why;
        if (!gigacheck::makeCudaBackend(&why))
            QSKIP(("GPU sweep skipped: no CUDA device: " + why).c_str());
        GalleryView view;
        view.resize(1366, 768);
        auto* backend = view.findChild<QComboBox*>(QStringLiteral("galleryBackend"));
        QCOMPARE(backend->count(), 2);
        view.findChild<QComboBox*>(QStringLiteral("galleryFamily"))->setCurrentIndex(1);  // transpose
        backend->setCurrentIndex(1);
        const int variants = view.findChild<QListWidget*>(QStringLiteral("galleryVariants"))->count();
        QCOMPARE(variants, 5);  // naive, coalesced, inplace, padded, library
        const QList<QSpinBox*> spins = view.findChildren<QSpinBox*>();
        spins[0]->setValue(10);
        spins[1]->setValue(12);
        QSignalSpy done(&view, &GalleryView::sweepFinished);
        view.startSweep();
        QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, 120000);
        QCOMPARE(int(view.points().size()), variants * 3);
        for (const SweepPoint& p : view.points()) {
            QVERIFY2(p.error.isEmpty(), qPrintable(p.error));
            QVERIFY(p.verified);
            QVERIFY(p.memoryRoofGBs > 0);  // the device copy of its run
        }
        bool roof = false;
        for (int i = 0; i < view.plot()->graphCount(); ++i)
            roof = roof || view.plot()->graph(i)->name().startsWith(QStringLiteral("memory roof"));
        QVERIFY(roof);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        screenshot(view, QStringLiteral("gallery_transpose_gpu.png"));

        view.findChild<QComboBox*>(QStringLiteral("galleryFamily"))->setCurrentIndex(0);  // reduced matmul
        const int reduced = view.findChild<QListWidget*>(QStringLiteral("galleryVariants"))->count();
        spins[0]->setValue(10);
        spins[1]->setValue(12);
        view.startSweep();
        QTRY_COMPARE_WITH_TIMEOUT(done.count(), 2, 120000);
        QCOMPARE(int(view.points().size()), reduced * 3);
        for (const SweepPoint& p : view.points()) {
            QVERIFY2(p.error.isEmpty(), qPrintable(p.error));
            QVERIFY(p.verified);
        }
        int placed = 0;
        const QStringList kernels = variantsOf(Family::Reduced, true);
        for (int i = 0; i < view.roofline()->graphCount(); ++i)
            placed += kernels.contains(view.roofline()->graph(i)->name());
        QCOMPARE(placed, reduced);
        screenshot(view, QStringLiteral("gallery_reduced_gpu.png"));
    }

    // The access-pattern picker shows a pattern of the family and backend chosen: a reduced-matmul
    // view opens on the reduced matmul's, switching to the transpose shows its CPU or GPU pattern,
    // and a pattern the user picked for the family stays when the backend changes.
    void patternFollowsFamily()
    {
        GalleryView view;
        auto* family = view.findChild<QComboBox*>(QStringLiteral("galleryFamily"));
        auto* backend = view.findChild<QComboBox*>(QStringLiteral("galleryBackend"));
        auto* pattern = view.findChild<QComboBox*>(QStringLiteral("galleryPattern"));
        const auto shown = [&] { return patterns()[std::size_t(pattern->currentIndex())].pattern; };
        family->setCurrentIndex(0);
        backend->setCurrentIndex(0);
        QCOMPARE(shown(), Pattern::ReducedNaive);
        family->setCurrentIndex(1);
        QCOMPARE(shown(), Pattern::TransposeCpuNaive);
        pattern->setCurrentIndex(int(Pattern::TransposeCpuBlocked));
        family->setCurrentIndex(0);
        QCOMPARE(shown(), Pattern::ReducedNaive);
        pattern->setCurrentIndex(int(Pattern::ReducedTiled));
        if (backend->count() > 1) {
            backend->setCurrentIndex(1);
            QCOMPARE(shown(), Pattern::ReducedTiled);  // the reduced matmul's patterns serve both backends
            family->setCurrentIndex(1);
            QCOMPARE(shown(), Pattern::TransposeGpuNaive);
        }
        for (Family f : {Family::Reduced, Family::Transpose})
            for (bool gpu : {false, true})
                QVERIFY(patternShows(firstPatternOf(f, gpu), f, gpu));
        // Picked by a slot rather than the selector (the walk-through does): the selector names it.
        view.setPattern(int(Pattern::TransposeGpuTilePair));
        QCOMPARE(shown(), Pattern::TransposeGpuTilePair);
        QCOMPARE(view.animationSteps(), 8);
    }

    void stepAndPlay()
    {
        GalleryView view;
        view.resize(1100, 800);
        auto* pattern = view.findChild<QComboBox*>(QStringLiteral("galleryPattern"));
        pattern->setCurrentIndex(int(Pattern::TransposeGpuTilePair));
        QCOMPARE(view.animationStep(), 0);
        QCOMPARE(view.animationSteps(), 8);
        view.stepForward();
        view.stepForward();
        QCOMPARE(view.animationStep(), 2);
        view.stepBack();
        QCOMPARE(view.animationStep(), 1);
        view.togglePlay();
        QTRY_COMPARE_WITH_TIMEOUT(view.animationStep(), 7, 20000);  // plays to the end
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.goToStepForScreenshot(3);
        screenshot(view, QStringLiteral("gallery_tilepair.png"));
        pattern->setCurrentIndex(int(Pattern::TransposeGpuNaive));
        view.goToStepForScreenshot(1);
        screenshot(view, QStringLiteral("gallery_naive_strided.png"));
        pattern->setCurrentIndex(int(Pattern::ReducedTiled));
        view.goToStepForScreenshot(1);
        screenshot(view, QStringLiteral("gallery_reduced_tiled.png"));
    }
};

QTEST_MAIN(TestGallery)
#include "tst_gallery.moc"
