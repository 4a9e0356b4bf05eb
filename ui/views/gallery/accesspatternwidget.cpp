#include "views/gallery/accesspatternwidget.hpp"

#include <QPainter>

#include <algorithm>
#include <set>
#include <tuple>

namespace gigacheck::ui::gallery {

AccessPatternWidget::AccessPatternWidget(QWidget* parent) : QWidget(parent)
{
    setMinimumSize(360, 200);
}

void AccessPatternWidget::setPattern(const PatternInfo& info, const std::vector<AccessStep>* steps)
{
    info_ = info;
    steps_ = steps;
    step_ = -1;
    update();
}

void AccessPatternWidget::setStep(int index)
{
    step_ = index;
    update();
}

namespace {
QColor roleColour(Role r)
{
    switch (r) {
    case Role::Read: return QColor(52, 120, 246);
    case Role::Swap: return QColor(240, 140, 30);
    case Role::Write: return QColor(46, 170, 90);
    }
    return Qt::gray;
}
}  // namespace

void AccessPatternWidget::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing, false);
    p.fillRect(rect(), palette().base());
    const int grids = info_.matrix1.isEmpty() ? 1 : 2;
    const int labelHeight = fontMetrics().height() + 4;
    const int gap = 24;
    const int cell = std::max(4, std::min((width() - gap * (grids + 1)) / (grids * kSide), (height() - labelHeight - 12) / kSide));
    const int gridSide = cell * kSide;
    const int left0 = (width() - grids * gridSide - (grids - 1) * gap) / 2;
    const int top = labelHeight + 4;

    std::set<std::tuple<int, int, int>> earlier;
    if (steps_)
        for (int s = 0; s < step_ && s < int(steps_->size()); ++s)
            for (const Touch& t : (*steps_)[std::size_t(s)].touches)
                earlier.insert({t.matrix, t.row, t.col});

    for (int g = 0; g < grids; ++g) {
        const int left = left0 + g * (gridSide + gap);
        p.setPen(palette().color(QPalette::Text));
        p.drawText(QRect(left, 0, gridSide, labelHeight), Qt::AlignCenter, g == 0 ? info_.matrix0 : info_.matrix1);
        QColor faint = palette().color(QPalette::Text);
        faint.setAlpha(40);
        for (const auto& [m, r, c] : earlier)
            if (m == g)
                p.fillRect(left + c * cell, top + r * cell, cell, cell, faint);
        std::set<std::pair<int, int>> sectors;
        if (steps_ && step_ >= 0 && step_ < int(steps_->size()))
            for (const Touch& t : (*steps_)[std::size_t(step_)].touches)
                if (t.matrix == g) {
                    p.fillRect(left + t.col * cell + 1, top + t.row * cell + 1, cell - 1, cell - 1, roleColour(t.role));
                    sectors.insert({t.row, t.col / kSectorElements});
                }
        QColor line = palette().color(QPalette::Mid);
        for (int i = 0; i <= kSide; ++i) {
            const bool tileLine = i % kTile == 0;
            p.setPen(QPen(tileLine ? palette().color(QPalette::Text) : line, tileLine ? 2 : 1));
            p.drawLine(left + i * cell, top, left + i * cell, top + gridSide);
            p.drawLine(left, top + i * cell, left + gridSide, top + i * cell);
        }
        // The sectors this step costs, over the grid lines so that they stay visible.
        p.setPen(QPen(QColor(220, 40, 60), 3));
        for (const auto& [r, sc] : sectors)
            p.drawRect(left + sc * kSectorElements * cell, top + r * cell, kSectorElements * cell, cell);
    }
}

}  // namespace gigacheck::ui::gallery
