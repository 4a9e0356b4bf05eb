#include "views/strassen/strassenblockswidget.hpp"

#include <QMouseEvent>
#include <QPainter>

#include <algorithm>

namespace gigacheck::ui::strassenlab {

namespace {

bool contains(const std::vector<BlockCell>& cells, const BlockCell& c)
{
    return std::find(cells.begin(), cells.end(), c) != cells.end();
}

}  // namespace

StrassenBlocksWidget::StrassenBlocksWidget(QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("strassenBlocks"));
    setMouseTracking(false);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
    setToolTip(QStringLiteral("Click a block of A, B or C to place a fault in its quadrant"));
}

QColor StrassenBlocksWidget::readColor() { return QColor(0x3b, 0x82, 0xf6); }
QColor StrassenBlocksWidget::overwriteColor() { return QColor(0xf5, 0x9e, 0x0b); }
QColor StrassenBlocksWidget::plusColor() { return QColor(0x16, 0xa3, 0x4a); }
QColor StrassenBlocksWidget::minusColor() { return QColor(0xc0, 0x26, 0xd3); }

void StrassenBlocksWidget::setGrid(int grid)
{
    grid_ = grid == 4 ? 4 : 2;
    update();
}

void StrassenBlocksWidget::setStep(const StepView* step)
{
    step_ = step ? std::optional<StepView>(*step) : std::nullopt;
    update();
}

void StrassenBlocksWidget::setFaultQuadrants(const std::vector<BlockCell>& quadrants)
{
    faults_ = quadrants;
    update();
}

QSize StrassenBlocksWidget::minimumSizeHint() const
{
    const int h = fontMetrics().height();
    return {h * 15, h * 6};
}

QSize StrassenBlocksWidget::sizeHint() const
{
    const int h = fontMetrics().height();
    return {h * 40, h * 10};
}

// Three squares A · B → C, as large as the widget allows, with room for their titles above.
double StrassenBlocksWidget::side() const
{
    const double title = fontMetrics().height() * 1.6;
    const double gap = fontMetrics().height() * 2.5;
    return std::max(10.0, std::min((width() - 2 * gap - 8) / 3.0, height() - title - 8));
}

QRectF StrassenBlocksWidget::matrixRect(MatrixId operand) const
{
    const double s = side();
    const double gap = fontMetrics().height() * 2.5;
    const double total = 3 * s + 2 * gap;
    const double left = (width() - total) / 2 + int(operand) * (s + gap);
    const double top = fontMetrics().height() * 1.6 + std::max(0.0, (height() - fontMetrics().height() * 1.6 - s) / 2);
    return {left, top, s, s};
}

QRectF StrassenBlocksWidget::cellRect(const BlockCell& cell) const
{
    const QRectF m = matrixRect(cell.operand);
    const double c = m.width() / grid_;
    return {m.left() + cell.col * c, m.top() + cell.row * c, c, c};
}

std::optional<BlockCell> StrassenBlocksWidget::cellAt(const QPointF& point) const
{
    for (MatrixId o : {MatrixId::A, MatrixId::B, MatrixId::C}) {
        const QRectF m = matrixRect(o);
        if (!m.contains(point))
            continue;
        const double c = m.width() / grid_;
        const int col = std::clamp(int((point.x() - m.left()) / c), 0, grid_ - 1);
        const int row = std::clamp(int((point.y() - m.top()) / c), 0, grid_ - 1);
        return BlockCell{o, row, col};
    }
    return std::nullopt;
}

void StrassenBlocksWidget::mousePressEvent(QMouseEvent* event)
{
    if (event->button() == Qt::LeftButton)
        if (const auto cell = cellAt(event->position()))
            emit blockClicked(*cell);
}

