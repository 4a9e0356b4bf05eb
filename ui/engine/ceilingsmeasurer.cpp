#include "engine/ceilingsmeasurer.hpp"

#include "engine/backgroundjobs.hpp"

#include <gigacheck/bench.hpp>

#include <memory>

namespace gigacheck::ui {

namespace {

// The engine's hook, on the job's thread: cancel from the job's token, each point posted to the
// GUI thread (where the measurer, if it still exists, reports it) and shown as the job's progress.
class PostedProgress : public MeasureProgress {
public:
    PostedProgress(const JobContext& job, QPointer<CeilingsMeasurer> self) : job_(job), self_(std::move(self)) {}
    bool cancelled() override { return job_.cancelled(); }
    void stage(const std::string& name, int done, int total) override
    {
        if (total > 0)
            job_.setProgress(double(done) / total);
        job_.post([self = self_, stage = QString::fromStdString(name), done, total] {
            if (self && self->isRunning())
                emit self->progressed(stage, done, total);
        });
    }

private:
    const JobContext& job_;
    QPointer<CeilingsMeasurer> self_;
};

}  // namespace

struct CeilingsMeasurer::Outcome {
    enum class Kind { Measured, Cancelled, Failed } kind = Kind::Failed;
    DeviceInfo device;
    QString path;
    QString message;
};

CeilingsMeasurer::CeilingsMeasurer(QObject* parent) : QObject(parent) {}

// Never waits for the job (see the header): whatever it still posts finds no measurer.
CeilingsMeasurer::~CeilingsMeasurer()
{
    if (job_)
        BackgroundJobs::instance()->cancel(job_);
}

int CeilingsMeasurer::workersRunning()
{
    return BackgroundJobs::instance()->running(jobName());
}

bool CeilingsMeasurer::start(const DeviceInfo& device)
{
    if (job_)
        return false;
    // Read here, on the GUI thread: the same file `devices --measure` writes.
    const std::string path = defaultCeilingsPath();
    const bool quick = quick_;
    auto outcome = std::make_shared<Outcome>();  // written by the job, read in onDone
    outcome->device = device;
    outcome->path = QString::fromStdString(path);
    JobSpec spec;
    spec.name = jobName();
    spec.owner = this;
    spec.onDone = [this, outcome] {
        conclude(*outcome);
        job_ = 0;
        emit finished();
    };
    spec.onUnqueued = [this] {
        job_ = 0;
        emit cancelled();
        emit finished();
    };
    QPointer<CeilingsMeasurer> self(this);
    const quint64 job = BackgroundJobs::instance()->start(spec, [self, outcome, device, path, quick](const JobContext& job) {
        try {
            PostedProgress progress(job, self);
            MeasureOptions options;
            options.progress = &progress;
            options.quick = quick;
            outcome->device.ceilings = measureCeilings(device, options);
            // A cancel during the last point still means "nothing stored".
            if (job.cancelled())
                throw MeasureCancelled();
            saveCeilings(outcome->device, path);
            outcome->kind = Outcome::Kind::Measured;
        } catch (const MeasureCancelled&) {
            outcome->kind = Outcome::Kind::Cancelled;
        } catch (const std::exception& e) {
            outcome->kind = Outcome::Kind::Failed;
            outcome->message = QString::fromUtf8(e.what());
        }
    });
    device_ = device;
    job_ = job;
    return true;
}

void CeilingsMeasurer::cancel()
{
    if (job_)
        BackgroundJobs::instance()->cancel(job_);
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
