// The transpose record as JSON: core's envelope (format_version, family "transpose", status,
// devices, spans, metrics), then the family's section "transpose": config, timings, counts, verdict,
// one field table for writing and reading (families/gallery_record.hpp).
#include "gigacheck/transpose.hpp"

#include "families/gallery_record.hpp"
#include "families/transpose/ops.hpp"
#include "families/transpose/record/record_validate.hpp"

namespace gigacheck::transpose {
namespace {

using recordjson::Field;

// The section's fields, in the order they are written; each is read back from the same line.
const auto kSectionFields = std::make_tuple(
    Field{"m", [](auto& r) -> auto& { return r.config.m; }},
    Field{"n", [](auto& r) -> auto& { return r.config.n; }},
    Field{"variant", [](auto& r) -> auto& { return r.config.variant; }},
    Field{"type", [](auto& r) -> auto& { return r.config.type; }},
    Field{"backend", [](auto& r) -> auto& { return r.backend; }},
    Field{"reps", [](auto& r) -> auto& { return r.config.reps; }},
    Field{"seed", [](auto& r) -> auto& { return r.config.seed; }},
    Field{"kernel_ms", [](auto& r) -> auto& { return r.kernelMs; }},
    Field{"back_ms", [](auto& r) -> auto& { return r.backMs; }, true},
    Field{"copy_in_ms", [](auto& r) -> auto& { return r.h2dMs; }},
    Field{"copy_out_ms", [](auto& r) -> auto& { return r.d2hMs; }},
    Field{"gbps", [](auto& r) -> auto& { return r.gbps; }},
    Field{"device_copy_gbps", [](auto& r) -> auto& { return r.copyGbps; }},
    Field{"datasheet_peak_gbps", [](auto& r) -> auto& { return r.peakGbps; }},
    Field{"verified", [](auto& r) -> auto& { return r.verified; }},
    Field{"mismatches", [](auto& r) -> auto& { return r.mismatches; }});
// Its "counts" object (Counts).
const auto kCountFields = std::make_tuple(
    Field{"moves", [](auto& r) -> auto& { return r.moves; }},
    Field{"swaps", [](auto& r) -> auto& { return r.swaps; }},
    Field{"bytes_read", [](auto& r) -> auto& { return r.bytesRead; }},
    Field{"bytes_written", [](auto& r) -> auto& { return r.bytesWritten; }},
    Field{"traffic_bytes", [](auto& r) -> auto& { return r.trafficBytes; }},
    Field{"passes", [](auto& r) -> auto& { return r.passes; }},
    Field{"threads", [](auto& r) -> auto& { return r.threads; }},
    Field{"active_threads", [](auto& r) -> auto& { return r.activeThreads; }},
    Field{"loads_per_thread", [](auto& r) -> auto& { return r.loadsPerThread; }},
    Field{"sectors_per_warp_load", [](auto& r) -> auto& { return r.sectorsPerWarpLoad; }},
    Field{"sectors_per_warp_store", [](auto& r) -> auto& { return r.sectorsPerWarpStore; }},
    Field{"shared_conflict_ways", [](auto& r) -> auto& { return r.sharedConflictWays; }});

}  // namespace

std::string toJson(const Record& r) { return gallery::recordToJson(r, kSectionFields, kCountFields); }

Record recordFromJson(const std::string& text)
{
    return gallery::recordFromJson(text, kFamilyName, kSectionFields, kCountFields, &validateRecord);
}

Record loadRecord(const std::string& path) { return gallery::loadRecord(path, &recordFromJson); }

}  // namespace gigacheck::transpose
