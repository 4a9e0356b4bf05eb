#include "models/familyrecord.hpp"

#include "models/runverdict.hpp"

#include <gigacheck/family.hpp>

namespace gigacheck::ui {

const RunRecord* blockedRecordOf(const RecordEnvelope& record)
{
    return record.family == RunRecord().family ? static_cast<const RunRecord*>(&record) : nullptr;
}

std::shared_ptr<const RunRecord> blockedRecordOf(const RecordPtr& record)
{
    if (!record || !blockedRecordOf(*record))
        return nullptr;
    return std::static_pointer_cast<const RunRecord>(record);
}

const OnlineRecord* onlineRecordOf(const RecordEnvelope& record)
{
    return record.family == OnlineRecord::kFamily ? static_cast<const OnlineRecord*>(&record) : nullptr;
}

const StrassenResult* strassenRecordOf(const RecordEnvelope& record)
{
    return record.family == StrassenResult().family ? static_cast<const StrassenResult*>(&record) : nullptr;
}

Shape resultShapeOf(const RecordEnvelope& record)
{
    if (const RunRecord* blocked = blockedRecordOf(record))
        return blocked->config.shape;
    if (const OnlineRecord* online = onlineRecordOf(record))
        return online->config.shape;
    if (const StrassenResult* strassen = strassenRecordOf(record))
        return strassen->config.shape;
    return Shape{};
}

QString runNameOf(const RecordEnvelope& record)
{
    if (const RunRecord* blocked = blockedRecordOf(record))
        return strategyLabel(blocked->config);
    if (const OnlineRecord* online = onlineRecordOf(record))
        return schemeLabel(online->config);
    // Another family's (a baseline from File > Compare): its name for people, from the registry.
    const Family* family = findFamily(record.family);
    const std::string_view name = family ? family->title : std::string_view(record.family);
    return QString::fromUtf8(name.data(), qsizetype(name.size()));
}

QString runFileStem(const RecordEnvelope& record)
{
    // A blocked run by its strategy, an online run by its scheme, a Strassen run by its variant.
    std::string what = record.family;
    if (const RunRecord* blocked = blockedRecordOf(record))
        what = toString(blocked->config.strategy);
    else if (const OnlineRecord* online = onlineRecordOf(record))
        what = toString(online->config.scheme);
    else if (const StrassenResult* strassen = strassenRecordOf(record))
        what = "strassen-" + std::string(toString(strassen->config.variant));
    const Shape s = resultShapeOf(record);
    return QStringLiteral("%1-%2x%3x%4")
        .arg(QString::fromUtf8(what.data(), qsizetype(what.size())))
        .arg(s.m)
        .arg(s.n)
        .arg(s.q);
}

}  // namespace gigacheck::ui
