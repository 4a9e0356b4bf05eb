// The live timeline: one lane per (run, queue, stream), spans coloured by kind, hover tooltip,
// horizontal zoom and pan; a second run can stay on the same time axis for comparison.
#pragma once

#include "models/timelinemodel.hpp"
#include "engine/metatypes.hpp"

#include <QColor>
#include <QWidget>

class QCPAbstractItem;
class QCustomPlot;
class QCheckBox;
class QLabel;

namespace gigacheck::ui {

class LabSession;
class TimelinePlottable;

class TimelineView : public QWidget {
    Q_OBJECT
public:
    explicit TimelineView(QWidget* parent = nullptr);

    // Follows the session: a run's lanes fill live, a finished or opened record replaces them, a
    // comparison record goes first on the same time axis.
    void subscribe(LabSession* session);

    const TimelineModel& model() const { return model_; }
    QCustomPlot* plot() const { return plot_; }

    // Starts the lanes of a new run; keepPrevious keeps the last run for comparison.
    void beginRun(const QString& label, bool keepPrevious);
    void addSpans(const QVector<Span>& spans);
    // Replaces the current run's spans (a loaded or finished record).
    void setRunSpans(const std::vector<Span>& spans);
    void clear();
    void resetZoom();
    // What the tooltip says at a pixel of the plot (empty when no span is there).
    QString tooltipAt(const QPoint& pixel) const;
    // The colours of the operation kinds and what they mean (the legend below the plot).
    std::vector<std::pair<QColor, QString>> legendEntries() const;
    // The verdict shown above the lanes (the run's, in every view's words; empty before a record).
    QString verdictText() const;
    // The label of the recompute's mark (empty when the shown run recomputed nothing).
    const QString& recomputeText() const { return recomputeText_; }
    // Rows: run, lane, op, kind, block, start, end, bytes, flops.
    bool exportCsv(const QString& path, QString* error) const;

protected:
    void changeEvent(QEvent* event) override;

private:
    // Starts the lanes over with the comparison runs: a record opened for comparison (it stays
    // until removed) and the last run that ended well, each labelled as such.
    void showComparisons(const RecordPtr& fromFile, const RecordPtr& previous);
    // An online run whose check could not correct: its first pass, then the recompute (the spans
    // from op firstRecomputeOp on) as a run of its own, marked and labelled where it began.
    void setRunSpansWithRecompute(const std::vector<Span>& spans, int firstRecomputeOp, double seconds);
    void clearRecomputeMark();
    // The record's predicted spans as lanes of their own beside its measured ones.
    void showPrediction(const RecordEnvelope& r);
    // Over a run's fill or drain band (no span there): what it is and how long.
    QString endsTooltip(const RunEnds& e, double t) const;
    QString tooltipText(const Span* s) const;
    // The predicted-lanes box says "uncalibrated" when the record's device had no measured rates.
    void labelPrediction(const RecordEnvelope& r);
    // The CPU note with the shown run's busy shares of its load and compute lanes.
    void updateCpuNote();
    void updateLanes();
    void scheduleReplot();
    static std::uint32_t rolesOf(const Span* spans, std::size_t count);
    std::uint32_t shownRoles() const;
    static std::vector<std::pair<QColor, QString>> legendEntriesOf(std::uint32_t roles);
    // Rewrites the legend when the roles shown change (a live batch adds its own).
    void updateLegend(std::uint32_t roles);

    TimelineModel model_;
    QCustomPlot* plot_ = nullptr;
    TimelinePlottable* spans_ = nullptr;
    QLabel* legend_ = nullptr;
    QLabel* verdict_ = nullptr;  // the shown run's verdict (models/runverdict)
    std::vector<QCPAbstractItem*> recomputeItems_;  // the recompute's line and label
    QString recomputeText_;
    QLabel* cpuNote_ = nullptr;  // why the overlap of S2-S4 is hard to see on the CPU backend
    QCheckBox* predicted_ = nullptr;  // "predicted lanes": the cost model's timeline of the record shown
    RecordPtr shownRecord_;           // the record of the current run, whose prediction the box shows
    int currentRun_ = -1;
    bool follow_ = true;  // live runs keep the whole run in view until the user zooms or pans
    int lanesShown_ = -1;
    std::uint32_t legendRoles_ = ~0u;  // the roles the legend lists now (~0: not written yet)
    RecordPtr lastGood_;       // the last run with status ok: the only "previous run"
    RecordPtr previousShown_;  // the previous run shown beside the current one, if any
};

}  // namespace gigacheck::ui
