#include "timelineplottable.hpp"

#include "plotstyle.hpp"
#include "models/timelinemapper.hpp"
#include "models/timelinepixels.hpp"

namespace gigacheck::ui {

TimelinePlottable::TimelinePlottable(QCPAxis* keyAxis, QCPAxis* valueAxis, const TimelineModel* model)
    : QCPAbstractPlottable(keyAxis, valueAxis), model_(model)
{
}

QCPRange TimelinePlottable::getKeyRange(bool& foundRange, QCP::SignDomain) const
{
    foundRange = model_->spanCount() > 0;
    return QCPRange(0, std::max(model_->endTime(), 1e-6));
}

QCPRange TimelinePlottable::getValueRange(bool& foundRange, QCP::SignDomain, const QCPRange&) const
{
    foundRange = model_->laneCount() > 0;
    return QCPRange(-0.5, model_->laneCount() - 0.5);
}

void TimelinePlottable::draw(QCPPainter* painter)
{
    QCPAxis* kx = keyAxis();
    QCPAxis* vy = valueAxis();
    if (!kx || !vy)
        return;
    const QCPRange tr = kx->range();
    const double xa = kx->coordToPixel(tr.lower), xb = kx->coordToPixel(tr.upper);
    TimeMapper tm{tr.lower, tr.upper, xa, xb - xa};
    painter->setPen(Qt::NoPen);
    int rects = 0;
    const QRect clip = clipRect();
    for (int lane = 0; lane < model_->laneCount(); ++lane) {
        const double yTop = vy->coordToPixel(lane - LaneMapper::kHalfHeight);
        const double yBottom = vy->coordToPixel(lane + LaneMapper::kHalfHeight);
        const double top = std::min(yTop, yBottom), height = std::abs(yBottom - yTop);
        if (top > clip.bottom() || top + height < clip.top())
            continue;
        auto [first, last] = model_->visibleRange(lane, tr.lower, tr.upper);
        // Per pixel column the kind with the largest share of its time: short spans never hide long ones.
        for (const PixelRun& run : dominantKindRuns(model_->lane(lane).spans, first, last, tm, clip.left(), clip.right() + 1)) {
            painter->setBrush(kindColor(run.kind));
            painter->drawRect(QRectF(run.x0, top, run.x1 - run.x0, height));
            ++rects;
        }
    }
    // A line between the runs of a comparison.
    painter->setPen(QPen(mParentPlot->parentWidget() ? mParentPlot->parentWidget()->palette().color(QPalette::WindowText)
                                                     : QColor(Qt::black),
                         1, Qt::DashLine));
    for (int lane = 1; lane < model_->laneCount(); ++lane)
        if (model_->lane(lane).run != model_->lane(lane - 1).run) {
            const double y = vy->coordToPixel(lane - 0.5);
            painter->drawLine(QLineF(clip.left(), y, clip.right(), y));
        }
    lastRectCount_ = rects;
}

}  // namespace gigacheck::ui
