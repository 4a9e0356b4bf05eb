#include "labsession.hpp"

#include "engine/enginecontroller.hpp"
#include "models/runverdict.hpp"

namespace gigacheck::ui {

LabSession::LabSession(QObject* parent) : QObject(parent)
{
    registerMetaTypes();
    engine_ = new EngineController(this);
    connect(engine_, &EngineController::spansArrived, this, &LabSession::spansArrived);
    connect(engine_, &EngineController::injectArrived, this, [this](const QVector<InjectEvent>& events) {
        injections_.insert(injections_.end(), events.begin(), events.end());
        emit injectionsArrived(events);
    });
    connect(engine_, &EngineController::verifyArrived, this, [this](const QVector<VerifyEvent>& events) {
        verifications_.insert(verifications_.end(), events.begin(), events.end());
        emit verificationsArrived(events);
    });
    connect(engine_, &EngineController::resultTilesArrived, this, &LabSession::resultTilesArrived);
    connect(engine_, &EngineController::progressChanged, this, &LabSession::progressChanged);
    connect(engine_, &EngineController::onlineFinished, this, [this](const OnlinePtr& run) { pendingOnline_ = run; });
    connect(engine_, &EngineController::runFinished, this, [this](const RecordPtr& record, const HostMatrix& c) {
        record_ = record;
        // The online run whose record this is (the worker shares the record with its run).
        const bool ownRun = pendingOnline_ && &pendingOnline_->record == record.get();
        online_ = ownRun ? std::exchange(pendingOnline_, nullptr) : nullptr;
        // The live events are the record's events; keep the record's (the complete list).
        if (injections_.size() != record->injections.size())
            injections_ = record->injections;
        if (verifications_.size() != record->verifications.size())
            verifications_ = record->verifications;
        pushHistory(record, true);
        result_ = c;  // shares C's storage, no copy
        emit recordChanged(record_, Origin::Run, c);
        emit historyChanged();
    });
    connect(engine_, &EngineController::runFailed, this, &LabSession::runFailed);
}

LabSession::~LabSession() = default;

void LabSession::start(const RunConfig& config, bool keepPrevious)
{
    injections_.clear();
    verifications_.clear();
    startedBlocked_ = config;
    startedOnline_.reset();
    emit runStarted(keepPrevious);
    engine_->start(config, operands_.present() ? operands_ : RunOperands{});
}

void LabSession::startOnline(const OnlineConfig& config, bool keepPrevious)
{
    injections_.clear();
    verifications_.clear();
    pendingOnline_.reset();
    startedBlocked_.reset();
    startedOnline_ = config;
    emit runStarted(keepPrevious);
    engine_->startOnline(config);
}

Shape LabSession::startedShape() const
{
    return startedOnline_ ? startedOnline_->shape : startedBlocked_ ? startedBlocked_->shape : Shape{};
}

QString LabSession::startedName() const
{
    return startedOnline_ ? schemeLabel(*startedOnline_) : startedBlocked_ ? strategyLabel(*startedBlocked_) : QString();
}

void LabSession::cancel()
{
    engine_->cancel();
}

bool LabSession::isRunning() const
{
    return engine_->isRunning();
}

void LabSession::openOnlineRecord(OnlineRecord record)
{
    auto run = std::make_shared<OnlineRun>();
    run->record = std::move(record);
    record_ = RecordPtr(run, &run->record);  // the online record itself, shared with its run
    online_ = std::move(run);
    baseline_.reset();
    injections_ = record_->injections;
    verifications_ = record_->verifications;
    history_ = {record_};
    result_ = HostMatrix();
    emit recordChanged(record_, Origin::File, HostMatrix());
    emit historyChanged();
}

void LabSession::openRecord(RunRecord record)
{
    online_.reset();
    record_ = std::make_shared<const RunRecord>(std::move(record));
    baseline_.reset();
    injections_ = record_->injections;
    verifications_ = record_->verifications;
    history_ = {record_};
    result_ = HostMatrix();
    emit recordChanged(record_, Origin::File, HostMatrix());
    emit historyChanged();
}

void LabSession::addBaseline(RecordPtr baseline)
{
    baseline_ = std::move(baseline);
    pushHistory(baseline_, false);
    emit baselineAdded(baseline_);
    emit historyChanged();
}

void LabSession::removeBaseline()
{
    if (!baseline_)
        return;
    std::erase(history_, baseline_);
    baseline_.reset();
    emit baselineRemoved();
    emit historyChanged();
}

void LabSession::pushHistory(RecordPtr record, bool newest)
{
    // The roofline keeps the newest runs; a baseline goes first (it was run before).
    if (newest) {
        history_.push_back(std::move(record));
        if (history_.size() > kMaxHistory)
            history_.erase(history_.begin());
    } else {
        history_.insert(history_.begin(), std::move(record));
        if (history_.size() > kMaxHistory)
            history_.pop_back();
    }
}

}  // namespace gigacheck::ui
