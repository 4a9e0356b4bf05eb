// The Strassen tab: set up and run a memory-efficient Strassen product as a
// background run job (the Run dock's Start, Cancel and progress drive it); A, B and C as sub-blocks lit step by step through the recipe (step / play, paced
// by the run's measured times); faults placed by a click on a block or on a product of the step
// list; the verdict and recovery error; plots of the time per stage, the run's lanes, and a small
// sweep (speedup vs N of every variant against the plain GEMM, error of C and recovery error of
// A and B vs levels, on inputs of the chosen distribution). File › Open of a
// `gigacheck strassen --json` record lands here too.
#pragma once

#include "views/strassen/strassensteps.hpp"
#include "views/strassen/strassensweep.hpp"

#include "panels/seededit.hpp"

#include <gigacheck/strassen.hpp>

#include <QWidget>

#include <memory>
#include <optional>

class QCheckBox;
class QComboBox;
class QCustomPlot;
class QLabel;
class QLineEdit;
class QPushButton;
class QSlider;
class QSpinBox;
class QSplitter;
class QTabWidget;
class QTimer;
class QTreeWidget;
class QTreeWidgetItem;

namespace gigacheck::ui::strassenlab {

class StrassenBlocksWidget;

class StrassenView : public QWidget {
    Q_OBJECT
public:
    // The columns of the step list; a click in kFaultColumn on a product places a fault there.
    enum Column { kStepColumn = 0, kFormulaColumn, kTimeColumn, kFaultColumn };

    explicit StrassenView(QWidget* parent = nullptr);
    ~StrassenView() override;

    // The configuration the controls describe; false with a reason when a field is invalid.
    bool currentConfig(StrassenConfig* config, QString* error) const;
    void setConfig(const StrassenConfig& config);

    // The set-up panels, for the lab's docks: what is multiplied (Matrix setup), how (Algorithm)
    // and what strikes it (Faults). The row above the picture that held them goes; they stay this
    // view's controls wherever they are shown.
    struct Panels {
        QWidget* inputs = nullptr;
        QWidget* algorithm = nullptr;
        QWidget* faults = nullptr;
    };
    Panels dockPanels();

    // A `gigacheck strassen --json` record: its config in the controls, its result shown.
    bool openRecordFile(const QString& path, QString* error);

    bool running() const { return runJob_ != 0; }
    bool sweeping() const { return sweepJob_ != 0; }
    // The jobs' names in the Run dock.
    static QString runJobName() { return QStringLiteral("Strassen run"); }
    static QString sweepJobName() { return QStringLiteral("Strassen sweep"); }
    const StrassenResult* result() const { return result_ ? &*result_ : nullptr; }
    const std::vector<StepView>& steps() const { return steps_; }
    int currentStep() const { return step_; }
    QStringList faultSpecs() const;
    const std::vector<SweepPoint>& sweepPoints() const { return sweep_; }
    QString verdictText() const;
    // The line under the controls: what runs, waits in the queue, or went wrong.
    QString statusText() const;

    StrassenBlocksWidget* blocks() const { return blocks_; }
    QTreeWidget* stepList() const { return stepList_; }
    QTabWidget* plotTabs() const { return plotTabs_; }
    QCustomPlot* stagePlot() const { return stagePlot_; }
    QCustomPlot* lanesPlot() const { return lanesPlot_; }
    QCustomPlot* speedupPlot() const { return speedupPlot_; }
    QCustomPlot* errorPlot() const { return errorPlot_; }
    QCustomPlot* recoveryPlot() const { return recoveryPlot_; }
    // The plot on the visible plot tab (File › Export).
    QCustomPlot* currentPlot() const;

    // Runs exactly c (a campaign's run: its seed, fault model and faults), the controls set to it;
    // `what` names it in the status line ("Strassen campaign run 7: ...").
    void replayRun(const StrassenConfig& c, const QString& what);

public slots:
    // Runs what the controls say.
    void startRun();
    void cancelRun();
    void startSweep();
    void stopSweep();
    void goToStep(int index);
    void stepForward();
    void stepBack();
    void togglePlay();
    void setZoom(bool fourByFour);
    // node -1: the top level; k: inside the top level's product k (zoomed, runs of >= 2 levels).
    void setNode(int node);
    // Adds the fault, or removes it when it is already placed (a second click undoes the first).
    void toggleFault(const QString& spec);

