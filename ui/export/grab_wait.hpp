// Waiting in the headless exporters (screenshots, walk-through): for the window to settle before
// a grab, and for a signal of a view. Both spin the event loop, so they are for those exporters
// only, never for the lab's own code paths.
#pragma once

#include <QEventLoop>
#include <QObject>
#include <QTimer>

#include <functional>

namespace gigacheck::ui {

class MainWindow;

// Lets queued replots and layouts happen, a large heatmap finish its reduction and the auto
// planner its preview (10 s at most), before a grab.
void settle(MainWindow& window);

// Starts the run of the checked-GEMM docks with the window's configuration, as Start would, and
// waits for it to finish; false, with *error set, when it fails or outlasts timeoutSeconds.
// midRun, when given, is called once while the run is past half-way with blocks of C already on
// the heatmap.
bool startRunAndWait(MainWindow& window, int timeoutSeconds, QString* error, const std::function<void()>& midRun = {});

// Waits for `signal` of `sender`, or the timeout; false on timeout.
template <class Sender, class Signal> bool waitFor(Sender* sender, Signal signal, int timeoutSeconds)
{
    QEventLoop loop;
    bool fired = false;
    auto c = QObject::connect(sender, signal, &loop, [&] {
        fired = true;
        loop.quit();
    });
    QTimer::singleShot(timeoutSeconds * 1000, &loop, &QEventLoop::quit);
    loop.exec();
    QObject::disconnect(c);
    return fired;
}

}  // namespace gigacheck::ui
