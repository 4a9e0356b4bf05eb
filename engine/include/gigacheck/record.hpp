// The run record: the one artefact the CLI writes, the GUI draws and the tests check.
// Saved as versioned JSON (format_version); newer versions are refused with a clear message.
#pragma once

#include "gigacheck/backend.hpp"

#include <string>
#include <vector>

namespace gigacheck {

enum class ReferenceMode { Auto, Full, Sample, None };
std::string_view toString(ReferenceMode);
ReferenceMode referenceModeFromString(std::string_view);

struct RunConfig {
    Shape shape;
    Precision precision = Precision::F32;
    Distribution distribution = Distribution::Uniform;
    std::uint64_t seed = 1;
    BackendKind backend = BackendKind::Auto;
    int device = -1;  // CUDA device ordinal; -1: the first one
    StrategyKind strategy = StrategyKind::S1;
    std::uint64_t memCapBytes = 0;  // 0: the device's memory (CPU: 1 GiB)
    bool abft = true;
    GemmVariant gemm = GemmVariant::Cublas;
    int tile = 32;
    FaultSpec faults;
    // Auto: full reference when m*n*q <= 2^34, else a sample of 64 rows.
    ReferenceMode reference = ReferenceMode::Auto;
    double thresholdLambda = 4.0;
};

// Seed 000 section 6 metrics, counted per operation.
struct Metrics {
    double totalSeconds = 0;       // whole run, wall clock (generation and reference excluded)
    double executeSeconds = 0;     // first operation start to last end (the seed's CUDA time)
    double queueBusySeconds[3] = {0, 0, 0};  // H2D, compute, D2H: sum of span durations
    double flops = 0;              // all operations (products, checksums, verification)
    double usefulFlops = 0;        // 2 m n q
    double bytesHostLink = 0;      // H2D + D2H
    double bytesDevice = 0;        // device-memory traffic counted by the kernels
    double intensityHostLink = 0;  // flops / bytesHostLink
    double intensityDevice = 0;    // flops / bytesDevice
    double gflops = 0;             // flops / executeSeconds / 1e9
    std::size_t peakBufferBytes = 0;
    std::size_t hostBytesRequired = 0;  // A + B + C in host memory
};

struct FaultReport {
    int injected = 0;
    int detected = 0;        // injections whose row or column check mismatched
    int corrected = 0;       // injections whose cell was restored
    int correctedByRecompute = 0;
    int uncorrectable = 0;   // injections in blocks with an uncorrectable verdict
    int belowThreshold = 0;  // injections too small to detect (harmless round-off-sized flips)
    int missed = 0;          // injections above the threshold that no check caught (silent errors)
    int falsePositives = 0;  // mismatches in blocks with no injection, or corrections of clean cells
    int blocksClean = 0, blocksCorrected = 0, blocksUncorrectable = 0;
    double maxThreshold = 0;
    double maxCleanResidualRatio = 0;  // largest clean residual / its threshold (< 1 means no alarm)
};

// Independent reference product C_ref = A B (OpenBLAS, never blocked, never injected).
struct ReferenceCheck {
    ReferenceMode mode = ReferenceMode::None;
    std::int64_t rowsChecked = 0;
    std::int64_t mismatches = 0;  // elements where |C - C_ref| > tolerance
    double maxAbsError = 0;
    double maxRelError = 0;       // max |C - C_ref| / tolerance
    bool passed = true;
};

struct RunRecord {
    static constexpr int kFormatVersion = 1;
    int formatVersion = kFormatVersion;
    std::string toolVersion;
    std::string createdAt;  // ISO 8601 UTC
    std::string status = "ok";  // ok | cancelled | failed
    std::string error;
    RunConfig config;
    DeviceInfo device;
    Plan plan;
    std::vector<Span> spans;
    std::vector<InjectEvent> injections;
    std::vector<VerifyEvent> verifications;
    Metrics metrics;
    FaultReport faults;
    ReferenceCheck reference;

    // Verified correct: clean or corrected everywhere and the reference agrees.
    bool verifiedCorrect() const;
};

std::string toJson(const RunRecord& r, int indent = 1);
// Throws InputError: malformed JSON, a missing field, or format_version newer than supported.
RunRecord recordFromJson(const std::string& text);
void saveRecord(const RunRecord& r, const std::string& path);  // throws InputError on I/O failure
RunRecord loadRecord(const std::string& path);

// Seed 000 section 6 report: the GIGACHECK block plus the fault report.
std::string formatReport(const RunRecord& r);

// Metrics computed from spans and the plan (used by runGemm and by tests).
Metrics computeMetrics(const RunRecord& r);
FaultReport computeFaultReport(const RunRecord& r);

}  // namespace gigacheck
