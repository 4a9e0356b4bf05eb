#include "mainwindow.hpp"

#include "views/animationpanel.hpp"
#include "engine/enginecontroller.hpp"
#include "panels/faultspanel.hpp"
#include "views/heatmapview.hpp"
#include "export/plotexport.hpp"
#include "models/rooflinemodel.hpp"
#include "views/rooflineview.hpp"
#include "panels/runpanel.hpp"
#include "panels/setuppanel.hpp"
#include "panels/strategypanel.hpp"
#include "views/timelineview.hpp"

#include <gigacheck/bench.hpp>
#include <gigacheck/version.hpp>

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenuBar>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QScrollArea>
#include <QSettings>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QTimer>

namespace gigacheck::ui {

namespace {

constexpr int kMaxRecent = 8;
constexpr std::size_t kMaxHistory = 6;
constexpr std::uint64_t kPreviewCapWhenZero = 1ull << 30;  // RunConfig: 0 means the device (CPU: 1 GiB)

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

    engine_ = new EngineController(this);
    heatmap_ = new HeatmapView(this);
    animation_ = new AnimationPanel(this);
    timeline_ = new TimelineView(this);
    roofline_ = new RooflineView(this);
    report_ = new QPlainTextEdit(this);
    report_->setReadOnly(true);
    QFont mono(QStringLiteral("monospace"));
    mono.setStyleHint(QFont::Monospace);
    report_->setFont(mono);

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

    connect(engine_, &EngineController::spansArrived, this, [this](const QVector<Span>& spans) {
        liveSpans_ += std::size_t(spans.size());
        timeline_->addSpans(spans);
    });
    connect(engine_, &EngineController::injectArrived, this, [this](const QVector<InjectEvent>& events) {
        for (const InjectEvent& e : events) {
            liveInjections_.push_back(e);
            run_->log(QStringLiteral("inject %1 at block (%2,%3,%4) local (%5,%6): %7 → %8")
                          .arg(qs(toString(e.injection.target)))
                          .arg(e.injection.block.i).arg(e.injection.block.j).arg(e.injection.block.k)
                          .arg(e.injection.localRow).arg(e.injection.localCol)
                          .arg(e.injection.before, 0, 'g', 6).arg(e.injection.after, 0, 'g', 6));
        }
        animation_->setEvents(liveInjections_, liveVerifications_);
        heatmap_->setEvents(liveInjections_, liveVerifications_);  // sparse layers update live
    });
    connect(engine_, &EngineController::verifyArrived, this, [this](const QVector<VerifyEvent>& events) {
        bool interesting = false;
        for (const VerifyEvent& e : events) {
            liveVerifications_.push_back(e);
            if (e.result.verdict != Verdict::Clean) {
                interesting = true;
                run_->log(QStringLiteral("verify block (%1,%2): %3, %4 row / %5 col mismatches, %6 correction(s)")
                              .arg(e.block.i).arg(e.block.j).arg(qs(toString(e.result.verdict)))
                              .arg(e.result.mismatchRows.size()).arg(e.result.mismatchCols.size())
                              .arg(e.result.corrections.size()));
            }
        }
        if (interesting || !liveInjections_.empty())
            animation_->setEvents(liveInjections_, liveVerifications_);
    });
    connect(engine_, &EngineController::resultTilesArrived, heatmap_, &HeatmapView::addResultTiles);
    connect(engine_, &EngineController::progressChanged, run_, &RunPanel::setProgress);
    connect(engine_, &EngineController::runFinished, this, &MainWindow::onFinished);
    connect(engine_, &EngineController::runFailed, this, &MainWindow::onFailed);

