#include "timelineplottable.hpp"

#include "plotstyle.hpp"
#include "models/timelinemapper.hpp"

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
        const auto& spans = model_->lane(lane).spans;
        auto [first, last] = model_->visibleRange(lane, tr.lower, tr.upper);
        // Merge neighbours of one kind that touch within half a pixel: at most ~width rects.
        bool open = false;
        OpKind kind = OpKind::Product;
        double x0 = 0, x1 = 0;
        auto flush = [&] {
            if (!open)
                return;
            painter->setBrush(kindColor(kind));
            painter->drawRect(QRectF(x0, top, std::max(x1 - x0, 1.0), height));
            ++rects;
        };
        for (std::size_t i = first; i < last; ++i) {
            const Span& s = spans[i];
            const double sx0 = std::max(tm.mapTimeToX(s.start), double(clip.left()) - 2);
            const double sx1 = std::min(std::max(tm.mapTimeToX(s.end), sx0 + 1.0), double(clip.right()) + 2);
            if (open && s.kind == kind && sx0 <= x1 + 0.5) {
                x1 = std::max(x1, sx1);
                continue;
            }
            // Entirely inside pixels already painted: invisible at this zoom, skip it.
            if (open && sx1 <= x1 + 0.5)
                continue;
            flush();
            open = true;
            kind = s.kind;
            x0 = sx0;
            x1 = sx1;
        }
        flush();
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
