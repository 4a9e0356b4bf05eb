// The record the lab shows is its envelope (status, devices, spans, events, metrics: what every
// family has); the views that need a family's own section ask for it here. The lab only ever
// holds records it made as their family's type (LabSession, EngineWorker: a "blocked_gemm"
// envelope is a RunRecord, an "online_abft" one an OnlineRecord), so the family names the type.
#pragma once

#include <gigacheck/blocked_gemm/record.hpp>
#include <gigacheck/online_abft.hpp>
#include <gigacheck/strassen.hpp>

#include <QString>

#include <memory>

namespace gigacheck::ui {

// A finished record is made once on the engine thread and shared by everyone who shows it.
using RecordPtr = std::shared_ptr<const RecordEnvelope>;

// The blocked GEMM record behind an envelope, or null for another family's.
const RunRecord* blockedRecordOf(const RecordEnvelope& record);
std::shared_ptr<const RunRecord> blockedRecordOf(const RecordPtr& record);
// The online ABFT record behind an envelope, or null for another family's.
const OnlineRecord* onlineRecordOf(const RecordEnvelope& record);

// The Strassen record behind an envelope (a run of the Strassen tab, or one it opened), or null.
const StrassenResult* strassenRecordOf(const RecordEnvelope& record);

// C's shape (m x q) and the product's n, as the run's family configured it (zero when unknown).
Shape resultShapeOf(const RecordEnvelope& record);
// What ran, as the timeline names a run's lanes: a blocked run's strategy ("s2", "auto→s2"), an
// online run's scheme ("online fq 1", "offline", "TMR").
QString runNameOf(const RecordEnvelope& record);
// A file name's stem for a record's exports: "s2-4096x4096x4096", "online-2048x2048x2048",
// "strassen-winograd-4096x4096x4096".
QString runFileStem(const RecordEnvelope& record);

}  // namespace gigacheck::ui
