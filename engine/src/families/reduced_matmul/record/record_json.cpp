// The reduced matmul record as JSON: core's envelope (format_version, family "reduced_matmul",
// status, devices, spans, metrics), then the family's section "reduced_matmul".
#include "gigacheck/reduced_matmul.hpp"

#include "core/record/envelope_json.hpp"
#include "families/gallery/record_file.hpp"
#include "families/reduced_matmul/ops.hpp"
#include "families/reduced_matmul/record/record_validate.hpp"

namespace gigacheck::reduced_matmul {

std::string toJson(const Record& r)
{
    using recordjson::Json;
    const Counts& c = r.counts;
    Json section = {
        {"n", r.config.n},
        {"variant", toString(r.config.variant)},
        {"precision", gigacheck::toString(r.config.precision)},
        {"backend", r.backend},
        {"reps", r.config.reps},
        {"seed", r.config.seed},
        {"kernel_ms", r.kernelMs},
        {"library_ms", r.libraryMs},
        {"copy_in_ms", r.h2dMs},
        {"copy_out_ms", r.d2hMs},
        {"gflops", r.gflops},
        {"verified", r.verified},
        {"checked", r.checked},
        {"wrong", r.wrong},
        {"max_rel_error", r.maxRelError},
        {"tolerance", r.tolerance},
        {"counts",
         {{"multiplications", c.multiplications},
          {"loads_per_thread", c.loadsPerThread},
          {"threads", c.threads},
          {"load_bytes_requested", c.loadBytesRequested},
          {"footprint_bytes", c.footprintBytes},
          {"flops", c.flops}}},
    };
    return recordjson::dumpRecord(recordjson::writeRecordDocument(r, std::move(section)), 1);
}

}  // namespace gigacheck::reduced_matmul

namespace gigacheck::reduced_matmul {

Record recordFromJson(const std::string& text)
{
    const recordjson::RecordDocument doc = recordjson::readRecordDocument(text);
    Record r;
    recordjson::readEnvelope(doc.root(), r);
    const recordjson::Node s = recordjson::familySection(doc.root(), kFamilyName);
    r.config.n = s.get<std::int64_t>("n");
    r.config.variant = s.enumeration<Variant>("variant");
    r.config.precision = s.enumeration<Precision>("precision");
    r.config.reps = s.get<int>("reps");
    r.config.seed = s.get<std::uint64_t>("seed");
    r.backend = s.get<std::string>("backend");
    r.kernelMs = s.get<double>("kernel_ms");
    r.libraryMs = s.get<double>("library_ms");
    r.h2dMs = s.get<double>("copy_in_ms");
    r.d2hMs = s.get<double>("copy_out_ms");
    r.gflops = s.get<double>("gflops");
    r.verified = s.get<bool>("verified");
    r.checked = s.get<std::int64_t>("checked");
    r.wrong = s.get<std::int64_t>("wrong");
    r.maxRelError = s.get<double>("max_rel_error");
    r.tolerance = s.get<double>("tolerance");
    const recordjson::Node c = s.child("counts");
    r.counts.multiplications = c.get<double>("multiplications");
    r.counts.loadsPerThread = c.get<double>("loads_per_thread");
    r.counts.threads = c.get<std::int64_t>("threads");
    r.counts.loadBytesRequested = c.get<double>("load_bytes_requested");
    r.counts.footprintBytes = c.get<double>("footprint_bytes");
    r.counts.flops = c.get<double>("flops");
    validateRecord(r);  // nothing uses or prints what the record claims before this
    return r;
}

Record loadRecord(const std::string& path) { return gallery::loadRecordFile(path, &recordFromJson); }

}  // namespace gigacheck::reduced_matmul
