// Blocked GEMM's contract (gigacheck/family.hpp): the Gigacheck report's checked, blocked GEMM
// under a device-memory cap.
#include "families/family_contract.hpp"

#include "families/blocked_gemm/cli/verb.hpp"
#include "families/blocked_gemm/ops.hpp"
#include "gigacheck/blocked_gemm/record.hpp"

#include <array>

namespace gigacheck {
const FamilyCampaign& blockedCampaign();  // its campaigns: campaign/families/
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
                          &contract::reportAs<RunRecord, &formatReport>, kSuites, &command(), &blockedCampaign};
    return f;
}

}  // namespace gigacheck::blocked_gemm
