#include "screenshots.hpp"

#include "views/animationpanel.hpp"
#include "window/displayscale.hpp"
#include "window/mainwindow.hpp"
#include "window/windowlayout.hpp"
#include "panels/runpanel.hpp"
#include "views/timelineview.hpp"
#include "engine/enginecontroller.hpp"
#include "views/heatmapview.hpp"


#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QTimer>

#include <functional>

namespace gigacheck::ui {

RunConfig demoConfig()
{
    RunConfig c;
    c.shape = Shape{2048, 2048, 2048};
    c.precision = Precision::F32;
    c.strategy = StrategyKind::S2;
    c.memCapBytes = 16ull << 20;
    c.backend = BackendKind::Auto;
    // Two faults in one row of the first block, one in a block further down.
    c.faults.at = {FaultAt{100, 200, {}, {}}, FaultAt{100, 700, {}, {}}, FaultAt{1500, 1800, {}, {}}};
    return c;
}

namespace {

void settle(MainWindow& window);

// Called once while the run is past half-way with blocks of C already on the heatmap.
using MidRunShot = std::function<void()>;

bool runAndWait(MainWindow& window, const RunConfig& config, int timeoutSeconds, QString* error,
                const MidRunShot& midRun = {})
{
    window.setConfig(config);
    QEventLoop loop;
    bool ok = false;
    auto c1 = QObject::connect(&window, &MainWindow::runFinished, &loop, [&] {
        ok = true;
        loop.quit();
    });
    auto c2 = QObject::connect(&window, &MainWindow::runFailed, &loop, [&](const QString& message) {
        *error = message;
        loop.quit();
    });
    bool midRunTaken = !midRun;
    auto c3 = QObject::connect(window.engine(), &EngineController::progressChanged, &loop, [&](double fraction, double) {
        if (midRunTaken || fraction < 0.5 || window.heatmap()->liveTileCount() == 0)
            return;
        midRunTaken = true;
        midRun();
    });
    QTimer::singleShot(timeoutSeconds * 1000, &loop, [&] {
        *error = QStringLiteral("run did not finish within %1 s").arg(timeoutSeconds);
        loop.quit();
    });
    window.startRun();
    loop.exec();
    QObject::disconnect(c1);
    QObject::disconnect(c2);
    QObject::disconnect(c3);
    return ok;
}

void settle(MainWindow& window)
{
    // Let queued replots and layouts happen, and a large heatmap finish its reduction, before grabbing.
    QElapsedTimer clock;
    clock.start();
    do {
        QEventLoop loop;
        QTimer::singleShot(30, &loop, &QEventLoop::quit);
        loop.exec();
    } while (window.heatmap()->gridPending() && clock.elapsed() < 10000);
    QCoreApplication::processEvents();
}

}  // namespace

QStringList takeScreenshots(MainWindow& window, const ScreenshotOptions& options, QString* error)
{
    QDir dir(options.directory);
    if (!dir.mkpath(QStringLiteral("."))) {
        *error = QStringLiteral("cannot create %1").arg(options.directory);
        return {};
    }
    // As a first launch on a screen of that size would lay the window out.
    applyFirstLaunchLayout(&window, QRect(0, 0, options.width, options.height));
    window.show();
    if (options.presentation)
        window.displayScale()->setPresentation(true);
    settle(window);

    if (!options.recordPath.isEmpty()) {
        if (!window.openRecord(options.recordPath, error))
            return {};
    } else {
        if (options.compareWith) {
            RunConfig first = options.config;
            first.strategy = *options.compareWith;
            if (!runAndWait(window, first, options.timeoutSeconds, error))
                return {};
        }
    }

    QStringList written;
    auto grab = [&](const QString& name) {
        settle(window);
        const QString path = dir.filePath(name);
        // 256 colours keep the README light (the noisy heatmap would be >1 MB in true colour).
        const QImage image = window.grab().toImage().convertToFormat(QImage::Format_Indexed8, Qt::ThresholdDither);
        if (image.save(path))
            written << path;
    };

    if (options.recordPath.isEmpty()) {
        // The second run keeps the first one's lanes on the same time axis.
        window.runPanel()->setCompareWithPrevious(options.compareWith.has_value());
        // Half-way through the run: C on the heatmap holds the blocks that are final so far.
        const MidRunShot midRun = [&] {
            window.showView(MainWindow::View::Heatmap);
            window.heatmap()->resetZoom();
            QEventLoop wait;
            QTimer::singleShot(300, &wait, &QEventLoop::quit);  // the live redraw runs every 200 ms
            wait.exec();
            if (window.engine()->isRunning())  // a short (GPU) run may be over by now: no "live" shot then
                grab(QStringLiteral("heatmap-live.png"));
            window.showView(MainWindow::View::Timeline);
        };
        if (!runAndWait(window, options.config, options.timeoutSeconds, error, midRun))
            return {};
    }

    window.showView(MainWindow::View::Timeline);
    window.timeline()->resetZoom();
    grab(QStringLiteral("timeline.png"));

    window.showView(MainWindow::View::Heatmap);
    window.heatmap()->setStep(nullptr);
    window.heatmap()->resetZoom();
    grab(QStringLiteral("heatmap.png"));

    // The animation at its first correction (or the last step when nothing was corrected).
    AnimationPanel* anim = window.animation();
    int target = int(anim->steps().size()) - 1;
    for (int i = 0; i < int(anim->steps().size()); ++i)
        if (anim->steps()[std::size_t(i)].stage == AnimationStage::Correct ||
            anim->steps()[std::size_t(i)].stage == AnimationStage::Uncorrectable) {
            target = i;
            break;
        }
    if (target >= 0) {
        for (int i = std::max(target - 2, 0); i <= target; ++i) {
            anim->goTo(i);
            grab(QStringLiteral("animation-%1.png").arg(stageName(anim->steps()[std::size_t(i)].stage)));
        }
    }

    window.showView(MainWindow::View::Roofline);
    grab(QStringLiteral("roofline.png"));
    window.showView(MainWindow::View::Report);
    grab(QStringLiteral("report.png"));
    window.showView(MainWindow::View::Heatmap);
    return written;
}

}  // namespace gigacheck::ui
