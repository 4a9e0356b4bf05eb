// A small run started from the main window's panels, shared by the lab's end-to-end ui tests.
#pragma once

#include <session/labsession.hpp>
#include <window/mainwindow.hpp>

#include <gigacheck/blocked_gemm/record.hpp>

#include <QDebug>
#include <QSignalSpy>

namespace gigacheck::ui::test {

// 96 x 80 x 64 on the CPU: a fraction of a second, enough blocks and steps for every view.
inline RunConfig smallCpuRun()
{
    RunConfig c;
    c.shape = Shape{96, 80, 64};
    c.backend = BackendKind::Cpu;
    c.seed = 5;
    return c;
}

// Starts the run the window's panels describe and waits for the session's record (false, with
// the reason on the log, when it failed or did not end in two minutes).
inline bool runAndWaitForRecord(MainWindow& window)
{
    QSignalSpy done(window.session(), &LabSession::recordChanged);
    QSignalSpy failed(window.session(), &LabSession::runFailed);
    window.startRun();
    for (int i = 0; i < 600 && done.isEmpty() && failed.isEmpty(); ++i)
        done.wait(200);
    if (!failed.isEmpty())
        qWarning() << "run failed:" << failed.front().front().toString();
    return !done.isEmpty();
}

}  // namespace gigacheck::ui::test
