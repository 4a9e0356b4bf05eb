#include "windowlayout.hpp"

#include "dockpages.hpp"

#include <qcustomplot.h>

#include <QBoxLayout>
#include <QDockWidget>
#include <QFormLayout>
#include <QGridLayout>
#include <QHash>
#include <QMainWindow>
#include <QScreen>
#include <QScrollArea>
#include <QScrollBar>
#include <QTimer>

#include <algorithm>

namespace gigacheck::ui {

namespace {

constexpr int kMaxFirstWidth = 1920;
constexpr int kMaxFirstHeight = 1080;
constexpr double kDockShare = 0.24;  // of the window's width per side on a large screen
constexpr int kSeparatorsAndMargins = 24;  // the two dock separators and the window's margins
constexpr int kNarrowestDock = 120;        // a dock squeezed for a small screen keeps this much

QList<QDockWidget*> docksIn(QMainWindow* window, Qt::DockWidgetArea area)
{
    QList<QDockWidget*> docks;
    for (QDockWidget* d : window->findChildren<QDockWidget*>())
        if (!d->isFloating() && window->dockWidgetArea(d) == area && !d->isHidden())
            docks << d;
    return docks;
}

int widestMinimum(const QList<QDockWidget*>& docks)
{
    int width = 0;
    for (QDockWidget* d : docks)
        width = std::max(width, d->widget()->minimumWidth());
    return width;
}

// Gives each side's docks `width(side minimum)` pixels.
template <class Width> void sizeSides(QMainWindow* window, Width width)
{
    QList<QDockWidget*> docks;
    QList<int> widths;
    for (Qt::DockWidgetArea area : {Qt::LeftDockWidgetArea, Qt::RightDockWidgetArea}) {
        const QList<QDockWidget*> side = docksIn(window, area);
        if (side.isEmpty())
            continue;
        docks << side.first();
        widths << width(widestMinimum(side));
    }
    if (!docks.isEmpty())
        window->resizeDocks(docks, widths, Qt::Horizontal);
}

constexpr const char* kAvailableProperty = "gigacheckAvailableArea";

// The docks one above the other on each side share its height in proportion to what their panels
// need, so that a panel that needs a few pixels more than an even share does not scroll.
// The panel a dock's scroll area shows: with one page per family (dockpages.hpp, no margins of
// its own) the page on screen, measured as the panel itself would be.
QWidget* panelIn(QScrollArea* area)
{
    if (auto* pages = qobject_cast<DockPages*>(area->widget()))
        if (QWidget* shown = pages->shownPage())
            return shown;
    return area->widget();
}

void sizeHeights(QMainWindow* window)
{
    for (Qt::DockWidgetArea area : {Qt::LeftDockWidgetArea, Qt::RightDockWidgetArea}) {
        QList<QDockWidget*> stacked;
        QList<int> needs;
        for (QDockWidget* d : docksIn(window, area)) {
            auto* scroll = qobject_cast<QScrollArea*>(d->widget());
            if (!scroll || !window->tabifiedDockWidgets(d).isEmpty())
                continue;
            const int title = d->minimumSizeHint().height() - scroll->minimumSizeHint().height();
            // A panel with wrapped text needs its height for the width it has (QScrollArea asks the same).
            QWidget* panel = panelIn(scroll);
            const int width = scroll->viewport()->width();
            const int height = panel->hasHeightForWidth() && width > 0 ? std::max(panel->heightForWidth(width), panel->minimumSizeHint().height())
                                                                       : panel->minimumSizeHint().height();
            stacked << d;
            needs << title + height + 2 * scroll->frameWidth();
        }
        if (stacked.size() > 1)
            window->resizeDocks(stacked, needs, Qt::Vertical);
    }
}

}  // namespace

QRect availableArea(const QMainWindow* window)
{
    const QVariant laidOutFor = window->property(kAvailableProperty);
    if (laidOutFor.isValid())
        return laidOutFor.toRect();
    return window->screen() ? window->screen()->availableGeometry() : QRect();
}

namespace {

// Panels packed closer than the style's default spacing: two panels one above the other must fit
// a 768-pixel screen's side without scrolling (tests/ui/tst_screenfit.cpp).
void compactLayouts(QWidget* panel)
{
    constexpr int kRowSpacing = 3;
    for (QLayout* layout : panel->findChildren<QLayout*>()) {
        if (auto* form = qobject_cast<QFormLayout*>(layout))
            form->setVerticalSpacing(std::min(form->verticalSpacing() < 0 ? kRowSpacing : form->verticalSpacing(), kRowSpacing));
        else if (auto* grid = qobject_cast<QGridLayout*>(layout))
            grid->setVerticalSpacing(std::min(grid->verticalSpacing() < 0 ? kRowSpacing : grid->verticalSpacing(), kRowSpacing));
        else if (auto* box = qobject_cast<QBoxLayout*>(layout); box && box->direction() >= QBoxLayout::TopToBottom)
            box->setSpacing(std::min(box->spacing() < 0 ? kRowSpacing : box->spacing(), kRowSpacing));
    }
    std::vector<QWidget*> panels{panel};
    // A dock with one page per family (dockpages.hpp): each page is a panel of its own.
    if (auto* pages = qobject_cast<DockPages*>(panel))
        panels = pages->pages();
    for (QWidget* p : panels)
        if (QLayout* top = p->layout()) {
            const QMargins m = top->contentsMargins();
            top->setContentsMargins(std::min(m.left(), 6), std::min(m.top(), 4), std::min(m.right(), 6), std::min(m.bottom(), 4));
        }
}

}  // namespace

QDockWidget* makePanelDock(QMainWindow* window, const QString& title, const QString& name, QWidget* content, bool scroll)
{
    compactLayouts(content);
    auto* d = new QDockWidget(title, window);
    d->setObjectName(name);  // restoreState() needs stable names
    if (scroll) {
        auto* area = new QScrollArea(d);
        area->setWidget(content);
        area->setWidgetResizable(true);
        area->setFrameShape(QFrame::NoFrame);
        // Never sideways: the dock is as wide as the panel needs (updateDockMinimums).
        area->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
        d->setWidget(area);
    } else {
        d->setWidget(content);
    }
    return d;
}

void updateDockMinimums(QMainWindow* window)
{
    // Plots draw at any size: their layouts' minimum (wide legends, long tick labels) must not
    // take the docks' room on a small screen.
    if (QWidget* views = window->centralWidget())
        for (QCustomPlot* plot : views->findChildren<QCustomPlot*>())
            plot->setMinimumSize(240, 160);
    // What each dock's panel needs to be shown whole.
    QHash<QDockWidget*, int> needs;
    int sideNeed[2] = {0, 0};
    for (QDockWidget* d : window->findChildren<QDockWidget*>()) {
        int need = 0;
        if (auto* area = qobject_cast<QScrollArea*>(d->widget())) {
            area->widget()->adjustSize();  // the scroll area sizes it again; a page in it follows its layout
            QWidget* panel = panelIn(area);
            const int scrollBar = area->verticalScrollBar()->sizeHint().width();
            need = panel->minimumSizeHint().width() + scrollBar + 2 * area->frameWidth();
        } else {
            need = d->widget()->minimumSizeHint().width();
        }
        needs.insert(d, need);
        const Qt::DockWidgetArea area = window->dockWidgetArea(d);
        if (!d->isFloating() && (area == Qt::LeftDockWidgetArea || area == Qt::RightDockWidgetArea))
            sideNeed[area == Qt::LeftDockWidgetArea ? 0 : 1] = std::max(sideNeed[area == Qt::LeftDockWidgetArea ? 0 : 1], need);
    }
    // The window must fit the screen (QT_SCALE_FACTOR=1.5 leaves 910 pixels of a 1366 screen): when
    // both sides and the views' minimum do not, each side gets its share of what the views leave
    // and its panels scroll sideways instead of pushing the window off the screen.
    const int screenWidth = availableArea(window).width();
    const int views = window->centralWidget() ? window->centralWidget()->minimumSizeHint().width() : 0;
    const int room = screenWidth - views - kSeparatorsAndMargins;
    const int sides = sideNeed[0] + sideNeed[1];
    const double share = screenWidth > 0 && sides > room ? std::max(0.0, double(room)) / sides : 1.0;
    for (QDockWidget* d : window->findChildren<QDockWidget*>()) {
        const int need = needs.value(d);
        const int width = share < 1.0 ? std::min(need, std::max(kNarrowestDock, int(need * share))) : need;
        if (auto* area = qobject_cast<QScrollArea*>(d->widget())) {
            area->setMinimumWidth(width);
            area->setHorizontalScrollBarPolicy(width < need ? Qt::ScrollBarAsNeeded : Qt::ScrollBarAlwaysOff);
        } else {
            d->widget()->setMinimumWidth(width);
        }
    }
}

namespace {

// The window's size on first launch: the available area, up to 1920×1080, centred.
void sizeForScreen(QMainWindow* window, const QRect& available)
{
    const QSize size(std::min(available.width(), kMaxFirstWidth), std::min(available.height(), kMaxFirstHeight));
    window->resize(size);
    window->move(available.topLeft() + QPoint((available.width() - size.width()) / 2, (available.height() - size.height()) / 2));
}

}  // namespace

void applyFirstLaunchLayout(QMainWindow* window, const QRect& available)
{
    window->setProperty(kAvailableProperty, available);
    updateDockMinimums(window);
    sizeForScreen(window, available);
    const int share = int(window->width() * kDockShare);
    sizeSides(window, [share](int minimum) { return std::max(minimum, std::min(share, minimum * 3 / 2)); });
    sizeHeights(window);
    QTimer::singleShot(0, window, [window] { sizeHeights(window); });  // with the docks' real widths
}

void fitIntoScreen(QMainWindow* window, const QRect& available)
{
    if (window->isMaximized() || window->isFullScreen() || available.isEmpty())
        return;
    // The frame (title bar and borders, known once a window manager framed the window) counts too.
    const QSize frameExtra = window->frameGeometry().size() - window->size();
    const QSize largest = available.size() - frameExtra;
    if (window->width() > largest.width() || window->height() > largest.height())
        window->resize(window->size().boundedTo(largest));
    const QRect frame = window->frameGeometry();
    const QPoint topLeft(std::clamp(frame.x(), available.left(), std::max(available.left(), available.right() + 1 - frame.width())),
                         std::clamp(frame.y(), available.top(), std::max(available.top(), available.bottom() + 1 - frame.height())));
    if (topLeft != frame.topLeft())
        window->move(topLeft);
}

bool restoreWindowLayout(QMainWindow* window, const QByteArray& geometry, const QByteArray& state, const QSize& savedAvailable,
                         const QRect& available)
{
    if (geometry.isEmpty() || state.isEmpty())
        return false;
    window->setProperty(kAvailableProperty, available);
    window->restoreGeometry(geometry);
    window->restoreState(state);
    updateDockMinimums(window);
    if (savedAvailable != available.size()) {
        // Saved on another screen (or by a version that did not say which): Qt's restoreGeometry
        // squeezes a larger window to 2/3 of this screen, so size it as a first launch here would,
        // keeping where the docks are. A maximised window stays maximised.
        if (!window->isMaximized() && !window->isFullScreen())
            sizeForScreen(window, available);
    }
    // Even on the same screen Qt may shift the frame (by a guessed title bar): keep all of it on screen.
    fitIntoScreen(window, available);
    // Dock widths are known once the window is laid out at its new size; the frame once it is shown.
    QTimer::singleShot(0, window, [window, available] {
        fitIntoScreen(window, available);
        balanceDocks(window);
    });
    return true;
}

void balanceDocks(QMainWindow* window)
{
    int docksWidth = 0;
    for (Qt::DockWidgetArea area : {Qt::LeftDockWidgetArea, Qt::RightDockWidgetArea}) {
        int side = 0;
        for (QDockWidget* d : docksIn(window, area))
            side = std::max(side, d->width());
        docksWidth += side;
    }
    const int central = window->centralWidget() ? window->centralWidget()->minimumSizeHint().width() : 0;
    // Room is short when the views would get less than 40% of the window: docks shrink to what their panels need.
    if (docksWidth > window->width() - std::max(central, int(window->width() * 0.4)))
        sizeSides(window, [](int minimum) { return minimum; });
}

}  // namespace gigacheck::ui
