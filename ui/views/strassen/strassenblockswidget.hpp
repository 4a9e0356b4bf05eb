// A, B and C drawn as 2x2 (or, zoomed, 4x4) sub-blocks with the seed's names; one step of the
// recipe lights up what it reads, what it overwrites in place and which C blocks it accumulates
// into (with the sign). Placed faults are marked; a click on a block asks for a fault there.
#pragma once

#include "views/strassen/strassensteps.hpp"

#include <QWidget>

#include <optional>

namespace gigacheck::ui::strassenlab {

class StrassenBlocksWidget : public QWidget {
    Q_OBJECT
public:
    explicit StrassenBlocksWidget(QWidget* parent = nullptr);

    void setGrid(int grid);  // 2 or 4
    int grid() const { return grid_; }
    void setStep(const StepView* step);  // null: nothing lit
    // Quadrants (0..3) of A, B, C holding a placed fault.
    void setFaultQuadrants(const std::vector<BlockCell>& quadrants);
    // The block under a point (hit test, kept apart from painting).
    std::optional<BlockCell> cellAt(const QPointF& point) const;
    // Where a block is drawn (tests click its centre).
    QRectF cellRect(const BlockCell& cell) const;

    QSize minimumSizeHint() const override;
    QSize sizeHint() const override;

    // The colours of the legend (the view writes it in words).
    static QColor readColor();
    static QColor overwriteColor();
    static QColor plusColor();
    static QColor minusColor();

signals:
    void blockClicked(const gigacheck::ui::strassenlab::BlockCell& cell);

protected:
    void paintEvent(QPaintEvent*) override;
    void mousePressEvent(QMouseEvent*) override;

private:
    QRectF matrixRect(MatrixId operand) const;
    double side() const;

    int grid_ = 2;
    std::optional<StepView> step_;
    std::vector<BlockCell> faults_;
};

}  // namespace gigacheck::ui::strassenlab
