// `gigacheck-lab --walkthrough DIR [--size WxH]`: one small run of every family, as a lecturer
// would show it — a fault placed, the result, the step view that explains it, and the family's plot
// exported as a slide would take it — each grabbed as walk-<family>-<what>.png. The user guides'
// "What the views show" pictures come from here (under Xvfb or offscreen, at 1366x768).
#pragma once

#include <gigacheck/types.hpp>

#include <QString>
#include <QStringList>

namespace gigacheck::ui {

class MainWindow;

struct WalkthroughOptions {
    QString directory;
    int width = 1366, height = 768;
    BackendKind backend = BackendKind::Cpu;  // small shapes: seconds on a laptop's CPU
    int timeoutSeconds = 300;                // per run or sweep
};

// The families in the order they are walked through, as named in the files.
QStringList walkthroughFamilies();

// Returns the files written (screens and exports); on failure an empty list with the reason.
QStringList takeWalkthrough(MainWindow& window, const WalkthroughOptions& options, QString* error);

}  // namespace gigacheck::ui
