#include "walkthrough.hpp"

#include "export/grab_wait.hpp"

#include "window/mainwindow.hpp"
#include "window/windowlayout.hpp"
#include "window/displayscale.hpp"
#include "engine/enginecontroller.hpp"
#include "panels/faultspanel.hpp"
#include "panels/onlinefaultbox.hpp"
#include "panels/onlineschemebox.hpp"
#include "panels/runpanel.hpp"
#include "panels/strategypanel.hpp"
#include "views/animationpanel.hpp"
#include "views/heatmapview.hpp"
#include "views/timelineview.hpp"
#include "views/gallery/galleryview.hpp"
#include "views/online/onlinestepview.hpp"
#include "views/strassen/strassenview.hpp"
#include "models/autoplanner.hpp"

#include <gigacheck/strassen.hpp>

#include <qcustomplot.h>

#include <QComboBox>
#include <QCoreApplication>
#include <QDir>
#include <QEventLoop>
#include <QTabWidget>
#include <QTimer>

#include <functional>

namespace gigacheck::ui {

QStringList walkthroughFamilies()
{
    return {QStringLiteral("blocked"), QStringLiteral("online"), QStringLiteral("offline"), QStringLiteral("tmr"),
            QStringLiteral("strassen"), QStringLiteral("transpose"), QStringLiteral("reduced")};
}

namespace {

// One run of the checked-GEMM docks (blocked, online, offline or TMR), as Start would run it.
bool runDocks(MainWindow& window, const RunConfig& config, int timeoutSeconds, QString* error)
{
    window.setConfig(config);
    settle(window);
    return startRunAndWait(window, timeoutSeconds, error);
}

class Walk {
public:
    Walk(MainWindow& window, const WalkthroughOptions& options) : window_(window), options_(options), dir_(options.directory) {}

    bool run(QString* error)
    {
        return blocked(error) && online(Scheme::Online, QStringLiteral("online"), error) &&
               online(Scheme::Offline, QStringLiteral("offline"), error) && online(Scheme::Tmr, QStringLiteral("tmr"), error) &&
               strassen(error) && gallery(0, QStringLiteral("reduced"), error) && gallery(1, QStringLiteral("transpose"), error);
    }
    const QStringList& written() const { return written_; }

private:
    void grab(const QString& family, const QString& what)
    {
        settle(window_);
        const QString path = dir_.filePath(QStringLiteral("walk-%1-%2.png").arg(family, what));
        // 256 colours keep the docs light, as the README's screenshots.
        if (window_.grab().toImage().convertToFormat(QImage::Format_Indexed8, Qt::ThresholdDither).save(path))
            written_ << path;
    }
    // File › Export of the view shown: the picture a slide gets.
    bool exportView(MainWindow::View view, const QString& family, QString* error)
    {
        settle(window_);
        const QString path = dir_.filePath(QStringLiteral("walk-%1-export.png").arg(family));
        if (!window_.exportView(view, path, error))
            return false;
        written_ << path;
        return true;
    }

    RunConfig smallRun() const
    {
        RunConfig c;
        c.shape = Shape{512, 512, 512};
        c.precision = Precision::F32;
        c.strategy = StrategyKind::S2;
        c.memCapBytes = 1ull << 20;  // several blocks, so that the timeline has lanes to show
        c.backend = options_.backend;
        return c;
    }

    // Blocked ABFT GEMM: two faults in one row of a block, one further down; the heatmap with the
    // faults, the animation at the correction, the timeline, and the heatmap exported.
    bool blocked(QString* error)
    {
        const QString name = QStringLiteral("blocked");
        RunConfig c = smallRun();
        c.faults.at = {FaultAt{40, 60, {}, {}}, FaultAt{40, 200, {}, {}}, FaultAt{400, 450, {}, {}}};
        if (!runDocks(window_, c, options_.timeoutSeconds, error))
            return false;
        window_.showView(MainWindow::View::Heatmap);
        window_.heatmap()->setStep(nullptr);
        window_.heatmap()->resetZoom();
        grab(name, QStringLiteral("result"));
        AnimationPanel* anim = window_.animation();
        for (int i = 0; i < int(anim->steps().size()); ++i)
            if (anim->steps()[std::size_t(i)].stage == AnimationStage::Correct) {
                anim->goTo(i);
                break;
            }
        grab(name, QStringLiteral("step"));
        window_.showView(MainWindow::View::Timeline);
        window_.timeline()->resetZoom();
        grab(name, QStringLiteral("timeline"));
        window_.showView(MainWindow::View::Heatmap);
        window_.heatmap()->setStep(nullptr);
        return exportView(MainWindow::View::Heatmap, name, error);
    }

