// The lab's main window: the four docked panels (setup, faults, strategy, run) around the
// views (C heatmap with the error animation, timeline, roofline, report); files and settings.
// The views follow the LabSession themselves; the window turns the panels into a RunConfig,
// starts runs and opens files.
#pragma once

#include "engine/metatypes.hpp"
#include "session/labsession.hpp"

#include <QMainWindow>
#include <QPointer>

#include <functional>
#include <vector>

class QDockWidget;
class QDragEnterEvent;
class QDropEvent;

#include <optional>

class QMenu;
class QUndoStack;

namespace gigacheck {
struct StrassenConfig;
}

namespace gigacheck::ui {

class AnimationPanel;
class DockPages;
enum class LabFamily;
class CeilingsMeasurer;
class OnlineStepView;
class OnlineSweepView;
class CloseGuard;
class DisplayScale;
class FamilyViews;
class ConfigHistory;
struct LabSetup;
class RecentFiles;
namespace gallery {
class GalleryView;
}
namespace strassenlab {
class StrassenView;
}
class CampaignView;
class EngineController;
class FaultsPanel;
class HeatmapView;
class ReportView;
class RooflineView;
class RunPanel;
class SetupPanel;
class StrategyPanel;
class TimelineView;

class AutoPlanner;
struct AutoPlanResult;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    enum class View { Heatmap, Timeline, Roofline, Report, Campaign, Gallery, Strassen, OnlineSweep };

    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    // The configuration the panels describe; false with a reason when a field is invalid.
    bool currentConfig(RunConfig* config, QString* error) const;
    // The online ABFT run the panels describe; nullopt (no error) when the scheme is blocked ABFT.
    std::optional<OnlineConfig> currentOnlineConfig(QString* error) const;
    void setConfig(const RunConfig& config);

    bool openRecord(const QString& path, QString* error);
    // openRecord that also tells the user why a file cannot be opened (a message box, the status
    // bar and the log): File → Open, recent files and `gigacheck-lab record.json`. The window keeps
    // what it showed.
    bool openRecordReporting(const QString& path, QString* error = nullptr);
    // The run on screen (recordOnScreen) written to path in its family's format.
    bool saveRecord(const QString& path, QString* error) const;
    // That record written to path ("no run to save yet" when null).
    bool saveRecord(const RecordPtr& record, const QString& path, QString* error) const;
    // A campaign (gigacheck campaign --json) in the Campaign view; a click there re-runs one run here.
    bool openCampaign(const QString& path, QString* error);
    // Shows a saved run as the baseline lanes (and roofline points) beside the current run.
    bool compareWithRecord(const QString& path, QString* error);
    void showRecord(const RunRecord& record);
    // The record last finished or opened (null before the first).
    const RecordPtr& lastRecord() const { return session_->record(); }
    // What File › Save saves and the exports are named after: on the Strassen tab its run (or the
    // record it opened), elsewhere lastRecord(); null when there is none.
    RecordPtr recordOnScreen() const;

    // Your own matrices (mainwindow_matrices.cpp): File > Import A / B from NumPy .npy files; the
    // shape and precision fields follow the files, placed faults outside the new C are dropped
    // with a message, and every run uses them until the shape no longer fits or they are
    // forgotten. A bad file is refused with its reason and changes nothing.
    enum class Operand { A, B };
    // Importing an operand whose shape does not fit the other imported one is refused (both shapes
    // named) and keeps what was imported.
    bool importOperand(Operand which, const QString& path, QString* error);
    // File > Forget imported A and B (enabled only while some are imported): generated inputs
    // again, the shape and the placed faults kept; said in the status bar.
    void forgetOperands();
    // File > Export C / the residuals / the injected-error map as .npy (float64 maps of C's shape).
    enum class MatrixExport { C, Residuals, InjectedError };
    bool exportMatrix(MatrixExport what, const QString& path, QString* error) const;

    // Shows a view, switching the family selector to the view's family when it is another's.
    void showView(View view);
    View currentView() const;
    // The views: the family selector and the family's tabs.
    FamilyViews* views() const;
    // Exports the plot of a view (PNG/PDF/SVG by suffix) or its data (CSV).
    bool exportView(View view, const QString& path, QString* error) const;

