// The reduced matmul record as JSON (family "reduced_matmul").
#include "gigacheck/reduced_matmul.hpp"
#include "gigacheck/version.hpp"

#include <nlohmann/json.hpp>

namespace gigacheck::reduced_matmul {

std::string toJson(const Record& r)
{
    using nlohmann::json;
    const Counts& c = r.counts;
    const json doc = {
        {"family", "reduced_matmul"},
        {"tool_version", kVersion},
        {"created_at", r.createdAt},
        {"status", r.status},
        {"error", r.error},
        {"backend", r.backend},
        {"device", r.device},
        {"reduced_matmul",
         {{"n", r.config.n},
          {"variant", toString(r.config.variant)},
          {"precision", gigacheck::toString(r.config.precision)},
          {"reps", r.config.reps},
          {"seed", r.config.seed},
          {"kernel_ms", r.kernelMs},
          {"library_ms", r.libraryMs},
          {"h2d_ms", r.h2dMs},
          {"d2h_ms", r.d2hMs},
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
            {"flops", c.flops}}}}},
    };
    return doc.dump(1);
}

}  // namespace gigacheck::reduced_matmul
