// The hand-off of a finished operation, the same for every executor: its events get the op's
// end time, go into the run's result, and reach the observer while the run goes on.
#pragma once

#include "core/op_table.hpp"

#include <atomic>
#include <mutex>

namespace gigacheck {

// Stamps the outcome's events with the span's end and appends span and events to the result.
// Not thread-safe: the caller holds whatever lock guards result.
void recordOutcome(ExecutionResult& result, const Span& span, OpOutcome& outcome);

// Hands span and events to the observer (if any), then the progress. Called without locks held
// (observers may take their own), possibly from several threads at once.
class OpReporter {
public:
    OpReporter(RunObserver* observer, std::size_t totalOps) : observer_(observer), total_(totalOps) {}
    // doneOps: operations finished so far, this one included.
    void report(const Span& span, const OpOutcome& outcome, std::size_t doneOps);

private:
    RunObserver* observer_;
    std::size_t total_;
    std::mutex progressMutex_;
    double reportedProgress_ = 0;  // several threads finish ops: the fraction reported only grows
};

}  // namespace gigacheck
