#include "screenshots.hpp"

#include "export/grab_wait.hpp"

#include "views/animationpanel.hpp"
#include "window/displayscale.hpp"
#include "window/mainwindow.hpp"
#include "window/windowlayout.hpp"
#include "panels/runpanel.hpp"
#include "views/timelineview.hpp"
#include "engine/enginecontroller.hpp"
#include "views/heatmapview.hpp"
#include "views/strassen/strassenview.hpp"
#include "panels/faultspanel.hpp"
#include "panels/onlinefaultbox.hpp"
#include "panels/onlineschemebox.hpp"
#include "panels/strategypanel.hpp"
#include "views/online/onlinestepview.hpp"
#include "views/online/onlinesweepview.hpp"
#include "models/autoplanner.hpp"

#include <qcustomplot.h>

#include <QApplication>
#include <QDir>
#include <QEventLoop>
#include <QTabWidget>
#include <QTimer>

#include <functional>
#include <utility>

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

// Called once while the run is past half-way with blocks of C already on the heatmap.
using MidRunShot = std::function<void()>;

bool runAndWait(MainWindow& window, const RunConfig& config, int timeoutSeconds, QString* error,
                const MidRunShot& midRun = {})
{
    window.setConfig(config);
    if (config.planByCostModel)
        settle(window);  // strategy auto: the planner's choice is shown (and labels the lanes) before the run
    return startRunAndWait(window, timeoutSeconds, error, midRun);
}

// The Strassen tab on the result it shows (a run, or an opened record): the stepper at the first
// product with the time per stage; then the run's lanes, zoomed into a level-2 node where the run
// has one on a single device (strassen-zoom.png), else as they are (strassen-lanes.png: a
// decomposition's device lanes).
template <class Grab> void grabStrassenResult(strassenlab::StrassenView* view, Grab& grab)
{
    view->setZoom(false);
    for (int i = 0; i < int(view->steps().size()); ++i)
        if (view->steps()[std::size_t(i)].product) {
            view->goToStep(i);
            break;
        }
    view->plotTabs()->setCurrentWidget(view->stagePlot());
    grab(QStringLiteral("strassen.png"));
    const StrassenResult* r = view->result();
    const bool nested = r && r->levels >= 2 && !r->config.distribute && r->config.devices == 1;
    view->plotTabs()->setCurrentWidget(view->lanesPlot());
    if (!nested) {
        grab(QStringLiteral("strassen-lanes.png"));
        return;
    }
    view->setZoom(true);
    view->setNode(0);
    view->goToStep(4);
    grab(QStringLiteral("strassen-zoom.png"));
    view->setZoom(false);
}

