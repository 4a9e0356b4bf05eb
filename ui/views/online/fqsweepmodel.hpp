// The fq sweep of the lab (issue 9 item 5): the engine's sweepCheckEvery (the function `gigacheck
// bench online` prints) on a worker thread, its result kept for the view and the CSV export.
#pragma once

#include <gigacheck/online_abft.hpp>

#include <QObject>
#include <QString>

#include <atomic>
#include <memory>
#include <optional>

class QThread;

namespace gigacheck::ui {

class FqSweepModel : public QObject {
    Q_OBJECT
public:
    explicit FqSweepModel(QObject* parent = nullptr);
    ~FqSweepModel() override;

    // Starts a sweep on its own thread (false while one goes on).
    bool start(const FqSweepOptions& options, BackendKind backend);
    void cancel();
    bool running() const { return worker_ != nullptr; }
    const std::optional<FqSweepResult>& result() const { return result_; }
    // The result as a table: fq, overhead, one column per fault count (share correctable).
    QString csv() const;

signals:
    void progress(double fraction);
    void finished();
    void failed(const QString& message);

private:
    QThread* worker_ = nullptr;
    std::shared_ptr<std::atomic<bool>> cancel_;
    std::optional<FqSweepResult> result_;
};

}  // namespace gigacheck::ui
