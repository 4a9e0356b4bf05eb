// Blocked GEMM's contract (gigacheck/family.hpp): the Gigacheck report's checked, blocked GEMM
// under a device-memory cap.
#include "families/family_contract.hpp"
#include "families/blocked_gemm/run/missed_faults.hpp"

#include "families/blocked_gemm/ops.hpp"
#include "families/blocked_gemm/run/blocked_run.hpp"
#include "gigacheck/blocked_gemm/record.hpp"
#include "gigacheck/blocked_gemm/run.hpp"

#include <array>

namespace gigacheck {
const FamilyCampaign& blockedCampaign();  // its campaigns: its campaign/ folder
// Its verb, `gigacheck run`, also runs the online schemes: it sits above both families
// (families/cli/run/), so it is named here and defined there.
const FamilyCommand& runVerbCommand();
}

namespace gigacheck::blocked_gemm {
namespace {

// runBench tells its five suites apart by options.suite.
constexpr std::array kSuites{
    BenchSuite{"abft-overhead", &runBench}, BenchSuite{"kernels", &runBench},
    BenchSuite{"out-of-core", &runBench},   BenchSuite{"paper", &runBench},
    BenchSuite{"link", &runBench},
    BenchSuite{"multi-gpu-gemm", &runMultiGpuGemmBench, "blocked ABFT GEMM over every visible GPU, against cublasXt"},
};

RecordVerdict verdict(const RecordEnvelope& record)
{
    const RunRecord& r = static_cast<const RunRecord&>(record);
    return {r.verifiedCorrect(), r.notVerified(), "no check that could see a fault ran (--no-abft without a full reference)",
            !r.reference.passed, missedFaultsWords(r)};
}

std::unique_ptr<FamilyRun> configureFromRecord(const RecordEnvelope& record)
{
    const RunRecord& r = static_cast<const RunRecord&>(record);
    if (!r.inputs.empty()) {
        std::string matrices = formatInputsLine(r);  // "Your matrices: A from a.npy (...), B from ...; ..."
        if (const std::size_t colon = matrices.find(": "); colon != std::string::npos)
            matrices = matrices.substr(colon + 2);
        throw InputError("the recorded run multiplied your own matrices (" + matrices +
                         "), and a record keeps their names, not their values: run them again with gigacheck run "
                         "--load-a A.npy --load-b B.npy");
    }
    return std::make_unique<BlockedRun>(r.config);
}

}  // namespace

const Family& familyContract()
{
    static const Family f{kFamilyName, "blocked GEMM", "run", &family, &contract::loadRecordAs<RunRecord, &gigacheck::loadRecord>,
                          &contract::reportAs<RunRecord, &formatReport>, kSuites, &runVerbCommand(), &blockedCampaign,
                          &contract::saveRecordAs<RunRecord, &gigacheck::saveRecord>, &verdict, &configureFromRecord};
    return f;
}

}  // namespace gigacheck::blocked_gemm
