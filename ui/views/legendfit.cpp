#include "legendfit.hpp"

#include <qcustomplot.h>

#include <algorithm>

namespace gigacheck::ui {

int legendColumnsThatFit(const QCPLegend* legend, int width)
{
    int widest = 1;
    int items = 0;
    for (int i = 0; i < legend->itemCount(); ++i)
        if (const QCPAbstractLegendItem* item = legend->item(i)) {  // a wrapped grid has empty cells
            widest = std::max(widest, item->minimumOuterSizeHint().width());
            ++items;
        }
    const QMargins m = legend->margins();
    const int available = width - m.left() - m.right() - 2 * legend->columnSpacing();
    return std::clamp((available + legend->columnSpacing()) / (widest + legend->columnSpacing()), 1, std::max(1, items));
}

void keepLegendFitting(QCustomPlot* plot)
{
    QObject::connect(plot, &QCustomPlot::beforeReplot, plot, [plot] {
        QCPLegend* legend = plot->legend;
        if (!legend || !legend->visible() || legend->itemCount() == 0)
            return;
        const int columns = legendColumnsThatFit(legend, plot->viewport().width());  // an export's size while it draws
        if (columns == legend->wrap() && legend->fillOrder() == QCPLayoutGrid::foColumnsFirst)
            return;
        // The wrap first: setFillOrder rearranges the entries by it.
        legend->setWrap(columns);
        legend->setFillOrder(QCPLayoutGrid::foColumnsFirst, true);
    });
}

bool legendClipped(const QCustomPlot* plot)
{
    const QCPLegend* legend = plot->legend;
    if (!legend || !legend->visible())
        return false;
    const QRect viewport = plot->viewport();
    for (int i = 0; i < legend->itemCount(); ++i) {
        const QCPAbstractLegendItem* item = legend->item(i);
        if (!item || !item->visible())
            continue;
        const QRect r = item->outerRect();
        if (r.width() < item->minimumOuterSizeHint().width() || !viewport.contains(r))
            return true;
    }
    return false;
}

}  // namespace gigacheck::ui
