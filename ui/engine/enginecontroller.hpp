// The GUI thread's handle on the engine: owns the worker thread, hands out job ids, drops
// results of stale jobs, and turns progress into an ETA. Each run is also registered with
// BackgroundJobs (adopt), so that the lab's busy state and "one run job at a time" include it.
#pragma once

#include "metatypes.hpp"
#include "onlinerun.hpp"

#include <QElapsedTimer>
#include <QObject>
#include <QPointer>
#include <QThread>

namespace gigacheck::ui {

class EngineWorker;

class EngineController : public QObject {
    Q_OBJECT
public:
    explicit EngineController(QObject* parent = nullptr);
    ~EngineController() override;

    // Starts a run (cancelling one still going); returns its job id.
    quint64 start(const RunConfig& config, const RunOperands& operands = {});
    // A run of the online ABFT family (scheme online / offline / TMR).
    quint64 startOnline(const OnlineConfig& config);
    void cancel();
    bool isRunning() const { return running_; }
    quint64 currentJob() const { return job_; }

signals:
    void runStarted(quint64 job);
    void spansArrived(const QVector<gigacheck::Span>& spans);
    void verifyArrived(const QVector<gigacheck::VerifyEvent>& events);
    void injectArrived(const QVector<gigacheck::InjectEvent>& events);
    // Blocks of C final on the host, reduced for the heatmap (it fills while the run goes on).
    void resultTilesArrived(const QVector<gigacheck::ui::HeatmapGrid>& tiles);
    // etaSeconds < 0 while unknown.
    void progressChanged(double fraction, double etaSeconds);
    void runFinished(const gigacheck::ui::RecordPtr& record, const gigacheck::HostMatrix& c);
    void runFailed(const QString& message);
    // An online run's record and frames, just before its runFinished.
    void onlineFinished(const gigacheck::ui::OnlinePtr& run);

private:
    bool current(quint64 job) const { return job == job_; }
    // The run as a job of BackgroundJobs (replacing the previous run's) and its end there.
    void adoptRun();
    void releaseRun();

    QThread thread_;
    QPointer<EngineWorker> worker_;
    quint64 job_ = 0;
    bool running_ = false;
    QElapsedTimer clock_;
    quint64 adopted_ = 0;  // the run's id in BackgroundJobs
};

}  // namespace gigacheck::ui
