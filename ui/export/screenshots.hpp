// `gigacheck-lab --screenshots DIR`: runs a demo (or opens a record), walks through the main
// views and grabs each one offscreen with QWidget::grab(); the README's images come from here.
#pragma once

#include <gigacheck/blocked_gemm/record.hpp>

#include <QString>
#include <QStringList>

#include <functional>
#include <optional>

namespace gigacheck::ui {

class MainWindow;

struct ScreenshotOptions {
    QString directory;
    QString recordPath;                      // open this record instead of running
    RunConfig config;                        // the demo run
    std::optional<StrategyKind> compareWith; // run this strategy first and keep its lanes
    int width = 1600, height = 1000;
    bool presentation = false;  // View › Presentation mode on
    // Your own matrices: imported before the run (File › Import A / B); the shape and precision
    // follow the files and the demo faults outside the new C are dropped.
    QString loadA, loadB;
    // Only the main views after the run (timeline, heatmap, report): no animation, roofline,
    // Strassen or online shots (a quick look at one state, e.g. strategy auto).
    bool quick = false;
    int timeoutSeconds = 540;
};

// The demo of the "done when": 2048^2 FP32 (smaller than 4096^2 so the CPU is quick),
// three faults (two in one row of one block, one in another block), s2 under a 16 MiB cap.
// config.planByCostModel: strategy auto (the planner's preview is awaited before each grab).
RunConfig demoConfig();

// Returns the files written; on failure an empty list with the reason in *error.
QStringList takeScreenshots(MainWindow& window, const ScreenshotOptions& options, QString* error);

// Part of takeScreenshots: the online ABFT family, a run with one fault after step 2 and a check
// after every step, its step slider at the fault and at the check that catches it, and the fq
// sweep view after a small CPU sweep; grab(name) takes each picture. The Algorithm dock shows the
// online scheme while they are taken and blocked ABFT again afterwards.
bool takeOnlineScreenshots(MainWindow& window, const ScreenshotOptions& options,
                           const std::function<void(const QString&)>& grab, QString* error);

}  // namespace gigacheck::ui
