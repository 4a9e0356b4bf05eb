#include "views/online/fqsweepmodel.hpp"

#include "engine/backgroundjobs.hpp"

#include <gigacheck/backend.hpp>

#include <memory>

namespace gigacheck::ui {

FqSweepModel::FqSweepModel(QObject* parent) : QObject(parent)
{
    connect(BackgroundJobs::instance(), &BackgroundJobs::jobProgress, this, [this](quint64 job, double f) {
        if (job == job_ && job_ != 0)
            emit progress(f);
    });
}

// Never waits: the sweep is told to stop and ends alone (its result finds no model).
FqSweepModel::~FqSweepModel()
{
    if (job_)
        BackgroundJobs::instance()->cancel(job_);
}

bool FqSweepModel::start(const FqSweepOptions& options, BackendKind backend)
{
    if (job_)
        return false;
    struct Outcome {
        std::optional<FqSweepResult> result;
        QString error;
    };
    auto outcome = std::make_shared<Outcome>();  // written by the job, read in onDone
    JobSpec spec;
    spec.name = jobName();
    spec.owner = this;
    spec.lowPriority = true;
    spec.onDone = [this, outcome] {
        job_ = 0;
        if (outcome->result) {
            result_ = std::move(outcome->result);
            emit finished();
        } else {
            emit failed(outcome->error);
        }
    };
    spec.onUnqueued = [this] {
        job_ = 0;
        emit failed(QStringLiteral("cancelled in the queue, before it started"));
    };
    job_ = BackgroundJobs::instance()->start(spec, [outcome, options, backend](const JobContext& job) {
        try {
            std::unique_ptr<Backend> engine = makeBackend(backend, -1);
            engine->prepare();
            outcome->result = sweepCheckEvery(options, *engine, [&job](double f) {
                job.setProgress(f);
                return !job.cancelled();
            });
        } catch (const std::exception& e) {
            outcome->error = QString::fromUtf8(e.what());
        }
    });
    return job_ != 0;
}

void FqSweepModel::cancel()
{
    if (job_)
        BackgroundJobs::instance()->cancel(job_);
}

QString FqSweepModel::csv() const
{
    if (!result_)
        return {};
    QString out = QStringLiteral("fq,overhead");
    for (int f : result_->options.faultCounts)
        out += QStringLiteral(",correctable_%1").arg(f);
    out += QLatin1Char('\n');
    for (const FqSweepRow& r : result_->rows) {
        out += QStringLiteral("%1,%2").arg(r.checkEvery).arg(r.overhead, 0, 'g', 6);
        for (int ok : r.correctable)
            out += QStringLiteral(",%1").arg(double(ok) / result_->options.trials, 0, 'g', 4);
        out += QLatin1Char('\n');
    }
    return out;
}

}  // namespace gigacheck::ui
