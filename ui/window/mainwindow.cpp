#include "mainwindow.hpp"

#include "views/animationpanel.hpp"
#include "views/campaignview.hpp"
#include "engine/backgroundjobs.hpp"
#include "engine/ceilingsmeasurer.hpp"
#include "views/gallery/galleryview.hpp"
#include "views/strassen/strassenview.hpp"
#include "engine/enginecontroller.hpp"
#include "panels/faultspanel.hpp"
#include "views/heatmapview.hpp"
#include "panels/onlinefaultbox.hpp"
#include "panels/onlineschemebox.hpp"
#include "views/online/onlinestepview.hpp"
#include "views/online/onlinesweepview.hpp"
#include "export/plotexport.hpp"
#include "models/autoplanner.hpp"
#include "models/labwords.hpp"
#include "models/sizetext.hpp"
#include "models/rooflinemodel.hpp"
#include "models/runverdict.hpp"
#include "views/reportview.hpp"
#include "views/rooflineview.hpp"
#include "panels/runpanel.hpp"
#include "panels/setuppanel.hpp"
#include "panels/strategypanel.hpp"
#include "views/timelineview.hpp"
#include "window/closeguard.hpp"
#include "window/dockpages.hpp"
#include "window/displayscale.hpp"
#include "window/confighistory.hpp"
#include "window/familyviews.hpp"
#include "window/filedialogs.hpp"
#include "window/recentfiles.hpp"
#include "window/windowlayout.hpp"

#include <gigacheck/bench.hpp>
#include <gigacheck/cuda_status.hpp>
#include <gigacheck/defaults.hpp>
#include <gigacheck/version.hpp>

#include <QAction>
#include <QActionGroup>
#include <QBoxLayout>
#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenuBar>
#include <QMessageBox>
#include <QPushButton>
#include <QScreen>
#include <QScrollArea>
#include <QSettings>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QTimer>

namespace gigacheck::ui {

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent)
{
    registerMetaTypes();
    initResources();
    setWindowTitle(QStringLiteral("Gigacheck Lab %1").arg(QString::fromLatin1(kVersion)));
    setDockOptions(AnimatedDocks | AllowTabbedDocks | AllowNestedDocks);
    setAcceptDrops(true);

    session_ = new LabSession(this);
    // The session's run (the one still going), whatever tab is on screen.
    closeGuard_ = new CloseGuard(this, session_, [this](const QString& path) {
        QString error;
        if (saveRecord(lastRecord(), path, &error))
            return true;
        reportError(QStringLiteral("Cannot save %1: %2").arg(path, error));
        return false;
    });
    buildViews();

    autoPlanner_ = new AutoPlanner(this);
    connect(autoPlanner_, &AutoPlanner::planned, this, &MainWindow::onAutoPlanned);
    measurer_ = new CeilingsMeasurer(this);
    buildDocks();
    buildMenus();
    connectMeasurer();
    statusBar()->showMessage(QStringLiteral("Set up a product, place faults on the heatmap, pick a strategy and run."));

    connect(setup_, &SetupPanel::changed, this, &MainWindow::updatePlan);
    connect(strategy_, &StrategyPanel::changed, this, &MainWindow::updatePlan);
    connect(heatmap_, &HeatmapView::faultsChanged, this, [this](const std::vector<FaultAt>& f) {
        faults_->setExplicitFaults(f);
        statusBar()->showMessage(QStringLiteral("%1 fault(s) placed on C").arg(f.size()), 4000);
    });
    connect(faults_, &FaultsPanel::explicitFaultsEdited, heatmap_, &HeatmapView::setFaults);
    connect(faults_->onlineFaultBox(), &OnlineFaultBox::changed, this, &MainWindow::updatePlan);  // the markers' "@ step k"
    connect(heatmap_, &HeatmapView::faultsDropped, this, [this](int dropped, int kept) {
        const QString text = QStringLiteral("%1 placed fault(s) fell outside the new C and were removed; %2 kept.").arg(dropped).arg(kept);
        run_->log(text);
        statusBar()->showMessage(text, 10000);  // after faultsChanged's count, which it replaces
    });
    connect(animation_, &AnimationPanel::stepChanged, heatmap_, &HeatmapView::setStep);
    connect(run_, &RunPanel::startRequested, this, &MainWindow::startRun);
    connect(run_, &RunPanel::cancelRequested, this, &MainWindow::cancelRun);

    // Each view follows the session itself (Hotspot's pages and its parser); the window only
    // reports the end of a run.
    timeline_->subscribe(session_);
    heatmap_->subscribe(session_);
    animation_->subscribe(session_);
    roofline_->subscribe(session_);
    report_->subscribe(session_);
    onlineSteps_->subscribe(session_);
    connect(session_, &LabSession::recordChanged, this, [this] {
        const bool online = session_->online() != nullptr;
        animation_->setVisible(!online);
        onlineSteps_->setVisible(online);
    });
    run_->subscribe(session_);
    connectRunDock();  // mainwindow_run.cpp: one Start / Cancel for every family
    connect(session_, &LabSession::recordChanged, this, &MainWindow::onRecordChanged);
    connect(session_, &LabSession::runFailed, this, [this](const QString& message) {
        reportError(QStringLiteral("Run failed: %1").arg(message));
        emit runFailed(message);
    });

    restoreSettings();
    updatePlan();
    // Without the CUDA backend, say why (a CUDA build whose module is missing or cannot load names it).
    setup_->setDeviceText(cudaCompiledIn() ? QStringLiteral("device: chosen when a run starts (CUDA backend available)")
                                           : QStringLiteral("device: the CPU (no CUDA backend: %1)")
                                                 .arg(QString::fromStdString(whyNoCudaBackend())));
    // Name the devices once the window is up (probing CUDA can take a moment).
    QTimer::singleShot(0, this, [this] {
        setup_->probeDevices(!lastRecord());  // an opened record shows its own device
        history_->resetBaseline();            // the starting point: nothing to undo
    });
    history_->resetBaseline();
}

