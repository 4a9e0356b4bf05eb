#include "batchingobserver.hpp"

#include <utility>

namespace gigacheck::ui {

void BatchingObserver::onSpan(const Span& s)
{
    std::lock_guard lock(mutex_);
    pending_.spans.push_back(s);
}

void BatchingObserver::onInject(const InjectEvent& e)
{
    std::lock_guard lock(mutex_);
    pending_.injections.push_back(e);
}

void BatchingObserver::onVerify(const VerifyEvent& e)
{
    std::lock_guard lock(mutex_);
    pending_.verifications.push_back(e);
}

void BatchingObserver::onProgress(double fraction)
{
    std::lock_guard lock(mutex_);
    pending_.progress = fraction;
}

BatchingObserver::Batch BatchingObserver::take()
{
    std::lock_guard lock(mutex_);
    return std::exchange(pending_, Batch{});
}

void BatchingObserver::clear()
{
    std::lock_guard lock(mutex_);
    pending_ = Batch{};
}

}  // namespace gigacheck::ui
