// The heatmap of C: values, injected |error| or checksum residuals as layers, the plan's block
// grid on top, fault placement with the mouse (click adds, drag moves, right-click removes) and
// the animation's highlights. Huge matrices are drawn through a bounded HeatmapGrid that is
// rebuilt for the visible window after zooming or panning.
#pragma once

#include "models/animationmodel.hpp"
#include "models/heatmapgrid.hpp"

#include <gigacheck/faults.hpp>
#include <gigacheck/blocked_gemm/plan.hpp>

#include <QWidget>

#include <QSharedPointer>
#include <QVector>

#include <optional>

class QCustomPlot;
class QCPColorMap;
class QCPColorScale;
class QCPAxisTicker;
class QComboBox;
class QLabel;
class QMouseEvent;
class QTimer;

namespace gigacheck::ui {

class HeatmapOverlay;
class LabSession;

class HeatmapView : public QWidget {
    Q_OBJECT
public:
    enum class Layer { Values, InjectedError, Residuals };
    static constexpr int kMaxCells = 1024;
    static constexpr int kLiveCells = 512;  // per axis while C fills during a run

    explicit HeatmapView(QWidget* parent = nullptr);

    // Follows the session: C fills from the live tiles of a run, the finished run's C, plan and
    // events replace them; an opened record (no matrix) shows its faults or residuals.
    void subscribe(LabSession* session);

    // A new shape resets the view; the matrix and events are dropped, and so are the placed faults
    // outside it (only those: faultsDropped says how many).
    void setShape(std::int64_t rows, std::int64_t cols);
    std::int64_t rows() const { return rows_; }
    std::int64_t cols() const { return cols_; }
    void setPlan(const std::optional<Plan>& plan);
    // The preview cannot plan (no CUDA device for a record made on a GPU, a cap too small): the
    // grid of the record on show stays where it fits the shape, else there is none.
    void clearPreviewPlan();
    const std::optional<Plan>& gridPlan() const;  // the blocks the grid draws
    void setMatrix(const HostMatrix& c);
    // A run starts: the values of the last one go, and C fills block by block as addResultTiles
    // brings the blocks that are final (merged and redrawn a few times a second, not per batch).
    void beginLiveResult();
    void addResultTiles(const QVector<HeatmapGrid>& tiles);
    // Live tiles received since beginLiveResult (dropped when the full matrix arrives).
    int liveTileCount() const { return int(liveTiles_.size()); }
    bool hasMatrix() const { return !matrix_.empty(); }
    void setEvents(const std::vector<InjectEvent>& injections, const std::vector<VerifyEvent>& verifications);
    void setLayer(Layer layer);
    Layer layer() const { return layer_; }

    void setFaults(const std::vector<FaultAt>& faults);
    const std::vector<FaultAt>& faults() const { return faults_; }
    // Online / offline runs: the markers say "@ step k" (a fault's own step, else defaultStep);
    // nullopt: no step on them (blocked GEMM, TMR).
    void setFaultSteps(std::optional<int> defaultStep);
    // What fault i's marker says beside it (empty without a step).
    QString faultLabel(std::size_t i) const;
    // Highlights an animation step (nullptr clears) and brings its block into view.
    void setStep(const AnimationStep* step);

    QCustomPlot* plot() const { return plot_; }
    // The grid on the colour map. A hidden view (another tab) leaves it as it was until shown.
    const HeatmapGrid& grid() const { return grid_; }
    // True while a large grid is still being reduced off the GUI thread.
    bool gridPending() const { return gridPending_; }
    // Matrices with more elements in view than this are reduced on the thread pool.
    static constexpr std::int64_t kAsyncElements = 1 << 20;
    // Widget pixel (of the plot) at the centre of an element; for tests and tooltips.
    QPoint pixelOfCell(std::int64_t row, std::int64_t col) const;
    // Element under a plot pixel; false outside the matrix.
    bool cellAt(const QPointF& pixel, std::int64_t* row, std::int64_t* col) const;
    void resetZoom();
    // The grid cells of the current window: first row, first column, value.
    bool exportCsv(const QString& path, QString* error) const;

signals:
    void faultsChanged(const std::vector<gigacheck::FaultAt>& faults);
    // A new shape (or faults from a larger one) left `dropped` placed faults outside C; `kept` stay.
    void faultsDropped(int dropped, int kept);

protected:
    void changeEvent(QEvent* event) override;
    void showEvent(QShowEvent* event) override;
    void requestReplot();

private:
    void rebuildGrid();
    // Removes placed faults that lie outside C; how many it removed.
    std::size_t dropFaultsOutside();
    // Shows a grid on the colour map (and the colour scale for the layer).
    void applyGrid(HeatmapGrid grid);
    MatrixWindow visibleWindow() const;
    void updateStatus();
    void replotOverlay();
    void onPress(QMouseEvent* e);
    void onMove(QMouseEvent* e);
    void onRelease(QMouseEvent* e);

    QCustomPlot* plot_ = nullptr;
    QCPColorMap* map_ = nullptr;
    QCPColorScale* scale_ = nullptr;
    QSharedPointer<QCPAxisTicker> scaleTicker_;  // the scale's own ticks, while a layer has values
    HeatmapOverlay* overlay_ = nullptr;
    QComboBox* layerBox_ = nullptr;
    QLabel* status_ = nullptr;
    QTimer* refine_ = nullptr;

    std::int64_t rows_ = 0, cols_ = 0;
    std::optional<Plan> recordPlan_;  // the plan of the record on show (opened or just run)
    Layer layer_ = Layer::Values;
    HostMatrix matrix_;
    std::vector<HeatmapGrid> liveTiles_;
    // The tiles merged so far into a grid of the visible window (new tiles are added to it; a new
    // window starts it again), so that a redraw costs the new tiles, not all of them.
    HeatmapGrid liveGrid_;
    std::size_t liveMerged_ = 0;
    void resetLive();
    QTimer* liveRedraw_ = nullptr;
    std::vector<InjectEvent> injections_;
    std::vector<VerifyEvent> verifications_;
    std::vector<FaultAt> faults_;
    HeatmapGrid grid_;
    // Large reductions run on the thread pool; results of superseded requests are dropped.
    quint64 gridGeneration_ = 0;
    bool gridPending_ = false;
    bool replotPending_ = false;  // a replot asked for while hidden
    bool gridStale_ = false;  // grid_ shows an older state; rebuilt when the view is shown
    std::optional<HeatmapGrid> deferredGrid_;  // reduced while hidden; applied when shown

    int dragIndex_ = -1;
    QPointF pressPos_;
    bool pressed_ = false;
};

}  // namespace gigacheck::ui

