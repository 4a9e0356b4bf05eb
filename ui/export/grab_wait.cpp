#include "grab_wait.hpp"

#include "engine/enginecontroller.hpp"
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

bool startRunAndWait(MainWindow& window, int timeoutSeconds, QString* error, const std::function<void()>& midRun)
{
    QEventLoop loop;
    bool ok = false;
    auto c1 = QObject::connect(&window, &MainWindow::runFinished, &loop, [&] {
        ok = true;
        loop.quit();
    });
    auto c2 = QObject::connect(&window, &MainWindow::runFailed, &loop, [&](const QString& message) {
        *error = message;
        loop.quit();
    });
    bool midRunTaken = !midRun;
    auto c3 = QObject::connect(window.engine(), &EngineController::progressChanged, &loop, [&](double fraction, double) {
        if (midRunTaken || fraction < 0.5 || window.heatmap()->liveTileCount() == 0)
            return;
        midRunTaken = true;
        midRun();
    });
    QTimer::singleShot(timeoutSeconds * 1000, &loop, [&] {
        *error = QStringLiteral("run did not finish within %1 s").arg(timeoutSeconds);
        loop.quit();
    });
    window.showView(MainWindow::View::Timeline);  // Start runs the family shown: the checked GEMM's
    window.startRun();
    loop.exec();
    QObject::disconnect(c1);
    QObject::disconnect(c2);
    QObject::disconnect(c3);
    return ok;
}

}  // namespace gigacheck::ui
