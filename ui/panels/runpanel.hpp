// Run: start (or queue the next run while one goes on), cancel, the queue with a Clear button,
// compare with the previous run, progress with ETA, and a log.
#pragma once

#include <QWidget>

class QCheckBox;
class QLabel;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;

namespace gigacheck::ui {

class BackgroundJobs;
class LabSession;

class RunPanel : public QWidget {
    Q_OBJECT
public:
    explicit RunPanel(QWidget* parent = nullptr);
    // Follows the session: running state, progress, and a log line per start, fault, non-clean
    // verification, end of run and opened record.
    void subscribe(LabSession* session);
    // Follows the other run jobs (a Strassen run or sweep, a gallery or fq sweep, a measurement):
    // the same Start / Cancel, progress (a busy bar until the job reports a fraction) with ETA,
    // and a log line at their start and end.
    void followJobs(BackgroundJobs* jobs);
    // What Start starts for the family or view shown ("▶ Start run", "▶ Start sweep").
    void setStartText(const QString& text, const QString& toolTip);
    void setRunning(bool running);
    void setProgress(double fraction, double etaSeconds);
    void log(const QString& line);
    bool compareWithPrevious() const;
    void setCompareWithPrevious(bool on);
    QPushButton* startButton() const { return start_; }
    QPushButton* cancelButton() const { return cancel_; }
    QPushButton* clearQueueButton() const { return clearQueue_; }
    QLabel* queueLabel() const { return queue_; }
    QProgressBar* progressBar() const { return progress_; }
    QString etaText() const;
    QString logText() const;

signals:
    void startRequested();
    void cancelRequested();

protected:
    void changeEvent(QEvent* event) override;

private:
    // The log in a fixed-width face a little smaller than the panel's text, scaled with it.
    void scaleLogFont();
    // Start's words: what starts for the family shown, or "Queue next" while a run goes on.
    void showStart(bool busy);

    QPushButton* start_ = nullptr;
    QPushButton* cancel_ = nullptr;
    QCheckBox* compare_ = nullptr;
    QProgressBar* progress_ = nullptr;
    bool running_ = false;  // between runStarted and the end: the bar stops short of 100 %
    quint64 followedJob_ = 0;  // the BackgroundJobs run job shown, when not the session's
    QLabel* eta_ = nullptr;
    QLabel* queue_ = nullptr;  // the runs waiting in BackgroundJobs' queue, the next first
    QPushButton* clearQueue_ = nullptr;
    QString startText_ = QStringLiteral("▶ Start run"), startToolTip_;
    QPlainTextEdit* log_ = nullptr;
};

}  // namespace gigacheck::ui
