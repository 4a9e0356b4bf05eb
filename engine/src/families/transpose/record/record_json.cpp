// The transpose record as JSON (family "transpose"): config, device, timings, counts, verdict.
#include "gigacheck/transpose.hpp"
#include "gigacheck/version.hpp"

#include <nlohmann/json.hpp>

namespace gigacheck::transpose {

std::string toJson(const Record& r)
{
    using nlohmann::json;
    const Counts& c = r.counts;
    const json doc = {
        {"family", "transpose"},
        {"tool_version", kVersion},
        {"created_at", r.createdAt},
        {"status", r.status},
        {"error", r.error},
        {"backend", r.backend},
        {"device", r.device},
        {"transpose",
         {{"m", r.config.m},
          {"n", r.config.n},
          {"variant", toString(r.config.variant)},
          {"type", toString(r.config.type)},
          {"reps", r.config.reps},
          {"seed", r.config.seed},
          {"kernel_ms", r.kernelMs},
          {"h2d_ms", r.h2dMs},
          {"d2h_ms", r.d2hMs},
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
            {"shared_conflict_ways", c.sharedConflictWays}}}}},
    };
    return doc.dump(1);
}

}  // namespace gigacheck::transpose
