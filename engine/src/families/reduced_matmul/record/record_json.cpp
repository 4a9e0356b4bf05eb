// The reduced matmul record as JSON: core's envelope (format_version, family "reduced_matmul",
// status, devices, spans, metrics), then the family's section "reduced_matmul". The section's
// fields are listed once (sectionFields) for writing and reading.
#include "gigacheck/reduced_matmul.hpp"

#include "core/record/field_io.hpp"
#include "families/gallery/record_file.hpp"
#include "families/reduced_matmul/ops.hpp"
#include "families/reduced_matmul/record/record_validate.hpp"

namespace gigacheck::reduced_matmul {

namespace {

template <class Io, class R> void sectionFields(Io& io, R& r)
{
    auto& c = r.config;
    io("n", c.n);
    io("variant", c.variant);
    io("precision", c.precision);
    io("backend", r.backend);
    io("reps", c.reps);
    io("seed", c.seed);
    io("kernel_ms", r.kernelMs);
    io("library_ms", r.libraryMs);
    io("copy_in_ms", r.h2dMs);
    io("copy_out_ms", r.d2hMs);
    io("gflops", r.gflops);
    io("verified", r.verified);
    io("checked", r.checked);
    io("wrong", r.wrong);
    io("max_rel_error", r.maxRelError);
    io("tolerance", r.tolerance);
    io.object("counts", [&] {
        auto& k = r.counts;
        io("multiplications", k.multiplications);
        io("loads_per_thread", k.loadsPerThread);
        io("threads", k.threads);
        io("load_bytes_requested", k.loadBytesRequested);
        io("footprint_bytes", k.footprintBytes);
        io("flops", k.flops);
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

}  // namespace gigacheck::reduced_matmul
