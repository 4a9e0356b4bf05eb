#include "views/online/fqsweepmodel.hpp"

#include <gigacheck/backend.hpp>

#include <QPointer>
#include <QThread>

namespace gigacheck::ui {

FqSweepModel::FqSweepModel(QObject* parent) : QObject(parent) {}

FqSweepModel::~FqSweepModel()
{
    if (worker_) {
        cancel_->store(true);
        worker_->wait();
    }
}

bool FqSweepModel::start(const FqSweepOptions& options, BackendKind backend)
{
    if (worker_)
        return false;
    cancel_ = std::make_shared<std::atomic<bool>>(false);
    auto cancel = cancel_;
    QPointer<FqSweepModel> self(this);
    worker_ = QThread::create([self, cancel, options, backend] {
        std::optional<FqSweepResult> result;
        QString error;
        try {
            std::unique_ptr<Backend> engine = makeBackend(backend, -1);
            engine->prepare();
            result = sweepCheckEvery(options, *engine, [self, cancel](double f) {
                QMetaObject::invokeMethod(self, [self, f] {
                    if (self)
                        emit self->progress(f);
                });
                return !cancel->load();
            });
        } catch (const std::exception& e) {
            error = QString::fromUtf8(e.what());
        }
        QMetaObject::invokeMethod(self, [self, result = std::move(result), error] {
            if (!self)
                return;
            self->worker_->wait();
            self->worker_->deleteLater();
            self->worker_ = nullptr;
            if (result) {
                self->result_ = result;
                emit self->finished();
            } else {
                emit self->failed(error);
            }
        });
    });
    worker_->start(QThread::LowPriority);
    return true;
}

void FqSweepModel::cancel()
{
    if (cancel_)
        cancel_->store(true);
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
