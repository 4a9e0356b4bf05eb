// Closing the window while a run goes on: asks whether to keep the window (Cancel), save the run's
// partial record first (Save: the run is cancelled, its record saved, then the window closes) or
// discard it. The question is non-modal: the run and its live drawing go on while it is open.
#pragma once

#include <QObject>
#include <QPointer>

#include <functional>

class QMainWindow;
class QMessageBox;

namespace gigacheck {
struct RecordEnvelope;
}

namespace gigacheck::ui {

class LabSession;

class CloseGuard : public QObject {
    Q_OBJECT
public:
    // saveTo writes the session's current record to a path and says whether it could.
    CloseGuard(QMainWindow* window, LabSession* session, std::function<bool(const QString&)> saveTo);

    // True when the window may close now; otherwise the question is open (object name
    // "closeDuringRun") and the window closes, or not, on its answer.
    bool allowClose();
    // The file name Save offers, from the record as it is when asked: "partial-run-s1-…json" for a
    // stopped run, "run-s1-…json" for one that finished while the question was open.
    static QString suggestedName(const RecordEnvelope& record);

private:
    void answer(int button);
    void saveThenClose();
    void closeNow();

    QMainWindow* window_;
    LabSession* session_;
    std::function<bool(const QString&)> saveTo_;
    QPointer<QMessageBox> question_;
    bool closing_ = false;
};

}  // namespace gigacheck::ui
