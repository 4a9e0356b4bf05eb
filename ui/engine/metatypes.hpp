// Engine value types that cross threads in queued signals.
#pragma once

#include "models/familyrecord.hpp"
#include "models/heatmapgrid.hpp"

#include <gigacheck/blocked_gemm/record.hpp>

#include <QMetaType>
#include <QVector>

#include <memory>

namespace gigacheck::ui {
// The user's own A and B for a run (File > Import A / B): shared, never copied between threads;
// both null for generated inputs.
struct RunOperands {
    std::shared_ptr<const HostMatrix> a, b;
    InputMatrix aFile, bFile;  // the files they came from: the record's "inputs"
    bool present() const { return a && b; }
};
}  // namespace gigacheck::ui

Q_DECLARE_METATYPE(gigacheck::Span)
Q_DECLARE_METATYPE(gigacheck::VerifyEvent)
Q_DECLARE_METATYPE(gigacheck::InjectEvent)
Q_DECLARE_METATYPE(gigacheck::RunConfig)
Q_DECLARE_METATYPE(gigacheck::HostMatrix)
Q_DECLARE_METATYPE(gigacheck::Plan)
Q_DECLARE_METATYPE(gigacheck::ui::HeatmapGrid)
Q_DECLARE_METATYPE(gigacheck::ui::RecordPtr)

namespace gigacheck::ui {
// Registers the types above (idempotent); called by the worker and the main window.
void registerMetaTypes();
// The resources of the static library (presets, icons); idempotent.
void initResources();
}  // namespace gigacheck::ui
