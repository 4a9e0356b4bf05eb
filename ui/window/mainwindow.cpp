#include "mainwindow.hpp"

#include "views/animationpanel.hpp"
#include "views/campaignview.hpp"
#include "views/gallery/galleryview.hpp"
#include "engine/enginecontroller.hpp"
#include "panels/faultspanel.hpp"
#include "views/heatmapview.hpp"
#include "export/plotexport.hpp"
#include "models/rooflinemodel.hpp"
#include "views/reportview.hpp"
#include "views/rooflineview.hpp"
#include "panels/runpanel.hpp"
#include "panels/setuppanel.hpp"
#include "panels/strategypanel.hpp"
#include "views/timelineview.hpp"

#include <gigacheck/bench.hpp>
#include <gigacheck/defaults.hpp>
#include <gigacheck/version.hpp>

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenuBar>
#include <QMessageBox>
#include <QScrollArea>
#include <QSettings>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QTimer>

namespace gigacheck::ui {

namespace {

constexpr int kMaxRecent = 8;

QString qs(std::string_view s)
{
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

QDockWidget* dock(QMainWindow* window, const QString& title, const QString& name, QWidget* content, bool scroll)
{
    auto* d = new QDockWidget(title, window);
    d->setObjectName(name);  // restoreState() needs stable names
    if (scroll) {
        auto* area = new QScrollArea(d);
        area->setWidget(content);
        area->setWidgetResizable(true);
        area->setFrameShape(QFrame::NoFrame);
        d->setWidget(area);
    } else {
        d->setWidget(content);
    }
    return d;
}

}  // namespace

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent)
{
    registerMetaTypes();
    initResources();
    setWindowTitle(QStringLiteral("Gigacheck Lab %1").arg(QString::fromLatin1(kVersion)));
    setDockOptions(AnimatedDocks | AllowTabbedDocks | AllowNestedDocks);

    session_ = new LabSession(this);
    heatmap_ = new HeatmapView(this);
    animation_ = new AnimationPanel(this);
    timeline_ = new TimelineView(this);
    roofline_ = new RooflineView(this);
    report_ = new ReportView(this);

    auto* heatmapPage = new QSplitter(Qt::Vertical, this);
    heatmapPage->addWidget(heatmap_);
    heatmapPage->addWidget(animation_);
    heatmapPage->setStretchFactor(0, 3);
    heatmapPage->setStretchFactor(1, 1);
    heatmapPage->setChildrenCollapsible(false);
    animation_->setMinimumHeight(190);
    tabs_ = new QTabWidget(this);
    tabs_->setObjectName(QStringLiteral("views"));
    tabs_->addTab(heatmapPage, QStringLiteral("C heatmap && error animation"));
    tabs_->addTab(timeline_, QStringLiteral("Timeline"));
    tabs_->addTab(roofline_, QStringLiteral("Roofline"));
    tabs_->addTab(report_, QStringLiteral("Report"));
    campaign_ = new CampaignView(this);
    tabs_->addTab(campaign_, QStringLiteral("Campaign"));
    gallery_ = new gallery::GalleryView(this);
    tabs_->addTab(gallery_, QStringLiteral("Kernel gallery"));
    connect(campaign_, &CampaignView::runRequested, this, [this](const RunConfig& config, const QString& what) {
        setConfig(config);  // the run's seed, strategy and fault: the replay is the run itself
        run_->log(QStringLiteral("re-running %1").arg(what));
        startRun();
        showView(View::Heatmap);  // the error animation, not the timeline startRun shows
    });
    setCentralWidget(tabs_);

    buildDocks();
    buildMenus();
    statusBar()->showMessage(QStringLiteral("Set up a product, place faults on the heatmap, pick a strategy and run."));

    connect(setup_, &SetupPanel::changed, this, &MainWindow::updatePlan);
    connect(strategy_, &StrategyPanel::changed, this, &MainWindow::updatePlan);
    connect(heatmap_, &HeatmapView::faultsChanged, this, [this](const std::vector<FaultAt>& f) {
        faults_->setExplicitFaults(f);
        statusBar()->showMessage(QStringLiteral("%1 fault(s) placed on C").arg(f.size()), 4000);
    });
    connect(faults_, &FaultsPanel::explicitFaultsEdited, heatmap_, &HeatmapView::setFaults);
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
    run_->subscribe(session_);
    connect(session_, &LabSession::recordChanged, this, &MainWindow::onRecordChanged);
    connect(session_, &LabSession::runFailed, this, [this](const QString& message) {
        reportError(QStringLiteral("Run failed: %1").arg(message));
        emit runFailed(message);
    });

    restoreSettings();
    updatePlan();
    setup_->setDeviceText(cudaCompiledIn() ? QStringLiteral("device: chosen when a run starts (CUDA backend built in)")
                                           : QStringLiteral("device: the CPU (this build has no CUDA backend)"));
    // Name the devices once the window is up (probing CUDA can take a moment).
    QTimer::singleShot(0, this, [this] { setup_->probeDevices(!lastRecord()); });  // an opened record shows its own device
}

MainWindow::~MainWindow() = default;

void MainWindow::buildDocks()
{
    setup_ = new SetupPanel(this);
    faults_ = new FaultsPanel(this);
    strategy_ = new StrategyPanel(this);
    run_ = new RunPanel(this);
    QDockWidget* setupDock = dock(this, QStringLiteral("Matrix setup"), QStringLiteral("dockSetup"), setup_, true);
    QDockWidget* faultsDock = dock(this, QStringLiteral("Faults"), QStringLiteral("dockFaults"), faults_, true);
    QDockWidget* strategyDock = dock(this, QStringLiteral("Strategy"), QStringLiteral("dockStrategy"), strategy_, true);
    QDockWidget* runDock = dock(this, QStringLiteral("Run"), QStringLiteral("dockRun"), run_, false);
    addDockWidget(Qt::LeftDockWidgetArea, setupDock);
    addDockWidget(Qt::LeftDockWidgetArea, faultsDock);
    addDockWidget(Qt::RightDockWidgetArea, strategyDock);
    addDockWidget(Qt::RightDockWidgetArea, runDock);
    resizeDocks({setupDock, strategyDock}, {370, 360}, Qt::Horizontal);
}

void MainWindow::buildMenus()
{
    QMenu* file = menuBar()->addMenu(QStringLiteral("&File"));
    file->addAction(QStringLiteral("&Open run record…"), QKeySequence::Open, this, &MainWindow::openRecordDialog);
    recentMenu_ = file->addMenu(QStringLiteral("Open &recent"));
    // Opens a file chosen in a dialog with `open`, reporting a refusal in a message box.
    auto openChosen = [this](const QString& title, bool (MainWindow::*open)(const QString&, QString*)) {
        const QString path = QFileDialog::getOpenFileName(this, title, QString(), QStringLiteral("JSON (*.json);;All files (*)"));
        QString error;
        if (!path.isEmpty() && !(this->*open)(path, &error))
            reportError(QStringLiteral("Cannot open %1: %2").arg(path, error));
    };
    file->addAction(QStringLiteral("&Compare with record…"), this,
                    [=] { openChosen(QStringLiteral("Compare with run record"), &MainWindow::compareWithRecord); });
    file->addAction(QStringLiteral("Open c&ampaign…"), this,
                    [=] { openChosen(QStringLiteral("Open campaign"), &MainWindow::openCampaign); });
    file->addAction(QStringLiteral("&Save run record…"), QKeySequence::Save, this, &MainWindow::saveRecordDialog);
    file->addSeparator();
    file->addAction(QStringLiteral("&Export plot (PNG, PDF, SVG)…"), QKeySequence(QStringLiteral("Ctrl+E")), this,
                    [this] { exportDialog(false); });
    file->addAction(QStringLiteral("Export plot &data (CSV)…"), QKeySequence(QStringLiteral("Ctrl+Shift+E")), this,
                    [this] { exportDialog(true); });
    file->addSeparator();
    file->addAction(QStringLiteral("&Quit"), QKeySequence::Quit, this, &QWidget::close);

    QMenu* run = menuBar()->addMenu(QStringLiteral("&Run"));
    run->addAction(QStringLiteral("&Start"), QKeySequence(QStringLiteral("F5")), this, &MainWindow::startRun);
    run->addAction(QStringLiteral("&Cancel"), QKeySequence(QStringLiteral("Esc")), this, &MainWindow::cancelRun);

    QMenu* view = menuBar()->addMenu(QStringLiteral("&View"));
    for (QDockWidget* d : findChildren<QDockWidget*>())
        view->addAction(d->toggleViewAction());
    rebuildRecentMenu();
}

bool MainWindow::currentConfig(RunConfig* config, QString* error) const
{
    RunConfig c;
    if (!setup_->apply(c, error))
        return false;
    c.strategy = strategy_->strategy();
    faults_->apply(c.faults);
    c.faults.at = heatmap_->faults();
    *config = c;
    return true;
}

void MainWindow::setConfig(const RunConfig& config)
{
    {
        const QSignalBlocker block(setup_);
        setup_->load(config);
    }
    strategy_->setStrategy(config.strategy);
    faults_->load(config.faults);
    heatmap_->setShape(config.shape.m, config.shape.q);
    heatmap_->setFaults(config.faults.at);
    updatePlan();
}

void MainWindow::updatePlan()
{
    RunConfig c;
    QString error;
    if (!currentConfig(&c, &error)) {
        strategy_->showPlanError(error);
        heatmap_->setPlan(std::nullopt);
        return;
    }
    if (heatmap_->rows() != c.shape.m || heatmap_->cols() != c.shape.q)
        heatmap_->setShape(c.shape.m, c.shape.q);
    try {
        const Plan plan = makePlan(c.shape, c.precision, c.strategy, c.memCapBytes ? c.memCapBytes : kDefaultCpuMemCapBytes,
                                   c.abft);
        strategy_->showPlan(plan);
        heatmap_->setPlan(plan);
    } catch (const std::exception& e) {
        strategy_->showPlanError(QString::fromStdString(e.what()));
        heatmap_->setPlan(std::nullopt);
    }
}

void MainWindow::startRun()
{
    RunConfig c;
    QString error;
    if (!currentConfig(&c, &error)) {
        reportError(error);
        return;
    }
    const bool compare = run_->compareWithPrevious() && timeline_->model().runCount() > 0;
    RunRecord label;
    label.config = c;
    session_->start(c, compare);
    statusBar()->showMessage(QStringLiteral("Running %1 …").arg(runLabel(label)));
    showView(View::Timeline);
}

void MainWindow::cancelRun()
{
    if (!session_->isRunning())
        return;
    run_->log(QStringLiteral("cancel requested"));
    session_->cancel();
}

void MainWindow::onRecordChanged(const RecordPtr& record, LabSession::Origin origin)
{
    if (origin == LabSession::Origin::File) {
        setup_->setDeviceText(QStringLiteral("recorded on: %1").arg(QString::fromStdString(record->devices.front().name)));
        return;
    }
    setup_->setDeviceText(QStringLiteral("device: %1\n%2").arg(QString::fromStdString(record->devices.front().name),
                                                                 QString::fromStdString(record->devices.front().whyChosen)));
    statusBar()->showMessage(QStringLiteral("Run %1: %2").arg(QString::fromStdString(record->status),
                                                             record->verifiedCorrect() ? QStringLiteral("verified correct")
                                                                                       : QStringLiteral("NOT verified correct")));
    emit runFinished(*record);
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

// Runs f; an exception becomes false with its message in *error (files the user picked may be anything).
template <class F> bool reportingFailure(F&& f, QString* error)
{
    try {
        f();
        return true;
    } catch (const std::exception& e) {
        if (error)
            *error = QString::fromStdString(e.what());
        return false;
    }
}

bool MainWindow::openRecord(const QString& path, QString* error)
{
    return reportingFailure([&] {
        // The lab draws blocked GEMM records; another family's record is refused by name until
        // its view exists (the family adds its branch here).
        const std::string family = recordFamilyOfFile(path.toStdString());
        if (family != "blocked_gemm")
            throw InputError("the lab has no view for records of family '" + family + "' yet");
        showRecord(loadRecord(path.toStdString()));
        addRecent(path);
        setWindowTitle(QStringLiteral("Gigacheck Lab — %1").arg(QFileInfo(path).fileName()));
    }, error);
}

bool MainWindow::openRecordReporting(const QString& path, QString* error)
{
    QString why;
    if (openRecord(path, &why))
        return true;
    reportError(QStringLiteral("Cannot open %1: %2").arg(path, why));
    if (error)
        *error = why;
    return false;
}

bool MainWindow::compareWithRecord(const QString& path, QString* error)
{
    RunRecord baseline;
    if (!reportingFailure([&] { baseline = loadRecord(path.toStdString()); }, error))
        return false;
    const QString label = runLabel(baseline);
    session_->addBaseline(std::move(baseline));
    run_->log(QStringLiteral("comparing with %1 (%2)").arg(QFileInfo(path).fileName(), label));
    showView(View::Timeline);
    return true;
}

void MainWindow::showRecord(const RunRecord& record)
{
    setConfig(record.config);
    session_->openRecord(record);
}

bool MainWindow::saveRecord(const QString& path, QString* error) const
{
    if (!lastRecord()) {
        if (error)
            *error = QStringLiteral("no run to save yet");
        return false;
    }
    try {
        gigacheck::saveRecord(*lastRecord(), path.toStdString());
        return true;
    } catch (const std::exception& e) {
        if (error)
            *error = QString::fromStdString(e.what());
        return false;
    }
}

bool MainWindow::openCampaign(const QString& path, QString* error)
{
    if (!campaign_->openFile(path, error))
        return false;
    showView(View::Campaign);
    return true;
}

void MainWindow::showView(View view)
{
    tabs_->setCurrentIndex(int(view));
}

MainWindow::View MainWindow::currentView() const
{
    return View(tabs_->currentIndex());
}

bool MainWindow::exportView(View view, const QString& path, QString* error) const
{
    const bool csv = QFileInfo(path).suffix().compare(QLatin1String("csv"), Qt::CaseInsensitive) == 0;
    switch (view) {
    case View::Heatmap:
        return csv ? heatmap_->exportCsv(path, error) : exportPlot(heatmap_->plot(), path, error);
    case View::Timeline:
        return csv ? timeline_->exportCsv(path, error) : exportPlot(timeline_->plot(), path, error);
    case View::Roofline:
        return csv ? roofline_->exportCsv(path, error) : exportPlot(roofline_->plot(), path, error);
    case View::Campaign:
        return csv ? campaign_->exportCsv(path, error) : exportPlot(campaign_->plot(), path, error);
    case View::Gallery:
        if (!csv)
            return exportPlot(gallery_->plot(), path, error);
        if (error)
            *error = QStringLiteral("the kernel gallery exports its plot (PNG, PDF, SVG), not CSV");
        return false;
    case View::Report:
        break;
    }
    if (error)
        *error = QStringLiteral("the report has no plot; save the record instead");
    return false;
}

void MainWindow::openRecordDialog()
{
    const QString path = QFileDialog::getOpenFileName(this, QStringLiteral("Open run record"), QString(),
                                                      QStringLiteral("Run records (*.json);;All files (*)"));
    if (path.isEmpty())
        return;
    openRecordReporting(path);
}

void MainWindow::saveRecordDialog()
{
    const QString path = QFileDialog::getSaveFileName(this, QStringLiteral("Save run record"), QStringLiteral("run.json"),
                                                      QStringLiteral("Run records (*.json)"));
    if (path.isEmpty())
        return;
    QString error;
    if (!saveRecord(path, &error))
        reportError(QStringLiteral("Cannot save %1: %2").arg(path, error));
    else
        addRecent(path);
}

void MainWindow::exportDialog(bool data)
{
    const View view = currentView();
    const QString filter = data ? QStringLiteral("CSV (*.csv)")
                                : QStringLiteral("PNG image (*.png);;PDF (*.pdf);;SVG (*.svg)");
    const QString path = QFileDialog::getSaveFileName(this, data ? QStringLiteral("Export data") : QStringLiteral("Export plot"),
                                                      data ? QStringLiteral("plot.csv") : QStringLiteral("plot.png"), filter);
    if (path.isEmpty())
        return;
    QString error;
    if (!exportView(view, path, &error))
        reportError(QStringLiteral("Export failed: %1").arg(error));
    else
        statusBar()->showMessage(QStringLiteral("Wrote %1").arg(path), 5000);
}

void MainWindow::addRecent(const QString& path)
{
    QSettings settings;
    QStringList recent = settings.value(QStringLiteral("recentFiles")).toStringList();
    const QString absolute = QFileInfo(path).absoluteFilePath();
    recent.removeAll(absolute);
    recent.prepend(absolute);
    while (recent.size() > kMaxRecent)
        recent.removeLast();
    settings.setValue(QStringLiteral("recentFiles"), recent);
    rebuildRecentMenu();
}

void MainWindow::rebuildRecentMenu()
{
    recentMenu_->clear();
    const QStringList recent = QSettings().value(QStringLiteral("recentFiles")).toStringList();
    for (const QString& path : recent) {
        recentMenu_->addAction(QFileInfo(path).fileName() + QStringLiteral("  (") + path + QLatin1Char(')'), this,
                               [this, path] { openRecordReporting(path); });
    }
    recentMenu_->setEnabled(!recent.isEmpty());
}

void MainWindow::saveSettings() const
{
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/state"), saveState());
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
    restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray());
    restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
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
    saveSettings();
    session_->cancel();
    QMainWindow::closeEvent(event);
}

}  // namespace gigacheck::ui
