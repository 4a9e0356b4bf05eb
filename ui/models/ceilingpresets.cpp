#include "ceilingpresets.hpp"

#include "engine/metatypes.hpp"

#include <gigacheck/bench.hpp>

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace gigacheck::ui {

std::vector<CeilingPreset> loadCeilingPresets(const QString& path, QString* error)
{
    initResources();
    QFile file(path.isEmpty() ? QStringLiteral(":/gigacheck/presets/ceilings.json") : path);
    if (!file.open(QIODevice::ReadOnly)) {
        if (error)
            *error = QStringLiteral("cannot open %1").arg(file.fileName());
        return {};
    }
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(file.readAll(), &parseError);
    if (doc.isNull()) {
        if (error)
            *error = QStringLiteral("%1: %2").arg(file.fileName(), parseError.errorString());  // Qt caps nesting
        return {};
    }
    std::vector<CeilingPreset> presets;
    const QJsonArray devices = doc.object().value(QStringLiteral("devices")).toArray();
    for (const QJsonValue& v : devices) {
        const QJsonObject o = v.toObject();
        CeilingPreset p;
        p.name = o.value(QStringLiteral("name")).toString();
        p.matches = o.value(QStringLiteral("matches")).toString();
        Ceilings& c = p.ceilings;
        c.gflopsF32 = o.value(QStringLiteral("gflops_f32")).toDouble();
        c.gflopsTf32 = o.value(QStringLiteral("gflops_tf32")).toDouble();
        c.gflopsBf16 = o.value(QStringLiteral("gflops_bf16")).toDouble();
        c.gflopsF16 = o.value(QStringLiteral("gflops_f16")).toDouble();
        c.gflopsF64 = o.value(QStringLiteral("gflops_f64")).toDouble();
        c.deviceBandwidthGBs = o.value(QStringLiteral("device_bandwidth_gbs")).toDouble();
        c.h2dGBs = o.value(QStringLiteral("h2d_gbs")).toDouble();
        c.d2hGBs = o.value(QStringLiteral("d2h_gbs")).toDouble();
        c.source = "datasheet: " + o.value(QStringLiteral("reference")).toString().toStdString();
        presets.push_back(std::move(p));
    }
    return presets;
}

int presetForDevice(const std::vector<CeilingPreset>& presets, const QString& deviceName)
{
    for (std::size_t i = 0; i < presets.size(); ++i)
        if (!presets[i].matches.isEmpty() && deviceName.contains(presets[i].matches, Qt::CaseInsensitive))
            return int(i);
    return -1;
}

Ceilings ceilingsForDevice(const DeviceInfo& device, const std::vector<CeilingPreset>& presets)
{
    const Ceilings& c = device.ceilings;
    if (c.gflopsF32 > 0 || c.deviceBandwidthGBs > 0 || c.h2dGBs > 0)
        return c;
    DeviceInfo stored = device;
    try {
        if (loadCeilings(defaultCeilingsPath(), stored) && stored.ceilings.gflopsF32 > 0)
            return stored.ceilings;
    } catch (const std::exception&) {
        // A broken ceilings file is no reason to lose the plot: fall back to the datasheet.
    }
    int preset = presetForDevice(presets, QString::fromStdString(device.name));
    if (preset < 0)
        preset = presetForDevice(presets, QStringLiteral("CPU:"));
    return preset >= 0 ? presets[std::size_t(preset)].ceilings : Ceilings{};
}

}  // namespace gigacheck::ui
