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
        // Per pixel column the kind with the largest share of its time (short spans never hide long
        // ones), as opaque as the column is busy (a lane idle 98 % of the time never looks solid).
        for (const PixelRun& run : dominantKindRuns(model_->lane(lane).spans, first, last, tm, clip.left(), clip.right() + 1)) {
            QColor color = kindColor(run.kind);
            color.setAlphaF(float(busyOpacity(run.busy)));
            painter->setBrush(color);
            painter->drawRect(QRectF(run.x0, top, run.x1 - run.x0, height));
            ++rects;
        }
    }
    drawEnds(painter, tm, clip);
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

void TimelinePlottable::drawEnds(QCPPainter* painter, const TimeMapper& tm, const QRect& clip) const
{
    QCPAxis* vy = valueAxis();
    const QColor text = mParentPlot->parentWidget() ? mParentPlot->parentWidget()->palette().color(QPalette::WindowText)
                                                    : QColor(Qt::black);
    QColor shade = text;
    shade.setAlpha(40);
    for (int run = 0; run < model_->runCount(); ++run) {
        const RunEnds& e = model_->runEnds(run);
        if (!e.hasProduct)
            continue;
        int firstLane = -1, lastLane = -1;
        for (int lane = 0; lane < model_->laneCount(); ++lane)
            if (model_->lane(lane).run == run) {
                firstLane = firstLane < 0 ? lane : firstLane;
                lastLane = lane;
            }
        const double top = vy->coordToPixel(firstLane - 0.5), bottom = vy->coordToPixel(lastLane + 0.5);
        const struct {
            double t0, t1;
            const char* name;
        } ends[] = {{e.start, e.firstProduct, "fill"}, {e.lastProduct, e.end, "drain"}};
        for (const auto& end : ends) {
            const double x0 = std::max(tm.mapTimeToX(end.t0), double(clip.left()));
            const double x1 = std::min(tm.mapTimeToX(end.t1), double(clip.right() + 1));
            if (x1 - x0 < 1)
                continue;
            const QRectF band(x0, std::min(top, bottom), x1 - x0, std::abs(bottom - top));
            painter->setPen(QPen(text, 1, Qt::DotLine));
            painter->setBrush(shade);
            painter->drawRect(band);
            // "fill 13.2 ms" where it fits, else nothing: the tooltip of the spans still tells.
            const double ms = 1e3 * (end.t1 - end.t0);
            const QString label = QStringLiteral("%1 %2 ms").arg(QLatin1String(end.name)).arg(ms, 0, 'f', ms < 10 ? 2 : 1);
            if (painter->fontMetrics().horizontalAdvance(label) + 6 <= band.width()) {
                painter->setPen(text);
                painter->drawText(band.adjusted(3, 2, -3, -2), Qt::AlignLeft | Qt::AlignTop, label);
            }
        }
    }
}

}  // namespace gigacheck::ui
