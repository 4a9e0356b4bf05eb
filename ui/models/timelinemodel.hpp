// The spans of one or two runs, arranged in lanes (run, queue, stream) and sorted by start time
// so that painting and hit-testing only touch what is visible (Qt Creator's TimelineModel shape).
#pragma once

#include <gigacheck/events.hpp>

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace gigacheck::ui {

struct TimelineLane {
    int run = 0;
    int device = 0;  // lanes of a schedule over several devices come per device, device 0 first
    Queue queue = Queue::Compute;
    int stream = 0;
    std::vector<Span> spans;  // sorted by start
    double maxDuration = 0;   // lets a range query start early enough to catch long spans
};

// A run's ends without a product running (blocked GEMM runs): fill from its first
// span's start to its first product's start, drain from its last product's end to its last span's
// end (the repair pass after a run does not count).
struct RunEnds {
    bool hasSpan = false, hasProduct = false;
    double start = 0, firstProduct = 0, lastProduct = 0, end = 0;
    double fill() const { return hasProduct ? firstProduct - start : 0; }
    double drain() const { return hasProduct ? end - lastProduct : 0; }
    void note(const Span& s);  // widens the ends by a span that arrived
};

class TimelineModel {
public:
    // Runs are shown top to bottom in the order they were added; the label names their lanes.
    int addRun(const std::string& label);
    // Relabels a run (a live run's label once its record says what ran, e.g. "auto→s2").
    void setRunLabel(int run, const std::string& label);
    void clear();
    // Drops every run but the last one added (the "compare with..." baseline).
    void keepOnlyLastRun();
    // Drops run and every run added after it (their lanes and labels).
    void removeRunsFrom(int run);
    void addSpans(int run, const Span* spans, std::size_t count);
    void addSpans(int run, const std::vector<Span>& spans) { addSpans(run, spans.data(), spans.size()); }
    // The cost model's spans of a run (RunRecord::predictedSpans) as a run of their own, labelled
    // "<run's label> predicted", whose lanes follow; replaces the prediction shown before.
    int addPredictedRun(int measuredRun, const std::vector<Span>& spans);
    // The run whose prediction `run` is; -1 when run is a measured one.
    int predictionOf(int run) const;
    // The span of the same op in the measured run of a predicted run (nullptr when none).
    const Span* measuredTwin(int predictedRun, int opId) const;

    int runCount() const { return int(runLabels_.size()); }
    const std::string& runLabel(int run) const { return runLabels_[std::size_t(run)]; }
    int laneCount() const { return int(lanes_.size()); }
    const TimelineLane& lane(int i) const { return lanes_[std::size_t(i)]; }
    std::string laneLabel(int i) const;
    std::size_t spanCount() const { return spanCount_; }
    std::size_t spanCount(int run) const;
    double endTime() const { return endTime_; }
    const RunEnds& runEnds(int run) const { return ends_[std::size_t(run)]; }
    // The share of the run's time (first span's start to last span's end) that its lanes of queue
    // were busy, averaged over those lanes that hold spans; 0 when none does. The note under the
    // timeline quotes it (why a CPU run's load lanes are drawn pale).
    double busyShare(int run, Queue queue) const;

    // Index range [first, last) of the spans of lane that may overlap [t0, t1].
    std::pair<std::size_t, std::size_t> visibleRange(int lane, double t0, double t1) const;
    // The span of lane under time t, within tolerance seconds; nullptr when none.
    const Span* spanAt(int lane, double t, double tolerance) const;

private:
    int laneFor(int run, Queue queue, int stream, int device = 0);

    std::vector<std::string> runLabels_;
    std::vector<int> predictionOf_;  // per run: the measured run it predicts, or -1
    std::vector<RunEnds> ends_;      // per run
    std::vector<TimelineLane> lanes_;
    std::size_t spanCount_ = 0;
    double endTime_ = 0;
};

}  // namespace gigacheck::ui