    restoreSettings();
    updatePlan();
    setup_->setDeviceText(cudaCompiledIn() ? QStringLiteral("device: chosen when a run starts (CUDA backend built in)")
                                           : QStringLiteral("device: the CPU (this build has no CUDA backend)"));
    // Name the devices once the window is up (probing CUDA can take a moment).
    QTimer::singleShot(0, this, [this] {
        try {
            std::string why;
            QStringList names;
            const std::vector<DeviceInfo> devices = listDevices(&why);
            for (const DeviceInfo& d : devices)
                names << (d.backend == BackendKind::Cuda ? QStringLiteral("cuda %1: %2").arg(d.index).arg(QString::fromStdString(d.name))
                                                         : QStringLiteral("%1: %2").arg(qs(toString(d.backend)), QString::fromStdString(d.name)));
            if (!why.empty())
                names << QStringLiteral("(no CUDA: %1)").arg(QString::fromStdString(why));
            setup_->setDevices(devices, QString::fromStdString(why));
            if (!record_)  // an opened record shows its own device there
                setup_->setDeviceText(QStringLiteral("devices:\n") + names.join(QLatin1Char('\n')));
        } catch (const std::exception& e) {
            if (!record_)
                setup_->setDeviceText(QStringLiteral("devices: %1").arg(QString::fromStdString(e.what())));
        }
    });
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
    file->addAction(QStringLiteral("&Compare with record…"), this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, QStringLiteral("Compare with run record"), QString(),
                                                          QStringLiteral("Run records (*.json);;All files (*)"));
        QString error;
        if (!path.isEmpty() && !compareWithRecord(path, &error))
            reportError(QStringLiteral("Cannot open %1: %2").arg(path, error));
    });
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
        const Plan plan = makePlan(c.shape, c.precision, c.strategy, c.memCapBytes ? c.memCapBytes : kPreviewCapWhenZero,
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
    liveInjections_.clear();
    liveVerifications_.clear();
    liveSpans_ = 0;
    const bool compare = run_->compareWithPrevious() && timeline_->model().runCount() > 0;
    RunRecord label;
    label.config = c;
    timeline_->beginRun(qs(toString(c.strategy)), compare);
    if (heatmap_->rows() != c.shape.m || heatmap_->cols() != c.shape.q)
        heatmap_->setShape(c.shape.m, c.shape.q);
    heatmap_->beginLiveResult();
    animation_->setEvents({}, {});
    run_->setRunning(true);
    run_->log(QStringLiteral("start %1, cap %2, %3 explicit + %4 random fault(s)")
                  .arg(runLabel(label), QString::fromStdString(formatBytes(double(c.memCapBytes))))
                  .arg(c.faults.at.size())
                  .arg(c.faults.count));
    engine_->start(c);
    statusBar()->showMessage(QStringLiteral("Running %1 …").arg(runLabel(label)));
    showView(View::Timeline);
}

void MainWindow::cancelRun()
{
    if (!engine_->isRunning())
        return;
    run_->log(QStringLiteral("cancel requested"));
    engine_->cancel();
}

void MainWindow::onFinished(const RunRecord& record, const HostMatrix& c)
{
    run_->setRunning(false);
    if (record.status == "ok")
        run_->setProgress(1.0, 0.0);
    record_ = record;
    timeline_->setRunSpans(record.spans);
    if (c.rows() != heatmap_->rows() || c.cols() != heatmap_->cols())
        heatmap_->setShape(record.config.shape.m, record.config.shape.q);
    heatmap_->setPlan(record.plan);
    heatmap_->setMatrix(c);
    heatmap_->setEvents(record.injections, record.verifications);
    animation_->setEvents(record.injections, record.verifications);
    history_.push_back(record);
    if (history_.size() > kMaxHistory)
        history_.erase(history_.begin());
    roofline_->setRuns(history_);
    report_->setPlainText(QString::fromStdString(formatReport(record)));
    setup_->setDeviceText(QStringLiteral("device: %1\n%2").arg(QString::fromStdString(record.device.name),
                                                                QString::fromStdString(record.device.whyChosen)));
    const FaultReport& f = record.faults;
    run_->log(QStringLiteral("%1 in %2 s (execute %3 s), %4 GFLOP/s, %5 spans; faults: %6 injected, %7 detected, "
                             "%8 corrected, %9 uncorrectable")
                  .arg(QString::fromStdString(record.status))
                  .arg(record.metrics.totalSeconds, 0, 'f', 3)
                  .arg(record.metrics.executeSeconds, 0, 'f', 3)
                  .arg(record.metrics.gflops, 0, 'f', 2)
                  .arg(record.spans.size())
                  .arg(f.injected)
                  .arg(f.detected)
                  .arg(f.corrected)
                  .arg(f.uncorrectable));
    statusBar()->showMessage(QStringLiteral("Run %1: %2").arg(QString::fromStdString(record.status),
                                                             record.verifiedCorrect() ? QStringLiteral("verified correct")
                                                                                      : QStringLiteral("NOT verified correct")));
    emit runFinished(record);
}

