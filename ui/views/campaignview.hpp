// A campaign in the lab: the outcome-by-bit stacked bar chart (fraction of runs per outcome class,
// one bar per flipped bit, or per target when the campaign flips no bits), the outcome table with
// 95 % intervals and the list of runs. A click on a bar segment (or a double click on a run) asks to
// re-run that one run: its configuration is deterministic (same seed, same inputs, same fault), so
// the engine worker replays it exactly and the error animation shows it.
#pragma once

#include "campaignmodel.hpp"

#include <QWidget>

#include <optional>

class QCustomPlot;
class QCPBars;
class QLabel;
class QTableView;

namespace gigacheck::ui {

class CampaignView : public QWidget {
    Q_OBJECT
public:
    struct Segment {
        int group = 0;  // index into model()->groups()
        Outcome outcome = Outcome::Masked;
        bool operator==(const Segment&) const = default;
    };

    explicit CampaignView(QWidget* parent = nullptr);

    void setCampaign(const CampaignResult& campaign);
    // Loads a `gigacheck campaign --json` file; false with the reason (naming the file) when refused.
    bool openFile(const QString& path, QString* error);
    const CampaignModel* model() const { return model_; }
    QCustomPlot* plot() const { return plot_; }
    QCPBars* bars(Outcome outcome) const { return bars_[std::size_t(outcome)]; }

    // Hit test, separate from painting: the segment under a widget pixel of the plot, if any.
    std::optional<Segment> segmentAt(const QPointF& plotPixel) const;
    // Emits runRequested for one run of that segment; false when the segment holds no run, or only
    // operand faults (which the engine worker cannot replay).
    bool openSegment(const Segment& segment);
    bool openRun(std::size_t index);
    // Every how many bars a tick is labelled so that the labels of an axis axisPixels wide never
    // run together (1: every bar).
    int tickLabelStepFor(int axisPixels) const;
    int tickLabelStep() const { return labelStep_; }
    // The runs, one row each (the same columns as `gigacheck campaign --csv`).
    bool exportCsv(const QString& path, QString* error) const;

signals:
    // config re-runs the run alone; description says which run it is ("run 17: bit 23, sdc").
    void runRequested(const gigacheck::RunConfig& config, const QString& description);
    // The same for a run of an online / offline / TMR campaign.
    void onlineRunRequested(const gigacheck::OnlineConfig& config, const QString& description);
    // The same for a run of a Strassen campaign.
    void strassenRunRequested(const gigacheck::StrassenConfig& config, const QString& description);

protected:
    void changeEvent(QEvent* event) override;

private:
    void rebuild();
    void labelTicks();
    void onMouseMove(const QPointF& pixel);

    CampaignModel* model_ = nullptr;
    QCustomPlot* plot_ = nullptr;
    std::array<QCPBars*, kOutcomeCount> bars_{};
    QLabel* summary_ = nullptr;
    QLabel* hint_ = nullptr;
    QTableView* table_ = nullptr;
    int labelStep_ = 0;  // of the ticker in place; 0: none yet
};

}  // namespace gigacheck::ui