MainWindow::~MainWindow() = default;

void MainWindow::buildDocks()
{
    setup_ = new SetupPanel(this);
    faults_ = new FaultsPanel(this);
    strategy_ = new StrategyPanel(this);
    run_ = new RunPanel(this);
    // One set of docks for every family: each shows the panel of the family on screen.
    const strassenlab::StrassenView::Panels strassen = strassen_->dockPanels();
    const gallery::GalleryView::Panels gallery = gallery_->dockPanels();
    auto pages = [this](QWidget* gemm, QWidget* strassenPanel, QWidget* galleryPanel) {
        auto* p = new DockPages(this);
        p->addPage(LabFamily::AbftGemm, gemm);
        p->addPage(LabFamily::Strassen, strassenPanel);
        p->addPage(LabFamily::Gallery, galleryPanel);
        dockPages_.push_back(p);
        return p;
    };
    QDockWidget* setupDock = makePanelDock(this, QStringLiteral("Matrix setup"), QStringLiteral("dockSetup"),
                                           pages(setup_, strassen.inputs, gallery.inputs), true);
    QDockWidget* faultsDock = makePanelDock(this, QStringLiteral("Faults"), QStringLiteral("dockFaults"),
                                            pages(faults_, strassen.faults, gallery.faults), true);
    QDockWidget* strategyDock = makePanelDock(this, QStringLiteral("Algorithm"), QStringLiteral("dockStrategy"),
                                              pages(strategy_, strassen.algorithm, gallery.algorithm), true);
    // The scheme above Start: the Algorithm dock has no room left on a 768-pixel screen. (Its
    // object name stays dockStrategy, so that a saved window layout still places it.)
    if (auto* runLayout = qobject_cast<QBoxLayout*>(run_->layout())) {
        runLayout->insertWidget(0, strategy_->schemeBox());
        strategy_->schemeBox()->show();
    }
    // Scrolls too: on a screen too narrow for every panel (a scale factor) the docks shrink.
    QDockWidget* runDock = makePanelDock(this, QStringLiteral("Run"), QStringLiteral("dockRun"), run_, true);
    addDockWidget(Qt::LeftDockWidgetArea, setupDock);
    addDockWidget(Qt::LeftDockWidgetArea, faultsDock);
    addDockWidget(Qt::RightDockWidgetArea, strategyDock);
    addDockWidget(Qt::RightDockWidgetArea, runDock);
    connect(tabs_, &FamilyViews::familyChanged, this, &MainWindow::showPanelsFor);
    for (DockPages* p : dockPages_)  // the first layout (windowlayout.hpp) measures these
        p->showFamily(tabs_->family());
    strategy_->schemeBox()->setVisible(tabs_->family() == LabFamily::AbftGemm);
}

