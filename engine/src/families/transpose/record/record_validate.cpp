// Range and consistency checks of a loaded transpose record (record_validate.hpp).
#include "families/transpose/record/record_validate.hpp"

#include "core/record/record_checks.hpp"
#include "families/gallery/verdict_check.hpp"
#include "families/transpose/ops.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

namespace gigacheck::transpose {

using recordcheck::at;
using recordcheck::finite;
using recordcheck::inRange;
using recordcheck::nonNegative;
using recordcheck::refuse;

namespace {

const std::string kSection = "transpose";

std::string number(double v) { return recordcheck::exactNumber(v); }
std::string number(std::int64_t v) { return std::to_string(v); }

// A figure computed from the shape alone: the record must carry exactly that value.
template <class T> void follows(T recorded, T expected, const std::string& field, const std::string& because)
{
    if (recorded != expected)
        refuse(field, "is " + number(recorded) + ", but " + because + " makes " + number(expected));
}

void validateConfig(const Record& r)
{
    const Config& c = r.config;
    inRange(c.m, 1, recordcheck::kMaxExtent, kSection + ".m");
    inRange(c.n, 1, recordcheck::kMaxExtent, kSection + ".n");
    inRange(c.reps, 0, kMaxRecordReps, kSection + ".reps");
    const std::string variant(toString(c.variant));
    if (r.backend != "cpu" && r.backend != "cuda")
        refuse(kSection + ".backend", "is '" + r.backend + "', not cpu or cuda");
    if (r.backend == "cpu" ? !onCpu(c.variant) : !onCuda(c.variant))
        refuse(kSection + ".variant", "is '" + variant + "', which has no " + r.backend + " kernel");
    if (squareOnly(c.variant) && c.m != c.n)
        refuse(kSection + ".variant", "is '" + variant + "', which takes square matrices only, but the shape is " +
                                          std::to_string(c.m) + "x" + std::to_string(c.n));
    if (c.variant == Variant::Library && c.type != ElementType::F32)
        refuse(kSection + ".type", "is '" + std::string(toString(c.type)) + "', but variant library takes f32 only");
}

void validateTimes(const Record& r)
{
    nonNegative(r.kernelMs, kSection + ".kernel_ms");
    nonNegative(r.backMs, kSection + ".back_ms");
    nonNegative(r.h2dMs, kSection + ".copy_in_ms");
    nonNegative(r.d2hMs, kSection + ".copy_out_ms");
    nonNegative(r.gbps, kSection + ".gbps");
    nonNegative(r.copyGbps, kSection + ".device_copy_gbps");
    nonNegative(r.peakGbps, kSection + ".datasheet_peak_gbps");
    // Only the in-place kernels on a rectangle alternate orientations, timing calls back.
    if (r.backMs > 0 && !(inPlace(r.config.variant) && r.config.m != r.config.n))
        refuse(kSection + ".back_ms", "is positive, but only an in-place run on a rectangle times calls back");
}

void validateVerdict(const Record& r)
{
    const Config& c = r.config;
    inRange(r.mismatches, 0, c.m * c.n, kSection + ".mismatches");  // each side <= 2^31 - 1: no overflow
    gallery::validateVerdict(kSection, r.status, r.verified, r.mismatches, "mismatches",
                             "is true, but " + std::to_string(r.mismatches) + " elements are misplaced");
}

void validateCounts(const Record& r)
{
    const Config& c = r.config;
    const Counts& k = r.counts;
    const std::string field = kSection + ".counts.";
    // What the shape fixes (countsOf): in place on a square the (n^2 - n) / 2 swaps move two
    // elements each, otherwise every element moves once; each element read once and written once.
    const bool swapsInPlace = inPlace(c.variant) && c.m == c.n;
    const std::int64_t swaps = swapsInPlace ? c.n * (c.n - 1) / 2 : 0;
    follows(k.swaps, swaps, field + "swaps", "the shape");
    follows(k.moves, swapsInPlace ? 2 * swaps : c.m * c.n, field + "moves", "the shape");
    const double bytes = double(c.m) * double(c.n) * double(elementBytes(c.type));
    follows(k.bytesRead, bytes, field + "bytes_read", "the shape and type");
    follows(k.bytesWritten, bytes, field + "bytes_written", "the shape and type");
    // The kernel model's figures: only their ranges.
    inRange(k.passes, 1, 3, field + "passes");
    nonNegative(k.trafficBytes, field + "traffic_bytes");
    if (k.trafficBytes < 2 * bytes || k.trafficBytes > 2 * double(k.passes) * bytes)
        refuse(field + "traffic_bytes", "is not between the bytes read and written once and those of its " +
                                            std::to_string(k.passes) + " passes");
    inRange(k.threads, 0, std::numeric_limits<std::int64_t>::max(), field + "threads");
    inRange(k.activeThreads, 0, k.threads, field + "active_threads");
    nonNegative(k.loadsPerThread, field + "loads_per_thread");
    // One warp instruction of 32 lanes of at most 16 bytes: at most 32 sectors.
    nonNegative(k.sectorsPerWarpLoad, field + "sectors_per_warp_load");
    nonNegative(k.sectorsPerWarpStore, field + "sectors_per_warp_store");
    if (k.sectorsPerWarpLoad > 32)
        refuse(field + "sectors_per_warp_load", "is above 32 (one sector per lane)");
    if (k.sectorsPerWarpStore > 32)
        refuse(field + "sectors_per_warp_store", "is above 32 (one sector per lane)");
    inRange(k.sharedConflictWays, 0, 32, field + "shared_conflict_ways");
}

// The spans against the schedule (plan/schedule_builder.cpp): one per op, the calls numbered by
// block.k, on the run's one device.
void validateSpans(const Record& r)
{
    const std::int64_t ops = plannedOps(r.config);
    if (std::int64_t(r.spans.size()) > ops)
        refuse("spans", "lists " + std::to_string(r.spans.size()) + " spans, more than the " + std::to_string(ops) +
                            " ops the run schedules");
    for (std::size_t s = 0; s < r.spans.size(); ++s) {
        const Span& span = r.spans[s];
        const std::string field = at("spans", s);
        inRange(span.opId, 0, ops - 1, field + ".op_id");
        if (span.kind != kCopyIn && span.kind != kTranspose && span.kind != kCopyOut)
            refuse(field + ".kind", "is not an op of the transpose family");
        recordcheck::spanBasics(span, field, r.devices.size());
        inRange(span.block.i, 0, 0, field + ".block.i");
        inRange(span.block.j, 0, 0, field + ".block.j");
        inRange(span.block.k, 0, ops - 3, field + ".block.k");
    }
    recordcheck::noFaultEvents(r.injections.size(), r.verifications.size(), "transpose");
}

}  // namespace

std::int64_t plannedOps(const Config& c)
{
    std::int64_t calls = 1 + std::max(c.reps, 0);
    if (inPlace(c.variant) && calls % 2 == 0)
        ++calls;
    return calls + 2;
}

void validateRecord(const Record& r)
{
    validateConfig(r);
    validateTimes(r);
    validateVerdict(r);
    validateCounts(r);
    validateSpans(r);
}

}  // namespace gigacheck::transpose
