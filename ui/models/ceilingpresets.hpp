// Datasheet ceilings of known devices (resources/presets/ceilings.json), used for the roofline
// when no measured ceilings exist. Every preset says it is a datasheet value.
#pragma once

#include <gigacheck/backend.hpp>

#include <QString>

#include <vector>

namespace gigacheck::ui {

struct CeilingPreset {
    QString name;      // "NVIDIA H100 SXM5 80GB"
    QString matches;   // substring of DeviceInfo::name that selects it ("H100 80GB HBM3")
    Ceilings ceilings; // source = "datasheet: <reference>"
};

// Loads the presets (from the built-in resource unless path is given). Empty on a broken file.
std::vector<CeilingPreset> loadCeilingPresets(const QString& path = QString(), QString* error = nullptr);
// The preset whose `matches` occurs in the device name, or -1.
int presetForDevice(const std::vector<CeilingPreset>& presets, const QString& deviceName);
// The roofs for a device a run used: the run's own ceilings where it carries them, else those
// `gigacheck devices --measure` stored on this machine for that device, else its datasheet preset,
// else the CPU preset (empty where none exists).
Ceilings ceilingsForDevice(const DeviceInfo& device, const std::vector<CeilingPreset>& presets);

}  // namespace gigacheck::ui
