// Engine value types that cross threads in queued signals.
#pragma once

#include "models/heatmapgrid.hpp"

#include <gigacheck/record.hpp>

#include <QMetaType>
#include <QVector>

Q_DECLARE_METATYPE(gigacheck::Span)
Q_DECLARE_METATYPE(gigacheck::VerifyEvent)
Q_DECLARE_METATYPE(gigacheck::InjectEvent)
Q_DECLARE_METATYPE(gigacheck::RunRecord)
Q_DECLARE_METATYPE(gigacheck::RunConfig)
Q_DECLARE_METATYPE(gigacheck::HostMatrix)
Q_DECLARE_METATYPE(gigacheck::Plan)
Q_DECLARE_METATYPE(gigacheck::ui::HeatmapGrid)

namespace gigacheck::ui {
// Registers the types above (idempotent); called by the worker and the main window.
void registerMetaTypes();
// The resources of the static library (presets, icons); idempotent.
void initResources();
}  // namespace gigacheck::ui
