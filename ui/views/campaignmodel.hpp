// A loaded campaign for the lab: the runs as a table model, the outcome-by-bit stacks of the chart
// (the AVF-style plot of NVBitFI / SASSIFI users) and which run a stack segment stands for.
#pragma once

#include <gigacheck/blocked_gemm/campaign.hpp>
#include <gigacheck/online_abft/campaign.hpp>
#include <gigacheck/strassen/campaign.hpp>

#include <QAbstractTableModel>
#include <QColor>

#include <optional>

namespace gigacheck::ui {

// A run's flipped bits: "30", or "3+9" for two bits of one word.
QString bitsText(const CampaignRun& run);

// One colour per outcome class, the same in the chart, its legend and the table.
QColor outcomeColor(Outcome outcome);
QString outcomeLabel(Outcome outcome);

class CampaignModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { RunColumn, StrategyColumn, TargetColumn, BitColumn, PositionColumn, OutcomeColumn, ColumnCount };

    explicit CampaignModel(QObject* parent = nullptr);

    void setCampaign(const CampaignResult& campaign);
    const CampaignResult& campaign() const { return campaign_; }
    bool isEmpty() const { return campaign_.runs.empty(); }

    // The chart's stacks: by bit for bit-flip campaigns, else by target (delta faults, --fault none).
    bool groupsAreBits() const { return byBits_; }
    const std::vector<CampaignGroup>& groups() const;
    // Index into campaign().runs of one run of this group and outcome (the first; there may be
    // many), or nothing when the segment is empty.
    std::optional<std::size_t> runFor(int group, Outcome outcome) const;
    // The configuration that re-runs run number index alone (deterministic: same inputs, same fault).
    RunConfig runConfig(std::size_t index) const;
    // An online-family campaign's run as the online scheme's configuration; nothing for the others.
    std::optional<OnlineConfig> onlineRunConfig(std::size_t index) const;
    // A Strassen campaign's run as the Strassen run's configuration; nothing for the others.
    std::optional<StrassenConfig> strassenRunConfig(std::size_t index) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    bool inGroup(const CampaignRun& run, int group) const;

    CampaignResult campaign_;
    bool byBits_ = false;
};

}  // namespace gigacheck::ui
