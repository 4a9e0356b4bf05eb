#include "displayscale.hpp"

#include "views/plotstyle.hpp"
#include "windowlayout.hpp"

#include <qcustomplot.h>

#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QMainWindow>
#include <QMenu>
#include <QSettings>
#include <QTimer>

#include <algorithm>
#include <utility>

namespace gigacheck::ui {

namespace {
const QString kZoomKey = QStringLiteral("view/zoomPercent");
const QString kPresentationKey = QStringLiteral("view/presentation");
}  // namespace

// The application's font before any scaling (a later window must not scale a scaled font).
QFont unscaledFont()
{
    static const QFont font = QApplication::font();
    return font;
}

DisplayScale::DisplayScale(QMainWindow* window) : QObject(window), window_(window), baseFont_(unscaledFont()) {}

void DisplayScale::addActions(QMenu* view)
{
    view->addSeparator();
    presentationAction_ = view->addAction(QStringLiteral("&Presentation mode"));
    presentationAction_->setObjectName(QStringLiteral("presentationMode"));
    presentationAction_->setCheckable(true);
    presentationAction_->setShortcut(QKeySequence(QStringLiteral("Ctrl+Shift+P")));
    connect(presentationAction_, &QAction::toggled, this, &DisplayScale::setPresentation);
    view->addAction(QStringLiteral("&Larger text"), QKeySequence::ZoomIn, this, [this] { setZoomPercent(zoom_ + 10); });
    view->addAction(QStringLiteral("&Smaller text"), QKeySequence::ZoomOut, this, [this] { setZoomPercent(zoom_ - 10); });
    view->addAction(QStringLiteral("&Normal text size"), QKeySequence(QStringLiteral("Ctrl+0")), this, [this] { setZoomPercent(100); });

    QSettings settings;
    zoom_ = std::clamp(settings.value(kZoomKey, 100).toInt(), kMinZoom, kMaxZoom);
    if (settings.value(kPresentationKey, false).toBool())
        presentationAction_->setChecked(true);  // applies
    else if (zoom_ != 100)
        apply();
}

double DisplayScale::factor() const
{
    return zoom_ / 100.0 * (presentation_ ? kPresentationFactor : 1.0);
}

void DisplayScale::setZoomPercent(int percent)
{
    percent = std::clamp(percent, kMinZoom, kMaxZoom);
    if (percent == zoom_)
        return;
    zoom_ = percent;
    QSettings().setValue(kZoomKey, zoom_);
    apply();
}

void DisplayScale::setPresentation(bool on)
{
    if (on == presentation_)
        return;
    presentation_ = on;
    QSettings().setValue(kPresentationKey, on);
    if (presentationAction_ && presentationAction_->isChecked() != on)
        presentationAction_->setChecked(on);
    if (on) {
        // Every panel as a tab of one dock at the left: at 1.5x they would not fit one above the
        // other, and one column of panels leaves the views the width their tabs and the heatmap
        // need on a 1366-pixel projector (two columns left them 600 px and scrolling tabs).
        normalState_ = window_->saveState();
        // The window's size only once it has one: presentation mode restored at start-up comes
        // before the window is laid out for its screen.
        normalGeometry_ = window_->isVisible() ? window_->saveGeometry() : QByteArray();
        QDockWidget* first = nullptr;
        for (QDockWidget* d : window_->findChildren<QDockWidget*>()) {
            if (d->isFloating() || d->isHidden())
                continue;
            if (!first) {
                first = d;
                if (window_->dockWidgetArea(d) != Qt::LeftDockWidgetArea)
                    window_->addDockWidget(Qt::LeftDockWidgetArea, d);
            } else {
                window_->tabifyDockWidget(first, d);
            }
        }
        // Start and Cancel stay in view: the run panel is the tab shown (also before the window
        // is, when presentation mode is restored at start-up).
        auto* run = window_->findChild<QDockWidget*>(QStringLiteral("dockRun"));
        if (run && !run->isHidden() && !run->isFloating())
            run->raise();
        else if (first)
            first->raise();
        apply();
        return;
    }
    const QByteArray state = std::exchange(normalState_, {});
    if (!state.isEmpty())
        window_->restoreState(state);
    apply(state);
}

void DisplayScale::apply(const QByteArray& restoreState)
{
    const double f = factor();
    QFont font = baseFont_;
    font.setPointSizeF(baseFont_.pointSizeF() * f);
    QApplication::setFont(font);
    setPlotScale(f);
    for (QCustomPlot* plot : window_->findChildren<QCustomPlot*>())
        applyPlotScale(plot, font);
    // The panels' new sizes are known once the font change has reached their layouts.
    const QByteArray geometry = restoreState.isEmpty() ? QByteArray() : std::exchange(normalGeometry_, {});
    QTimer::singleShot(0, window_, [window = window_, restoreState, geometry] {
        updateDockMinimums(window);
        if (!restoreState.isEmpty()) {
            // Back from presentation mode: exactly the layout it left (the dock widths too), once
            // the panels' minimums are the normal ones again (the font reaches them in posted events).
            QTimer::singleShot(0, window, [window, restoreState, geometry] {
                updateDockMinimums(window);
                if (!geometry.isEmpty() && !window->isMaximized() && !window->isFullScreen())
                    window->restoreGeometry(geometry);
                window->restoreState(restoreState);
            });
            return;
        }
        fitIntoScreen(window, availableArea(window));  // larger minimums must not push it off the screen
        balanceDocks(window);
    });
    emit changed(f);
}

}  // namespace gigacheck::ui
