// Strassen's contract (gigacheck/family.hpp): the thesis' memory-efficient Strassen and
// Strassen-Winograd, on one or several devices.
#include "families/family_contract.hpp"

#include "families/strassen/cli/verb.hpp"
#include "families/strassen/ops.hpp"
#include "families/strassen/run/strassen_run.hpp"
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
    std::string missed;  // faults C's checks did not see (the run's "missed" check)
    for (const StrassenCheck& k : r.checks)
        if (k.verdict == "missed")
            missed = k.detail;
    return {r.verdict == StrassenVerdict::Verified, notVerified, notVerified ? strassenNotVerifiedReason(r) : std::string(),
            r.referenceMismatches > 0, missed};
}

std::unique_ptr<FamilyRun> configureFromRecord(const RecordEnvelope& record)
{
    return std::make_unique<StrassenRun>(static_cast<const StrassenResult&>(record).config);
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
                          &configureFromRecord};
    return f;
}

}  // namespace gigacheck::strassen
