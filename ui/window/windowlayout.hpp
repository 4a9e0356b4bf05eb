// Where the panels dock and how large they are, so that a lecturer never has to find a dock
// splitter: every input of every panel is visible without sideways scrolling on any screen from
// 1366×768 up, the first launch fills the screen sensibly, and a layout saved on a larger screen
// is adapted to a smaller one.
#pragma once

#include <QByteArray>
#include <QList>
#include <QRect>
#include <QSize>

class QDockWidget;
class QMainWindow;
class QWidget;

namespace gigacheck::ui {

// A dock holding a panel; scroll = the panel scrolls vertically (never sideways: the dock is at
// least as wide as the panel needs, see updateDockMinimums).
QDockWidget* makePanelDock(QMainWindow* window, const QString& title, const QString& name, QWidget* content, bool scroll);

// Each panel dock at least as wide as its panel's widest row, at the current font; call again
// after a font change (presentation mode, zoom). Where the screen is too narrow for both sides and
// the views (a scale factor, presentation mode on a small screen), the docks shrink in proportion
// and their panels scroll sideways, so that the window stays on the screen.
void updateDockMinimums(QMainWindow* window);

// First launch on a screen with this available area: the window fills it (up to 1920×1080) and
// the docks get the width their panels need, the views the rest.
void applyFirstLaunchLayout(QMainWindow* window, const QRect& available);

// Restores a saved geometry and dock state, then adapts them to the screen the window is on now:
// saved on a screen whose available area (savedAvailable, saved beside the layout) differs from
// this one, the window is sized as on a first launch here, the docks stay where they were (no
// wider than the panels need when room is short). The frame always ends inside `available`.
// False when nothing was saved.
bool restoreWindowLayout(QMainWindow* window, const QByteArray& geometry, const QByteArray& state, const QSize& savedAvailable,
                         const QRect& available);

// The area the window was laid out for (applyFirstLaunchLayout, restoreWindowLayout), else its
// screen's available geometry: what updateDockMinimums fits the docks into.
QRect availableArea(const QMainWindow* window);

// Not maximised: the window, frame included, made no larger than `available` and moved inside it.
void fitIntoScreen(QMainWindow* window, const QRect& available);

// After the window size changed: docks wider than their share give the views room again.
void balanceDocks(QMainWindow* window);

}  // namespace gigacheck::ui
