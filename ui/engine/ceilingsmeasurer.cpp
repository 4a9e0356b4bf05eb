#include "engine/ceilingsmeasurer.hpp"

#include <gigacheck/bench.hpp>

#include <QCoreApplication>
#include <QPointer>
#include <QThread>

namespace gigacheck::ui {

namespace {

// The engine's hook, on the worker thread: cancel from the shared flag, each point posted to the
// GUI thread (through the application, which outlives the measurer: `self` is read there only).
class PostedProgress : public MeasureProgress {
public:
    PostedProgress(QPointer<CeilingsMeasurer> self, std::shared_ptr<std::atomic<bool>> cancel)
        : self_(std::move(self)), cancel_(std::move(cancel))
    {
    }
    bool cancelled() override { return cancel_->load(); }
    void stage(const std::string& name, int done, int total) override
    {
        QMetaObject::invokeMethod(
            qApp, [self = self_, stage = QString::fromStdString(name), done, total] {
                if (self && self->isRunning())
                    emit self->progressed(stage, done, total);
            },
            Qt::QueuedConnection);
    }

private:
    QPointer<CeilingsMeasurer> self_;
    std::shared_ptr<std::atomic<bool>> cancel_;
};

}  // namespace

struct CeilingsMeasurer::Outcome {
    enum class Kind { Measured, Cancelled, Failed } kind = Kind::Failed;
    DeviceInfo device;
    QString path;
    QString message;
};

CeilingsMeasurer::CeilingsMeasurer(QObject* parent) : QObject(parent) {}

// Never waits for the worker (see the header): whatever it still posts finds the QPointer null.
CeilingsMeasurer::~CeilingsMeasurer()
{
    if (!worker_)
        return;
    cancel_->store(true);
    disconnect(worker_, nullptr, this, nullptr);
    connect(worker_, &QThread::finished, worker_, &QObject::deleteLater);
    if (worker_->isFinished())
        delete worker_;  // a finished signal before the connect would have left it behind
}

bool CeilingsMeasurer::start(const DeviceInfo& device)
{
    if (worker_)
        return false;
    device_ = device;
    cancel_ = std::make_shared<std::atomic<bool>>(false);
    // Read here, on the GUI thread: the same file `devices --measure` writes.
    const std::string path = defaultCeilingsPath();
    QPointer<CeilingsMeasurer> self(this);
    auto cancel = cancel_;
    const bool quick = quick_;
    worker_ = QThread::create([self, cancel, device, path, quick] {
        ++workersRunning_;
        Outcome outcome;
        outcome.device = device;
        outcome.path = QString::fromStdString(path);
        try {
            PostedProgress progress(self, cancel);
            MeasureOptions options;
            options.progress = &progress;
            options.quick = quick;
            outcome.device.ceilings = measureCeilings(device, options);
            // A cancel during the last point still means "nothing stored".
            if (cancel->load())
                throw MeasureCancelled();
            saveCeilings(outcome.device, path);
            outcome.kind = Outcome::Kind::Measured;
        } catch (const MeasureCancelled&) {
            outcome.kind = Outcome::Kind::Cancelled;
        } catch (const std::exception& e) {
            outcome.kind = Outcome::Kind::Failed;
            outcome.message = QString::fromUtf8(e.what());
        }
        QMetaObject::invokeMethod(
            qApp, [self, outcome] {
                if (self)
                    self->conclude(outcome);
            },
            Qt::QueuedConnection);
        --workersRunning_;
    });
    connect(worker_, &QThread::finished, this, [this] {
        worker_->deleteLater();
        worker_ = nullptr;
        emit finished();
    });
    worker_->start();
    return true;
}

void CeilingsMeasurer::cancel()
{
    if (cancel_)
        cancel_->store(true);
}

void CeilingsMeasurer::conclude(const Outcome& outcome)
{
    switch (outcome.kind) {
    case Outcome::Kind::Measured:
        device_ = outcome.device;
        emit measured(outcome.device, outcome.path);
        break;
    case Outcome::Kind::Cancelled:
        emit cancelled();
        break;
    case Outcome::Kind::Failed:
        emit failed(outcome.message);
        break;
    }
}

}  // namespace gigacheck::ui