// The Strassen tab: a small run with a fault in C (grabStrassenResult) and a short sweep (speedup
// vs N, error vs levels).
template <class Grab> void takeStrassenScreenshots(MainWindow& window, const ScreenshotOptions& options, Grab& grab)
{
    strassenlab::StrassenView* view = window.strassenView();
    window.showView(MainWindow::View::Strassen);
    StrassenConfig c;
    c.shape = {512, 512, 512};
    c.levels = 2;
    c.faults = {parseStrassenFault("c:1")};
    c.backend = options.config.backend == BackendKind::Cuda ? BackendKind::Cuda : BackendKind::Cpu;
    view->setConfig(c);
    view->startRun();
    if (!waitFor(view, &strassenlab::StrassenView::runFinished, options.timeoutSeconds))
        return;
    grabStrassenResult(view, grab);
    view->startSweep();
    if (waitFor(view, &strassenlab::StrassenView::sweepFinished, options.timeoutSeconds)) {
        view->plotTabs()->setCurrentWidget(view->speedupPlot());
        grab(QStringLiteral("strassen-sweep.png"));
        view->plotTabs()->setCurrentWidget(view->errorPlot());
        grab(QStringLiteral("strassen-error.png"));
    }
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
    window.displayScale()->setPresentation(options.presentation);  // not the last session's mode
    settle(window);

    RunConfig config = options.config;
    if (!options.loadA.isEmpty() || !options.loadB.isEmpty()) {
        window.setConfig(config);
        for (auto [which, path] : {std::pair{MainWindow::Operand::A, options.loadA}, std::pair{MainWindow::Operand::B, options.loadB}})
            if (!path.isEmpty() && !window.importOperand(which, path, error))
                return {};
        RunConfig imported;
        if (!window.currentConfig(&imported, error))
            return {};
        config.shape = imported.shape;
        config.precision = imported.precision;
        std::erase_if(config.faults.at, [&](const FaultAt& f) { return f.row >= config.shape.m || f.col >= config.shape.q; });
    }

    if (!options.recordPath.isEmpty()) {
        if (!window.openRecord(options.recordPath, error))
            return {};
    } else {
        if (options.compareWith) {
            RunConfig first = config;
            first.strategy = *options.compareWith;
            first.planByCostModel = false;
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

    // A record opens in its family's lab view (File › Open dispatches on the record's family): one
    // that opened in the Strassen tab or the Kernel gallery gets that tab's shots, not the GEMM
    // views (empty then).
    if (!options.recordPath.isEmpty() && window.currentView() == MainWindow::View::Strassen) {
        window.showView(MainWindow::View::Strassen);
        grabStrassenResult(window.strassenView(), grab);
        return written;
    }
    // One of the kernel gallery's: its point in the Kernel gallery.
    if (!options.recordPath.isEmpty() && window.currentView() == MainWindow::View::Gallery) {
        grab(QStringLiteral("gallery.png"));
        return written;
    }

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
        if (!runAndWait(window, config, options.timeoutSeconds, error, options.quick ? MidRunShot() : midRun))
            return {};
    }

    window.showView(MainWindow::View::Timeline);
    window.timeline()->resetZoom();
    grab(QStringLiteral("timeline.png"));

    window.showView(MainWindow::View::Heatmap);
    window.heatmap()->setStep(nullptr);
    window.heatmap()->resetZoom();
    grab(QStringLiteral("heatmap.png"));
    if (options.quick) {
        window.showView(MainWindow::View::Report);
        grab(QStringLiteral("report.png"));
        window.showView(MainWindow::View::Heatmap);
        return written;
    }

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
    if (options.recordPath.isEmpty())
        takeStrassenScreenshots(window, options, grab);
    if (options.recordPath.isEmpty() && !takeOnlineScreenshots(window, options, grab, error))
        return {};
    window.showView(MainWindow::View::Heatmap);
    return written;
}

bool takeOnlineScreenshots(MainWindow& window, const ScreenshotOptions& options,
                           const std::function<void(const QString&)>& grab, QString* error)
{
    RunConfig c;
    c.shape = Shape{512, 512, 512};
    c.backend = options.config.backend;
    c.faults.at = {FaultAt{170, 300, {}, {}}};
    window.strategyPanel()->schemeBox()->setSettings({Scheme::Online, 64, 1, 1});
    window.faultsPanel()->onlineFaultBox()->setSettings({OnlineTarget::Result, 2});
    // The scheme stays online while its shots are taken (the docks beside the record show the
    // run's own scheme) and goes back to blocked ABFT when they are done.
    const auto blockedAgain = [&window] {
        window.strategyPanel()->schemeBox()->setSettings({});
        window.faultsPanel()->onlineFaultBox()->setSettings({});
    };
    if (!runAndWait(window, c, options.timeoutSeconds, error)) {
        blockedAgain();
        return false;
    }
    window.showView(MainWindow::View::Heatmap);
    OnlineStepView* steps = window.onlineSteps();
    for (auto [phase, name] : {std::pair{OnlineStepModel::Phase::Fault, "online-step-fault.png"},
                               std::pair{OnlineStepModel::Phase::Check, "online-step-check.png"}}) {
        steps->setPosition(std::max(0, steps->model().positionOf(2, phase)));
        grab(QString::fromLatin1(name));
    }
    window.showView(MainWindow::View::OnlineSweep);
    FqSweepOptions sweep;
    sweep.n = 512;
    sweep.panel = 32;
    sweep.trials = 4;
    sweep.reps = 3;
    window.onlineSweep()->setOptions(sweep);
    window.onlineSweep()->start();
    QEventLoop loop;
    QObject::connect(window.onlineSweep()->model(), &FqSweepModel::finished, &loop, &QEventLoop::quit);
    QObject::connect(window.onlineSweep()->model(), &FqSweepModel::failed, &loop, &QEventLoop::quit);
    QTimer::singleShot(options.timeoutSeconds * 1000, &loop, &QEventLoop::quit);
    if (window.onlineSweep()->model()->running())
        loop.exec();
    grab(QStringLiteral("online-sweep.png"));
    blockedAgain();
    return true;
}

}  // namespace gigacheck::ui
