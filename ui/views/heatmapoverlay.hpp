// What is drawn over the C heatmap on its own buffered layer: the plan's block grid, the fault
// markers and the animation step (mismatching rows/columns, located cells, old -> new values).
// Sizes are kept to a few pixels at any zoom so one element of a 16384^2 matrix stays visible.
// Every pass costs what the pixels can show, never what the plan or the fault list claims: grid
// lines only inside the view and at least kMinGridSpacing pixels apart, markers outside the view
// skipped and, when more than kMaxSeparateMarkers are in view, one per marker-sized square (or,
// when even those are too many, a 3 x 3 pixel dot per fault in one image).
#pragma once

#include "models/animationmodel.hpp"

#include <gigacheck/faults.hpp>
#include <gigacheck/blocked_gemm/plan.hpp>

#include <qcustomplot.h>

#include <optional>

namespace gigacheck::ui {

// The block boundaries worth a line along one axis: offsets b * blockSize (b = 1, 1 + stride, ...,
// below count and extent) inside [lo, hi] (matrix coordinates), with stride chosen so that lines
// are at least minSpacing pixels apart at pixelsPerUnit. Plain maths, tested without a screen;
// at most (hi - lo) * pixelsPerUnit / minSpacing + 2 offsets whatever count says.
std::vector<std::int64_t> gridLineOffsets(std::int64_t blockSize, std::int64_t count, std::int64_t extent, double lo,
                                          double hi, double pixelsPerUnit, double minSpacing);

// The same for unequal blocks (a plan's rowStarts / colStarts): the starts after the first inside
// [lo, hi], each at least minSpacing pixels after the previous line drawn (binary searches: as
// many steps as lines drawn, whatever the number of blocks).
std::vector<std::int64_t> gridLineOffsetsAt(const std::vector<std::int64_t>& starts, double lo, double hi,
                                            double pixelsPerUnit, double minSpacing);

class HeatmapOverlay : public QCPLayerable {
    Q_OBJECT
public:
    static constexpr double kMarkerRadius = 6;
    static constexpr double kMinGridSpacing = 4;       // pixels between two drawn block lines
    static constexpr std::size_t kMaxSeparateMarkers = 1000;  // beyond: one marker per square
    static constexpr std::size_t kMaxStepLabels = 24;         // "@ step k" labels while at most these are in view

    HeatmapOverlay(QCustomPlot* plot, QCPAxis* xAxis, QCPAxis* yAxis, const QString& layer);

    void setPlan(const std::optional<Plan>& plan) { plan_ = plan; }
    const std::optional<Plan>& plan() const { return plan_; }
    void setFaults(const std::vector<FaultAt>& faults) { faults_ = faults; }
    // Online / offline runs: each marker says the step its fault strikes after ("@ step k": its
    // own step, else defaultStep); nullopt (blocked GEMM, TMR): no label.
    void setFaultSteps(std::optional<int> defaultStep) { defaultStep_ = defaultStep; }
    // The label of fault i's marker (empty without one).
    QString faultLabel(std::size_t i) const;
    void setStep(const AnimationStep* step) { step_ = step ? std::optional<AnimationStep>(*step) : std::nullopt; }
    // The fault being dragged is drawn at this position instead (-1: none).
    void setDragPreview(int index, std::int64_t row, std::int64_t col);
    // Index of the fault marker within kMarkerRadius + 2 pixels of pos, or -1.
    int markerAt(const QPointF& pos) const;
    QPointF cellCenter(std::int64_t row, std::int64_t col) const;

protected:
    void applyDefaultAntialiasingHint(QCPPainter* painter) const override;
    void draw(QCPPainter* painter) override;
    QRect clipRect() const override;

private:
    void drawGrid(QCPPainter* painter) const;
    void drawStep(QCPPainter* painter) const;
    void drawFaults(QCPPainter* painter) const;
    void drawMarker(QCPPainter* painter, const QPointF& p, bool dragging) const;

    QCPAxis* x_;
    QCPAxis* y_;
    std::optional<Plan> plan_;
    std::vector<FaultAt> faults_;
    std::optional<int> defaultStep_;
    std::optional<AnimationStep> step_;
    int dragIndex_ = -1;
    std::int64_t dragRow_ = 0, dragCol_ = 0;
};

}  // namespace gigacheck::ui
