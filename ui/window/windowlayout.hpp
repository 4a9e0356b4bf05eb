// Where the panels dock and how large they are, so that a lecturer never has to find a dock
// splitter: every input of every panel is visible without sideways scrolling on any screen from
// 1366×768 up, the first launch fills the screen sensibly, and a layout saved on a larger screen
// is adapted to a smaller one.
#pragma once

#include <QByteArray>
#include <QList>
#include <QRect>

class QDockWidget;
class QMainWindow;
class QWidget;

namespace gigacheck::ui {

// A dock holding a panel; scroll = the panel scrolls vertically (never sideways: the dock is at
// least as wide as the panel needs, see updateDockMinimums).
QDockWidget* makePanelDock(QMainWindow* window, const QString& title, const QString& name, QWidget* content, bool scroll);

// Each panel dock at least as wide as its panel's widest row, at the current font; call again
// after a font change (presentation mode, zoom).
void updateDockMinimums(QMainWindow* window);

// First launch on a screen with this available area: the window fills it (up to 1920×1080) and
// the docks get the width their panels need, the views the rest.
void applyFirstLaunchLayout(QMainWindow* window, const QRect& available);

// Restores a saved geometry and dock state, then adapts them to the screen the window is on now
// (smaller window, dock widths no wider than the panels need when room is short). False when
// nothing was saved.
bool restoreWindowLayout(QMainWindow* window, const QByteArray& geometry, const QByteArray& state, const QRect& available);

// After the window size changed: docks wider than their share give the views room again.
void balanceDocks(QMainWindow* window);

}  // namespace gigacheck::ui
