#include "heatmapoverlay.hpp"

#include "plotstyle.hpp"

#include <algorithm>
#include <cmath>

namespace gigacheck::ui {

namespace {

// Remembers which marker-sized squares of the view already hold a mark, so that a crowd of
// markers (or highlighted cells) costs one drawing per square.
class SquareCover {
public:
    SquareCover(const QRectF& area, double side)
        : area_(area), side_(side), cols_(std::max(1, int(std::ceil(area.width() / side)))),
          rows_(std::max(1, int(std::ceil(area.height() / side)))), taken_(std::size_t(cols_) * std::size_t(rows_), false)
    {
    }
    // True the first time a point of a square comes; false for the others (and outside the area).
    bool claim(const QPointF& p)
    {
        const int cx = int((p.x() - area_.left()) / side_), cy = int((p.y() - area_.top()) / side_);
        if (cx < 0 || cy < 0 || cx >= cols_ || cy >= rows_)
            return false;
        auto&& slot = taken_[std::size_t(cy) * std::size_t(cols_) + std::size_t(cx)];
        if (slot)
            return false;
        slot = true;
        return true;
    }

private:
    QRectF area_;
    double side_;
    int cols_, rows_;
    std::vector<bool> taken_;
};

// More marks than fit side by side: a dot of 3 x 3 pixels each in one image of the view, drawn
// at once, so the cost is one pass over the marks and one over the pixels.
void drawDots(QCPPainter* painter, const QRect& view, const std::vector<QPointF>& points, const QColor& color)
{
    QImage dots(view.size(), QImage::Format_ARGB32_Premultiplied);
    dots.fill(Qt::transparent);
    const QRgb rgb = qPremultiply(color.rgba());
    const int w = dots.width(), h = dots.height();
    auto* pixels = reinterpret_cast<QRgb*>(dots.bits());  // one detach, then plain writes
    const qsizetype stride = dots.bytesPerLine() / qsizetype(sizeof(QRgb));
    for (const QPointF& p : points) {
        const int x = int(p.x()) - view.left(), y = int(p.y()) - view.top();
        for (int yy = std::max(y - 1, 0); yy <= std::min(y + 1, h - 1); ++yy)
            for (int xx = std::max(x - 1, 0); xx <= std::min(x + 1, w - 1); ++xx)
                pixels[yy * stride + xx] = rgb;
    }
    painter->drawImage(view.topLeft(), dots);
}

}  // namespace

std::vector<std::int64_t> gridLineOffsets(std::int64_t blockSize, std::int64_t count, std::int64_t extent, double lo,
                                          double hi, double pixelsPerUnit, double minSpacing)
{
    std::vector<std::int64_t> offsets;
    if (blockSize <= 0 || count <= 1 || extent <= 0 || !(pixelsPerUnit > 0) || !(hi > lo))
        return offsets;
    lo = std::max(lo, 0.0);
    hi = std::min(hi, double(extent));
    // Skip lines when blocks are thinner than minSpacing pixels so the grid never turns into a wash.
    const double spacing = double(blockSize) * pixelsPerUnit;
    const double wanted = spacing >= minSpacing ? 1.0 : std::ceil(minSpacing / spacing);
    const std::int64_t stride = wanted >= double(count) ? count : std::int64_t(wanted);
    // Lines b = 1 + t * stride; the first t whose offset reaches lo.
    const double firstB = std::ceil(lo / double(blockSize));
    std::int64_t t = firstB <= 1 ? 0 : std::int64_t(std::ceil((std::min(firstB, double(count)) - 1) / double(stride)));
    for (;; ++t) {
        const std::int64_t b = 1 + t * stride;
        if (b >= count || b > extent / blockSize)
            break;
        const std::int64_t offset = b * blockSize;
        if (double(offset) > hi || offset >= extent)
            break;
        offsets.push_back(offset);
    }
    return offsets;
}

std::vector<std::int64_t> gridLineOffsetsAt(const std::vector<std::int64_t>& starts, double lo, double hi,
                                            double pixelsPerUnit, double minSpacing)
{
    std::vector<std::int64_t> offsets;
    if (starts.size() < 2 || !(pixelsPerUnit > 0) || !(hi > lo))
        return offsets;
    const double gap = minSpacing / pixelsPerUnit;  // matrix units between two lines
    double from = std::max(lo, 1.0);
    for (;;) {
        const auto it = std::lower_bound(starts.begin() + 1, starts.end(), std::int64_t(std::ceil(from)));
        if (it == starts.end() || double(*it) > hi)
            break;
        offsets.push_back(*it);
        from = double(*it) + std::max(gap, 1.0);
    }
    return offsets;
}

HeatmapOverlay::HeatmapOverlay(QCustomPlot* plot, QCPAxis* xAxis, QCPAxis* yAxis, const QString& layer)
    : QCPLayerable(plot, layer), x_(xAxis), y_(yAxis)
{
}

void HeatmapOverlay::setDragPreview(int index, std::int64_t row, std::int64_t col)
{
    dragIndex_ = index;
    dragRow_ = row;
    dragCol_ = col;
}

QPointF HeatmapOverlay::cellCenter(std::int64_t row, std::int64_t col) const
{
    return {x_->coordToPixel(double(col) + 0.5), y_->coordToPixel(double(row) + 0.5)};
}

int HeatmapOverlay::markerAt(const QPointF& pos) const
{
    int best = -1;
    double bestDistance = kMarkerRadius + 2;
    for (std::size_t i = 0; i < faults_.size(); ++i) {
        const QPointF d = cellCenter(faults_[i].row, faults_[i].col) - pos;
        const double distance = std::hypot(d.x(), d.y());
        if (distance <= bestDistance) {
            best = int(i);
            bestDistance = distance;
        }
    }
    return best;
}

void HeatmapOverlay::applyDefaultAntialiasingHint(QCPPainter* painter) const
{
    applyAntialiasingHint(painter, true, QCP::aeItems);
}

QRect HeatmapOverlay::clipRect() const
{
    return x_->axisRect()->rect();
}

void HeatmapOverlay::draw(QCPPainter* painter)
{
    drawGrid(painter);
    drawStep(painter);
    drawFaults(painter);
}

void HeatmapOverlay::drawGrid(QCPPainter* painter) const
{
    if (!plan_)
        return;
    const QRect r = clipRect();
    QColor line = mParentPlot->parentWidget() ? mParentPlot->parentWidget()->palette().color(QPalette::WindowText)
                                              : mParentPlot->palette().color(QPalette::WindowText);
    line.setAlpha(150);
    painter->setPen(QPen(line, 1, Qt::DashLine));
    // Only the boundaries inside the view, at least kMinGridSpacing pixels apart: equal blocks (the
    // last taking the remainder) or the planner's unequal ones.
    auto drawLines = [&](const std::vector<std::int64_t>& starts, std::int64_t blockSize, int count, std::int64_t extent,
                         QCPAxis* axis, bool vertical) {
        const QCPRange range = axis->range();
        const double pixelsPerUnit = std::abs(axis->coordToPixel(1) - axis->coordToPixel(0));
        const std::vector<std::int64_t> offsets =
            starts.empty() ? gridLineOffsets(blockSize, count, extent, range.lower, range.upper, pixelsPerUnit, kMinGridSpacing)
                           : gridLineOffsetsAt(starts, range.lower, range.upper, pixelsPerUnit, kMinGridSpacing);
        for (const std::int64_t offset : offsets) {
            const double p = axis->coordToPixel(double(offset));
            if (vertical && p >= r.left() && p <= r.right())
                painter->drawLine(QLineF(p, r.top(), p, r.bottom()));
            if (!vertical && p >= r.top() && p <= r.bottom())
                painter->drawLine(QLineF(r.left(), p, r.right(), p));
        }
    };
    drawLines(plan_->colStarts, plan_->blockQ, plan_->splitQ, plan_->shape.q, x_, true);
    drawLines(plan_->rowStarts, plan_->blockM, plan_->splitM, plan_->shape.m, y_, false);
}

void HeatmapOverlay::drawStep(QCPPainter* painter) const
{
    if (!step_)
        return;
    const AnimationStep& s = *step_;
    // The block under study.
    const QPointF tl(x_->coordToPixel(double(s.colOffset)), y_->coordToPixel(double(s.rowOffset)));
    const QPointF br(x_->coordToPixel(double(s.colOffset + s.cols + 1)), y_->coordToPixel(double(s.rowOffset + s.rows + 1)));
    painter->setBrush(Qt::NoBrush);
    painter->setPen(QPen(QColor(0xff, 0xc1, 0x07), 2 * plotScale()));
    painter->drawRect(QRectF(tl, br).normalized());

    // Mismatching rows and columns light up across the block (at least 3 px wide).
    QColor band(0xff, 0x45, 0x00, 110);
    painter->setPen(Qt::NoPen);
    painter->setBrush(band);
    // Bands outside the view are skipped; more bands than pixels are merged into one per pixel.
    const QRect view = clipRect();
    auto drawBands = [&](const std::vector<std::int64_t>& lines, QCPAxis* axis, bool rows) {
        const int first = rows ? view.top() : view.left(), size = std::max(1, rows ? view.height() : view.width());
        std::vector<bool> covered(std::size_t(size) + 1, false);
        const bool merge = lines.size() > std::size_t(size);
        for (std::int64_t line : lines) {
            double a = axis->coordToPixel(double(line)), b = axis->coordToPixel(double(line + 1));
            if (std::abs(b - a) < 3) {
                const double c = (a + b) / 2;
                a = c - 1.5;
                b = c + 1.5;
            }
            if (std::max(a, b) < first || std::min(a, b) > first + size)
                continue;
            if (merge) {
                const int p = std::clamp(int((a + b) / 2) - first, 0, size);
                if (covered[std::size_t(p)])
                    continue;
                covered[std::size_t(p)] = true;
            }
            painter->drawRect(rows ? QRectF(QPointF(tl.x(), a), QPointF(br.x(), b)).normalized()
                                   : QRectF(QPointF(a, tl.y()), QPointF(b, br.y())).normalized());
        }
    };
    drawBands(s.mismatchRows, y_, true);
    drawBands(s.mismatchCols, x_, false);

    const bool showValues = s.stage == AnimationStage::Inject || s.stage == AnimationStage::Correct;
    QColor mark = s.stage == AnimationStage::Correct ? QColor(0x2e, 0xcc, 0x71)
                  : s.stage == AnimationStage::Uncorrectable || s.ambiguous ? QColor(0xe7, 0x4c, 0x3c)
                                                                             : QColor(0xff, 0xc1, 0x07);
    QFont font = painter->font();
    font.setPointSizeF(9 * plotScale());
    painter->setFont(font);
    // Cells outside the view are skipped; more than kMaxSeparateMarkers in view become dots.
    const QRectF area = QRectF(view).adjusted(-10, -10, 10, 10);
    std::vector<const AnimationCell*> visible;
    for (const AnimationCell& c : s.cells)
        if (area.contains(cellCenter(c.row, c.col)))
            visible.push_back(&c);
    if (visible.size() > kMaxSeparateMarkers) {
        std::vector<QPointF> points;
        for (const AnimationCell* c : visible)
            points.push_back(cellCenter(c->row, c->col));
        drawDots(painter, view, points, mark);
        return;
    }
    for (const AnimationCell* cell : visible) {
        const AnimationCell& c = *cell;
        const QPointF p = cellCenter(c.row, c.col);
        painter->setBrush(Qt::NoBrush);
        // A white halo under the ring: the cell stays visible inside it on red/blue noise.
        const double ring = 7 * plotScale();
        painter->setPen(QPen(QColor(255, 255, 255, 200), 5 * plotScale()));
        painter->drawEllipse(p, ring, ring);
        painter->setPen(QPen(mark, 2 * plotScale(), s.ambiguous ? Qt::DashLine : Qt::SolidLine));
        painter->drawEllipse(p, ring, ring);
        QString label;
        if (showValues)
            label = QStringLiteral("%1 → %2").arg(c.before, 0, 'g', 5).arg(c.after, 0, 'g', 5);
        else if (s.ambiguous)
            label = QStringLiteral("?");
        if (c.checksum)
            label += QStringLiteral(" (checksum)");
        if (!label.isEmpty()) {
            const QRectF text = painter->fontMetrics().boundingRect(label).adjusted(-3, -1, 3, 1);
            const QRectF box(p + QPointF(10, -text.height() - 2), text.size());
            painter->setPen(Qt::NoPen);
            painter->setBrush(QColor(0, 0, 0, 170));
            painter->drawRoundedRect(box, 3, 3);
            painter->setPen(Qt::white);
            painter->drawText(box, Qt::AlignCenter, label);
        }
    }
}

void HeatmapOverlay::drawFaults(QCPPainter* painter) const
{
    const QRect view = clipRect();
    const QRectF area = QRectF(view).adjusted(-kMarkerRadius - 3, -kMarkerRadius - 3, kMarkerRadius + 3, kMarkerRadius + 3);
    // Few markers in view: each drawn; a crowd: one marker per marker-sized square while those stay
    // few, else a dot per fault.
    std::vector<QPointF> visible;
    for (std::size_t i = 0; i < faults_.size(); ++i) {
        if (int(i) == dragIndex_)
            continue;  // drawn last, on top
        if (const QPointF p = cellCenter(faults_[i].row, faults_[i].col); area.contains(p))
            visible.push_back(p);
    }
    if (visible.size() <= kMaxSeparateMarkers) {
        for (const QPointF& p : visible)
            drawMarker(painter, p, false);
        // "@ step k" beside each marker while few are in view (a crowd would be unreadable).
        if (defaultStep_ && visible.size() <= kMaxStepLabels) {
            painter->setPen(QColor(0xd6, 0x00, 0x6b));
            for (std::size_t i = 0; i < faults_.size(); ++i)
                if (const QPointF p = cellCenter(faults_[i].row, faults_[i].col); area.contains(p)) {
                    const QString label = faultLabel(i);
                    const QRectF text = painter->fontMetrics().boundingRect(label).adjusted(-3, -1, 3, 1);
                    const QRectF box(p.x() + kMarkerRadius * plotScale() + 2, p.y() - text.height() / 2, text.width(), text.height());
                    painter->fillRect(box, QColor(255, 255, 255, 200));
                    painter->drawText(box, Qt::AlignCenter, label);
                }
        }
    } else {
        SquareCover squares(area, 2 * kMarkerRadius);
        std::vector<QPointF> representatives;
        for (const QPointF& p : visible)
            if (squares.claim(p))
                representatives.push_back(p);
        if (representatives.size() <= kMaxSeparateMarkers) {
            for (const QPointF& p : representatives)
                drawMarker(painter, p, false);
        } else {
            drawDots(painter, view, visible, QColor(0xd6, 0x00, 0x6b));
        }
    }
    if (dragIndex_ >= 0 && std::size_t(dragIndex_) < faults_.size())
        drawMarker(painter, cellCenter(dragRow_, dragCol_), true);
}

QString HeatmapOverlay::faultLabel(std::size_t i) const
{
    if (!defaultStep_ || i >= faults_.size())
        return {};
    return QStringLiteral("@ step %1").arg(faults_[i].step.value_or(*defaultStep_));
}

void HeatmapOverlay::drawMarker(QCPPainter* painter, const QPointF& p, bool dragging) const
{
    painter->setBrush(QColor(255, 255, 255, 90));
    painter->setPen(QPen(QColor(0xd6, 0x00, 0x6b), (dragging ? 3 : 2) * plotScale()));
    painter->drawEllipse(p, kMarkerRadius * plotScale(), kMarkerRadius * plotScale());
    painter->drawLine(p + QPointF(-3, -3), p + QPointF(3, 3));
    painter->drawLine(p + QPointF(-3, 3), p + QPointF(3, -3));
}

}  // namespace gigacheck::ui
