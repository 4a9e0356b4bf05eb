// Strassen's contract (gigacheck/family.hpp): the thesis' memory-efficient Strassen and
// Strassen-Winograd, on one or several devices.
#include "families/family_contract.hpp"

#include "families/strassen/cli/verb.hpp"
#include "families/strassen/ops.hpp"
#include "gigacheck/strassen.hpp"

#include <array>

namespace gigacheck {
const FamilyCampaign& strassenCampaign();  // its campaigns: its campaign/ folder
}

namespace gigacheck::strassen {
namespace {

int benchStrassen(const BenchOptions& o, std::ostream& out, std::ostream& err)
{
    return runStrassenBench(o.quick, o.device, o.jsonPath, out, err);
}

int benchMultiGpu(const BenchOptions& o, std::ostream& out, std::ostream& err)
{
    return runMultiGpuStrassenBench(o.quick, o.device, o.jsonPath, out, err);
}

RecordVerdict verdict(const RecordEnvelope& record)
{
    const StrassenResult& r = static_cast<const StrassenResult&>(record);
    const bool notVerified = r.verdict == StrassenVerdict::NotVerified;
    return {r.verdict == StrassenVerdict::Verified, notVerified, notVerified ? strassenNotVerifiedReason(r) : std::string(),
            r.referenceMismatches > 0, {}};
}

std::shared_ptr<const RecordEnvelope> rerun(const RecordEnvelope& record, const RerunOptions& options, const RunHooks& hooks)
{
    StrassenConfig c = static_cast<const StrassenResult&>(record).config;
    c.backend = rerunBackend(record, options);
    c.device = options.device;
    std::unique_ptr<Backend> own;
    Backend* backend = hooks.backend;
    if (!backend) {
        own = makeStrassenBackend(c);
        backend = own.get();
    }
    return std::make_shared<const StrassenResult>(runStrassen(c, *backend, hooks.observer, hooks.cancel));
}

constexpr std::array kSuites{
    BenchSuite{"strassen", &benchStrassen},
    BenchSuite{"multi-gpu-strassen", &benchMultiGpu,
               "the Strassen decompositions on every visible GPU, against one GPU and cuBLAS"},
};

}  // namespace

const Family& familyContract()
{
    static const Family f{kFamilyName,
                          "Strassen",
                          "strassen",
                          &family,
                          &contract::loadRecordAs<StrassenResult, &loadStrassenRecord>,
                          &contract::reportAs<StrassenResult, &formatStrassenReport>,
                          kSuites,
                          &command(),
                          &strassenCampaign,
                          &contract::saveRecordAs<StrassenResult, &saveStrassenRecord>,
                          &verdict,
                          &rerun};
    return f;
}

}  // namespace gigacheck::strassen
