// The fq sweep of the lab: the engine's sweepCheckEvery (the function `gigacheck
// bench online` prints) as a run job of the lab's BackgroundJobs, its result kept for the view and
// the CSV export.
#pragma once

#include <gigacheck/online_abft.hpp>

#include <QObject>
#include <QString>

#include <optional>

namespace gigacheck::ui {

class FqSweepModel : public QObject {
    Q_OBJECT
public:
    explicit FqSweepModel(QObject* parent = nullptr);
    ~FqSweepModel() override;

    // Starts the sweep as a background run job, or queues it behind the run job going on (false
    // while this sweep goes on or waits).
    bool start(const FqSweepOptions& options, BackendKind backend);
    void cancel();
    bool running() const { return job_ != 0; }  // going on or waiting in the queue
    quint64 job() const { return job_; }
    // The job's name in the Run dock.
    static QString jobName() { return QStringLiteral("fq sweep"); }
    const std::optional<FqSweepResult>& result() const { return result_; }
    // The result as a table: fq, overhead, one column per fault count (share correctable).
    QString csv() const;

signals:
    void progress(double fraction);
    void finished();
    void failed(const QString& message);

private:
    quint64 job_ = 0;  // BackgroundJobs' id while sweeping
    std::optional<FqSweepResult> result_;
};

}  // namespace gigacheck::ui