void MainWindow::buildMenus()
{
    QMenu* file = menuBar()->addMenu(QStringLiteral("&File"));
    file->addAction(QStringLiteral("&Open run record…"), QKeySequence::Open, this, &MainWindow::openRecordDialog);
    recent_ = new RecentFiles(file->addMenu(QStringLiteral("Open &recent")), [this](const QString& path) {
        openRecordReporting(path);
    });
    // Opens a file chosen in a dialog with `open`, reporting a refusal in a message box.
    auto openChosen = [this](const QString& title, bool (MainWindow::*open)(const QString&, QString*)) {
        askPath(this, QStringLiteral("openDialog"), title, QStringLiteral("records"), QString(),
                QStringLiteral("JSON (*.json);;All files (*)"), false, [this, open](const QString& path) {
                    QString error;
                    if (!(this->*open)(path, &error))
                        reportError(QStringLiteral("Cannot open %1: %2").arg(path, error));
                });
    };
    file->addAction(QStringLiteral("&Compare with record…"), this,
                    [=] { openChosen(QStringLiteral("Compare with run record"), &MainWindow::compareWithRecord); });
    file->addAction(QStringLiteral("&Remove comparison record"), session_, &LabSession::removeBaseline);
    file->addAction(QStringLiteral("Open c&ampaign…"), this,
                    [=] { openChosen(QStringLiteral("Open campaign"), &MainWindow::openCampaign); });
    file->addAction(QStringLiteral("&Save run record…"), QKeySequence::Save, this, &MainWindow::saveRecordDialog);
    file->addSeparator();
    addMatrixActions(file);
    file->addSeparator();
    file->addAction(QStringLiteral("&Export plot (PNG, PDF, SVG)…"), QKeySequence(QStringLiteral("Ctrl+E")), this,
                    [this] { exportDialog(false); });
    file->addAction(QStringLiteral("Export plot &data (CSV)…"), QKeySequence(QStringLiteral("Ctrl+Shift+E")), this,
                    [this] { exportDialog(true); });
    QMenu* resolution = file->addMenu(QStringLiteral("Export &resolution"));
    auto* scales = new QActionGroup(resolution);
    for (int scale : {1, 2, 3}) {
        QAction* a = resolution->addAction(QStringLiteral("%1× the screen's pixels").arg(scale), this, [scale] { setExportScale(scale); });
        a->setCheckable(true);
        a->setChecked(int(exportScale()) == scale);
        scales->addAction(a);
    }
    file->addSeparator();
    file->addAction(QStringLiteral("&Quit"), QKeySequence::Quit, this, &QWidget::close);

    buildEditMenu(menuBar()->addMenu(QStringLiteral("&Edit")));
    QMenu* run = menuBar()->addMenu(QStringLiteral("&Run"));
    // While a run goes on, Start queues the next one (the Run dock shows the queue).
    QAction* start = run->addAction(QStringLiteral("&Start"), QKeySequence(QStringLiteral("F5")), this, &MainWindow::startRun);
    start->setObjectName(QStringLiteral("startAction"));
    connect(BackgroundJobs::instance(), &BackgroundJobs::busyChanged, start,
            [start](bool busy) { start->setText(busy ? QStringLiteral("&Start next (queued)") : QStringLiteral("&Start")); });
    run->addAction(QStringLiteral("&Cancel"), QKeySequence(QStringLiteral("Esc")), this, &MainWindow::cancelRun);
    run->addSeparator();
    // Greyed while a measurement goes on (its Cancel is in the Roofline view, beside the progress).
    measureAction_ = run->addAction(QStringLiteral("&Measure this machine…"), this, &MainWindow::measureCeilings);
    measureAction_->setObjectName(QStringLiteral("measureAction"));
    measureAction_->setToolTip(roofline_->measureButton()->toolTip());

    QMenu* view = menuBar()->addMenu(QStringLiteral("&View"));
    for (QDockWidget* d : findChildren<QDockWidget*>())
        view->addAction(d->toggleViewAction());
    display_ = new DisplayScale(this);
    display_->addActions(view);
}

