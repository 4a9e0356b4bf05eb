// Roofline data (the Gigacheck report's figure 20): roofs from measured or datasheet ceilings, and for every
// run its measured point, the seed's naive point (intensity x link bandwidth) and one point per
// operation kind. Plain data, tested without a screen.
#pragma once

#include <gigacheck/blocked_gemm/record.hpp>

#include <QString>

#include <vector>

namespace gigacheck::ui {

struct Roof {
    QString label;
    double value = 0;  // GFLOP/s (compute) or GB/s (memory)
    bool memory = false;  // memory roofs rise with intensity: y = value * x
};

struct RooflinePoint {
    QString label;
    double intensity = 0;  // FLOP/byte
    double gflops = 0;
    enum class Kind { Measured, Naive, Operation } kind = Kind::Measured;
};

struct RooflineRun {
    QString label;  // "s2 4096x4096x4096"
    std::vector<RooflinePoint> points;
};

std::vector<Roof> roofsFrom(const Ceilings& c);
// Points of one run of any family (its envelope's metrics and spans). linkGBs: the bandwidth of
// the naive model (the host link's H2D roof).
RooflineRun summarizeRun(const RecordEnvelope& record, const QString& label, double linkGBs);
// A short label for a record: what ran and the shape ("s2 4096×4096×4096", "online fq 1 b=256
// 2048×2048×2048").
QString runLabel(const RecordEnvelope& record);
// The same for a blocked run about to start: its strategy and shape.
QString blockedRunLabel(const RunConfig& config);
// What names a run for its colour: its label and when it was recorded, so a record reopened
// (or shown in another order) keeps its colour.
QString runColorKey(const RecordEnvelope& record);
// Per run key, an index into a palette of `colors` colours taken from a hash of the key (FNV-1a of
// its UTF-8, the same in every session), never from the run's position; a run whose colour an
// earlier run of the list already took moves on to the next free one.
std::vector<int> runColorIndices(const std::vector<QString>& keys, int colors);

}  // namespace gigacheck::ui
