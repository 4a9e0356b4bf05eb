#include "engine/backgroundjobs.hpp"

#include <QCoreApplication>
#include <QThread>

#include <algorithm>
#include <cmath>
#include <vector>

#ifdef __linux__
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace gigacheck::ui {

// Shared by the job's thread and the GUI thread; the owner is only read on the GUI thread.
struct JobContext::State {
    quint64 id = 0;
    BackgroundJobs* jobs = nullptr;  // outlives every thread it started (its destructor waits)
    std::atomic<bool> cancel{false};
    std::atomic<int> postedPermille{-1};
    bool hasOwner = false;
    QPointer<QObject> owner;
    bool ownerAlive() const { return !hasOwner || owner; }
};

bool JobContext::cancelled() const
{
    return state_->cancel.load();
}

std::atomic<bool>* JobContext::cancelFlag() const
{
    return &state_->cancel;
}

void JobContext::setProgress(double fraction) const
{
    // Posted at most once per 0.1 %: a sweep reporting every trial does not flood the event loop.
    const int permille = int(std::lround(std::clamp(fraction, 0.0, 1.0) * 1000));
    if (state_->postedPermille.exchange(permille) == permille)
        return;
    auto state = state_;
    QMetaObject::invokeMethod(
        state->jobs, [state, fraction] { state->jobs->setProgress(state->id, fraction); }, Qt::QueuedConnection);
}

void JobContext::post(std::function<void()> onGui) const
{
    auto state = state_;
    QMetaObject::invokeMethod(
        state->jobs,
        [state, onGui = std::move(onGui)] {
            if (state->ownerAlive())
                onGui();
        },
        Qt::QueuedConnection);
}

BackgroundJobs* BackgroundJobs::instance()
{
    static QPointer<BackgroundJobs> jobs;
    if (!jobs)
        jobs = new BackgroundJobs(QCoreApplication::instance());
    return jobs;
}

BackgroundJobs::BackgroundJobs(QObject* parent) : QObject(parent)
{
    qRegisterMetaType<JobKind>();
    setObjectName(QStringLiteral("backgroundJobs"));
}

BackgroundJobs::~BackgroundJobs()
{
    // At exit: whatever still runs is told to stop and waited for; what it posts dies with this object.
    std::vector<QPointer<QThread>> threads;
    for (auto& [id, job] : jobs_) {
        if (job.state)
            job.state->cancel.store(true);
        if (job.thread)
            threads.push_back(job.thread);
    }
    for (const QPointer<QThread>& t : threads)
        if (t) {
            t->wait();
            delete t;
        }
}

quint64 BackgroundJobs::add(quint64 id, Job job)
{
    const JobKind kind = job.kind;
    const QString name = job.name;
    job.clock.start();
    jobs_.emplace(id, std::move(job));
    emit jobStarted(id, name, kind);
    if (kind == JobKind::Run) {
        runJob_ = id;
        emit busyChanged(true);
    }
    return id;
}

quint64 BackgroundJobs::start(const JobSpec& spec, Work work)
{
    const quint64 id = ++next_;
    if (spec.kind == JobKind::Run && (busy() || !queue_.empty())) {
        Queued q;
        q.id = id;
        q.name = spec.name;
        q.hasOwner = spec.owner != nullptr;
        q.owner = spec.owner;
        q.begin = [this, id, spec, work = std::move(work)] { launch(id, spec, work); };
        q.onUnqueued = spec.onUnqueued;
        queue(std::move(q));
        return id;
    }
    launch(id, spec, std::move(work));
    return id;
}

namespace {

// The engine's compute thread: a little nicer than the GUI thread, so that on a machine with few
// cores the event loop still gets the CPU promptly while every core computes. Linux only.
void lowerComputePriority()
{
#ifdef __linux__
    const auto tid = static_cast<id_t>(::syscall(SYS_gettid));
    ::setpriority(PRIO_PROCESS, tid, std::min(::getpriority(PRIO_PROCESS, tid) + 5, 19));
#endif
}

}  // namespace

void BackgroundJobs::startWorkerThread(QThread& thread, const QString& name)
{
    thread.setObjectName(name);
    thread.start();
}

std::thread BackgroundJobs::startComputeThread(std::function<void()> work)
{
    return std::thread([work = std::move(work)] {
        lowerComputePriority();
        work();
    });
}

void BackgroundJobs::launch(quint64 id, const JobSpec& spec, Work work)
{
    auto state = std::make_shared<JobContext::State>();
    state->jobs = this;
    state->hasOwner = spec.owner != nullptr;
    state->owner = spec.owner;
    state->id = id;
    Job job;
    job.name = spec.name;
    job.kind = spec.kind;
    job.state = state;
    auto onDone = spec.onDone;
    QThread* thread = QThread::create([this, state, work = std::move(work), onDone] {
        try {
            work(JobContext(state));
        } catch (...) {
            // The work reports its own errors through post(); nothing may escape a thread.
        }
        QMetaObject::invokeMethod(
            this, [this, state, onDone] { end(state->id, onDone, state->ownerAlive()); },
            Qt::QueuedConnection);
    });
    thread->setObjectName(spec.name);
    connect(thread, &QThread::finished, thread, &QObject::deleteLater);
    job.thread = thread;
    add(id, std::move(job));
    thread->start(spec.lowPriority ? QThread::LowPriority : QThread::InheritPriority);
}

quint64 BackgroundJobs::enqueue(const QString& name, QObject* owner, std::function<void()> begin)
{
    if (!busy() && queue_.empty()) {
        begin();
        return 0;
    }
    Queued q;
    q.id = ++next_;
    q.name = name;
    q.hasOwner = owner != nullptr;
    q.owner = owner;
    q.begin = std::move(begin);
    const quint64 id = q.id;
    queue(std::move(q));
    return id;
}

void BackgroundJobs::queue(Queued q)
{
    // A view or window closed while its run waits takes the run with it, at once.
    if (q.owner)
        connect(q.owner, &QObject::destroyed, this, [this, id = q.id] {
            const auto it = std::find_if(queue_.begin(), queue_.end(), [id](const Queued& w) { return w.id == id; });
            if (it == queue_.end())
                return;
            const QString name = it->name;
            queue_.erase(it);
            emit queueChanged();
            emit jobEnded(id, name, true);
        });
    queue_.push_back(std::move(q));
    emit queueChanged();
}

quint64 BackgroundJobs::adopt(const QString& name, std::function<void()> cancel)
{
    Job job;
    job.name = name;
    job.kind = JobKind::Run;
    job.cancel = std::move(cancel);
    return add(++next_, std::move(job));
}

void BackgroundJobs::startQueued()
{
    while (!busy() && !queue_.empty()) {
        Queued q = std::move(queue_.front());
        queue_.pop_front();
        emit queueChanged();
        if (q.hasOwner && !q.owner) {  // its view is gone: nothing to start, nothing to show it
            emit jobEnded(q.id, q.name, true);
            continue;
        }
        q.begin();
    }
}

void BackgroundJobs::setProgress(quint64 id, double fraction)
{
    auto it = jobs_.find(id);
    if (it == jobs_.end())
        return;
    const double elapsed = it->second.clock.elapsed() / 1000.0;
    emit jobProgress(id, fraction, fraction > 0.01 && fraction < 1.0 ? elapsed * (1 - fraction) / fraction : -1.0);
}

void BackgroundJobs::release(quint64 id)
{
    end(id, {}, false);
}

void BackgroundJobs::end(quint64 id, const std::function<void()>& onDone, bool ownerAlive)
{
    auto it = jobs_.find(id);
    if (it == jobs_.end())
        return;
    const QString name = it->second.name;
    const bool cancelled = it->second.state && it->second.state->cancel.load();
    jobs_.erase(it);
    const bool wasRun = runJob_ == id;
    if (wasRun)
        runJob_ = 0;
    emit jobEnded(id, name, cancelled);
    if (wasRun)
        emit busyChanged(false);
    if (onDone && ownerAlive)
        onDone();
    // On the next pass of the event loop: after the ended run's own conclusion (its onDone, an
    // adopted run's record reaching the views), so that it is shown before the next begins.
    if (wasRun && !queue_.empty())
        QMetaObject::invokeMethod(this, &BackgroundJobs::startQueued, Qt::QueuedConnection);
}

void BackgroundJobs::cancel(quint64 id)
{
    const auto queued = std::find_if(queue_.begin(), queue_.end(), [id](const Queued& q) { return q.id == id; });
    if (queued != queue_.end()) {
        const Queued q = *queued;
        queue_.erase(queued);
        emit queueChanged();
        emit jobEnded(id, q.name, true);
        if (q.onUnqueued && (!q.hasOwner || q.owner))
            q.onUnqueued();
        return;
    }
    auto it = jobs_.find(id);
    if (it == jobs_.end())
        return;
    if (it->second.state)
        it->second.state->cancel.store(true);
    else if (it->second.cancel)
        it->second.cancel();
}

void BackgroundJobs::cancelRun()
{
    cancel(runJob_);
}

void BackgroundJobs::clearQueue()
{
    while (!queue_.empty())
        cancel(queue_.front().id);
}

bool BackgroundJobs::isQueued(quint64 id) const
{
    return std::any_of(queue_.begin(), queue_.end(), [id](const Queued& q) { return q.id == id; });
}

QStringList BackgroundJobs::queuedNames() const
{
    QStringList names;
    for (const Queued& q : queue_)
        names << q.name;
    return names;
}

bool BackgroundJobs::isAdopted(quint64 id) const
{
    auto it = jobs_.find(id);
    return it != jobs_.end() && !it->second.state;
}

QString BackgroundJobs::runName() const
{
    auto it = jobs_.find(runJob_);
    return it == jobs_.end() ? QString() : it->second.name;
}

QString BackgroundJobs::queuedNote(quint64 id) const
{
    const auto it = std::find_if(queue_.begin(), queue_.end(), [id](const Queued& q) { return q.id == id; });
    if (it == queue_.end())
        return {};
    const auto before = it - queue_.begin();
    const QString running = busy() ? QStringLiteral("the %1").arg(runName()) : QStringLiteral("the run going on");
    return before == 0 ? QStringLiteral("queued: starts after %1").arg(running)
                       : QStringLiteral("queued: starts after %1 and %2 other queued run(s)").arg(running).arg(before);
}

int BackgroundJobs::running(const QString& name) const
{
    int n = 0;
    for (const auto& [id, job] : jobs_)
        n += job.name == name;
    return n;
}

}  // namespace gigacheck::ui
