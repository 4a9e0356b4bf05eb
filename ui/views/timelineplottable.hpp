// Draws the spans of a TimelineModel: only those in the visible time range, and spans narrower
// than a pixel merged with their neighbours of the same kind, so 100 000 spans stay smooth.
#pragma once

#include "models/timelinemapper.hpp"
#include "models/timelinemodel.hpp"

#include <qcustomplot.h>

namespace gigacheck::ui {

class TimelinePlottable : public QCPAbstractPlottable {
    Q_OBJECT
public:
    TimelinePlottable(QCPAxis* keyAxis, QCPAxis* valueAxis, const TimelineModel* model);

    double selectTest(const QPointF&, bool, QVariant* = nullptr) const override { return -1; }
    QCPRange getKeyRange(bool& foundRange, QCP::SignDomain = QCP::sdBoth) const override;
    QCPRange getValueRange(bool& foundRange, QCP::SignDomain = QCP::sdBoth,
                           const QCPRange& = QCPRange()) const override;
    // Rectangles painted in the last draw (after merging), for tests and tuning.
    int lastRectCount() const { return lastRectCount_; }

protected:
    void draw(QCPPainter* painter) override;
    void drawLegendIcon(QCPPainter*, const QRectF&) const override {}

private:
    // Each blocked GEMM run's fill and drain (no product running) as shaded, labelled bands.
    void drawEnds(QCPPainter* painter, const TimeMapper& tm, const QRect& clip) const;

    const TimelineModel* model_;
    int lastRectCount_ = 0;
};

}  // namespace gigacheck::ui
