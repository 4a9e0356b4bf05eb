#include "core/op_reporting.hpp"

namespace gigacheck {

void recordOutcome(ExecutionResult& result, const Span& span, OpOutcome& outcome)
{
    result.spans.push_back(span);
    for (InjectEvent& e : outcome.injections) {
        e.time = span.end;
        result.injections.push_back(e);
    }
    if (outcome.verification) {
        outcome.verification->time = span.end;
        result.verifications.push_back(*outcome.verification);
    }
}

void OpReporter::report(const Span& span, const OpOutcome& outcome, std::size_t doneOps)
{
    if (!observer_)
        return;
    observer_->onSpan(span);
    for (const InjectEvent& e : outcome.injections)
        observer_->onInject(e);
    if (outcome.verification)
        observer_->onVerify(*outcome.verification);
    std::lock_guard lock(progressMutex_);
    const double progress = double(doneOps) / double(total_);
    if (progress > reportedProgress_) {
        reportedProgress_ = progress;
        observer_->onProgress(progress);
    }
}

}  // namespace gigacheck
