// What is drawn over the C heatmap on its own buffered layer: the plan's block grid, the fault
// markers and the animation step (mismatching rows/columns, located cells, old -> new values).
// Sizes are kept to a few pixels at any zoom so one element of a 16384^2 matrix stays visible.
#pragma once

#include "models/animationmodel.hpp"

#include <gigacheck/faults.hpp>
#include <gigacheck/plan.hpp>

#include <qcustomplot.h>

#include <optional>

namespace gigacheck::ui {

class HeatmapOverlay : public QCPLayerable {
    Q_OBJECT
public:
    static constexpr double kMarkerRadius = 6;

    HeatmapOverlay(QCustomPlot* plot, QCPAxis* xAxis, QCPAxis* yAxis, const QString& layer);

    void setPlan(const std::optional<Plan>& plan) { plan_ = plan; }
    void setFaults(const std::vector<FaultAt>& faults) { faults_ = faults; }
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

    QCPAxis* x_;
    QCPAxis* y_;
    std::optional<Plan> plan_;
    std::vector<FaultAt> faults_;
    std::optional<AnimationStep> step_;
    int dragIndex_ = -1;
    std::int64_t dragRow_ = 0, dragCol_ = 0;
};

}  // namespace gigacheck::ui
