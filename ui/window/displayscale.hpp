// Text size for the back of a room: a zoom of every font (View › Larger / Smaller / Normal text
// size, Ctrl++ / Ctrl+- / Ctrl+0) and a presentation mode (View › Presentation mode, Ctrl+Shift+P)
// that makes fonts, plot markers and lines 1.5× larger and stacks the panels of each side as tabs
// so that they still fit a 1366×768 projector. Both persist (QSettings "view/...").
#pragma once

#include <QByteArray>
#include <QFont>
#include <QObject>

class QAction;
class QMainWindow;
class QMenu;

namespace gigacheck::ui {

class DisplayScale : public QObject {
    Q_OBJECT
public:
    static constexpr double kPresentationFactor = 1.5;
    static constexpr int kMinZoom = 70;
    static constexpr int kMaxZoom = 250;

    explicit DisplayScale(QMainWindow* window);
    // Adds the actions to the View menu; restores the saved zoom and mode.
    void addActions(QMenu* view);

    bool presentation() const { return presentation_; }
    void setPresentation(bool on);
    int zoomPercent() const { return zoom_; }
    void setZoomPercent(int percent);
    // Font and plot scale now: zoom × (presentation ? 1.5 : 1).
    double factor() const;

signals:
    void changed(double factor);

private:
    // restoreState: the layout to put back once the new font sizes are laid out (leaving
    // presentation mode), instead of balancing the docks anew.
    void apply(const QByteArray& restoreState = {});

    QMainWindow* window_;
    QFont baseFont_;
    int zoom_ = 100;
    bool presentation_ = false;
    QByteArray normalState_;  // the dock layout to return to after presentation mode
    QByteArray normalGeometry_;  // and the window's size and place
    QAction* presentationAction_ = nullptr;
};

}  // namespace gigacheck::ui