bool MainWindow::currentConfig(RunConfig* config, QString* error) const
{
    RunConfig c;
    if (!setup_->apply(c, error))
        return false;
    c.strategy = strategy_->strategy();  // with auto: the planner's latest choice (runGemm plans again)
    c.planByCostModel = strategy_->isAuto();
    faults_->apply(c.faults);
    c.faults.at = heatmap_->faults();
    *config = c;
    return true;
}

std::optional<OnlineConfig> MainWindow::currentOnlineConfig(QString* error) const
{
    const OnlineSchemeSettings scheme = strategy_->schemeBox()->settings();
    RunConfig c;
    if (scheme.scheme == Scheme::Blocked || !currentConfig(&c, error))
        return std::nullopt;
    return makeOnlineConfig(c, scheme, faults_->onlineFaultBox()->settings());
}

void MainWindow::setConfig(const RunConfig& config)
{
    {
        const QSignalBlocker block(setup_);
        setup_->load(config);
    }
    strategy_->setStrategy(config.strategy);
    strategy_->setAuto(config.planByCostModel);
    faults_->load(config.faults);
    heatmap_->setShape(config.shape.m, config.shape.q);
    animation_->clear();  // the map is empty now: no old run's block or bands on it
    heatmap_->setFaults(config.faults.at);
    updatePlan();
}

void MainWindow::updatePlan()
{
    RunConfig c;
    QString error;
    const bool binary = setup_->capInBinaryUnits();
    strategy_->setBinaryUnits(binary);
    if (!currentConfig(&c, &error)) {
        strategy_->showPlanError(error);
        heatmap_->clearPreviewPlan();
        return;
    }
    if (heatmap_->rows() != c.shape.m || heatmap_->cols() != c.shape.q) {
        heatmap_->setShape(c.shape.m, c.shape.q);
        animation_->clear();  // the old run's steps belong to another shape
    }
    dropOperandsNotFitting(c.shape);
    {
        // The step of the placed faults: chosen in the Faults panel for online / offline runs
        // (a middle step by default) and written on the heatmap's markers.
        const OnlineSchemeSettings scheme = strategy_->schemeBox()->settings();
        const int steps = onlineStepCount(scheme, c.shape);
        faults_->onlineFaultBox()->setScheme(scheme.scheme, steps);
        const int chosen = faults_->onlineFaultBox()->settings().step;
        heatmap_->setFaultSteps(steps > 0 ? std::optional<int>(chosen >= 0 ? chosen : defaultFaultStep(steps)) : std::nullopt);
    }
    if (const OnlineSchemeSettings scheme = strategy_->schemeBox()->settings(); scheme.scheme != Scheme::Blocked) {
        strategy_->showScheme(scheme, c.shape);
        heatmap_->setPlan(std::nullopt);
        return;
    }
    strategy_->enableStrategies();
    // No cap: the whole device, as the run resolves it (the GPU's memory, 1 GiB on the CPU), said in words.
    strategy_->setWholeDevice(c.memCapBytes == 0);
    const std::uint64_t cap = previewCapBytes(c);
    if (c.planByCostModel) {
        // The planner simulates many schedules: on a worker thread, after the edits settle.
        strategy_->showAutoPlanning();
        autoPlanner_->request(c);
        return;
    }
    try {
        const Plan plan = makePlan(c.shape, c.precision, c.strategy, cap ? cap : kDefaultCpuMemCapBytes, c.abft, c.gemm);
        strategy_->showPlan(plan);
        heatmap_->setPlan(plan);
    } catch (const std::exception& e) {
        strategy_->showPlanError(inLabWords(withSizesIn(QString::fromStdString(e.what()), {double(cap)}, binary)));
        heatmap_->clearPreviewPlan();
    }
}

