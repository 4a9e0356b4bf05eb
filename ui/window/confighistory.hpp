// Edit › Undo / Redo for what the panels describe: placed faults, the configuration (shape, cap,
// strategy, scheme, fault settings), Strassen's set-up and faults, Clear, and what opening a record or re-running a campaign's
// run replaced. Each step is a pair of snapshots (before, after) on a QUndoStack; a burst of
// changes within one event-loop pass (setConfig touches every panel) is one step.
#pragma once

#include <QObject>
#include <QString>

#include <functional>
#include <optional>

class QTimer;
class QUndoStack;

namespace gigacheck::ui {

// Everything a step restores, as plain data that compares.
struct LabSetup {
    QString config;       // the RunConfig without its placed faults (the record's JSON)
    QString faults;       // the RunConfig with them: what the step restores
    QString scheme;       // the scheme box's and the online fault box's settings, as text
    int placedFaults = 0;
    QString strassen;        // the Strassen view's set-up controls (StrassenView::controlsState)
    int strassenFaults = 0;  // the faults placed there
    bool operator==(const LabSetup&) const = default;
};

class ConfigHistory : public QObject {
    Q_OBJECT
public:
    // capture: the panels now (nullopt while a field is being typed and invalid); restore: put a
    // snapshot back into the panels.
    ConfigHistory(QObject* parent, std::function<std::optional<LabSetup>()> capture, std::function<void(const LabSetup&)> restore);

    QUndoStack* stack() const { return stack_; }
    // Something changed: at the end of this event-loop pass the panels are compared with the last
    // snapshot and a step is pushed when they differ. what: the step's name; empty: named by what
    // differs (fault placement, Clear, configuration).
    void noteChange(const QString& what = {});
    // Compares now instead of at the end of the pass (before a run starts, in tests).
    void flush();
    // Takes the panels as they are as the starting point, with no step (after start-up).
    void resetBaseline();

private:
    void pushStep(const LabSetup& before, const LabSetup& after, const QString& what);

    std::function<std::optional<LabSetup>()> capture_;
    std::function<void(const LabSetup&)> restore_;
    QUndoStack* stack_ = nullptr;
    QTimer* pending_ = nullptr;
    QString pendingWhat_;
    LabSetup last_;
    bool restoring_ = false;
    friend class SetupStep;
};

}  // namespace gigacheck::ui
