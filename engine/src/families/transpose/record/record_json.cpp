// The transpose record as JSON: core's envelope (format_version, family "transpose", status,
// devices, spans, metrics), then the family's section "transpose": config, timings, counts, verdict.
#include "gigacheck/transpose.hpp"

#include "core/record/envelope_json.hpp"
#include "families/gallery/record_file.hpp"
#include "families/transpose/ops.hpp"
#include "families/transpose/record/record_validate.hpp"

namespace gigacheck::transpose {

std::string toJson(const Record& r)
{
    using recordjson::Json;
    const Counts& c = r.counts;
    Json section = {
        {"m", r.config.m},
        {"n", r.config.n},
        {"variant", toString(r.config.variant)},
        {"type", toString(r.config.type)},
        {"backend", r.backend},
        {"reps", r.config.reps},
        {"seed", r.config.seed},
        {"kernel_ms", r.kernelMs},
        {"back_ms", r.backMs},
        {"copy_in_ms", r.h2dMs},
        {"copy_out_ms", r.d2hMs},
        {"gbps", r.gbps},
        {"device_copy_gbps", r.copyGbps},
        {"datasheet_peak_gbps", r.peakGbps},
        {"verified", r.verified},
        {"mismatches", r.mismatches},
        {"counts",
         {{"moves", c.moves},
          {"swaps", c.swaps},
          {"bytes_read", c.bytesRead},
          {"bytes_written", c.bytesWritten},
          {"traffic_bytes", c.trafficBytes},
          {"passes", c.passes},
          {"threads", c.threads},
          {"active_threads", c.activeThreads},
          {"loads_per_thread", c.loadsPerThread},
          {"sectors_per_warp_load", c.sectorsPerWarpLoad},
          {"sectors_per_warp_store", c.sectorsPerWarpStore},
          {"shared_conflict_ways", c.sharedConflictWays}}},
    };
    return recordjson::dumpRecord(recordjson::writeRecordDocument(r, std::move(section)), 1);
}

}  // namespace gigacheck::transpose

namespace gigacheck::transpose {

Record recordFromJson(const std::string& text)
{
    const recordjson::RecordDocument doc = recordjson::readRecordDocument(text);
    Record r;
    recordjson::readEnvelope(doc.root(), r);
    const recordjson::Node t = recordjson::familySection(doc.root(), kFamilyName);
    r.config.m = t.get<std::int64_t>("m");
    r.config.n = t.get<std::int64_t>("n");
    r.config.variant = t.enumeration<Variant>("variant");
    r.config.type = t.enumeration<ElementType>("type");
    r.config.reps = t.get<int>("reps");
    r.config.seed = t.get<std::uint64_t>("seed");
    r.backend = t.get<std::string>("backend");
    r.kernelMs = t.get<double>("kernel_ms");
    r.backMs = t.getOr<double>("back_ms", 0.0);  // records before 2026-11-26 lack it
    r.h2dMs = t.get<double>("copy_in_ms");
    r.d2hMs = t.get<double>("copy_out_ms");
    r.gbps = t.get<double>("gbps");
    r.copyGbps = t.get<double>("device_copy_gbps");
    r.peakGbps = t.get<double>("datasheet_peak_gbps");
    r.verified = t.get<bool>("verified");
    r.mismatches = t.get<std::int64_t>("mismatches");
    const recordjson::Node c = t.child("counts");
    r.counts.moves = c.get<std::int64_t>("moves");
    r.counts.swaps = c.get<std::int64_t>("swaps");
    r.counts.bytesRead = c.get<double>("bytes_read");
    r.counts.bytesWritten = c.get<double>("bytes_written");
    r.counts.trafficBytes = c.get<double>("traffic_bytes");
    r.counts.passes = c.get<std::int64_t>("passes");
    r.counts.threads = c.get<std::int64_t>("threads");
    r.counts.activeThreads = c.get<std::int64_t>("active_threads");
    r.counts.loadsPerThread = c.get<double>("loads_per_thread");
    r.counts.sectorsPerWarpLoad = c.get<double>("sectors_per_warp_load");
    r.counts.sectorsPerWarpStore = c.get<double>("sectors_per_warp_store");
    r.counts.sharedConflictWays = c.get<int>("shared_conflict_ways");
    validateRecord(r);  // nothing uses or prints what the record claims before this
    return r;
}

Record loadRecord(const std::string& path) { return gallery::loadRecordFile(path, &recordFromJson); }

}  // namespace gigacheck::transpose
