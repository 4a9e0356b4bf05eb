// Range and consistency checks of a loaded reduced matmul record (record_validate.hpp).
#include "families/reduced_matmul/record/record_validate.hpp"

#include "core/record/record_checks.hpp"
#include "families/gallery/verdict_check.hpp"
#include "families/reduced_matmul/ops.hpp"

#include <algorithm>
#include <limits>
#include <string>

namespace gigacheck::reduced_matmul {

using recordcheck::at;
using recordcheck::finite;
using recordcheck::inRange;
using recordcheck::exactNumber;
using recordcheck::nonNegative;
using recordcheck::refuse;

namespace {

const std::string kSection = "reduced_matmul";

// A figure computed from N alone (countsOf): the record must carry exactly that value.
void follows(double recorded, double expected, const std::string& field)
{
    if (recorded != expected)
        refuse(field, "is " + exactNumber(recorded) + ", but N and the variant make " + exactNumber(expected));
}

void validateConfig(const Record& r)
{
    const Config& c = r.config;
    inRange(c.n, 2, recordcheck::kMaxExtent, kSection + ".n");
    if (c.n % 2 != 0)
        refuse(kSection + ".n", "is " + std::to_string(c.n) + ", odd (C pairs A's rows and B's columns)");
    inRange(c.reps, 0, kMaxRecordReps, kSection + ".reps");
    if (r.backend != "cpu" && r.backend != "cuda")
        refuse(kSection + ".backend", "is '" + r.backend + "', not cpu or cuda");
    if (r.backend == "cpu" ? !onCpu(c.variant) : !onCuda(c.variant))
        refuse(kSection + ".variant", "is '" + std::string(toString(c.variant)) + "', which has no " + r.backend + " kernel");
}

void validateTimes(const Record& r)
{
    nonNegative(r.kernelMs, kSection + ".kernel_ms");
    nonNegative(r.libraryMs, kSection + ".library_ms");
    nonNegative(r.h2dMs, kSection + ".copy_in_ms");
    nonNegative(r.d2hMs, kSection + ".copy_out_ms");
    nonNegative(r.gflops, kSection + ".gflops");
}

void validateVerdict(const Record& r)
{
    const std::int64_t h = r.config.n / 2;
    inRange(r.checked, 0, h * h, kSection + ".checked");  // h <= 2^30: no overflow
    inRange(r.wrong, 0, r.checked, kSection + ".wrong");
    nonNegative(r.tolerance, kSection + ".tolerance");
    // An element that came out infinite makes an infinite error: a number >= 0, or inf.
    if (!(r.maxRelError >= 0))
        refuse(kSection + ".max_rel_error", "must be a number >= 0");
    gallery::validateVerdict(kSection, r.status, r.verified, r.wrong, "wrong",
                             "is true, but " + std::to_string(r.wrong) + " of " + std::to_string(r.checked) +
                                 " checked elements are wrong");
    if (r.verified && r.checked == 0)
        refuse(kSection + ".verified", "is true, but no element was checked");
}

void validateCounts(const Record& r)
{
    const Config& c = r.config;
    const Counts& k = r.counts;
    const std::string field = kSection + ".counts.";
    // As countsOf computes them: the reduced product's flops, its multiplications (4 per k in
    // naive4p, 1 in the others), A and B read once and C written once.
    const double N = double(c.n), h = N / 2, eb = double(elementSize(c.precision));
    follows(k.flops, 2 * h * h * N, field + "flops");
    follows(k.multiplications, c.variant == Variant::Naive4p ? 4 * h * h * N : h * h * N, field + "multiplications");
    follows(k.footprintBytes, (2 * N * N + h * h) * eb, field + "footprint_bytes");
    // The kernel model's figures: only their ranges.
    inRange(k.threads, 0, std::numeric_limits<std::int64_t>::max(), field + "threads");
    nonNegative(k.loadsPerThread, field + "loads_per_thread");
    nonNegative(k.loadBytesRequested, field + "load_bytes_requested");
}

// The spans against the schedule: one per op; block.i the reference GEMM (0), the variant (1) or
// the clear (2), block.k the call; on the run's one device.
void validateSpans(const Record& r)
{
    const std::int64_t ops = plannedOps(r.config), calls = plannedCalls(r.config);
    if (std::int64_t(r.spans.size()) > ops)
        refuse("spans", "lists " + std::to_string(r.spans.size()) + " spans, more than the " + std::to_string(ops) +
                            " ops the run schedules");
    for (std::size_t s = 0; s < r.spans.size(); ++s) {
        const Span& span = r.spans[s];
        const std::string field = at("spans", s);
        inRange(span.opId, 0, ops - 1, field + ".op_id");
        const bool ours = std::any_of(opKindNames().begin(), opKindNames().end(),
                                      [&](const OpKindName& k) { return k.kind == span.kind; });
        if (!ours)
            refuse(field + ".kind", "is not an op of the reduced matmul family");
        recordcheck::spanBasics(span, field, r.devices.size());
        inRange(span.block.i, kReferenceCall, kClearCall, field + ".block.i");
        inRange(span.block.j, 0, 0, field + ".block.j");
        inRange(span.block.k, 0, calls - 1, field + ".block.k");
    }
    recordcheck::noFaultEvents(r.injections.size(), r.verifications.size(), "reduced matmul");
}

}  // namespace

std::int64_t plannedCalls(const Config& c) { return 1 + std::max(c.reps, 1); }

std::int64_t plannedOps(const Config& c)
{
    const std::int64_t calls = plannedCalls(c);
    const std::int64_t opsPerVariantCall = c.variant == Variant::ReduceBlas ? 2 : 1;  // reduce + GEMM, or the kernel
    // copy in, the reference's reduce and GEMMs, the clear, the variant's calls, copy out
    return 1 + 1 + calls + 1 + calls * opsPerVariantCall + 1;
}

void validateRecord(const Record& r)
{
    validateConfig(r);
    validateTimes(r);
    validateVerdict(r);
    validateCounts(r);
    validateSpans(r);
}

}  // namespace gigacheck::reduced_matmul
