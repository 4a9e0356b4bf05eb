#include "campaignmodel.hpp"

namespace gigacheck::ui {

QString bitsText(const CampaignRun& run)
{
    return run.bit2 < 0 ? QString::number(run.bit) : QStringLiteral("%1+%2").arg(run.bit).arg(run.bit2);
}

namespace {
QString qs(std::string_view s) { return QString::fromUtf8(s.data(), qsizetype(s.size())); }
}  // namespace

QColor outcomeColor(Outcome o)
{
    switch (o) {
    case Outcome::Masked: return QColor(0x9a, 0xa3, 0xad);                 // grey: nothing happened
    case Outcome::Corrected: return QColor(0x4c, 0xa8, 0x3f);              // green: ABFT did its job
    case Outcome::CorrectedByRecompute: return QColor(0x2b, 0xa8, 0x9c);   // teal: repaired at a cost
    case Outcome::DetectedUncorrectable: return QColor(0xe8, 0xa3, 0x3d);  // orange: known but lost
    case Outcome::SilentCorruption: return QColor(0xd6, 0x45, 0x45);       // red: the failure that matters
    case Outcome::FalseAlarm: return QColor(0xb0, 0x3c, 0xd6);             // purple: a bug of the checks
    }
    return Qt::gray;
}

QString outcomeLabel(Outcome o) { return qs(describe(o)); }

CampaignModel::CampaignModel(QObject* parent) : QAbstractTableModel(parent) {}

void CampaignModel::setCampaign(const CampaignResult& campaign)
{
    beginResetModel();
    campaign_ = campaign;
    byBits_ = !campaign_.summary.byBit.empty();
    endResetModel();
}

const std::vector<CampaignGroup>& CampaignModel::groups() const
{
    return byBits_ ? campaign_.summary.byBit : campaign_.summary.byTarget;
}

bool CampaignModel::inGroup(const CampaignRun& run, int group) const
{
    const std::string& key = groups()[std::size_t(group)].key;
    return byBits_ ? std::to_string(run.bit) == key : targetKey(run) == key;
}

std::optional<std::size_t> CampaignModel::runFor(int group, Outcome outcome) const
{
    if (group < 0 || std::size_t(group) >= groups().size())
        return std::nullopt;
    for (std::size_t i = 0; i < campaign_.runs.size(); ++i)
        if (campaign_.runs[i].outcome == outcome && inGroup(campaign_.runs[i], group))
            return i;
    return std::nullopt;
}

RunConfig CampaignModel::runConfig(std::size_t index) const
{
    return campaignRunConfig(campaign_.config, campaign_.runs.at(index));
}

std::optional<OnlineConfig> CampaignModel::onlineRunConfig(std::size_t index) const
{
    if (campaign_.config.family != OnlineCampaignSettings::kFamily)
        return std::nullopt;
    return onlineCampaignRunConfig(campaign_.config, campaign_.runs.at(index));
}

std::optional<StrassenConfig> CampaignModel::strassenRunConfig(std::size_t index) const
{
    if (campaign_.config.family != StrassenCampaignSettings::kFamily)
        return std::nullopt;
    return strassenCampaignRunConfig(campaign_.config, campaign_.runs.at(index));
}

int CampaignModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(campaign_.runs.size());
}

int CampaignModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant CampaignModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= ColumnCount)
        return {};
    const CampaignRun& run = campaign_.runs[std::size_t(index.row())];
    if (role == Qt::DecorationRole && index.column() == OutcomeColumn)
        return outcomeColor(run.outcome);
    if (role == Qt::ToolTipRole)
        return qs(reproduceCommand(campaign_.config, run));
    if (role != Qt::DisplayRole)
        return {};
    switch (Column(index.column())) {
    case RunColumn: return run.index;
    case StrategyColumn:  // what varies run by run in the family: strategy, step, levels
        return qs(campaignRunVaries(campaign_.config, run));
    case TargetColumn: return qs(targetKey(run));
    case BitColumn: return run.bit < 0 ? QVariant(QStringLiteral("-")) : run.bit2 < 0 ? QVariant(run.bit) : QVariant(bitsText(run));
    case PositionColumn: return qs(campaignRunPositions(campaign_.config, run));
    case OutcomeColumn: return outcomeLabel(run.outcome);
    case ColumnCount: break;
    }
    return {};
}

QVariant CampaignModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (Column(section)) {
    case RunColumn: return QStringLiteral("run");
    case StrategyColumn: return qs(campaignVariesTitle(campaign_.config));
    case TargetColumn: return QStringLiteral("target");
    case BitColumn: return QStringLiteral("bit");
    case PositionColumn: return QStringLiteral("position");
    case OutcomeColumn: return QStringLiteral("outcome");
    case ColumnCount: break;
    }
    return {};
}

}  // namespace gigacheck::ui