void MainWindow::onFailed(const QString& message)
{
    run_->setRunning(false);
    reportError(QStringLiteral("Run failed: %1").arg(message));
    emit runFailed(message);
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

bool MainWindow::openRecord(const QString& path, QString* error)
{
    try {
        const RunRecord record = loadRecord(path.toStdString());
        showRecord(record);
        addRecent(path);
        setWindowTitle(QStringLiteral("Gigacheck Lab — %1").arg(QFileInfo(path).fileName()));
        return true;
    } catch (const std::exception& e) {
        if (error)
            *error = QString::fromStdString(e.what());
        return false;
    }
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
    try {
        baseline = loadRecord(path.toStdString());
    } catch (const std::exception& e) {
        if (error)
            *error = QString::fromStdString(e.what());
        return false;
    }
    // Baseline lanes first, then the current run (if any) on the same time axis.
    timeline_->beginRun(qs(toString(baseline.config.strategy)) + QStringLiteral(" (file)"), false);
    timeline_->setRunSpans(baseline.spans);
    if (record_) {
        timeline_->beginRun(qs(toString(record_->config.strategy)), true);
        timeline_->setRunSpans(record_->spans);
    }
    history_.insert(history_.begin(), baseline);
    if (history_.size() > kMaxHistory)
        history_.pop_back();
    roofline_->setRuns(history_);
    run_->log(QStringLiteral("comparing with %1 (%2)").arg(QFileInfo(path).fileName(), runLabel(baseline)));
    showView(View::Timeline);
    return true;
}

void MainWindow::showRecord(const RunRecord& record)
{
    setConfig(record.config);
    record_ = record;
    timeline_->beginRun(qs(toString(record.config.strategy)), false);
    timeline_->setRunSpans(record.spans);
    heatmap_->setPlan(record.plan);
    heatmap_->setEvents(record.injections, record.verifications);
    // A record holds no matrix: show where the faults and residuals were.
    heatmap_->setLayer(record.injections.empty() ? HeatmapView::Layer::Residuals : HeatmapView::Layer::InjectedError);
    animation_->setEvents(record.injections, record.verifications);
    history_ = {record};
    roofline_->setRuns(history_);
    report_->setPlainText(QString::fromStdString(formatReport(record)));
    setup_->setDeviceText(QStringLiteral("recorded on: %1").arg(QString::fromStdString(record.device.name)));
    run_->log(QStringLiteral("opened record: %1, %2 spans, %3 verification(s)")
                  .arg(runLabel(record))
                  .arg(record.spans.size())
                  .arg(record.verifications.size()));
}

bool MainWindow::saveRecord(const QString& path, QString* error) const
{
    if (!record_) {
        if (error)
            *error = QStringLiteral("no run to save yet");
        return false;
    }
    try {
        gigacheck::saveRecord(*record_, path.toStdString());
        return true;
    } catch (const std::exception& e) {
        if (error)
            *error = QString::fromStdString(e.what());
        return false;
    }
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
    engine_->cancel();
    QMainWindow::closeEvent(event);
}

}  // namespace gigacheck::ui
