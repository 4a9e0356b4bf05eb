// Blocked GEMM's contract (gigacheck/family.hpp): the Gigacheck report's checked, blocked GEMM
// under a device-memory cap.
#include "families/family_contract.hpp"

#include "families/blocked_gemm/ops.hpp"
#include "gigacheck/blocked_gemm/record.hpp"

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

}  // namespace

const Family& familyContract()
{
    static const Family f{kFamilyName, "blocked GEMM", "run", &family, &contract::loadRecordAs<RunRecord, &gigacheck::loadRecord>,
                          &contract::reportAs<RunRecord, &formatReport>, kSuites, &runVerbCommand(), &blockedCampaign,
                          &contract::saveRecordAs<RunRecord, &gigacheck::saveRecord>};
    return f;
}

}  // namespace gigacheck::blocked_gemm
