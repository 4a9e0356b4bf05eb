// File dialogs that never block the event loop (a run, its live drawing and the tests go on while
// one is open) and that remember the folder last used, per kind of file.
#pragma once

#include <QString>

#include <functional>

class QWidget;

namespace gigacheck::ui {

// The folder remembered for a kind of file ("records", "exports", "matrices"); the user's
// documents folder the first time.
QString rememberedFolder(const QString& kind);
void rememberFolder(const QString& kind, const QString& chosenPath);

// Asks for a path to write (save = true) or read; `done` gets it (never called when the user
// cancels). The dialog's object name is `name`, so tests can find and answer it.
void askPath(QWidget* parent, const QString& name, const QString& title, const QString& kind,
             const QString& defaultName, const QString& filter, bool save, std::function<void(const QString&)> done);

}  // namespace gigacheck::ui
