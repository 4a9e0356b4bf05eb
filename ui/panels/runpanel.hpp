// Run: start, cancel, compare with the previous run, progress with ETA, and a log.
#pragma once

#include <QWidget>

class QCheckBox;
class QLabel;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;

namespace gigacheck::ui {

class LabSession;

class RunPanel : public QWidget {
    Q_OBJECT
public:
    explicit RunPanel(QWidget* parent = nullptr);
    // Follows the session: running state, progress, and a log line per start, fault, non-clean
    // verification, end of run and opened record.
    void subscribe(LabSession* session);
    void setRunning(bool running);
    void setProgress(double fraction, double etaSeconds);
    void log(const QString& line);
    bool compareWithPrevious() const;
    void setCompareWithPrevious(bool on);
    QPushButton* startButton() const { return start_; }
    QPushButton* cancelButton() const { return cancel_; }
    QProgressBar* progressBar() const { return progress_; }
    QString etaText() const;
    QString logText() const;

signals:
    void startRequested();
    void cancelRequested();

private:
    QPushButton* start_ = nullptr;
    QPushButton* cancel_ = nullptr;
    QCheckBox* compare_ = nullptr;
    QProgressBar* progress_ = nullptr;
    bool running_ = false;  // between runStarted and the end: the bar stops short of 100 %
    QLabel* eta_ = nullptr;
    QPlainTextEdit* log_ = nullptr;
};

}  // namespace gigacheck::ui