void StrassenBlocksWidget::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const QPalette pal = palette();
    const QColor text = pal.color(QPalette::WindowText);
    const double s = side();
    const double cellSide = s / grid_;

    QFont titleFont = font();
    titleFont.setBold(true);
    titleFont.setPointSizeF(font().pointSizeF() * 1.2);
    // Block names as large as the cell allows (readable from the back of a room), never larger
    // than twice the widget's font.
    QFont nameFont = font();
    nameFont.setBold(true);
    nameFont.setPixelSize(std::max(8, int(std::min(cellSide * (grid_ == 2 ? 0.3 : 0.28), fontMetrics().height() * 2.0))));

    // A · B → C between the squares.
    p.setPen(text);
    p.setFont(titleFont);
    const QRectF ra = matrixRect(MatrixId::A), rb = matrixRect(MatrixId::B), rc = matrixRect(MatrixId::C);
    p.drawText(QRectF(ra.right(), ra.top(), rb.left() - ra.right(), ra.height()), Qt::AlignCenter, QStringLiteral("×"));
    p.drawText(QRectF(rb.right(), rb.top(), rc.left() - rb.right(), rb.height()), Qt::AlignCenter, QStringLiteral("→"));

    const char* const titles[] = {"A", "B", "C"};
    for (MatrixId o : {MatrixId::A, MatrixId::B, MatrixId::C}) {
        const QRectF m = matrixRect(o);
        p.setFont(titleFont);
        p.setPen(text);
        p.drawText(QRectF(m.left(), m.top() - fontMetrics().height() * 1.6, m.width(), fontMetrics().height() * 1.5),
                   Qt::AlignHCenter | Qt::AlignBottom, QLatin1String(titles[int(o)]));
        for (int r = 0; r < grid_; ++r)
            for (int c = 0; c < grid_; ++c) {
                const BlockCell cell{o, r, c};
                const QRectF rect = cellRect(cell);
                QColor fill = pal.color(QPalette::Base);
                QString mark;
                if (step_) {
                    if (contains(step_->overwrites, cell))
                        fill = overwriteColor();
                    else if (contains(step_->reads, cell))
                        fill = readColor();
                    for (const SignedCell& a : step_->accumulates)
                        if (a.cell == cell) {
                            fill = a.sign > 0 ? plusColor() : minusColor();
                            mark = a.sign > 0 ? QStringLiteral("+=") : QStringLiteral("−=");
                        }
                }
                p.setPen(QPen(pal.color(QPalette::Mid), 1));
                p.setBrush(fill);
                p.drawRect(rect);
                const bool lit = fill != pal.color(QPalette::Base);
                p.setPen(lit ? QColor(Qt::white) : text);
                p.setFont(nameFont);
                const QString name = blockName(cell, grid_);
                p.drawText(rect, Qt::AlignCenter, mark.isEmpty() ? name : name + QLatin1Char('\n') + mark);
            }
        // Quadrant borders heavier than the sub-block lines.
        p.setBrush(Qt::NoBrush);
        p.setPen(QPen(text, 2));
        p.drawRect(m);
        if (grid_ == 4) {
            p.drawLine(QPointF(m.center().x(), m.top()), QPointF(m.center().x(), m.bottom()));
            p.drawLine(QPointF(m.left(), m.center().y()), QPointF(m.right(), m.center().y()));
        }
    }
    // Faults: a red frame around the quadrant and a lightning mark in its corner.
    const double quadrant = s / 2;
    for (const BlockCell& f : faults_) {
        const QRectF m = matrixRect(f.operand);
        const QRectF q(m.left() + f.col * quadrant, m.top() + f.row * quadrant, quadrant, quadrant);
        p.setPen(QPen(QColor(0xdc, 0x26, 0x26), std::max(3.0, cellSide * 0.04)));
        p.setBrush(Qt::NoBrush);
        p.drawRect(q.adjusted(2, 2, -2, -2));
        QFont mark = nameFont;
        mark.setPixelSize(std::max(8, int(nameFont.pixelSize() * 0.8)));
        p.setFont(mark);
        p.setPen(QColor(0xdc, 0x26, 0x26));
        p.drawText(q.adjusted(6, 4, -6, -4), Qt::AlignTop | Qt::AlignRight, QStringLiteral("⚡"));
    }
}

}  // namespace gigacheck::ui::strassenlab
