// The transpose record as JSON: core's envelope (format_version, family "transpose", status,
// devices, spans, metrics), then the family's section "transpose": config, timings, counts, verdict.
// The section's fields are listed once (sectionFields) for writing and reading.
#include "gigacheck/transpose.hpp"

#include "core/record/field_io.hpp"
#include "families/gallery/record_file.hpp"
#include "families/transpose/ops.hpp"
#include "families/transpose/record/record_validate.hpp"

namespace gigacheck::transpose {

namespace {

template <class Io, class R> void sectionFields(Io& io, R& r)
{
    auto& c = r.config;
    io("m", c.m);
    io("n", c.n);
    io("variant", c.variant);
    io("type", c.type);
    io("backend", r.backend);
    io("reps", c.reps);
    io("seed", c.seed);
    io("kernel_ms", r.kernelMs);
    io.optional("back_ms", r.backMs, 0.0);  // records before 2026-11-26 lack it
    io("copy_in_ms", r.h2dMs);
    io("copy_out_ms", r.d2hMs);
    io("gbps", r.gbps);
    io("device_copy_gbps", r.copyGbps);
    io("datasheet_peak_gbps", r.peakGbps);
    io("verified", r.verified);
    io("mismatches", r.mismatches);
    io.object("counts", [&] {
        auto& k = r.counts;
        io("moves", k.moves);
        io("swaps", k.swaps);
        io("bytes_read", k.bytesRead);
        io("bytes_written", k.bytesWritten);
        io("traffic_bytes", k.trafficBytes);
        io("passes", k.passes);
        io("threads", k.threads);
        io("active_threads", k.activeThreads);
        io("loads_per_thread", k.loadsPerThread);
        io("sectors_per_warp_load", k.sectorsPerWarpLoad);
        io("sectors_per_warp_store", k.sectorsPerWarpStore);
        io("shared_conflict_ways", k.sharedConflictWays);
    });
}

constexpr auto kSection = [](auto& io, auto& r) { sectionFields(io, r); };

}  // namespace

std::string toJson(const Record& r) { return recordjson::writeRecordWith(r, kSection, 1); }

Record recordFromJson(const std::string& text)
{
    Record r = recordjson::readRecordWith<Record>(text, kFamilyName, kSection);
    validateRecord(r);  // nothing uses or prints what the record claims before this
    return r;
}

Record loadRecord(const std::string& path) { return gallery::loadRecordFile(path, &recordFromJson); }

}  // namespace gigacheck::transpose
