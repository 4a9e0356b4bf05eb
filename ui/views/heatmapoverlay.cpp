#include "heatmapoverlay.hpp"

namespace gigacheck::ui {

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
    // Skip lines when blocks are thinner than 4 pixels so the grid never turns into a wash.
    auto drawLines = [&](int count, auto offsetOf, QCPAxis* axis, bool vertical) {
        if (count <= 1)
            return;
        const double spacing = std::abs(axis->coordToPixel(double(offsetOf(1))) - axis->coordToPixel(0));
        const int every = spacing >= 4 ? 1 : int(std::ceil(4 / std::max(spacing, 1e-3)));
        for (int b = 1; b < count; b += every) {
            const double p = axis->coordToPixel(double(offsetOf(b)));
            if (vertical && p >= r.left() && p <= r.right())
                painter->drawLine(QLineF(p, r.top(), p, r.bottom()));
            if (!vertical && p >= r.top() && p <= r.bottom())
                painter->drawLine(QLineF(r.left(), p, r.right(), p));
        }
    };
    drawLines(plan_->splitQ, [this](int j) { return plan_->colOffset(j); }, x_, true);
    drawLines(plan_->splitM, [this](int i) { return plan_->rowOffset(i); }, y_, false);
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
    painter->setPen(QPen(QColor(0xff, 0xc1, 0x07), 2));
    painter->drawRect(QRectF(tl, br).normalized());

    // Mismatching rows and columns light up across the block (at least 3 px wide).
    QColor band(0xff, 0x45, 0x00, 110);
    painter->setPen(Qt::NoPen);
    painter->setBrush(band);
    for (std::int64_t row : s.mismatchRows) {
        double y0 = y_->coordToPixel(double(row)), y1 = y_->coordToPixel(double(row + 1));
        if (std::abs(y1 - y0) < 3) {
            const double c = (y0 + y1) / 2;
            y0 = c - 1.5;
            y1 = c + 1.5;
        }
        painter->drawRect(QRectF(QPointF(tl.x(), y0), QPointF(br.x(), y1)).normalized());
    }
    for (std::int64_t col : s.mismatchCols) {
        double x0 = x_->coordToPixel(double(col)), x1 = x_->coordToPixel(double(col + 1));
        if (std::abs(x1 - x0) < 3) {
            const double c = (x0 + x1) / 2;
            x0 = c - 1.5;
            x1 = c + 1.5;
        }
        painter->drawRect(QRectF(QPointF(x0, tl.y()), QPointF(x1, br.y())).normalized());
    }

    const bool showValues = s.stage == AnimationStage::Inject || s.stage == AnimationStage::Correct;
    QColor mark = s.stage == AnimationStage::Correct ? QColor(0x2e, 0xcc, 0x71)
                  : s.stage == AnimationStage::Uncorrectable || s.ambiguous ? QColor(0xe7, 0x4c, 0x3c)
                                                                             : QColor(0xff, 0xc1, 0x07);
    QFont font = painter->font();
    font.setPointSizeF(9);
    painter->setFont(font);
    for (const AnimationCell& c : s.cells) {
        const QPointF p = cellCenter(c.row, c.col);
        painter->setBrush(Qt::NoBrush);
        painter->setPen(QPen(mark, 2, s.ambiguous ? Qt::DashLine : Qt::SolidLine));
        painter->drawEllipse(p, 7, 7);
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
    for (std::size_t i = 0; i < faults_.size(); ++i) {
        const bool dragging = int(i) == dragIndex_;
        const QPointF p = dragging ? cellCenter(dragRow_, dragCol_) : cellCenter(faults_[i].row, faults_[i].col);
        painter->setBrush(QColor(255, 255, 255, 90));
        painter->setPen(QPen(QColor(0xd6, 0x00, 0x6b), dragging ? 3 : 2));
        painter->drawEllipse(p, kMarkerRadius, kMarkerRadius);
        painter->drawLine(p + QPointF(-3, -3), p + QPointF(3, 3));
        painter->drawLine(p + QPointF(-3, 3), p + QPointF(3, -3));
    }
}

}  // namespace gigacheck::ui
