// Log-log roofline: compute roofs per precision, device-memory and host-link roofs, and the
// points of the runs (measured, the seed's naive point, per operation kind).
#pragma once

#include "models/ceilingpresets.hpp"
#include "models/rooflinemodel.hpp"

#include "engine/metatypes.hpp"

#include <QWidget>

class QCustomPlot;
class QComboBox;
class QLabel;
class QProgressBar;
class QPushButton;

namespace gigacheck::ui {

class LabSession;

class RooflineView : public QWidget {
    Q_OBJECT
public:
    explicit RooflineView(QWidget* parent = nullptr);

    // Follows the session's history of runs.
    void subscribe(LabSession* session);
    // Runs shown (newest last); the newest run's device picks the roofs unless a preset is chosen.
    // A run already shown keeps its summary: a new run costs its own spans, not the history's.
    void setRuns(std::vector<RecordPtr> runs);
    void setRuns(const std::vector<RunRecord>& runs);
    QCustomPlot* plot() const { return plot_; }
    const std::vector<Roof>& roofs() const { return roofs_; }
    const std::vector<RooflineRun>& runs() const { return summaries_; }
    // The colour of each shown run (same order as runs()), stable per run: runColorIndices.
    QColor runColor(std::size_t run) const;
    // The text under the plot: what the roofs are, what the markers mean.
    QString noteText() const;
    Ceilings activeCeilings() const;
    // Rows: run, point, kind, intensity, gflops; then the roofs.
    bool exportCsv(const QString& path, QString* error) const;

    // "Measure this machine…" beside the Roofs box (the window measures: measureRequested); while
    // a measurement goes on, a progress bar and Cancel in its place (measureCancelRequested).
    QPushButton* measureButton() const { return measure_; }
    void setMeasuring(bool measuring);
    void showMeasureProgress(const QString& stage, int done, int total);
    // Roofs just measured on this machine: an entry "measured: <device>" in the Roofs box (one per
    // device, replaced by a newer measurement), chosen at once.
    void showMeasured(const DeviceInfo& device);
    // The roofs drawn are measured ones (not a datasheet preset).
    bool showsMeasuredRoofs() const;

signals:
    void measureRequested();
    void measureCancelRequested();

protected:
    void changeEvent(QEvent* event) override;

private:
    void rebuild();

    QCustomPlot* plot_ = nullptr;
    QComboBox* source_ = nullptr;
    QLabel* note_ = nullptr;
    QPushButton* measure_ = nullptr;
    QProgressBar* measureProgress_ = nullptr;
    QPushButton* measureCancel_ = nullptr;
    // Measured entries first ("measured: <device>", no `matches`), then the datasheet presets;
    // the Roofs box lists them after its first entry (the run's device).
    std::vector<CeilingPreset> presets_;
    DeviceInfo thisCpu_;  // without a run: this machine's CPU (its stored roofs, else its preset)
    const RooflineRun& summaryOf(const RecordPtr& run, double h2dGBs);

    std::vector<RecordPtr> runs_;
    struct CachedSummary {
        RecordPtr run;
        double h2dGBs = 0;
        RooflineRun summary;
    };
    std::vector<CachedSummary> cache_;  // of the runs shown
    std::vector<Roof> roofs_;
    std::vector<RooflineRun> summaries_;
    std::vector<int> runColors_;  // accentColor index per shown run
};

}  // namespace gigacheck::ui