    SetupPanel* setupPanel() const { return setup_; }
    FaultsPanel* faultsPanel() const { return faults_; }
    StrategyPanel* strategyPanel() const { return strategy_; }
    RunPanel* runPanel() const { return run_; }
    HeatmapView* heatmap() const { return heatmap_; }
    AnimationPanel* animation() const { return animation_; }
    TimelineView* timeline() const { return timeline_; }
    RooflineView* roofline() const { return roofline_; }
    CampaignView* campaignView() const { return campaign_; }
    strassenlab::StrassenView* strassenView() const { return strassen_; }
    gallery::GalleryView* galleryView() const { return gallery_; }
    ReportView* report() const { return report_; }
    OnlineStepView* onlineSteps() const { return onlineSteps_; }
    OnlineSweepView* onlineSweep() const { return onlineSweep_; }
    LabSession* session() const { return session_; }
    DisplayScale* displayScale() const { return display_; }
    EngineController* engine() const { return session_->engine(); }
    // Edit › Undo / Redo of the panels and the placed faults (mainwindow_edit.cpp).
    QUndoStack* undoStack() const;
    ConfigHistory* configHistory() const;
    // Opening a record (File › Open, recent files, a drop) or re-running a campaign's run over a
    // configuration with placed faults asks first; this answers instead of a dialog (tests).
    void setReplaceQuestion(std::function<bool(const QString&)> answer) { replaceQuestion_ = std::move(answer); }
    // Strategy auto's planner preview (a worker thread).
    AutoPlanner* autoPlanner() const { return autoPlanner_; }
    // "Measure this machine…" (worker thread; progress and Cancel in the Roofline view).
    CeilingsMeasurer* ceilingsMeasurer() const { return measurer_; }

public slots:
    void startRun();
    void cancelRun();
    // Run › Measure this machine… and the Roofline view's button: measures the ceilings of the
    // device Matrix setup picks, stores them where `gigacheck devices --measure` does and shows
    // them as the roofs; refused (with a message) during a run, whose work would skew them.
    void measureCeilings();

signals:
    // Every family's run: its record (blockedRecordOf / onlineRecordOf give the family's own).
    void runFinished(const gigacheck::ui::RecordPtr& record);
    void runFailed(const QString& message);

protected:
    void closeEvent(QCloseEvent* event) override;
    // A record or campaign file dropped on the window opens as File > Open opens it.
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    // mainwindow_run.cpp: what Start starts for the family and view shown, and the Run dock that
    // follows every run job.
    enum class RunTarget { CheckedGemm, Strassen, Gallery, FqSweep };
    RunTarget runTarget() const;
    void connectRunDock();
    void updateRunTarget();
    void buildViews();  // mainwindow_views.cpp
    void buildDocks();
    // The docks show the family's panels (window/dockpages.hpp); the scheme row above Start is
    // the checked GEMM's alone.
    void showPanelsFor(LabFamily family);
    void buildMenus();
    void buildEditMenu(QMenu* edit);
    std::optional<LabSetup> captureSetup() const;
    void restoreSetup(const LabSetup& setup);
    // True when there are no placed faults, or the user agrees to replace them (what: "Opening x").
    bool confirmReplacing(const QString& what, LabFamily family);
    // The measurer's signals into the Roofline view, the status bar and the run log.
    void connectMeasurer();
    void updatePlan();
    // A campaign view's click: that run, exactly, in the lab (mainwindow_replay.cpp).
    void rerunCampaignRun(const RunConfig& config, const QString& what);
    void rerunOnlineCampaignRun(const OnlineConfig& config, const QString& what);
    void rerunStrassenCampaignRun(const StrassenConfig& config, const QString& what);
    void onRecordChanged(const RecordPtr& record, LabSession::Origin origin);
    void reportError(const QString& message);
    void addRecent(const QString& path);
    void saveSettings() const;
    void restoreSettings();
    void openRecordDialog();
    void saveRecordDialog();
    void exportDialog(bool data);
    void addMatrixActions(QMenu* file);
    // After a shape edit: imported operands that no longer fit it are forgotten, with a message.
    void dropOperandsNotFitting(const Shape& shape);
    // File > Forget imported A and B is enabled while some are imported.
    void updateOperandActions();
    // Strategy auto: the planner's preview arrived.
    void onAutoPlanned(const AutoPlanResult& result);
    // Before a run: false with a reason when only one of A and B was imported.
    bool operandsReady(QString* why) const;
    // What a saved file is named after by default: strategy and shape of the run shown.
    QString defaultFileStem() const;

    LabSession* session_ = nullptr;
    SetupPanel* setup_ = nullptr;
    FaultsPanel* faults_ = nullptr;
    StrategyPanel* strategy_ = nullptr;
    RunPanel* run_ = nullptr;
    HeatmapView* heatmap_ = nullptr;
    AnimationPanel* animation_ = nullptr;
    TimelineView* timeline_ = nullptr;
    RooflineView* roofline_ = nullptr;
    CampaignView* campaign_ = nullptr;
    gallery::GalleryView* gallery_ = nullptr;
    strassenlab::StrassenView* strassen_ = nullptr;
    ReportView* report_ = nullptr;
    OnlineStepView* onlineSteps_ = nullptr;
    OnlineSweepView* onlineSweep_ = nullptr;
    FamilyViews* tabs_ = nullptr;
    RecentFiles* recent_ = nullptr;
    CloseGuard* closeGuard_ = nullptr;
    DisplayScale* display_ = nullptr;
    AutoPlanner* autoPlanner_ = nullptr;
    CeilingsMeasurer* measurer_ = nullptr;
    QAction* measureAction_ = nullptr;
    ConfigHistory* history_ = nullptr;
    std::function<bool(const QString&)> replaceQuestion_;
    QAction* forgetOperandsAction_ = nullptr;
    std::vector<DockPages*> dockPages_;  // Matrix setup, Faults, Algorithm
};

}  // namespace gigacheck::ui