void MainWindow::onAutoPlanned(const AutoPlanResult& result)
{
    if (!strategy_->isAuto())
        return;  // another strategy was chosen meanwhile
    if (result.ok) {
        strategy_->showAutoPlan(result.plan, result.predictedSeconds, result.calibrated);
        heatmap_->setPlan(result.plan);
    } else {
        RunConfig c;
        const double cap = currentConfig(&c, nullptr) ? double(previewCapBytes(c)) : 0.0;
        strategy_->showAutoError(inLabWords(withSizesIn(result.error, {cap}, setup_->capInBinaryUnits())));
        heatmap_->clearPreviewPlan();
    }
}

void MainWindow::onRecordChanged(const RecordPtr& record, LabSession::Origin origin)
{
    if (origin == LabSession::Origin::File) {
        setup_->setDeviceText(QStringLiteral("recorded on: %1").arg(QString::fromStdString(record->devices.front().name)));
        return;
    }
    // The engine explains its choice in the CLI's words ("--backend cpu: requested"); say it in the panel's.
    const QString why = inLabWords(QString::fromStdString(record->devices.front().whyChosen));
    setup_->setDeviceText(QStringLiteral("device: %1\n%2").arg(QString::fromStdString(record->devices.front().name), why));
    // Plain words: what happened to the run and to C, as every view says it (models/runverdict).
    statusBar()->showMessage(runVerdictOf(*record).statusLine());
    setWindowTitle(QStringLiteral("Gigacheck Lab — %1 (not saved)").arg(runLabel(*record)));  // no old file's name
    emit runFinished(record);
}

void MainWindow::reportError(const QString& message)
{
    run_->log(message);
    statusBar()->showMessage(message, 10000);
    // Non-modal: the event loop (and any run) keeps going, and tests are never blocked.
    auto* box = new QMessageBox(QMessageBox::Warning, QStringLiteral("Gigacheck Lab"), message, QMessageBox::Ok, this);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setModal(false);
    box->show();
}

void MainWindow::saveSettings() const
{
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    // The screen it was saved on: a layout restored on another one is adapted to it.
    settings.setValue(QStringLiteral("window/availableSize"), screen()->availableGeometry().size());
    settings.setValue(QStringLiteral("window/state"), saveState());
    settings.setValue(QStringLiteral("view/family"), int(tabs_->family()));
    RunConfig c;
    if (currentConfig(&c, nullptr)) {
        RunRecord holder;  // the record's JSON already knows how to write a RunConfig
        holder.config = c;
        settings.setValue(QStringLiteral("lastConfig"), QString::fromStdString(toJson(holder, -1)));
    }
}

void MainWindow::restoreSettings()
{
    QSettings settings;
    const QRect available = screen()->availableGeometry();
    if (!restoreWindowLayout(this, settings.value(QStringLiteral("window/geometry")).toByteArray(),
                             settings.value(QStringLiteral("window/state")).toByteArray(),
                             settings.value(QStringLiteral("window/availableSize")).toSize(), available))
        applyFirstLaunchLayout(this, available);
    if (const int family = settings.value(QStringLiteral("view/family"), 0).toInt(); family >= 0 && family <= int(LabFamily::Gallery))
        tabs_->setFamily(LabFamily(family));
    const QString last = settings.value(QStringLiteral("lastConfig")).toString();
    if (!last.isEmpty()) {
        try {
            setConfig(recordFromJson(last.toStdString()).config);
        } catch (const std::exception&) {
            // A config from another version: start from the defaults.
        }
    }
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    if (!closeGuard_->allowClose()) {
        event->ignore();
        return;
    }
    saveSettings();
    session_->cancel();
    measurer_->cancel();  // nothing stored; its worker ends after the current point, unwaited
    QMainWindow::closeEvent(event);
}

}  // namespace gigacheck::ui
