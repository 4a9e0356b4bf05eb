// The reduced matmul record as JSON: core's envelope (format_version, family "reduced_matmul",
// status, devices, spans, metrics), then the family's section "reduced_matmul", one field table
// for writing and reading (families/gallery_record.hpp).
#include "gigacheck/reduced_matmul.hpp"

#include "families/gallery_record.hpp"
#include "families/reduced_matmul/ops.hpp"
#include "families/reduced_matmul/record/record_validate.hpp"

namespace gigacheck::reduced_matmul {
namespace {

using recordjson::Field;

// The section's fields, in the order they are written; each is read back from the same line.
const auto kSectionFields = std::make_tuple(
    Field{"n", [](auto& r) -> auto& { return r.config.n; }},
    Field{"variant", [](auto& r) -> auto& { return r.config.variant; }},
    Field{"precision", [](auto& r) -> auto& { return r.config.precision; }},
    Field{"backend", [](auto& r) -> auto& { return r.backend; }},
    Field{"reps", [](auto& r) -> auto& { return r.config.reps; }},
    Field{"seed", [](auto& r) -> auto& { return r.config.seed; }},
    Field{"kernel_ms", [](auto& r) -> auto& { return r.kernelMs; }},
    Field{"library_ms", [](auto& r) -> auto& { return r.libraryMs; }},
    Field{"copy_in_ms", [](auto& r) -> auto& { return r.h2dMs; }},
    Field{"copy_out_ms", [](auto& r) -> auto& { return r.d2hMs; }},
    Field{"gflops", [](auto& r) -> auto& { return r.gflops; }},
    Field{"verified", [](auto& r) -> auto& { return r.verified; }},
    Field{"checked", [](auto& r) -> auto& { return r.checked; }},
    Field{"wrong", [](auto& r) -> auto& { return r.wrong; }},
    Field{"max_rel_error", [](auto& r) -> auto& { return r.maxRelError; }},
    Field{"tolerance", [](auto& r) -> auto& { return r.tolerance; }});
// Its "counts" object (Counts).
const auto kCountFields = std::make_tuple(
    Field{"multiplications", [](auto& r) -> auto& { return r.multiplications; }},
    Field{"loads_per_thread", [](auto& r) -> auto& { return r.loadsPerThread; }},
    Field{"threads", [](auto& r) -> auto& { return r.threads; }},
    Field{"load_bytes_requested", [](auto& r) -> auto& { return r.loadBytesRequested; }},
    Field{"footprint_bytes", [](auto& r) -> auto& { return r.footprintBytes; }},
    Field{"flops", [](auto& r) -> auto& { return r.flops; }});

}  // namespace

std::string toJson(const Record& r) { return gallery::recordToJson(r, kSectionFields, kCountFields); }

Record recordFromJson(const std::string& text)
{
    return gallery::recordFromJson(text, kFamilyName, kSectionFields, kCountFields, &validateRecord);
}

Record loadRecord(const std::string& path) { return gallery::loadRecord(path, &recordFromJson); }

}  // namespace gigacheck::reduced_matmul
