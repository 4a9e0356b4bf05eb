#include "campaignmodel.hpp"

namespace gigacheck::ui {

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
        switch (campaign_.config.family) {
        case CampaignFamily::Online:
            return run.step >= 0 ? QStringLiteral("%1 %2").arg(campaign_.config.scheme == "tmr" ? QStringLiteral("replica")
                                                                                                 : QStringLiteral("step"))
                                       .arg(run.step)
                                 : QStringLiteral("at encoding");
        case CampaignFamily::Strassen: return QStringLiteral("L%1").arg(run.level);
        case CampaignFamily::Blocked: break;
        }
        return qs(toString(run.strategy));
    case TargetColumn: return qs(targetKey(run));
    case BitColumn: return run.bit >= 0 ? QVariant(run.bit) : QVariant(QStringLiteral("-"));
    case PositionColumn: {
        QStringList cells;
        for (const StrassenFaultPlace& p : run.places)  // Strassen: a leaf or a quadrant, not a cell
            cells << QStringLiteral("%1:%2").arg(qs(p.where)).arg(p.index);
        if (campaign_.config.family == CampaignFamily::Online) {  // the planned cells (its record holds no blocks)
            for (const FaultAt& at : run.positions)
                cells << QStringLiteral("(%1, %2)").arg(at.row).arg(at.col);
            return cells.join(QStringLiteral(" "));
        }
        for (const Injection& inj : run.applied)
            cells << QStringLiteral("(%1, %2)")
                         .arg(inj.globalRow >= 0 ? QString::number(inj.globalRow) : QStringLiteral("checksum"),
                              inj.globalCol >= 0 ? QString::number(inj.globalCol) : QStringLiteral("checksum"));
        return cells.join(QStringLiteral(" "));
    }
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
    case StrategyColumn:
        return campaign_.config.family == CampaignFamily::Online     ? QStringLiteral("step")
               : campaign_.config.family == CampaignFamily::Strassen ? QStringLiteral("levels")
                                                                     : QStringLiteral("strategy");
    case TargetColumn: return QStringLiteral("target");
    case BitColumn: return QStringLiteral("bit");
    case PositionColumn: return QStringLiteral("position");
    case OutcomeColumn: return QStringLiteral("outcome");
    case ColumnCount: break;
    }
    return {};
}

}  // namespace gigacheck::ui
