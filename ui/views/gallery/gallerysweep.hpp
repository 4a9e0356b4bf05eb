// A sweep of the kernel gallery: one kernel at one size, run through the engine (runReduced /
// runTranspose) and reduced to the point the gallery plot draws; and the seeds' figures as points.
// Plain data and functions, callable from a worker thread and from tests.
#pragma once

#include <gigacheck/reduced_matmul.hpp>
#include <gigacheck/transpose.hpp>

#include <QString>
#include <QStringList>

#include <atomic>
#include <cstdint>
#include <vector>

namespace gigacheck::ui::gallery {

enum class Family { Reduced, Transpose };

struct SweepPoint {
    QString variant;
    std::int64_t n = 0;  // transpose: square n x n
    double ms = 0;
    double rate = 0;  // GFLOP/s (reduced) or GB/s (transpose)
    bool verified = false;
    QString error;  // non-empty when the point could not run
    // The roofline's coordinates, from the record's counts: FLOPs (0 for a transpose), the least
    // device-memory traffic (inputs read once, output written once) and the bytes the kernel's
    // loads request from L1 / L2 (reduced matmul: threads x loads x element size).
    double flops = 0, memoryBytes = 0, requestedBytes = 0;
    // The roofs of the device it ran on: memory GB/s (a transpose on the GPU: the device copy
    // measured in its run; else the device's ceilings) and FP32 GFLOP/s; 0 where unknown.
    double memoryRoofGBs = 0, computeRoofGflops = 0;
    QString roofSource;
};

QStringList variantsOf(Family family, bool gpu);
QString rateUnit(Family family);
// Runs one point (CPU or CUDA); errors are caught into SweepPoint::error. cancel (may be null):
// set from another thread, the run stops between ops (the CPU naive matmul loops between rows)
// and the point comes back with error "cancelled".
SweepPoint runPoint(Family family, const QString& variant, std::int64_t n, bool gpu, const std::atomic<bool>* cancel = nullptr);
// The point a record of the gallery's families draws (a sweep's, or a record File › Open opened):
// its variant, size (a transpose of m x n: the larger side), time, rate, verdict and roofs.
SweepPoint pointOf(const reduced_matmul::Record& record);
SweepPoint pointOf(const transpose::Record& record);

// The seed's own points (time and rate) with the hardware they were measured on.
struct SeedSeries {
    QString variant;
    QString hardware;
    std::vector<SweepPoint> points;
};
std::vector<SeedSeries> seedSeries(Family family, bool gpu);

}  // namespace gigacheck::ui::gallery
