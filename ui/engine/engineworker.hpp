// The engine's side of the GUI (ui/README.md, "Threading"). Lives on its own QThread; each run
// executes on a compute thread so that this object's event loop stays free to flush the
// observer every ~30 ms as batched queued signals. Every signal carries the job id it belongs to
// so that the controller can drop results of runs it no longer wants.
#pragma once

#include "batchingobserver.hpp"
#include "metatypes.hpp"
#include "onlinerun.hpp"

#include <gigacheck/backend.hpp>

#include <QObject>
#include <QString>

#include <atomic>
#include <map>
#include <memory>
#include <optional>
#include <thread>
#include <variant>

class QTimer;

namespace gigacheck::ui {

class EngineWorker : public QObject {
    Q_OBJECT
public:
    static constexpr int kFlushIntervalMs = 30;

    explicit EngineWorker(QObject* parent = nullptr);
    ~EngineWorker() override;

    // Thread-safe: stops every job up to and including throughJob, the running one between
    // operations and a queued one before it starts (a Cancel right after Start must not be lost
    // when the worker has not picked the job up yet).
    void requestCancel(quint64 throughJob)
    {
        quint64 seen = cancelThrough_.load();
        while (seen < throughJob && !cancelThrough_.compare_exchange_weak(seen, throughJob)) {
        }
        cancel_.store(true);
    }

public slots:
    // Starts a run; a run still going is cancelled first and this one starts after it.
    void start(quint64 job, const gigacheck::RunConfig& config, const gigacheck::ui::RunOperands& operands = {});
    // The same for a run of the online ABFT family (scheme online / offline / TMR).
    void startOnline(quint64 job, const gigacheck::OnlineConfig& config);

signals:
    void started(quint64 job);
    void spansAvailable(quint64 job, const QVector<gigacheck::Span>& spans);
    void verifyEvents(quint64 job, const QVector<gigacheck::VerifyEvent>& events);
    void injectEvents(quint64 job, const QVector<gigacheck::InjectEvent>& events);
    void resultTiles(quint64 job, const QVector<gigacheck::ui::HeatmapGrid>& tiles);
    void progress(quint64 job, double fraction);
    // A cancelled run also finishes, with record.status == "cancelled" and a partial record. The
    // record is made shared on the compute thread, so the GUI thread never copies it: a blocked
    // run's RunRecord, an online run's OnlineRecord (inside the OnlineRun of onlineFinished).
    void finished(quint64 job, const gigacheck::ui::RecordPtr& record, const gigacheck::HostMatrix& c);
    void failed(quint64 job, const QString& message);
    // An online ABFT run's own record and step frames, emitted just before its finished().
    void onlineFinished(quint64 job, const gigacheck::ui::OnlinePtr& run);

private:
    using JobConfig = std::variant<RunConfig, OnlineConfig>;
    void enqueue(quint64 job, JobConfig config, RunOperands operands);
    void launch(quint64 job, const JobConfig& config, const RunOperands& operands);
    void flush();
    void computeDone(quint64 job);
    Backend* backendFor(BackendKind kind, int device);
    // throws when no thread can start
    void startCompute(quint64 job, const JobConfig& config, const RunOperands& operands);

    QTimer* flushTimer_ = nullptr;
    BatchingObserver observer_;
    std::atomic<bool> cancel_{false};
    std::atomic<quint64> cancelThrough_{0};
    std::thread compute_;
    bool busy_ = false;
    quint64 job_ = 0;
    struct Queued {
        quint64 job;
        JobConfig config;
        RunOperands operands;  // the user's A and B (blocked GEMM runs only)
    };
    std::optional<Queued> queued_;
    // Written by the compute thread, read after join.
    RecordPtr record_;
    std::shared_ptr<OnlineRun> online_;
    HostMatrix result_;
    QString error_;
    // Backends are reused across runs (a CUDA context is expensive); made on first use.
    std::map<std::pair<BackendKind, int>, std::unique_ptr<Backend>> backends_;  // kept across runs
};

}  // namespace gigacheck::ui