    // The set-up controls as they stand (shape, levels, variant, type, backend, devices, leaves,
    // seed, reference, faults, ...), as text for Edit › Undo; restoreControls puts one back.
    QString controlsState() const;
    void restoreControls(const QString& state);

signals:
    // A set-up control changed (typed, picked, a fault placed on the picture, setConfig).
    void setupEdited();
    void runFinished();
    void runFailed(const QString& message);
    void sweepFinished();

protected:
    void changeEvent(QEvent* event) override;

private:
    // The run of c as a run job (queued behind the run going on); `replayed` names a replay.
    void run(const StrassenConfig& c, const QString& replayed);
    void buildControls();
    // The controls controlsState keeps, in its order.
    QList<QWidget*> setupControls() const;
    void noteSetupEdits();
    void applyLabelFonts();
    void rebuildSteps();
    void showStep();
    // With the Timeline plot shown, gives the plots the height the run's lanes need to be read
    // (a four-GPU run has 14 of them), taken from the step picture above.
    void fitLanes();
    void showResult();
    void replotAll();
    void onBlockClicked(const BlockCell& cell);
    void onStepItemClicked(QTreeWidgetItem* item, int column);
    void setRunning(bool running);
    void setStatus(const QString& text, bool error = false);
    int playInterval() const;

    // Controls.
    QLineEdit* shapeEdit_ = nullptr;
    QSpinBox* levelsBox_ = nullptr;
    QComboBox* variantBox_ = nullptr;
    QComboBox* typeBox_ = nullptr;
    QComboBox* backendBox_ = nullptr;
    QSpinBox* devicesBox_ = nullptr;
    QComboBox* decompositionBox_ = nullptr;
    QCheckBox* exactBox_ = nullptr;
    QCheckBox* besideBox_ = nullptr;
    QCheckBox* leavesBox_ = nullptr;
    QComboBox* leafBox_ = nullptr;  // cuBLAS or the multi-target kernel (CUDA only)
    QComboBox* distBox_ = nullptr;  // the inputs' distribution
    QLineEdit* faultsEdit_ = nullptr;
    QLineEdit* faultModelEdit_ = nullptr;  // --fault: delta, bitflip, bitflip:B, bitflip:B+B2
    SeedEdit* seedEdit_ = nullptr;         // the inputs' seed (--seed)
    QComboBox* referenceBox_ = nullptr;    // --reference auto | full | none
    QPushButton* sweepButton_ = nullptr;
    QSpinBox* sweepToBox_ = nullptr;
    QLabel* status_ = nullptr;

    // Stepper.
    QWidget* inputsPanel_ = nullptr;
    QWidget* algorithmPanel_ = nullptr;
    QWidget* faultPanel_ = nullptr;
    QWidget* panelRow_ = nullptr;
    StrassenBlocksWidget* blocks_ = nullptr;
    QTreeWidget* stepList_ = nullptr;
    QLabel* stepTitle_ = nullptr;
    QLabel* stepWords_ = nullptr;
    QPushButton* playButton_ = nullptr;
    QSlider* speed_ = nullptr;
    QCheckBox* pacedBox_ = nullptr;
    QCheckBox* zoomBox_ = nullptr;
    QComboBox* nodeBox_ = nullptr;
    QTimer* timer_ = nullptr;
    std::vector<StepView> steps_;
    int step_ = 0;
    int node_ = -1;

    // Results.
    QLabel* verdict_ = nullptr;
    QLabel* details_ = nullptr;
    QTabWidget* plotTabs_ = nullptr;
    QSplitter* split_ = nullptr;  // the step picture above, the plots below
    int laneCount_ = 0;           // lanes of the run on the Timeline plot
    bool twoD_ = false;           // the 2D decomposition is set up: no recipe steps
    QCustomPlot* stagePlot_ = nullptr;
    QCustomPlot* lanesPlot_ = nullptr;
    QCustomPlot* speedupPlot_ = nullptr;
    QCustomPlot* errorPlot_ = nullptr;
    QCustomPlot* recoveryPlot_ = nullptr;

    std::optional<StrassenResult> result_;
    std::shared_ptr<const Schedule> schedule_;  // rebuilt from the result's config (op ids of its spans)
    StepAttribution attribution_;               // of the level shown (node_), from schedule_
    std::vector<int> stageOfOp_;                // top-level stage per op id: the lanes' colours
    std::vector<SweepPoint> sweep_;

    quint64 runJob_ = 0, sweepJob_ = 0;  // BackgroundJobs' ids while they go on or wait
    QString whenStarted_;                 // the status line of a queued run or sweep at its start
};

}  // namespace gigacheck::ui::strassenlab
