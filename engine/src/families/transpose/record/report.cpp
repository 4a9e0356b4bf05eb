// The text report of one transpose run (`gigacheck transpose`).
#include "gigacheck/transpose.hpp"

#include "core/printf_number.hpp"
#include "families/transpose/ops.hpp"
#include "families/transpose/record/record_validate.hpp"

#include <string>

namespace gigacheck::transpose {

std::string report(const Record& r)
{
    const Counts& c = r.counts;
    const bool gpu = r.backend == "cuda";
    std::string s;
    s += "transpose " + std::to_string(r.config.m) + "x" + std::to_string(r.config.n) + " " +
         std::string(toString(r.config.type)) + ", variant " + std::string(toString(r.config.variant)) + " on " +
         r.backend + " (" + r.deviceName() + ")\n";
    if (r.status == "cancelled") {  // a partial record: what ran and its times, nothing verified
        std::int64_t calls = 0;
        for (const Span& span : r.spans)
            calls += span.kind == kTranspose;
        s += "cancelled   the run was stopped after " + std::to_string(calls) + " of its " +
             std::to_string(plannedOps(r.config) - 2) + " transposes (" + std::to_string(r.spans.size()) +
             " spans in the record): not verified\n";
        if (r.kernelMs > 0)  // each call in the spans ran whole
            s += "time        " + printfNumber("%.4f ms", r.kernelMs) + " (median of the " + std::to_string(r.config.m) + "x" +
                 std::to_string(r.config.n) + " calls timed before the stop), " + printfNumber("%.2f GB/s", r.gbps) + " effective\n";
        return s;
    }
    if (r.backMs > 0) {  // in place, rectangular: the calls alternate between the two orientations
        s += "time        " + printfNumber("%.4f ms", r.kernelMs) + " (median of the " + std::to_string(r.config.m) + "x" +
             std::to_string(r.config.n) + " calls among " + std::to_string(r.config.reps) +
             " timed after a warm-up, from the executor's spans)\n";
        s += "back        " + printfNumber("%.4f ms", r.backMs) + " (median of the " + std::to_string(r.config.n) + "x" +
             std::to_string(r.config.m) + " transposes back between them)\n";
    } else if (r.config.reps == 0) {
        s += "time        " + printfNumber("%.4f ms", r.kernelMs) + " (one cold call, no warm-up, from the executor's span)\n";
    } else {
        s += "time        " + printfNumber("%.4f ms", r.kernelMs) + " (median of " + std::to_string(r.config.reps) +
             " transposes after a warm-up, from the executor's spans)\n";
    }
    s += "bandwidth   " + printfNumber("%.2f GB/s", r.gbps) + " effective (each element read once and written once)\n";
    s += "copies      " + printfNumber("in %.3f ms", r.h2dMs) + printfNumber(", out %.3f ms", r.d2hMs) + " (" +
         std::to_string(r.spans.size()) + " spans in the record)\n";
    if (gpu) {
        if (r.copyGbps > 0)
            s += "            " + printfNumber("%.1f%%", 100 * r.gbps / r.copyGbps) + " of a device copy of the same bytes (" +
                 printfNumber("%.1f GB/s", r.copyGbps) +
                 ": cudaMemcpy D2D, the best of 10 after 2 warm-ups, timed before and after the kernels, this process)\n";
        if (r.peakGbps > 0)
            s += "            " + printfNumber("%.1f%%", 100 * r.gbps / r.peakGbps) + " of the datasheet peak (" +
                 printfNumber("%.0f GB/s", r.peakGbps) + ", memory clock x bus width)\n";
    }
    s += "counts      " + std::to_string(c.moves) + " elements moved";
    if (c.swaps)
        s += ", " + std::to_string(c.swaps) + " swaps ((n^2 - n) / 2)";
    s += ", " + printfNumber("%.0f", c.bytesRead) + " B read + " + printfNumber("%.0f", c.bytesWritten) + " B written";
    if (c.passes > 1)
        s += ", " + std::to_string(c.passes) + " passes (" + printfNumber("%.0f", c.trafficBytes) + " B of traffic)";
    s += "\n";
    if (gpu && c.threads) {
        s += "            " + std::to_string(c.threads) + " threads (" + std::to_string(c.activeThreads) + " move data), " +
             printfNumber("%.0f", c.loadsPerThread) + " global loads per thread, " + printfNumber("%.0f", c.sectorsPerWarpLoad) +
             " / " + printfNumber("%.0f", c.sectorsPerWarpStore) + " sectors per warp load / store";
        if (c.sharedConflictWays)
            s += ", " + std::to_string(c.sharedConflictWays) + "-way shared bank conflicts";
        s += "\n";
    }
    s += "verdict     " + std::string(r.verified ? "correct" : "WRONG") + ": " + std::to_string(r.mismatches) +
         " of " + std::to_string(r.config.m * r.config.n) + " elements misplaced\n";
    return s;
}

}  // namespace gigacheck::transpose