    // Online ABFT, offline ABFT and TMR: one fault in C after a middle step (TMR: in replica 0);
    // the result and the step slider at the check that catches it, then the heatmap exported.
    bool online(Scheme scheme, const QString& name, QString* error)
    {
        RunConfig c = smallRun();
        c.faults.at = {FaultAt{170, 300, {}, {}}};
        window_.strategyPanel()->schemeBox()->setSettings({scheme, 64, 1, 1});
        window_.faultsPanel()->onlineFaultBox()->setSettings({OnlineTarget::Result, scheme == Scheme::Tmr ? 0 : 2});
        const bool ran = runDocks(window_, c, options_.timeoutSeconds, error);
        if (ran) {
            window_.showView(MainWindow::View::Heatmap);
            window_.heatmap()->setStep(nullptr);
            OnlineStepView* steps = window_.onlineSteps();
            const OnlineStepModel& model = steps->model();
            if (model.count() > 0) {
                // The check that caught the fault (offline: the one at the end), else the last step.
                int at = model.count() - 1;
                if (!model.faults().empty() && model.faults().front().caughtAtStep >= 0)
                    at = std::max(0, model.positionOf(model.faults().front().caughtAtStep, OnlineStepModel::Phase::Check));
                steps->setPosition(at);
            }
            grab(name, QStringLiteral("result"));
        }
        const bool exported = ran && exportView(MainWindow::View::Heatmap, name, error);
        window_.strategyPanel()->schemeBox()->setSettings({});
        window_.faultsPanel()->onlineFaultBox()->setSettings({});
        return exported;
    }

    // Strassen, two levels, a fault in C1: the stepper at the first product, the stage times, and
    // that plot exported.
    bool strassen(QString* error)
    {
        const QString name = QStringLiteral("strassen");
        strassenlab::StrassenView* view = window_.strassenView();
        window_.showView(MainWindow::View::Strassen);
        StrassenConfig c;
        c.shape = {512, 512, 512};
        c.levels = 2;
        c.faults = {parseStrassenFault("c:1")};
        c.backend = options_.backend == BackendKind::Cuda ? BackendKind::Cuda : BackendKind::Cpu;
        view->setConfig(c);
        view->startRun();
        if (!waitFor(view, &strassenlab::StrassenView::runFinished, options_.timeoutSeconds)) {
            *error = QStringLiteral("the Strassen run did not finish within %1 s").arg(options_.timeoutSeconds);
            return false;
        }
        view->setZoom(false);
        for (int i = 0; i < int(view->steps().size()); ++i)
            if (view->steps()[std::size_t(i)].product) {
                view->goToStep(i);
                break;
            }
        view->plotTabs()->setCurrentWidget(view->stagePlot());
        grab(name, QStringLiteral("result"));
        view->plotTabs()->setCurrentWidget(view->lanesPlot());
        grab(name, QStringLiteral("lanes"));
        return exportView(MainWindow::View::Strassen, name, error);
    }

    // The kernel gallery (reduced matmul: familyIndex 0, transpose: 1): a short CPU sweep, the
    // access-pattern animation a few steps in, and the sweep's plot exported. No faults: these
    // families measure speed, not fault tolerance.
    bool gallery(int familyIndex, const QString& name, QString* error)
    {
        window_.showView(MainWindow::View::Gallery);
        gallery::GalleryView* view = window_.findChild<gallery::GalleryView*>();
        auto* family = window_.findChild<QComboBox*>(QStringLiteral("galleryFamily"));  // in the Algorithm dock
        if (!family) {
            *error = QStringLiteral("no kernel gallery in this window");
            return false;
        }
        family->setCurrentIndex(familyIndex);
        view->startSweep();
        if (view->sweeping() && !waitFor(view, &gallery::GalleryView::sweepFinished, options_.timeoutSeconds)) {
            *error = QStringLiteral("the %1 sweep did not finish within %2 s").arg(name).arg(options_.timeoutSeconds);
            return false;
        }
        view->goToStepForScreenshot(std::min(3, std::max(0, view->animationSteps() - 1)));
        grab(name, QStringLiteral("result"));
        if (!exportView(MainWindow::View::Gallery, name, error))
            return false;
        // The family's other access patterns, a few steps in: what the docs explain the curves with.
        auto* patterns = window_.findChild<QComboBox*>(QStringLiteral("galleryPattern"));
        const QString prefix = familyIndex == 0 ? QStringLiteral("Reduced matmul") : QStringLiteral("Transpose");
        for (int i = 0; patterns && i < patterns->count(); ++i) {
            const QString title = patterns->itemText(i);
            if (!title.startsWith(prefix))
                continue;
            view->setPattern(i);
            view->goToStepForScreenshot(std::min(3, std::max(0, view->animationSteps() - 1)));
            grab(name, QStringLiteral("pattern-%1").arg(patternSlug(title)));
        }
        return true;
    }

    // "Transpose, GPU tile pair (the paper's Algorithm 3, in place)" -> "gpu-tile-pair".
    static QString patternSlug(const QString& title)
    {
        QString words = title.section(QLatin1Char(','), 1).section(QLatin1Char('('), 0, 0).section(QLatin1Char(':'), 0, 0);
        return words.trimmed().toLower().replace(QLatin1Char(' '), QLatin1Char('-'));
    }

    MainWindow& window_;
    const WalkthroughOptions& options_;
    QDir dir_;
    QStringList written_;
};

}  // namespace

QStringList takeWalkthrough(MainWindow& window, const WalkthroughOptions& options, QString* error)
{
    if (!QDir().mkpath(options.directory)) {
        *error = QStringLiteral("cannot create %1").arg(options.directory);
        return {};
    }
    // As a first launch on a screen of that size would lay the window out, presentation mode off.
    applyFirstLaunchLayout(&window, QRect(0, 0, options.width, options.height));
    window.show();
    window.displayScale()->setPresentation(false);
    settle(window);
    Walk walk(window, options);
    if (!walk.run(error))
        return {};
    return walk.written();
}

}  // namespace gigacheck::ui
