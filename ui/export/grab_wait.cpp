#include "grab_wait.hpp"

#include "models/autoplanner.hpp"
#include "views/heatmapview.hpp"
#include "window/mainwindow.hpp"

#include <QCoreApplication>
#include <QElapsedTimer>

namespace gigacheck::ui {

void settle(MainWindow& window)
{
    QElapsedTimer clock;
    clock.start();
    do {
        QEventLoop loop;
        QTimer::singleShot(30, &loop, &QEventLoop::quit);
        loop.exec();
    } while ((window.heatmap()->gridPending() || window.autoPlanner()->pending()) && clock.elapsed() < 10000);
    QCoreApplication::processEvents();
}

}  // namespace gigacheck::ui
