// The one place in the lab that starts background work: named jobs on worker threads, each with
// a cancel token and progress, whose results come back to the GUI thread through
// JobContext::post, guarded by the job's owner (a view destroyed mid-job never receives them and
// is never waited for: the job is told to stop and ends alone).
//
// Two kinds. A *run* job is the user's work (a Strassen run or sweep, a gallery sweep, the fq
// sweep, a ceilings measurement): one at a time, and the "busy" state that the Run dock shows
// and cancels. A run asked for while another goes on waits in a queue, in order, with what was
// set up when it was asked for; it starts when the run before it ends (cancelled or not) and can
// be taken out of the queue before it starts. A *preview* job (the auto strategy's planner
// preview, a heatmap reduction) runs beside it and never makes the lab busy.
//
// The checked-GEMM runs (blocked, online, offline, TMR) keep their own worker, EngineController's
// QThread with EngineWorker's compute thread: that worker's event loop flushes the observer's
// batches on a real 30 ms timer while the run computes, queues the next run behind a cancelled
// one and keeps the backends (a CUDA context) across runs. Its two threads start here as well
// (startWorkerThread, startComputeThread), and those runs are registered here with adopt(), so
// that "busy", one job at a time and the Run dock's progress cover them too, and wait their turn
// through enqueue().
#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <QPointer>
#include <QString>
#include <QStringList>

#include <atomic>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <thread>

class QThread;

namespace gigacheck::ui {

class BackgroundJobs;

enum class JobKind { Run, Preview };

// What the work sees of its job, on the worker thread.
class JobContext {
public:
    struct State;
    explicit JobContext(std::shared_ptr<State> state) : state_(std::move(state)) {}

    bool cancelled() const;
    // The token itself, for engine calls that read a std::atomic<bool>* between operations.
    std::atomic<bool>* cancelFlag() const;
    // Thread-safe: the job's progress (0..1), shown with an ETA in the Run dock.
    void setProgress(double fraction) const;
    // Runs `onGui` on the GUI thread, in order with every other post of this job and before its
    // onDone, unless the job's owner is gone by then.
    void post(std::function<void()> onGui) const;

private:
    std::shared_ptr<State> state_;
};

struct JobSpec {
    QString name;              // what the Run dock and the status bar call it ("Strassen run")
    QObject* owner = nullptr;  // posts and onDone reach it only while it lives
    JobKind kind = JobKind::Run;
    bool lowPriority = false;  // previews: the GUI thread and a run go first
    // On the GUI thread once the work has returned and every post of it has run (owner alive).
    std::function<void()> onDone;
    // On the GUI thread when a queued run is taken out of the queue before it started (owner
    // alive): its work never ran, onDone is not called.
    std::function<void()> onUnqueued;
};

class BackgroundJobs : public QObject {
    Q_OBJECT
public:
    using Work = std::function<void(const JobContext&)>;

    // The lab's one instance (a child of the application; its destruction at exit cancels every
    // job and waits for the threads, so none outlives the event loop it posts to).
    static BackgroundJobs* instance();
    ~BackgroundJobs() override;

    // The two threads of the checked-GEMM runs start here too, so that every thread of the lab
    // starts in this file: the engine worker's own QThread (its event loop flushes the batches) and
    // its compute thread, a plain thread the worker joins, at a lower priority than the GUI thread.
    static void startWorkerThread(QThread& thread, const QString& name);
    static std::thread startComputeThread(std::function<void()> work);

    // Starts `work` on a thread of its own and returns the job's id. A run job asked for while
    // another run goes on is queued under that id (isQueued) and starts when its turn comes.
    quint64 start(const JobSpec& spec, Work work);
    // A run executed elsewhere (EngineController's worker) that waits its turn: `begin` is
    // called on the GUI thread when no run goes on, at once when none does now (then 0 is
    // returned), else when the runs before it have ended (unless `owner`, when given, is gone or
    // the entry was cancelled); returns its place's id in the queue.
    quint64 enqueue(const QString& name, QObject* owner, std::function<void()> begin);
    // Registers a run executed elsewhere: busy until release().
    quint64 adopt(const QString& name, std::function<void()> cancel);
    void setProgress(quint64 job, double fraction);
    void release(quint64 job);

    // Cancels a job going on, or takes a queued one out of the queue (it ends as cancelled).
    void cancel(quint64 job);
    // Cancels the run job going on, whichever it is (the Run dock's Cancel); the queue goes on.
    void cancelRun();
    // Takes every queued run out of the queue (each ends as cancelled).
    void clearQueue();
    bool isRunning(quint64 job) const { return jobs_.count(job) != 0; }
    bool isQueued(quint64 job) const;
    // The queued runs' names, the next first.
    QStringList queuedNames() const;
    bool isAdopted(quint64 job) const;
    // A run job goes on.
    bool busy() const { return runJob_ != 0; }
    quint64 runJob() const { return runJob_; }
    QString runName() const;
    // What a queued run waits for: "queued: starts after the <run going on>" (and the runs
    // queued before it); empty when the job is not queued.
    QString queuedNote(quint64 job) const;
    // Jobs of that name not yet ended, their owners alive or not (tests: closing never waits).
    int running(const QString& name) const;

signals:
    void jobStarted(quint64 job, const QString& name, gigacheck::ui::JobKind kind);
    // etaSeconds < 0 while unknown.
    void jobProgress(quint64 job, double fraction, double etaSeconds);
    // cancelled: its token was set (a cancelled job may still have delivered a partial result).
    void jobEnded(quint64 job, const QString& name, bool cancelled);
    void busyChanged(bool busy);
    // A run entered or left the queue (queuedNames() says what waits).
    void queueChanged();

private:
    explicit BackgroundJobs(QObject* parent);
    struct Job {
        QString name;
        JobKind kind = JobKind::Run;
        std::shared_ptr<JobContext::State> state;  // null for an adopted job
        std::function<void()> cancel;              // adopted jobs
        QPointer<QThread> thread;
        QElapsedTimer clock;
    };
    // A run waiting for its turn: `begin` starts it (under its id for a thread job).
    struct Queued {
        quint64 id = 0;
        QString name;
        bool hasOwner = false;
        QPointer<QObject> owner;
        std::function<void()> begin;
        std::function<void()> onUnqueued;
    };
    quint64 add(quint64 id, Job job);
    void launch(quint64 id, const JobSpec& spec, Work work);
    void queue(Queued q);
    void end(quint64 job, const std::function<void()>& onDone, bool ownerAlive);
    // Starts the next queued run whose owner lives, while no run goes on.
    void startQueued();

    std::map<quint64, Job> jobs_;
    std::deque<Queued> queue_;
    quint64 next_ = 0;
    quint64 runJob_ = 0;
};

}  // namespace gigacheck::ui

Q_DECLARE_METATYPE(gigacheck::ui::JobKind)
