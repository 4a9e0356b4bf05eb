#include "timelinemodel.hpp"

#include <algorithm>
#include <tuple>

namespace gigacheck::ui {

void RunEnds::note(const Span& s)
{
    if (s.kind == OpKind::Recompute)
        return;  // the repair pass after the run
    start = hasSpan ? std::min(start, s.start) : s.start;
    end = hasSpan ? std::max(end, s.end) : s.end;
    hasSpan = true;
    if (s.kind != OpKind::Product)
        return;
    firstProduct = hasProduct ? std::min(firstProduct, s.start) : s.start;
    lastProduct = hasProduct ? std::max(lastProduct, s.end) : s.end;
    hasProduct = true;
}

int TimelineModel::addRun(const std::string& label)
{
    runLabels_.push_back(label);
    predictionOf_.push_back(-1);
    ends_.emplace_back();
    const int run = runCount() - 1;
    // The three queues of stream 0 exist from the start so lanes do not jump as spans arrive.
    for (Queue q : {Queue::H2D, Queue::Compute, Queue::D2H})
        laneFor(run, q, 0);
    return run;
}

void TimelineModel::setRunLabel(int run, const std::string& label)
{
    if (run >= 0 && run < runCount())
        runLabels_[std::size_t(run)] = label;
}

void TimelineModel::clear()
{
    runLabels_.clear();
    predictionOf_.clear();
    ends_.clear();
    lanes_.clear();
    spanCount_ = 0;
    endTime_ = 0;
}

void TimelineModel::keepOnlyLastRun()
{
    if (runLabels_.empty())
        return;
    const int last = runCount() - 1;
    std::erase_if(lanes_, [last](const TimelineLane& l) { return l.run != last; });
    for (auto& l : lanes_)
        l.run = 0;
    runLabels_ = {runLabels_.back()};
    predictionOf_ = {-1};
    ends_ = {ends_.back()};
    spanCount_ = 0;
    endTime_ = 0;
    for (const auto& l : lanes_) {
        spanCount_ += l.spans.size();
        for (const auto& s : l.spans)
            endTime_ = std::max(endTime_, s.end);
    }
}

void TimelineModel::removeRunsFrom(int run)
{
    if (run < 0 || run >= runCount())
        return;
    std::erase_if(lanes_, [run](const TimelineLane& l) { return l.run >= run; });
    runLabels_.resize(std::size_t(run));
    predictionOf_.resize(std::size_t(run));
    ends_.resize(std::size_t(run));
    spanCount_ = 0;
    endTime_ = 0;
    for (const auto& l : lanes_) {
        spanCount_ += l.spans.size();
        for (const auto& s : l.spans)
            endTime_ = std::max(endTime_, s.end);
    }
}

int TimelineModel::laneFor(int run, Queue queue, int stream, int device)
{
    const auto key = std::make_tuple(run, device, int(queue), stream);
    auto less = [](const TimelineLane& l, const std::tuple<int, int, int, int>& k) {
        return std::make_tuple(l.run, l.device, int(l.queue), l.stream) < k;
    };
    auto it = std::lower_bound(lanes_.begin(), lanes_.end(), key, less);
    if (it == lanes_.end() || std::make_tuple(it->run, it->device, int(it->queue), it->stream) != key) {
        TimelineLane lane;
        lane.run = run;
        lane.device = device;
        lane.queue = queue;
        lane.stream = stream;
        it = lanes_.insert(it, std::move(lane));
    }
    return int(it - lanes_.begin());
}

void TimelineModel::addSpans(int run, const Span* spans, std::size_t count)
{
    for (std::size_t i = 0; i < count; ++i) {
        const Span& s = spans[i];
        TimelineLane& lane = lanes_[std::size_t(laneFor(run, s.queue, s.stream, s.device))];
        // Spans arrive roughly in order, so the insertion point is almost always the end.
        auto pos = std::upper_bound(lane.spans.begin(), lane.spans.end(), s.start,
                                    [](double t, const Span& x) { return t < x.start; });
        lane.spans.insert(pos, s);
        lane.maxDuration = std::max(lane.maxDuration, s.end - s.start);
        endTime_ = std::max(endTime_, s.end);
        ends_[std::size_t(run)].note(s);
    }
    spanCount_ += count;
}

double TimelineModel::busyShare(int run, Queue queue) const
{
    const RunEnds& e = runEnds(run);
    if (!e.hasSpan || e.end <= e.start)
        return 0;
    double sum = 0;
    int lanes = 0;
    for (const TimelineLane& l : lanes_) {
        if (l.run != run || l.queue != queue || l.spans.empty())
            continue;
        double busy = 0;
        for (const Span& s : l.spans)
            busy += s.end - s.start;
        sum += std::min(busy / (e.end - e.start), 1.0);
        ++lanes;
    }
    return lanes > 0 ? sum / lanes : 0;
}

int TimelineModel::addPredictedRun(int measuredRun, const std::vector<Span>& spans)
{
    for (int r = 0; r < runCount(); ++r)
        if (predictionOf_[std::size_t(r)] == measuredRun) {
            removeRunsFrom(r);  // the prediction shown before, and anything after it
            break;
        }
    const int run = addRun(runLabels_[std::size_t(measuredRun)] + " predicted");
    predictionOf_[std::size_t(run)] = measuredRun;
    addSpans(run, spans);
    return run;
}

int TimelineModel::predictionOf(int run) const
{
    return run >= 0 && run < runCount() ? predictionOf_[std::size_t(run)] : -1;
}

const Span* TimelineModel::measuredTwin(int predictedRun, int opId) const
{
    const int measured = predictionOf(predictedRun);
    if (measured < 0)
        return nullptr;
    for (const TimelineLane& l : lanes_)
        if (l.run == measured)
            for (const Span& s : l.spans)
                if (s.opId == opId)
                    return &s;
    return nullptr;
}

std::size_t TimelineModel::spanCount(int run) const
{
    std::size_t n = 0;
    for (const auto& l : lanes_)
        if (l.run == run)
            n += l.spans.size();
    return n;
}

std::string TimelineModel::laneLabel(int i) const
{
    const TimelineLane& l = lane(i);
    // A lone run is named only when the planner chose its strategy ("auto→s2 H2D s0").
    const std::string& run = runLabels_[std::size_t(l.run)];
    std::string label = runCount() > 1 || run.rfind("auto", 0) == 0 ? run + " " : std::string();
    if (l.device != 0)  // single-device runs keep their labels
        label.append("d").append(std::to_string(l.device)).append(" ");
    label.append(toString(l.queue)).append(" s").append(std::to_string(l.stream));
    return label;
}

std::pair<std::size_t, std::size_t> TimelineModel::visibleRange(int laneIndex, double t0, double t1) const
{
    const auto& spans = lane(laneIndex).spans;
    const double from = t0 - lane(laneIndex).maxDuration;
    auto first = std::lower_bound(spans.begin(), spans.end(), from,
                                  [](const Span& x, double t) { return x.start < t; });
    auto last = std::upper_bound(first, spans.end(), t1, [](double t, const Span& x) { return t < x.start; });
    return {std::size_t(first - spans.begin()), std::size_t(last - spans.begin())};
}

const Span* TimelineModel::spanAt(int laneIndex, double t, double tolerance) const
{
    if (laneIndex < 0 || laneIndex >= laneCount())
        return nullptr;
    const auto& spans = lane(laneIndex).spans;
    auto [first, last] = visibleRange(laneIndex, t - tolerance, t + tolerance);
    const Span* best = nullptr;
    double bestDistance = tolerance;
    for (std::size_t i = first; i < last; ++i) {
        const Span& s = spans[i];
        const double distance = t < s.start ? s.start - t : (t > s.end ? t - s.end : 0.0);
        if (distance <= bestDistance) {
            // Inside beats near; among several inside, the shortest is the most specific.
            if (!best || distance < bestDistance || (s.end - s.start) < (best->end - best->start)) {
                best = &s;
                bestDistance = distance;
            }
        }
    }
    return best;
}

}  // namespace gigacheck::ui
