#include "enginecontroller.hpp"

#include "backgroundjobs.hpp"
#include "engineworker.hpp"

#include <utility>

namespace gigacheck::ui {

EngineController::EngineController(QObject* parent) : QObject(parent)
{
    registerMetaTypes();
    auto* worker = new EngineWorker;
    worker->moveToThread(&thread_);
    worker_ = worker;
    connect(&thread_, &QThread::finished, worker, &QObject::deleteLater);

    connect(worker, &EngineWorker::spansAvailable, this, [this](quint64 job, const QVector<Span>& s) {
        if (current(job))
            emit spansArrived(s);
    });
    connect(worker, &EngineWorker::verifyEvents, this, [this](quint64 job, const QVector<VerifyEvent>& e) {
        if (current(job))
            emit verifyArrived(e);
    });
    connect(worker, &EngineWorker::injectEvents, this, [this](quint64 job, const QVector<InjectEvent>& e) {
        if (current(job))
            emit injectArrived(e);
    });
    connect(worker, &EngineWorker::resultTiles, this, [this](quint64 job, const QVector<HeatmapGrid>& t) {
        if (current(job))
            emit resultTilesArrived(t);
    });
    connect(worker, &EngineWorker::progress, this, [this](quint64 job, double f) {
        if (!current(job))
            return;
        const double elapsed = clock_.elapsed() / 1000.0;
        BackgroundJobs::instance()->setProgress(adopted_, f);
        emit progressChanged(f, f > 0.01 ? elapsed * (1 - f) / f : -1.0);
    });
    connect(worker, &EngineWorker::finished, this,
            [this](quint64 job, const RecordPtr& r, const HostMatrix& c) {
                if (!current(job))
                    return;
                running_ = false;
                releaseRun();
                emit runFinished(r, c);
            });
    connect(worker, &EngineWorker::onlineFinished, this, [this](quint64 job, const OnlinePtr& run) {
        if (current(job))
            emit onlineFinished(run);
    });
    connect(worker, &EngineWorker::failed, this, [this](quint64 job, const QString& message) {
        if (!current(job))
            return;
        running_ = false;
        releaseRun();
        emit runFailed(message);
    });
    BackgroundJobs::startWorkerThread(thread_, QStringLiteral("gigacheck-engine"));
}

EngineController::~EngineController()
{
    releaseRun();
    if (worker_)
        worker_->requestCancel(job_);
    thread_.quit();
    thread_.wait();
}

quint64 EngineController::start(const RunConfig& config, const RunOperands& operands)
{
    ++job_;
    running_ = true;
    clock_.start();
    adoptRun();
    if (worker_) {
        worker_->requestCancel(job_ - 1);  // the runs before this one, going or queued
        EngineWorker* worker = worker_;
        const quint64 job = job_;
        QMetaObject::invokeMethod(worker, [worker, job, config, operands] { worker->start(job, config, operands); },
                                  Qt::QueuedConnection);
    }
    emit runStarted(job_);
    return job_;
}

quint64 EngineController::startOnline(const OnlineConfig& config)
{
    ++job_;
    running_ = true;
    clock_.start();
    adoptRun();
    if (worker_) {
        worker_->requestCancel(job_ - 1);
        EngineWorker* worker = worker_;
        const quint64 job = job_;
        QMetaObject::invokeMethod(worker, [worker, job, config] { worker->startOnline(job, config); },
                                  Qt::QueuedConnection);
    }
    emit runStarted(job_);
    return job_;
}

void EngineController::adoptRun()
{
    releaseRun();
    adopted_ = BackgroundJobs::instance()->adopt(QStringLiteral("checked GEMM run"), [this] { cancel(); });
}

void EngineController::releaseRun()
{
    if (adopted_)
        BackgroundJobs::instance()->release(std::exchange(adopted_, 0));
}

void EngineController::cancel()
{
    if (worker_ && running_)
        worker_->requestCancel(job_);
}

}  // namespace gigacheck::ui
