// The part of a run record every family shares: who wrote it and when, which family, how it ended,
// on which devices, the timeline and events, the metrics. A family's record derives from it and
// adds its own section (blocked GEMM: RunRecord in record.hpp; another family:
// engine/src/families/<family>/record/, written and read with core's envelope functions in
// engine/src/core/record/envelope_json.hpp). Saved as versioned JSON (format_version; the top
// docs/reference.md "Run record").
#pragma once

#include "gigacheck/backend.hpp"
#include "gigacheck/events.hpp"

#include <string>
#include <vector>

namespace gigacheck {

// Seed 000 section 6 metrics, counted per operation.
struct Metrics {
    double totalSeconds = 0;       // whole run, wall clock (generation and reference excluded)
    double executeSeconds = 0;     // first operation start to last end (the seed's CUDA time)
    double queueBusySeconds[3] = {0, 0, 0};  // H2D, compute, D2H: sum of span durations
    double flops = 0;              // all operations (products, checksums, verification)
    double usefulFlops = 0;        // the family's own count (blocked GEMM: 2 m n q)
    double bytesHostLink = 0;      // H2D + D2H
    double bytesDevice = 0;        // device-memory traffic counted by the kernels
    double intensityHostLink = 0;  // flops / bytesHostLink
    double intensityDevice = 0;    // flops / bytesDevice
    double gflops = 0;             // flops / executeSeconds / 1e9
    std::size_t peakBufferBytes = 0;
    std::size_t hostBytesRequired = 0;  // the family's host inputs and outputs (GEMM: A + B + C)
};

struct RecordEnvelope {
    // 2: the envelope with a family section; 1 (still read): GEMM fields at the top level.
    static constexpr int kFormatVersion = 2;
    int formatVersion = kFormatVersion;  // of the file it was read from; always written as kFormatVersion
    std::string toolVersion;
    std::string createdAt;  // ISO 8601 UTC
    std::string family;     // which family's section the record carries ("blocked_gemm")
    std::string status = "ok";  // ok | cancelled | failed
    std::string error;
    // The devices of the run, in the schedule's device order (Span::device indexes this): always
    // at least one (a record that has not run yet keeps a default entry).
    std::vector<DeviceInfo> devices = std::vector<DeviceInfo>(1);
    std::vector<Span> spans;
    std::vector<InjectEvent> injections;  // events
    std::vector<VerifyEvent> verifications;
    Metrics metrics;
};

// The family a saved record carries ("blocked_gemm" for format 1, which predates families), read
// with the same bounds as a whole record (size, nesting) and without reading the rest: `gigacheck
// show` and the lab dispatch on it. Throws InputError on malformed JSON, a missing family, or a
// format_version newer than this build reads.
std::string recordFamilyOf(const std::string& jsonText);
// The same for a file; throws InputError when it cannot be read.
std::string recordFamilyOfFile(const std::string& path);

}  // namespace gigacheck
