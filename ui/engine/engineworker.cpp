#include "engineworker.hpp"

#include "engine/backgroundjobs.hpp"

#include <gigacheck/blocked_gemm/run.hpp>

#include <algorithm>

#include <QTimer>

namespace gigacheck::ui {

EngineWorker::EngineWorker(QObject* parent) : QObject(parent)
{
    registerMetaTypes();
}

EngineWorker::~EngineWorker()
{
    cancel_.store(true);
    if (compute_.joinable())
        compute_.join();
}

Backend* EngineWorker::backendFor(BackendKind kind, int device)
{
    auto& slot = backends_[{kind, device}];
    if (!slot)
        slot = makeBackend(kind, device);  // throws InputError when CUDA (or that device) is missing
    return slot.get();
}

void EngineWorker::start(quint64 job, const RunConfig& config, const RunOperands& operands)
{
    enqueue(job, config, operands);
}

void EngineWorker::startOnline(quint64 job, const OnlineConfig& config)
{
    enqueue(job, config, {});
}

void EngineWorker::enqueue(quint64 job, JobConfig config, RunOperands operands)
{
    if (busy_) {
        queued_ = Queued{job, std::move(config), std::move(operands)};
        cancel_.store(true);
        return;
    }
    launch(job, config, operands);
}

void EngineWorker::launch(quint64 job, const JobConfig& config, const RunOperands& operands)
{
    if (!flushTimer_) {
        // Created here, not in the constructor, so that it belongs to the worker's thread.
        flushTimer_ = new QTimer(this);
        flushTimer_->setInterval(kFlushIntervalMs);
        connect(flushTimer_, &QTimer::timeout, this, &EngineWorker::flush);
    }
    busy_ = true;
    job_ = job;
    // Cleared first, then the job's own cancel read: a request racing with this launch is kept.
    cancel_.store(false);
    if (cancelThrough_.load() >= job)
        cancel_.store(true);
    observer_.clear();
    record_.reset();
    online_.reset();
    result_ = HostMatrix();
    error_.clear();
    emit started(job);
    flushTimer_->start();

    try {
        startCompute(job, config, operands);
    } catch (const std::exception& e) {
        // No thread for the run (the system is out of threads or memory): report it, stay usable.
        flushTimer_->stop();
        busy_ = false;
        emit failed(job, QStringLiteral("cannot start the engine thread: %1").arg(QString::fromUtf8(e.what())));
    }
}

void EngineWorker::startCompute(quint64 job, const JobConfig& config, const RunOperands& operands)
{
    compute_ = BackgroundJobs::startComputeThread([this, job, config, operands] {
        try {
            RunHooks hooks;
            hooks.observer = &observer_;
            hooks.cancel = &cancel_;
            hooks.resultOut = &result_;
            if (const auto* online = std::get_if<OnlineConfig>(&config)) {
                hooks.backend = backendFor(online->backend, online->device);
                online_ = runOnlineForLab(*online, hooks);
                record_ = RecordPtr(online_, &online_->record);  // the online record itself, shared with its run
            } else {
                const RunConfig& gemm = std::get<RunConfig>(config);
                hooks.backend = backendFor(gemm.backend, gemm.device);
                if (operands.present()) {
                    hooks.givenA = operands.a.get();
                    hooks.givenB = operands.b.get();
                }
                auto record = std::make_shared<RunRecord>(runGemm(gemm, hooks));
                if (operands.present())  // the record says where A and B came from (section "inputs")
                    record->inputs = {operands.aFile, operands.bFile};
                record_ = std::move(record);
            }
        } catch (const std::exception& e) {
            // InputError, BackendError or anything else: reported, never fatal to the GUI.
            error_ = QString::fromStdString(e.what());
        } catch (...) {
            error_ = QStringLiteral("unknown failure in the engine");
        }
        QMetaObject::invokeMethod(this, [this, job] { computeDone(job); }, Qt::QueuedConnection);
    });
}

void EngineWorker::flush()
{
    BatchingObserver::Batch batch = observer_.take();
    if (!batch.injections.isEmpty())
        emit injectEvents(job_, batch.injections);
    if (!batch.spans.isEmpty())
        emit spansAvailable(job_, batch.spans);
    if (!batch.resultTiles.isEmpty())
        emit resultTiles(job_, batch.resultTiles);
    if (!batch.verifications.isEmpty())
        emit verifyEvents(job_, batch.verifications);
    if (batch.progress >= 0)
        emit progress(job_, batch.progress);
}

void EngineWorker::computeDone(quint64 job)
{
    if (compute_.joinable())
        compute_.join();
    flushTimer_->stop();
    flush();
    busy_ = false;
    if (record_ && record_->status == "failed") {
        emit failed(job, QString::fromStdString(record_->error.empty() ? "run failed" : record_->error));
    } else if (record_) {
        if (online_)
            emit onlineFinished(job, std::exchange(online_, nullptr));
        emit finished(job, std::exchange(record_, nullptr), result_);
    } else {
        emit failed(job, error_);
    }
    record_.reset();
    online_.reset();
    result_ = HostMatrix();
    if (queued_) {
        auto next = std::move(*queued_);
        queued_.reset();
        launch(next.job, next.config, next.operands);
    }
}

}  // namespace gigacheck::ui
